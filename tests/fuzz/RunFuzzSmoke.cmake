# Runs the dump-reader fuzzer for a bounded time (ctest `fuzz_dump_reader_smoke`):
#   cmake -DFUZZER=... -DSOURCE_ROOT=... -DWORK_DIR=... -DSECONDS=20 -P RunFuzzSmoke.cmake
# The corpus is copied from the checkout (samples, bad samples, test data, regressions, seeds)
# into WORK_DIR/corpus, a fresh directory in the build tree, so fuzzing never writes to the
# source tree. A crash, sanitizer report, leak, timeout or round-trip mismatch fails the test;
# the input that caused it is kept in WORK_DIR/artifacts/.
foreach(var FUZZER SOURCE_ROOT WORK_DIR SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunFuzzSmoke.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT EXISTS "${FUZZER}")
  message(FATAL_ERROR "fuzzer ${FUZZER} is not built; run `cmake --build` on this build directory first")
endif()

set(corpus "${WORK_DIR}/corpus")
set(artifacts "${WORK_DIR}/artifacts")
file(REMOVE_RECURSE "${corpus}")
file(MAKE_DIRECTORY "${corpus}" "${artifacts}")
file(GLOB seeds LIST_DIRECTORIES false
     "${SOURCE_ROOT}/samples/*.fathom.json" "${SOURCE_ROOT}/samples/bad/*"
     "${SOURCE_ROOT}/tests/data/*.json" "${SOURCE_ROOT}/tests/data/fuzz-regressions/*"
     "${SOURCE_ROOT}/tests/fuzz/seeds/*")
set(i 0)
foreach(seed IN LISTS seeds)
  get_filename_component(name "${seed}" NAME)
  # Prefix with a counter: files from different folders may share a name.
  file(COPY_FILE "${seed}" "${corpus}/${i}-${name}")
  math(EXPR i "${i} + 1")
endforeach()
list(LENGTH seeds count)
message(STATUS "fuzzing the dump reader for ${SECONDS} s from ${count} seed files")

execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10
          -dict=${SOURCE_ROOT}/tests/fuzz/dump.dict -artifact_prefix=${artifacts}/
          -print_final_stats=1 "${corpus}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the dump-reader fuzzer failed (exit ${rc}); the input is in ${artifacts}/. "
                      "Fix the bug, then add the input to tests/data/fuzz-regressions/.")
endif()
