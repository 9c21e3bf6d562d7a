#!/usr/bin/env bash
# Configures the build folder for build_and_test.sh and run_profiler.sh (sourced; sets build_dir
# and jobs). scripts/setup.sh first installs what is missing (Python packages into ./.venv, cmake /
# ninja / GoogleTest where absent) or stops with the command that does. The kernel filters are
# always passed, so the folder builds what the environment says now (unset: the default set,
# nothing ignored), not what an earlier run left in its cache; CUTLASS_NVCC_ARCHS is passed only
# when set (unset: the cached value, first time "80;90a"). A new folder uses Ninja; an existing one
# keeps the generator it was made with.
# Input: tests (ON: build the tests, as build_and_test.sh does; "cached": the folder's own
# setting, OFF for a new folder, as run_profiler.sh does).
# Environment (all optional):
#   BUILD_DIR                       build folder (default: build)
#   JOBS                            parallel build jobs (default: all cores)
#   CUTLASS_NVCC_ARCHS              e.g. "80;90a" (the default) or "90a"
#   CUTLASS_LIBRARY_KERNELS         kernel name patterns (default: the default set)
#   CUTLASS_LIBRARY_IGNORE_KERNELS  patterns to leave out
build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "JOBS='$jobs': expected a positive number of build jobs" >&2; exit 1; }
tests=${tests:-ON}
if [ "$tests" = cached ]; then
  tests=$(sed -n 's/^CUTLASS_ENABLE_TESTS:BOOL=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
  tests=${tests:-OFF}
fi
setup_tests=0
[ "$tests" = ON ] && setup_tests=1
source scripts/setup.sh
cmake_args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "-DPython3_EXECUTABLE=$python" "-DCUTLASS_ENABLE_TESTS=$tests")
[ -f "$build_dir/CMakeCache.txt" ] || cmake_args+=(-G Ninja)
[ -n "${CUTLASS_NVCC_ARCHS:-}" ] && cmake_args+=("-DCUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS}")
cmake_args+=("-DCUTLASS_LIBRARY_KERNELS=${CUTLASS_LIBRARY_KERNELS:-}")
cmake_args+=("-DCUTLASS_LIBRARY_IGNORE_KERNELS=${CUTLASS_LIBRARY_IGNORE_KERNELS:-}")
echo "configure: $build_dir, kernels '${CUTLASS_LIBRARY_KERNELS:-}' (empty: the default set)," \
     "ignored '${CUTLASS_LIBRARY_IGNORE_KERNELS:-}', tests $tests"
cmake "${cmake_args[@]}"
