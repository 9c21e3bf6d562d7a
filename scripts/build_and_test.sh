#!/usr/bin/env bash
# Builds the library, the profiler and the tests, then runs every test (GoogleTest host and GPU
# tests, the C99 API check, the layout-algebra tests and the generator's pytest suite) with
# ctest. GPU tests skip with a reason when no CUDA device is present.
#
# Environment (all optional):
#   BUILD_DIR                       build folder (default: build)
#   JOBS                            parallel build jobs (default: all cores)
#   CUTLASS_NVCC_ARCHS              e.g. "80;90a" (the default) or "90a"
#   CUTLASS_LIBRARY_KERNELS         kernel name patterns (default: the default set)
#   CUTLASS_LIBRARY_IGNORE_KERNELS  patterns to leave out
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release)
[ -n "${CUTLASS_NVCC_ARCHS:-}" ] && cmake_args+=("-DCUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS}")
cmake_args+=("-DCUTLASS_LIBRARY_KERNELS=${CUTLASS_LIBRARY_KERNELS:-}")
cmake_args+=("-DCUTLASS_LIBRARY_IGNORE_KERNELS=${CUTLASS_LIBRARY_IGNORE_KERNELS:-}")

cmake "${cmake_args[@]}"
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure
