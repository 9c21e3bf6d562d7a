#!/usr/bin/env bash
# Configures the build folder for build_and_test.sh and run_profiler.sh (sourced; sets
# build_dir and jobs). scripts/setup.sh first installs what is missing (Python packages into
# ./.venv, cmake / ninja / GoogleTest where absent) or stops with the command that does. The
# kernel filters are always passed, so the folder builds what the environment says now (unset:
# the default set, nothing ignored), not what an earlier run left in its cache;
# CUTLASS_NVCC_ARCHS is passed only when set (unset: the cached value, first time "80;90a").
# Environment (all optional):
#   BUILD_DIR                       build folder (default: build)
#   JOBS                            parallel build jobs (default: all cores)
#   CUTLASS_NVCC_ARCHS              e.g. "80;90a" (the default) or "90a"
#   CUTLASS_LIBRARY_KERNELS         kernel name patterns (default: the default set)
#   CUTLASS_LIBRARY_IGNORE_KERNELS  patterns to leave out
source scripts/setup.sh
build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "JOBS='$jobs': expected a positive number of build jobs" >&2; exit 1; }
cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DPython3_EXECUTABLE=$python")
[ -n "${CUTLASS_NVCC_ARCHS:-}" ] && cmake_args+=("-DCUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS}")
cmake_args+=("-DCUTLASS_LIBRARY_KERNELS=${CUTLASS_LIBRARY_KERNELS:-}")
cmake_args+=("-DCUTLASS_LIBRARY_IGNORE_KERNELS=${CUTLASS_LIBRARY_IGNORE_KERNELS:-}")
cmake "${cmake_args[@]}"
