# Runs TEST, a GoogleTest exported by `fathom export --as gtest` from a fixture that carries a bug,
# and passes only when it FAILS (the exported test asserts the correct behaviour) with output
# matching the regular expression EXPECT, so a failure for another reason does not pass.
#   cmake -DTEST=path/to/exported_test -DEXPECT=regex -P RunExpectingFailure.cmake
execute_process(COMMAND ${TEST} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
set(all "${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "${TEST} passed, but its fixture carries a bug it must fail on:\n${all}")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "${TEST} failed (${rc}), but its output does not match '${EXPECT}':\n${all}")
endif()
message(STATUS "${TEST} failed as expected (${rc}), matching '${EXPECT}'")
