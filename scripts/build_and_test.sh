#!/usr/bin/env bash
# Builds the library, the profiler and the tests, then runs every test (GoogleTest host and GPU
# tests, the C99 API check, the layout-algebra tests and the generator's pytest suite) with
# ctest. GPU tests skip with a reason when no CUDA device is present.
#
# Environment (all optional): BUILD_DIR, JOBS, CUTLASS_NVCC_ARCHS, CUTLASS_LIBRARY_KERNELS,
# CUTLASS_LIBRARY_IGNORE_KERNELS (scripts/configure.sh says what each does).
set -euo pipefail
cd "$(dirname "$0")/.."

tests=ON
source scripts/configure.sh
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs"
