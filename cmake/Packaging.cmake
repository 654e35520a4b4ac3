# `cpack -G DEB` (run in the build folder after building fathom_installed): two Debian packages
# from the install components of cmake/Install.cmake, for /usr:
#   fathom      the programs, man pages, bash completion, the PyTorch exporter, sample dumps;
#               Depends computed by dpkg-shlibdeps from the programs' libraries
#   fathom-dev  headers, static libraries and FathomConfig.cmake; Depends on fathom (same
#               version) and nlohmann-json3-dev (the only -dev package the public headers need)
# tests/fresh-machine/deb.sh installs them on a minimal Debian 12 root and uses them there.
set(FATHOM_PACKAGE_MAINTAINER "Fathom developers <fathom@localhost>" CACHE STRING
    "The .deb's Maintainer field: NAME <EMAIL>")

# Everything `cmake --install` copies, so one target builds what the packages need (the full
# build also makes the tests and benchmarks, which nothing installs).
add_custom_target(fathom_installed DEPENDS fathom fathom_engine fathom_minifier fathom_samples fathom_cli_docs fathom_demo_ops fathom_nan_check fathom_faulty_backends)
if(TARGET fathom-gui)
  add_dependencies(fathom_installed fathom-gui)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fathom)
set(CPACK_PACKAGE_VENDOR "Fathom")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "debugger and minifier for tensor-program compilers")
set(CPACK_PACKAGE_CONTACT "${FATHOM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # also the static libraries' debug info (cmake/Install.cmake)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fathom_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME fathom)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "Fathom finds out why a compiled tensor program goes wrong and shrinks it to the smallest program
that still goes wrong: dumps of PyTorch-style graphs with real strides, a debug interpreter that
checks every node's recorded meta, a compiling backend (LLVM), Z3 over shape guards, a
delta-debugging minifier, and fathom-gui, a Qt viewer. The fathom_torch Python package exports
PyTorch models (python3 -m fathom_torch).")
# The exporter and the torch predicate run Debian's python3 with torch; the min-cut partitioner
# wants networkx, the model zoo torchvision; `minify --launcher slurm` runs srun.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "python3, python3-torch, python3-numpy")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "python3-networkx, python3-torchvision, slurm-client")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME fathom-dev)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEVELOPMENT_DEPENDS runtime)  # fathom (= version)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "nlohmann-json3-dev (>= 3.11)")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# CPackDeb puts the summary above a component's description.
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "Headers, static libraries and the CMake package of Fathom, for programs and
plugins built against it: find_package(Fathom REQUIRED) gives Fathom::engine, Fathom::minifier,
Fathom::samples and Fathom::plugin.")

include(CPack)
