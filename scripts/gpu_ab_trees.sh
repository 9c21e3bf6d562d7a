#!/usr/bin/env bash
# A/B of two source trees of this project (e.g. main and a branch, each unpacked with
# `git archive <rev> | tar -x -C <dir>`) on one GPU machine: builds both with the same kernel
# list, runs the whole ctest suite of tree B (the candidate), then times the same kernels of
# both builds with scripts/bench_ab.sh (BUILD_DIR_B), each pass running both builds in
# alternating order.
#
# Usage: gpu_ab_trees.sh <tree A> <tree B>
# Environment: KERNELS (CUTLASS_LIBRARY_KERNELS for both builds, and the profiler's --kernels;
# required), OUT (logs; default ./gpu_ab_out), TESTS (1: run tree B's ctest, the default),
# CUTLASS_NVCC_ARCHS (default 90a), and bench_ab.sh's SHAPES, EPILOGUE, PASSES, WARMUP,
# ITERATIONS, A, B, C. Build folders: build-ab-<tree folder name> in the current folder (outside
# the trees, so that a device call that re-copies the trees keeps them).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: gpu_ab_trees.sh <tree A> <tree B>" >&2; exit 2; }
[ -n "${KERNELS:-}" ] || { echo "gpu_ab_trees.sh: set KERNELS" >&2; exit 2; }
tree_a=$(cd "$1" && pwd)
tree_b=$(cd "$2" && pwd)
out=$(mkdir -p "${OUT:-gpu_ab_out}" && cd "${OUT:-gpu_ab_out}" && pwd)
start=$(date +%s)

build_a="$PWD/build-ab-$(basename "$tree_a")"
build_b="$PWD/build-ab-$(basename "$tree_b")"
[ "$build_a" != "$build_b" ] || { echo "gpu_ab_trees.sh: the trees need different folder names" >&2; exit 2; }

for tree in "$tree_a" "$tree_b"; do
  name=$(basename "$tree")
  build="$PWD/build-ab-$name"
  cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCUTLASS_NVCC_ARCHS="${CUTLASS_NVCC_ARCHS:-90a}" -DCUTLASS_LIBRARY_KERNELS="$KERNELS" \
        > "$out/configure_$name.log" 2>&1 || { tail -20 "$out/configure_$name.log"; exit 1; }
  cmake --build "$build" -j "$(nproc)" > "$out/build_$name.log" 2>&1 ||
    { grep -E "error|FAILED" "$out/build_$name.log" | head -20; exit 1; }
  echo "$name: built ($(grep -o '[0-9]* kernels selected' "$out/configure_$name.log")) at $(( $(date +%s) - start )) s"
  grep -iE "[1-9][0-9]* bytes spill" "$out/build_$name.log" | sort | uniq -c | head -5
done

if [ "${TESTS:-1}" = 1 ]; then
  ctest --test-dir "$build_b" --output-on-failure -j 4 --timeout 300 > "$out/ctest_b.log" 2>&1
  grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|Timeout" "$out/ctest_b.log" | tail -20
  echo "tests done at $(( $(date +%s) - start )) s"
fi

# bench_ab.sh prints any profiler failure, then the summary (also in $out/ab/summary.txt)
BUILD_DIR="$build_a" BUILD_DIR_B="$build_b" OUT="$out/ab" KERNELS="$KERNELS" \
  bash "$tree_b/scripts/bench_ab.sh"
echo "done at $(( $(date +%s) - start )) s"
