#!/usr/bin/env bash
# Replays the handle's kernel selection over a recorded `cutlass_bench --details` file on this
# machine (no GPU needed): builds cutlass_selection_replay (test/library/selection_replay.cpp)
# against the default set's plain kernels of one input type, then runs it on the file. A way to
# try a cost-model change (src/library/gemm_selection.cpp) against measured kernel times before a
# device run: edit, rerun (the rebuild is one object and a link).
#
#   scripts/replay_selection.sh <details file> [dtype]     (dtype: bf16 (default) or f16)
#
# Environment: BUILD_DIR (default build-replay), JOBS (default: all cores). The first build
# compiles ~76 kernels (about 12 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
details=${1:?usage: scripts/replay_selection.sh <details file> [bf16|f16]}
dtype=${2:-bf16}
case "$dtype" in bf16 | f16) ;; *) echo "dtype '$dtype': bf16 or f16" >&2; exit 2 ;; esac
export BUILD_DIR=${BUILD_DIR:-build-replay}

# The default set's plain kernels that take $dtype operands (16-bit outputs, the f32-output
# split-K slices, the sm80 and skinny tiles, the GEMV): the candidates of a --dtypes=$dtype suite.
setup_tests=1 source scripts/setup.sh   # sets $python (the generator's interpreter)
ignore="_epi_tma_,cutlass_*_epi_,grouped"
defaults=$("$python" -m generator --architectures 90a --kernels default --ignore-kernels "$ignore" --list)
kernels=$(echo "$defaults" | grep -E "_${dtype}_${dtype}_f32_|_s16816gemm_${dtype}_|${dtype}_s16816gemm_${dtype}_|sgemv_${dtype}_" |
          tr '\n' ',' | sed 's/,$//')
CUTLASS_NVCC_ARCHS=90a CUTLASS_LIBRARY_KERNELS="$kernels" CUTLASS_LIBRARY_IGNORE_KERNELS="$ignore" tests=ON \
  source scripts/configure.sh
cmake --build "$build_dir" -j "$jobs" --target cutlass_selection_replay
"$build_dir/test/cutlass_selection_replay" "$details"
