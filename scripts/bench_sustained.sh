#!/usr/bin/env bash
# Each provider ALONE for seconds at a time, the way a training step runs one GEMM shape over and
# over, with the GPU's SM clock and board power sampled meanwhile. The profiler's usual timing
# interleaves our launches with cuBLAS's, so both share one power state; at the H200's 700 W cap
# a kernel that spends more energy per flop settles at a lower clock when it runs alone, which
# interleaving hides (docs/NOTES.md, 2026-11-29 s3: 1395 vs 1485 MHz, 0.955x vs 1.028x).
#
# Runs, one after another with a pause between: cuBLAS, then every kernel in KERNELS, then cuBLAS
# again (to bound the drift); for each, the median of ITERATIONS CUDA-event-timed launches after
# WARMUP launches (verification off), and the median SM clock / board power / last temperature
# over the last 60% of its nvidia-smi samples (50 ms apart).
#
# Environment: BUILD_DIR (default build-gpu; must hold cutlass_profiler with the kernels built),
# OUT (default ./bench_sustained_out), M N K (default 8192 each), A B C (profiler tensor flags,
# default bf16:row bf16:column bf16:column), KERNELS (space-separated full kernel names; default:
# the handle's choice, "handle"), WARMUP (300), ITERATIONS (1500).
# $OUT receives summary.txt, smi.csv, marks.txt and one profiler log per run.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/bench_sustained_out}
profiler="${BUILD_DIR:-build-gpu}/src/profiler/cutlass_profiler"
mkdir -p "$out"
: > "$out/marks.txt"
[ -x "$profiler" ] || { echo "bench_sustained.sh: no profiler at $profiler (set BUILD_DIR)" >&2; exit 1; }
command -v nvidia-smi > /dev/null || { echo "bench_sustained.sh: nvidia-smi not found" >&2; exit 1; }

problem=(--m="${M:-8192}" --n="${N:-8192}" --k="${K:-8192}" --A="${A:-bf16:row}" --B="${B:-bf16:column}"
         --C="${C:-bf16:column}" --verification-enabled=false --warmup-iterations="${WARMUP:-300}"
         --profiling-iterations="${ITERATIONS:-1500}")

nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 50 > "$out/smi.csv" &
smi=$!
trap 'kill $smi 2> /dev/null' EXIT

run=0
for name in cublas ${KERNELS:-handle} cublas; do
  run=$((run + 1))
  case $name in
    cublas) args=(--providers=cublas) ;;
    handle) args=(--providers=handle) ;;
    *) args=(--providers=cutlass --kernels="$name") ;;
  esac
  log="$out/run_${run}.log"
  echo "start $run $name $(date +%s.%N)" >> "$out/marks.txt"
  "$profiler" "${problem[@]}" "${args[@]}" > "$log" 2>&1 || echo "run $run ($name): profiler exit status $?" >&2
  echo "end $run $name $(date +%s.%N)" >> "$out/marks.txt"
  sleep 2
done
kill $smi 2> /dev/null
wait $smi 2> /dev/null

python3 - "$out" <<'EOF' | tee "$out/summary.txt"
import re, statistics, sys, datetime
out = sys.argv[1]
samples = []   # (unix seconds, MHz, W, C)
for line in open(f"{out}/smi.csv"):
    f = [x.strip() for x in line.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        samples.append((t, int(f[1].split()[0]), float(f[2].split()[0]), int(f[3])))
    except (ValueError, IndexError):
        pass
marks = [l.split() for l in open(f"{out}/marks.txt")]
rows, baseline = [], []
for start, end in zip(marks[0::2], marks[1::2]):
    run, name, t0, t1 = start[1], start[2], float(start[3]), float(end[3])
    ms = tflops = None
    op = "?"
    for l in open(f"{out}/run_{run}.log"):
        m = re.match(r"\s+(cutlass|handle|cublas)\s+success\s+\S+\s+([\d.]+)\s+([\d.]+)", l)
        if m:
            ms, tflops = float(m.group(2)), float(m.group(3)) / 1000
            op = l.split()[-1]
    seg = [s for s in samples if t0 <= s[0] <= t1]
    steady = seg[len(seg) * 2 // 5:] or seg
    clock = statistics.median(s[1] for s in steady) if steady else float("nan")
    power = statistics.median(s[2] for s in steady) if steady else float("nan")
    temp = steady[-1][3] if steady else -1
    if name == "cublas" and ms:
        baseline.append(ms)
    rows.append((run, name if name != "handle" else f"handle ({op})", ms, tflops, clock, power, temp))
ref = statistics.mean(baseline) if baseline else None
print("each run alone; ratio = mean of the two cuBLAS-alone medians / this run's median")
print(f"{'run':>3} {'ms':>9} {'TFLOP/s':>8} {'ratio':>6} {'MHz':>5} {'W':>4} {'C':>3}  provider / kernel")
for run, name, ms, tf, clock, power, temp in rows:
    ratio = f"{ref / ms:6.3f}" if ref and ms else "   -  "
    print(f"{run:>3} {ms or float('nan'):9.4f} {tf or float('nan'):8.1f} {ratio} {clock:5.0f} {power:4.0f} {temp:3d}  {name}")
EOF
