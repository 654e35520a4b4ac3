# Compiler setup shared by every target: ccache, warnings, and the sanitizer build.
#
# Compile commands carry no absolute path of the checkout, so a clone elsewhere (CI's fresh clone)
# hits the cache this machine filled: ccache rewrites paths under the source root to relative ones
# (base_dir) and does not hash the build directory (hash_dir), and -ffile-prefix-map makes
# __FILE__ / std::source_location relative too ("samples/models/BertModel.cpp:88", which is also
# what provenance should say). Paths the code needs at run time come from one small file each
# (tests/TestDataDir.cpp), not from -D flags on every file.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(_ccache ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=true ${CCACHE_PROGRAM})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_ccache})
  set(CMAKE_C_COMPILER_LAUNCHER ${_ccache})
endif()

add_compile_options(-Wall -Wextra -Wno-unused-parameter -ffile-prefix-map=${PROJECT_SOURCE_DIR}/=)

# FATHOM_SANITIZE=ON builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# (`./fathom test --sanitize` uses its own build directory for it).
option(FATHOM_SANITIZE "Build with ASan + UBSan" OFF)
# -O1 -g1, as ASan's own documentation suggests: g++ compiles the instrumented tree about twice
# as fast as at RelWithDebInfo's -O2 -g (measured on engine/ops/families/PoolingOps.cpp: 11.6 s
# against 25.1 s), which keeps a cold CI run (no ccache after a change of machine) inside its
# limit; line tables are all a report's stack trace needs.
if(FATHOM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1 -g1)
  add_link_options(-fsanitize=address,undefined)
endif()
