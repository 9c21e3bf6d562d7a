#!/usr/bin/env bash
# Builds the library and cutlass_profiler, then runs the profiler's default problem
# (bf16 4096x4096x4096, TN) on every fitting kernel and cuBLAS, verified against cuBLAS and the
# device reference. Extra arguments go to the profiler (e.g. --m=8192 --n=8192 --k=8192).
# Environment: BUILD_DIR, JOBS, CUTLASS_NVCC_ARCHS, CUTLASS_LIBRARY_KERNELS as in build_and_test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release)
[ -n "${CUTLASS_NVCC_ARCHS:-}" ] && cmake_args+=("-DCUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS}")
cmake_args+=("-DCUTLASS_LIBRARY_KERNELS=${CUTLASS_LIBRARY_KERNELS:-}")

cmake "${cmake_args[@]}"
cmake --build "$build_dir" -j "$jobs" --target cutlass_profiler
"$build_dir/src/profiler/cutlass_profiler" "$@"
