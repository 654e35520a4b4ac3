# fathom_link_dependencies(OUT TARGETS...): CMake text for FathomConfig.cmake that defines each
# imported target the engine links privately (simdjson::simdjson, BLAS::BLAS, LLVM, PkgConfig::Z3)
# as a link to its shared library by SONAME (-l:libz3.so.4). A consumer of the static libraries
# needs them at link time only; the SONAME files come with the runtime packages fathom depends
# on, so neither llvm-19-dev nor libz3-dev nor libopenblas-dev is needed to build against Fathom.
# A target the consumer already has (its own find_package) is left as it is.
function(fathom_link_dependencies out)
  set(text "")
  foreach(target IN LISTS ARGN)
    if(NOT TARGET ${target})
      continue()
    endif()
    _fathom_library_files(${target} files)
    set(links "")
    foreach(file IN LISTS files)
      execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${file} OUTPUT_VARIABLE dynamic ERROR_QUIET)
      if(NOT dynamic MATCHES "SONAME +([^\n ]+)")
        message(FATAL_ERROR "FathomDependencies: no SONAME in ${file} (of ${target}); a shared library was expected")
      endif()
      list(APPEND links "-l:${CMAKE_MATCH_1}")
    endforeach()
    string(APPEND text "if(NOT TARGET ${target})\n"
                       "  add_library(${target} INTERFACE IMPORTED)\n"
                       "  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES \"${links}\")\n"
                       "endif()\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The .so files behind an imported target: its location, or (pkg-config and FindBLAS targets)
# the paths it links.
function(_fathom_library_files target out)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(files ${target} INTERFACE_LINK_LIBRARIES)
  else()
    get_target_property(files ${target} IMPORTED_LOCATION)
    if(NOT files)
      get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
      list(GET configs 0 config)
      get_target_property(files ${target} IMPORTED_LOCATION_${config})
    endif()
  endif()
  list(FILTER files INCLUDE REGEX "\\.so(\\.[0-9.]+)?$")
  set(${out} ${files} PARENT_SCOPE)
endfunction()
