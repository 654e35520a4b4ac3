# Finds what Fathom needs. Required: nlohmann/json, simdjson, CLI11, OpenBLAS, GoogleTest, Threads.
# Optional parts are options that default to ON when their packages are found; the summary at
# the end of configure says what is enabled.
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED CONFIG)
find_package(simdjson 3.0 REQUIRED CONFIG)  # reading dumps; nlohmann writes them
find_package(CLI11 REQUIRED CONFIG)
set(BLA_VENDOR OpenBLAS)
find_package(BLAS REQUIRED)
find_package(GTest 1.12 REQUIRED CONFIG)
find_package(benchmark CONFIG QUIET)
find_package(PkgConfig REQUIRED)

# Optional: Z3 (guard analysis), LLVM 19 (JIT backend), Qt 6 + Graphviz (GUI), CUDA, readline.
pkg_check_modules(Z3 QUIET IMPORTED_TARGET z3)
option(FATHOM_WITH_Z3 "Z3 guard analysis" ${Z3_FOUND})

find_program(LLVM_CONFIG_19 llvm-config-19)
set(_llvm_found OFF)
if(LLVM_CONFIG_19)
  execute_process(COMMAND ${LLVM_CONFIG_19} --cmakedir OUTPUT_VARIABLE LLVM19_CMAKE_DIR
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  find_package(LLVM CONFIG QUIET HINTS ${LLVM19_CMAKE_DIR} NO_DEFAULT_PATH)
  if(LLVM_FOUND AND LLVM_VERSION_MAJOR EQUAL 19)
    set(_llvm_found ON)
  endif()
endif()
option(FATHOM_WITH_LLVM "LLVM JIT backend" ${_llvm_found})

find_package(Qt6 6.4 QUIET COMPONENTS Widgets Svg SvgWidgets Concurrent)
pkg_check_modules(GVC QUIET IMPORTED_TARGET libgvc libcgraph)
set(_gui_found OFF)
if(Qt6_FOUND AND GVC_FOUND)
  set(_gui_found ON)
endif()
option(FATHOM_WITH_GUI "Qt 6 GUI with Graphviz layouts" ${_gui_found})

include(CheckLanguage)
check_language(CUDA)
find_package(CUDAToolkit QUIET)
set(_cuda_found OFF)
if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
  set(_cuda_found ON)
endif()
option(FATHOM_WITH_CUDA "CUDA kernels (used only when a GPU is present at run time)" ${_cuda_found})

# GNU readline: line editing and history for `fathom step` on a terminal (else std::getline).
find_path(READLINE_INCLUDE_DIR readline/readline.h)
find_library(READLINE_LIBRARY readline)
set(_readline_found OFF)
if(READLINE_INCLUDE_DIR AND READLINE_LIBRARY)
  set(_readline_found ON)
endif()
option(FATHOM_WITH_READLINE "GNU readline for the interactive stepper" ${_readline_found})

# libFuzzer needs clang; the fuzz target is built as a separate clang project (tests/fuzz).
find_program(FATHOM_CLANG_CXX NAMES clang++-14 clang++)

message(STATUS "Fathom ${PROJECT_VERSION} configuration:")
message(STATUS "  build type       ${CMAKE_BUILD_TYPE}")
message(STATUS "  sanitizers       ${FATHOM_SANITIZE}")
message(STATUS "  Z3 guards        ${FATHOM_WITH_Z3}")
message(STATUS "  LLVM JIT         ${FATHOM_WITH_LLVM}")
message(STATUS "  Qt GUI           ${FATHOM_WITH_GUI}")
message(STATUS "  CUDA             ${FATHOM_WITH_CUDA}")
message(STATUS "  readline         ${FATHOM_WITH_READLINE}")
message(STATUS "  benchmarks       ${benchmark_FOUND}")
if(FATHOM_CLANG_CXX)
  message(STATUS "  libFuzzer clang  ${FATHOM_CLANG_CXX}")
else()
  message(STATUS "  libFuzzer clang  not found (clang-14; the fuzz smoke test is skipped)")
endif()
