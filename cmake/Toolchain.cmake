# Compiler setup shared by every target: ccache, warnings, and the sanitizer build.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
  set(CMAKE_C_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
endif()

add_compile_options(-Wall -Wextra -Wno-unused-parameter)

# FATHOM_SANITIZE=ON builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# (`./fathom test --sanitize` uses its own build directory for it).
option(FATHOM_SANITIZE "Build with ASan + UBSan" OFF)
if(FATHOM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
