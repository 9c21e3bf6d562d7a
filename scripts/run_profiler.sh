#!/usr/bin/env bash
# Builds the library and cutlass_profiler, then runs the profiler's default problem
# (bf16 4096x4096x4096, TN) on every fitting kernel and cuBLAS, verified against cuBLAS and the
# device reference. Extra arguments go to the profiler (e.g. --m=8192 --n=8192 --k=8192).
# Environment: BUILD_DIR, JOBS, CUTLASS_NVCC_ARCHS, CUTLASS_LIBRARY_KERNELS,
# CUTLASS_LIBRARY_IGNORE_KERNELS (scripts/configure.sh says what each does).
set -euo pipefail
cd "$(dirname "$0")/.."

tests=cached   # the profiler needs neither GoogleTest nor pytest; a folder with tests keeps them
source scripts/configure.sh
cmake --build "$build_dir" -j "$jobs" --target cutlass_profiler
"$build_dir/src/profiler/cutlass_profiler" "$@"
