# Debian packages: `cpack -G DEB` in the build folder writes one .deb per install component.
#   libcutlass-lib0     (runtime)  libcutlass_lib.so.0, .so.0.1.0
#   libcutlass-lib-dev  (dev)      headers, the libcutlass_lib.so link, CMake package, cutlass_lib.pc,
#                                  manifest.json, cutlass_profiler; depends on libcutlass-lib0 (= version)
# Files go under CMAKE_INSTALL_PREFIX, as in `cmake --install`, so the .pc file's prefix is right;
# configure with -DCMAKE_INSTALL_PREFIX=/usr for Debian-style paths (lib/<multiarch>, and CPack
# then adds ldconfig to the runtime package's postinst/postrm).
#
# The CUDA runtime is a dependency, but a toolkit installed from NVIDIA's tarball or runfile is
# unknown to dpkg, so dpkg-shlibdeps cannot name its package: the names are cache variables.
# Their defaults accept NVIDIA's repository package of the toolkit this build used
# (cuda-cudart-13-0 for 13.0) or Debian's soname-named one (libcudart13); set them empty to
# build packages without CUDA dependencies (for a machine whose toolkit dpkg does not know).
set(_cuda_pkg "${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
set(CUTLASS_LIB_DEB_CUDA_DEPENDS "cuda-cudart-${_cuda_pkg} | libcudart${CUDAToolkit_VERSION_MAJOR}" CACHE STRING
    "Depends: of the libcutlass-lib0 package (the CUDA runtime); empty = none")
set(_dev_depends "cuda-cudart-dev-${_cuda_pkg} | nvidia-cuda-dev")
if(CUTLASS_ENABLE_PROFILER AND CUTLASS_ENABLE_CUBLAS)
  string(APPEND _dev_depends ", libcublas-${_cuda_pkg} | libcublas${CUDAToolkit_VERSION_MAJOR}")
endif()
set(CUTLASS_LIB_DEB_DEV_CUDA_DEPENDS "${_dev_depends}" CACHE STRING
    "CUDA part of the libcutlass-lib-dev package's Depends: (runtime headers; cuBLAS for the profiler); empty = none")
set(CPACK_PACKAGE_CONTACT "cutlass_lib maintainers" CACHE STRING "Maintainer: field of the Debian packages")

set(CPACK_PACKAGE_NAME cutlass_lib)
set(CPACK_PACKAGE_VENDOR cutlass_lib)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "${PROJECT_DESCRIPTION} (shared library)")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "${PROJECT_DESCRIPTION} (headers, CMake and pkg-config files, kernel manifest, cutlass_profiler)")
set(CPACK_COMPONENT_DEV_DEPENDS runtime)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "libcutlass-lib${PROJECT_VERSION_MAJOR}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "${CUTLASS_LIB_DEB_CUDA_DEPENDS}")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libcutlass-lib-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${CUTLASS_LIB_DEB_DEV_CUDA_DEPENDS}")

# The shlibs control file, and the ldconfig calls in postinst/postrm, come from CPack's scan of the
# packaged files with the `file` program; without it the packages still build, without both.
find_program(CUTLASS_LIB_FILE_PROGRAM file)
if(CUTLASS_LIB_FILE_PROGRAM)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
else()
  message(STATUS "cutlass_lib: no 'file' program: the .deb packages get no shlibs file and no ldconfig calls")
endif()

include(CPack)
