#!/usr/bin/env bash
# A/B of our kernels against each other, robust to the H200's power-state drift: the profiler
# times each kernel's row interleaved with cuBLAS, but two rows run at different moments, and in
# one session the same kernel's ratio to cuBLAS moved 3-6% between runs (docs/NOTES.md, s4). This
# runs PASSES passes over SHAPES, each timing every kernel matched by KERNELS (and cuBLAS), and
# reports per (shape, kernel) the median, minimum and maximum over passes of the ratio to cuBLAS,
# and per shape each kernel's median over passes of its ratio divided by the first kernel's in
# the same pass (> 1: faster than the first kernel). Decide on the medians, and only where the
# spread between passes is smaller than the difference.
#
# Two builds of the same kernels (a branch against main): BUILD_DIR_B names the second build;
# every pass then runs both, in alternating order, and the second build's rows are named
# "<operation> [B]" with "vs A": the median over passes of its ratio over the same kernel's in
# build A in the same pass (> 1: build B faster).
#
# Environment: BUILD_DIR (default build-gpu; must hold cutlass_profiler with the kernels),
# OUT (default ./bench_ab_out), SHAPES (MxNxK list, default "8192x8192x8192 4096x14336x4096"),
# KERNELS (the profiler's --kernels patterns, comma-separated; required), A B C (profiler tensor
# flags, default bf16:row bf16:column bf16:column), EPILOGUE (default none), PASSES (5),
# WARMUP (10), ITERATIONS (50). Verification runs in the first pass only.
# $OUT receives summary.txt and one profiler CSV and log per (pass, shape).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/bench_ab_out}
[ -n "${KERNELS:-}" ] || { echo "bench_ab.sh: set KERNELS (the profiler's --kernels patterns)" >&2; exit 2; }
mkdir -p "$out"

builds=("${BUILD_DIR:-build-gpu}")
[ -n "${BUILD_DIR_B:-}" ] && builds+=("$BUILD_DIR_B")
if [ -z "${SUMMARIZE_ONLY:-}" ]; then
  for build in "${builds[@]}"; do
    [ -x "$build/src/profiler/cutlass_profiler" ] ||
      { echo "bench_ab.sh: no profiler at $build/src/profiler/cutlass_profiler (set BUILD_DIR / BUILD_DIR_B)" >&2; exit 1; }
  done
  status=0
  for pass in $(seq 1 "${PASSES:-5}"); do
    verify=false
    [ "$pass" = 1 ] && verify=true
    order=(0 1)
    [ $((pass % 2)) = 0 ] && order=(1 0)   # A first in odd passes, B first in even ones
    for shape in ${SHAPES:-8192x8192x8192 4096x14336x4096}; do
      IFS=x read -r m n k <<< "$shape"
      for which in "${order[@]}"; do
        [ "$which" -lt "${#builds[@]}" ] || continue
        tag="pass${pass}_${shape}"
        [ "$which" = 1 ] && tag="${tag}_b"
        "${builds[$which]}/src/profiler/cutlass_profiler" --m="$m" --n="$n" --k="$k" --A="${A:-bf16:row}" \
          --B="${B:-bf16:column}" --C="${C:-bf16:column}" \
          --epilogue="${EPILOGUE:-none}" --providers=cutlass,cublas --kernels="$KERNELS" \
          --warmup-iterations="${WARMUP:-10}" --profiling-iterations="${ITERATIONS:-50}" \
          --verification-enabled="$verify" --output="$out/$tag.csv" > "$out/$tag.log" 2>&1 ||
          { echo "pass $pass $shape: profiler exit status $? (see $tag.log)"; status=1; }
      done
    done
  done
fi

# SUMMARIZE_ONLY=1 re-reads the CSVs already in $OUT.
python3 - "$out" > "$out/summary.txt" <<'PY'
import collections, csv, glob, os, re, statistics, sys
out = sys.argv[1]
ratios = collections.defaultdict(dict)   # (shape, operation) -> {pass: ratio to cuBLAS}
order = collections.defaultdict(list)    # shape -> operations in the profiler's order
failed = []
for path in sorted(glob.glob(os.path.join(out, "pass*_*.csv"))):
    pass_number = int(re.match(r"pass(\d+)_", os.path.basename(path)).group(1))
    build_b = path.endswith("_b.csv")   # BUILD_DIR_B's run of the pass
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["Provider"] != "cutlass":
                continue
            if build_b:
                r["Operation"] += " [B]"
            shape = f'{r["m"]}x{r["n"]}x{r["k"]}'
            if r["Disposition"] not in ("passed", "not_verified"):
                failed.append(f'pass {pass_number} {shape} {r["Operation"]}: {r["Disposition"]} {r["Status"]}')
                continue
            try:
                ratio = float(r["ratio_to_cublas"])
            except ValueError:
                continue
            ratios[(shape, r["Operation"])][pass_number] = ratio
            if r["Operation"] not in order[shape]:
                order[shape].append(r["Operation"])
print("ratio = cuBLAS time / ours, interleaved per row (> 1: ours faster); over passes: median [min, max];")
print("vs first = median over passes of (this kernel's ratio / the first kernel's ratio in the same pass)")
for shape, operations in order.items():
    print(f"\n{shape}")
    first = ratios[(shape, operations[0])]
    for op in operations:
        r = ratios[(shape, op)]
        values = sorted(r.values())
        relative = [r[p] / first[p] for p in r if p in first and first[p] > 0]
        vs_first = f"{statistics.median(relative):.3f}" if relative else "-"
        vs_a = ""
        if op.endswith(" [B]") and (shape, op[:-4]) in ratios:   # the same kernel in build A, same pass
            a = ratios[(shape, op[:-4])]
            against_a = [r[p] / a[p] for p in r if p in a and a[p] > 0]
            vs_a = f" vs A {statistics.median(against_a):.3f}" if against_a else ""
        print(f"  {statistics.median(values):.3f} [{values[0]:.3f}, {values[-1]:.3f}] n={len(values)} "
              f"vs first {vs_first}{vs_a}  {op}")
for line in failed:
    print("FAILED", line)
PY
cat "$out/summary.txt"
exit "${status:-0}"
