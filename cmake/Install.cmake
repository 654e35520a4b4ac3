# `cmake --install` (GNUInstallDirs layout): the programs, their man pages and bash completion, the
# PyTorch exporter, and for building against Fathom the static libraries, the public headers and
# FathomConfig.cmake (find_package(Fathom): Fathom::engine, Fathom::minifier, Fathom::samples,
# Fathom::plugin). Two install components, which cmake/Packaging.cmake makes two .debs:
#   runtime      bin/fathom, bin/fathom-gui, man pages, completion, the Python exporter
#   development  lib/*.a, include/fathom/..., lib/cmake/Fathom (tests/install checks it all)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FATHOM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Fathom CACHE STRING "Where FathomConfig.cmake goes")
# Debian's python3 looks in /usr/lib/python3/dist-packages (not the multiarch libdir): with the
# prefix /usr, `python3 -m fathom_torch` works as installed; another prefix needs PYTHONPATH.
set(FATHOM_INSTALL_PYTHONDIR lib/python3/dist-packages CACHE STRING "Where the fathom_torch package goes")

# --- The programs, and what is generated from their --help (cmake/GenerateCliDocs.sh) --------
install(TARGETS fathom RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
set(_programs fathom)
if(TARGET fathom-gui)
  # fathom-gui runs `fathom minify` from its own folder (--minify): both go to bin.
  install(TARGETS fathom-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  list(APPEND _programs fathom-gui)
endif()
set(_docs_dir ${PROJECT_BINARY_DIR}/cli-docs)
set(_docs)
foreach(_p IN LISTS _programs)
  add_custom_command(OUTPUT ${_docs_dir}/${_p}.1 ${_docs_dir}/${_p}.bash
    COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.sh $<TARGET_FILE:${_p}> ${_p} ${PROJECT_VERSION} ${_docs_dir}
    DEPENDS ${_p} ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.sh
    COMMENT "${_p}: man page and bash completion from its --help")
  list(APPEND _docs ${_docs_dir}/${_p}.1 ${_docs_dir}/${_p}.bash)
  install(FILES ${_docs_dir}/${_p}.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
  install(FILES ${_docs_dir}/${_p}.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME ${_p} COMPONENT runtime)
endforeach()
add_custom_target(fathom_cli_docs ALL DEPENDS ${_docs})

# --- The PyTorch exporter (plugins/pytorch/fathom_torch), and the sample dumps and the schema --
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/pytorch/fathom_torch DESTINATION ${FATHOM_INSTALL_PYTHONDIR}
        COMPONENT runtime PATTERN __pycache__ EXCLUDE PATTERN README.md EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/samples/mlp.fathom.json ${PROJECT_SOURCE_DIR}/samples/bert.fathom.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fathom/samples COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/engine/dump/fathom-dump.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fathom COMPONENT runtime)

# --- The in-tree plugins (plugins/demo_ops, plugins/nan_check): lib/fathom/plugins, for --plugin --
install(TARGETS fathom_demo_ops fathom_nan_check fathom_faulty_backends LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/fathom/plugins COMPONENT runtime)

# --- Public headers: include/fathom/engine/..., as the sources include them ("engine/...") ----
# A header that includes LLVM, Qt or Z3 is the library's business alone (STYLE.md, Layering):
# it stays out, so building against Fathom needs none of their -dev packages.
file(GLOB_RECURSE _headers RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/engine/*.h ${PROJECT_SOURCE_DIR}/minifier/*.h ${PROJECT_SOURCE_DIR}/minifier/*.def
     ${PROJECT_SOURCE_DIR}/samples/*.h ${PROJECT_SOURCE_DIR}/plugins/api/*.h)
foreach(_h IN LISTS _headers)
  file(STRINGS ${PROJECT_SOURCE_DIR}/${_h} _private REGEX "#include <(llvm|llvm-c|z3|Q[A-Za-z]+)[/.>]")
  if(NOT _private)
    get_filename_component(_dir ${_h} DIRECTORY)
    install(FILES ${PROJECT_SOURCE_DIR}/${_h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fathom/${_dir} COMPONENT development)
  endif()
endforeach()

# --- Libraries and their exported targets ------------------------------------------------------
# Static, as the build makes them: fathom and fathom-gui carry the engine, and plugins resolve its
# symbols against them (no libfathom.so to version; see cmake/README.md for the measured trade).
set_target_properties(fathom_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(fathom_minifier PROPERTIES EXPORT_NAME minifier)
set_target_properties(fathom_samples PROPERTIES EXPORT_NAME samples)
# Fathom::plugin: what a plugin compiles against - the headers, FATHOM_VERSION, C++20 - and no
# library: the program that loads the plugin provides the engine.
add_library(fathom_plugin_api INTERFACE)
set_target_properties(fathom_plugin_api PROPERTIES EXPORT_NAME plugin)
target_include_directories(fathom_plugin_api INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/fathom> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(fathom_plugin_api INTERFACE FATHOM_VERSION="${PROJECT_VERSION}")
target_compile_features(fathom_plugin_api INTERFACE cxx_std_20)
install(TARGETS fathom_engine fathom_minifier fathom_samples fathom_plugin_api EXPORT FathomTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(EXPORT FathomTargets NAMESPACE Fathom:: DESTINATION ${FATHOM_INSTALL_CMAKEDIR} COMPONENT development)
# A stripped install (cpack, --strip) drops the static libraries' debug info too (cmake strips
# only programs and shared libraries): 655 MB of engine archive becomes tens of MB.
install(CODE "
  if(CMAKE_INSTALL_DO_STRIP)
    foreach(_a fathom_engine fathom_minifier fathom_samples)
      execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/lib\${_a}.a\")
    endforeach()
  endif()" COMPONENT development)

# The engine's private link dependencies, as a consumer's link needs them (they are shared
# libraries of packages the runtime .deb depends on): cmake/FathomDependencies.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/FathomDependencies.cmake)
fathom_link_dependencies(_link_deps simdjson::simdjson BLAS::BLAS LLVM PkgConfig::Z3)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/FathomConfig.cmake.in ${PROJECT_BINARY_DIR}/FathomConfig.cmake
                              INSTALL_DESTINATION ${FATHOM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/FathomConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/FathomConfig.cmake ${PROJECT_BINARY_DIR}/FathomConfigVersion.cmake
        DESTINATION ${FATHOM_INSTALL_CMAKEDIR} COMPONENT development)
