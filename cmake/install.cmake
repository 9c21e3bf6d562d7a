# Installs the public headers, the CMake package and the pkg-config file (library/ installs
# libcutlass_lib.so and manifest.json, src/profiler/ the profiler). Included from the top-level
# CMakeLists.txt after every target exists.
#
# Installed layout, relative to the prefix (the .deb uses the same one, see cmake/cpack.cmake):
#   <libdir>/libcutlass_lib.so.0.1.0, .so.0, .so      <libdir>/cmake/cutlass_lib/*.cmake
#   <libdir>/pkgconfig/cutlass_lib.pc                  <includedir>/cutlass_lib/{cutlass_lib.h,cutlass,cute}
#   <datadir>/cutlass_lib/manifest.json                <bindir>/cutlass_profiler
#   <docdir> (share/doc/cutlass_lib): README.md, NOTES.md, generator-README.md
include(CMakePackageConfigHelpers)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/" DESTINATION "${CUTLASS_LIB_INSTALL_INCLUDEDIR}" COMPONENT dev
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# ---- CMake package: find_package(cutlass_lib CONFIG) -> cutlass_lib::cutlass_lib ----------------
# Every path in these files is computed relative to their own location, so the installed tree can
# be moved (e.g. unpacked with dpkg -x into another root).
set(_config_dir "${CMAKE_INSTALL_LIBDIR}/cmake/cutlass_lib")
set(CUTLASS_LIB_INSTALL_MANIFEST "${CMAKE_INSTALL_DATADIR}/cutlass_lib/manifest.json")
install(EXPORT cutlass_libTargets NAMESPACE cutlass_lib:: DESTINATION "${_config_dir}" COMPONENT dev)
configure_package_config_file(cmake/cutlass_libConfig.cmake.in "${PROJECT_BINARY_DIR}/cutlass_libConfig.cmake"
                              INSTALL_DESTINATION "${_config_dir}" PATH_VARS CUTLASS_LIB_INSTALL_MANIFEST)
# Same major version = same SOVERSION.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cutlass_libConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/cutlass_libConfig.cmake" "${PROJECT_BINARY_DIR}/cutlass_libConfigVersion.cmake"
        DESTINATION "${_config_dir}" COMPONENT dev)

# ---- pkg-config: cutlass_lib.pc ------------------------------------------------------------------
# The CUDA runtime's include and library folders are the ones FindCUDAToolkit found for this
# build (the comment in cutlass_lib.pc.in says why and how to override them).
list(GET CUDAToolkit_INCLUDE_DIRS 0 CUTLASS_LIB_PC_CUDA_INCLUDEDIR)
set(CUTLASS_LIB_PC_CUDA_LIBDIR "${CUDAToolkit_LIBRARY_DIR}")
# prefix relative to the .pc file's own folder (${pcfiledir}), so a tree installed with
# `cmake --install --prefix` or unpacked elsewhere finds itself; absolute install dirs stay absolute.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CUTLASS_LIB_INSTALL_INCLUDEDIR}")
  set(CUTLASS_LIB_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _pc_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")   # e.g. ../../..
  string(REGEX REPLACE "/$" "" _pc_up "${_pc_up}")
  set(CUTLASS_LIB_PC_PREFIX "\${pcfiledir}/${_pc_up}")
endif()
foreach(_dir LIBDIR INCLUDEDIR)
  set(_value "${CMAKE_INSTALL_${_dir}}")
  if(_dir STREQUAL "INCLUDEDIR")
    set(_value "${CUTLASS_LIB_INSTALL_INCLUDEDIR}")
  endif()
  if(IS_ABSOLUTE "${_value}")
    set(CUTLASS_LIB_PC_${_dir} "${_value}")
  else()
    set(CUTLASS_LIB_PC_${_dir} "\${prefix}/${_value}")
  endif()
endforeach()
configure_file(cmake/cutlass_lib.pc.in "${PROJECT_BINARY_DIR}/cutlass_lib.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cutlass_lib.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)

# ---- documentation: <datadir>/doc/cutlass_lib/ ------------------------------------------------------
# (generator/README.md documents the kernel names and filters packagers choose sets with)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/docs/NOTES.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
        COMPONENT dev)
install(FILES "${PROJECT_SOURCE_DIR}/generator/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT dev
        RENAME generator-README.md)
