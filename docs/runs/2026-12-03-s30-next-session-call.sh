#!/usr/bin/env bash
# Proposed first device call for the next session (written in s30, NOT run): where a block-scaled
# consumer's cycles go, the row kind (blk x vec, swapped) against precise on the same kernel at
# 8192^3. ncu source counters per SASS instruction (.device/top_stalls.py), warp-state stats, and
# the tensor pipe's utilization, for: precise (kAdd, two sets), A 128x128 alone (kRowScales, no
# stage copy), blk x vec; the SM clock of each (the 700 W cap: a busier promotion may simply
# clock lower). Copy to .device/ and run with carry [".device"]; ~3 minutes.
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/next_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='*e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6*blockscale*' > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
{ echo "group,M,N,K,layout"; echo "square,8192,8192,8192,tn"; } > /tmp/one.csv
for mode in "precise --accumulation=precise" "ablk --scale-a=block128x128" "blkvec --scale-a=block128x128 --scale-b=block128"; do
  set -- $mode; n=$1; shift
  timeout 120 ncu --clock-control none -k regex:gemm_sm90 -c 1 \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters --section InstructionStats \
    --section MemoryWorkloadAnalysis_Tables --section MemoryWorkloadAnalysis \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum \
    -o $o/l/rep_$n $b/src/benchmark/cutlass_bench --shapes=/tmp/one.csv --dtypes=fe4m3 --verify=false \
    --warmup-iterations=0 --profiling-iterations=1 --kernels='*blockscale*' "$@" > $o/l/ncu_run_$n.log 2>&1
  ncu -i $o/l/rep_$n.ncu-rep --print-details all > $o/l/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "lts__t_sectors|L2 Cache Throughput|Duration|SM Frequency|Elapsed Cycles|Compute \(SM\) Throughput|Warp Cycles Per Issued|Issued Warp|hmma_cycles|inst_executed|Stall [A-Z]" $o/l/ncu_$n.txt | head -24
  ncu -i $o/l/rep_$n.ncu-rep --page source --csv --print-source sass > $o/l/src_$n.csv 2>/dev/null
  python3 .device/top_stalls.py $o/l/src_$n.csv 25
done
rm -f $o/l/*.ncu-rep
echo "all $(( $(date +%s) - start )) s"
