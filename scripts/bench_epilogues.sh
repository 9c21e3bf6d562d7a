#!/usr/bin/env bash
# Issue 5's performance targets for fused epilogues, measured with cutlass_profiler on the GPU:
# bf16, TN (A row-major, B column-major), f32 accumulate, C/D bf16 column-major, alpha 1, beta 0,
# at 4096x14336x4096 and 8192x8192x8192, for the plain GEMM, bias+ReLU and bias+GELU (per-row bias,
# cuBLASLt's orientation). Each of our rows (every fitting kernel and the Handle's choice) is timed
# interleaved with
#   cublas   = cublasGemmEx + a separate 16-byte-vectorized bias+activation kernel (unfused_epilogue)
#   cublaslt = cublasLtMatmul with CUBLASLT_EPILOGUE_RELU_BIAS / GELU_BIAS (heuristic algo, 32 MiB workspace)
# and verified against the reference GEMM + elementwise epilogue reference.
# Targets (bias_gelu): ours >= 1.00x cuBLASLt GELU_BIAS and >= 1.15x cuBLAS + separate kernel;
# plain: no loss against the ratios measured before the epilogue work (compare by hand).
#
# Environment: OUT (default ./bench_epilogues_out), BUILD_DIR (default build-gpu), SKIP_BUILD=1 to
# reuse a build, CUTLASS_NVCC_ARCHS (default 90a), CUTLASS_LIBRARY_KERNELS (default: the default
# set, which has the bias_relu / bias_gelu variants of the main bf16 kernels), KERNELS (the
# profiler's --kernels, default all), WARMUP (10), ITERATIONS (50), VERIFY (1; 0 skips the slow
# naive reference at these sizes), EPILOGUES (default "none bias_relu bias_gelu"), SHAPES (default
# "4096x14336x4096 8192x8192x8192").
# $OUT receives bench_epilogues_logs.tar.gz (every log and CSV), summary.txt and summary.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
final=${OUT:-$PWD/bench_epilogues_out}
out="$final/logs"
build_dir=${BUILD_DIR:-build-gpu}
mkdir -p "$out"
trap 'tar czf "$final/bench_epilogues_logs.tar.gz" -C "$out" . && cp "$out"/summary.txt "$out"/summary.csv "$final"/ 2>/dev/null; rm -rf "$out"' EXIT
export CUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS:-90a}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv
  nvcc --version | tail -1
  git log -1 --oneline 2>/dev/null
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  start=$(date +%s)
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS="$CUTLASS_NVCC_ARCHS" \
        -DCUTLASS_LIBRARY_KERNELS="${CUTLASS_LIBRARY_KERNELS:-}" > "$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
  grep "kernels selected" "$out/configure.log"
  cmake --build "$build_dir" -j "$(nproc)" --target cutlass_profiler > "$out/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
  echo "build: $(( $(date +%s) - start )) s"
fi
profiler="$build_dir/src/profiler/cutlass_profiler"
[ -x "$profiler" ] || { echo "no profiler at $profiler (build it, or set BUILD_DIR)"; exit 1; }
verify=true
[ "${VERIFY:-1}" = 0 ] && verify=false

status=0
for shape in ${SHAPES:-4096x14336x4096 8192x8192x8192}; do
  IFS=x read -r m n k <<< "$shape"
  for epilogue in ${EPILOGUES:-none bias_relu bias_gelu}; do
    tag="${shape}_${epilogue}"
    echo "== $shape epilogue=$epilogue"
    "$profiler" --m="$m" --n="$n" --k="$k" --A=bf16:row --B=bf16:column --C=bf16:column \
      --epilogue="$epilogue" --providers=cutlass,handle,cublas --kernels="${KERNELS:-}" \
      --warmup-iterations="${WARMUP:-10}" --profiling-iterations="${ITERATIONS:-50}" \
      --verification-enabled="$verify" --output="$out/profile_${tag}.csv" > "$out/profile_${tag}.log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && { echo "   profiler exit status $rc (see profile_${tag}.log)"; status=1; }
    grep -E "^Summary|FAILED|failed|stopping" "$out/profile_${tag}.log" | head -8
  done
done

# One line per (shape, epilogue, our row): times and both ratios, and the targets' verdict.
python3 - "$out" > "$out/summary.txt" <<'PY'
import csv, glob, os, sys
out = sys.argv[1]
rows = []
for path in sorted(glob.glob(os.path.join(out, "profile_*.csv"))):
    with open(path) as f:
        rows += list(csv.DictReader(f))
def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")
fields = ["m", "n", "k", "epilogue", "provider", "disposition", "ours_ms", "cublas_ms", "cublaslt_ms",
          "ratio_vs_cublas", "ratio_vs_cublaslt", "target", "operation"]
summary = []
for r in rows:
    if r["Provider"] not in ("cutlass", "handle") or r["Disposition"] not in ("passed", "not_verified"):
        continue
    ours, blas, lt = num(r["Runtime"]), num(r["cublas_ms"]), num(r["cublaslt_ms"])
    vs_blas, vs_lt = blas / ours, lt / ours
    target = ""
    if r["epilogue"] == "bias_gelu":
        ok = vs_lt >= 1.00 and vs_blas >= 1.15
        target = "MET" if ok else "MISSED (need >= 1.00x cuBLASLt and >= 1.15x cuBLAS+unfused)"
    summary.append({"m": r["m"], "n": r["n"], "k": r["k"], "epilogue": r["epilogue"], "provider": r["Provider"],
                    "disposition": r["Disposition"], "ours_ms": f"{ours:.4f}", "cublas_ms": f"{blas:.4f}",
                    "cublaslt_ms": f"{lt:.4f}", "ratio_vs_cublas": f"{vs_blas:.3f}",
                    "ratio_vs_cublaslt": f"{vs_lt:.3f}", "target": target, "operation": r["Operation"]})
with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(summary)
print("ratio = their time / ours (> 1: ours faster); cublas = cuBLAS GEMM (+ separate epilogue kernel when fused);")
print("cublaslt = cuBLASLt's fused epilogue (none for the plain GEMM)")
print(f"{'shape':>16} {'epilogue':>10} {'provider':>8} {'ours_ms':>8} {'cublas_ms':>9} {'lt_ms':>8} "
      f"{'vs_cublas':>9} {'vs_lt':>7}  target / operation")
for s in summary:
    shape = f"{s['m']}x{s['n']}x{s['k']}"
    print(f"{shape:>16} {s['epilogue']:>10} {s['provider']:>8} {s['ours_ms']:>8} {s['cublas_ms']:>9} "
          f"{s['cublaslt_ms']:>8} {s['ratio_vs_cublas']:>9} {s['ratio_vs_cublaslt']:>7}  {s['target']} {s['operation']}")
PY
cat "$out/summary.txt"
exit $status
