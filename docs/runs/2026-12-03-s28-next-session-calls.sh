#!/usr/bin/env bash
# s28's proposal for the next session's first device call (~250 s warm-start included): why the
# GEMV dot form reads at 3.2 TB/s where cuBLAS's TMA kernel reads 3.5, and why the split-K route's
# 128 slice CTAs run each k-block 1.5x slower than 32 CTAs of the same tile (docs/NOTES.md,
# "Where s28 left things"). Copy to .device/ with the shape files (.device/s28.csv) and carry it.
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/next_logs.tar.gz -C $o/l .' EXIT
K='default,*bf16_bf16_f32_f32_f32_128x208x64_1x1x1_4_tnn_align8_warpspecialized_cooperative_epi_tma,*bf16_bf16_f32_bf16_bf16_128x208x64_1x1x1_4_tnn_align8_warpspecialized_cooperative_epi_tma,*bf16_bf16_f32_bf16_bf16_128x32x64_1x1x1_10_tnn_align8_warpspecialized_cooperative_epi_tma'
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS="$K" > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
B=$b/src/benchmark/cutlass_bench
one() { { echo "group,M,N,K,layout"; echo "tokens,$1,tn"; } > /tmp/one.csv; }
# 1. the GEMV dot form against cuBLAS's 128x8 TMA kernel: stalls, occupancy, L1/L2 traffic
one 11008,1,4096
ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section Occupancy --section SourceCounters -k regex:'gemv_kernel|nvjet' -c 2 \
  $B --shapes=/tmp/one.csv --dtypes=bf16 --kernels=none_such --verify=false --warmup-iterations=1 \
  --profiling-iterations=1 > $o/l/ncu_gemv.txt 2>&1
# 2. the route's slices (f32 out) on 128 CTAs against the same tile (bf16 out) on 32: L2 throughput, hit rate
one 4096,200,11008
for f in 4:128x208 1; do
  if [ $f = 1 ]; then a=(--kernels='*bf16_bf16_f32_bf16_bf16_128x208x64_1x1x1_4_tnn_align8_warpspecialized_cooperative*'); unset CUTLASS_LIB_SPLIT_K_ROUTE
  else a=(--kernels=none_such); export CUTLASS_LIB_SPLIT_K_ROUTE=$f; fi
  ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis -k regex:'gemm_sm90' -c 2 \
    $B --shapes=/tmp/one.csv --dtypes=bf16 "${a[@]}" --verify=false --warmup-iterations=1 --profiling-iterations=1 \
    > $o/l/ncu_slices_$f.txt 2>&1
done
unset CUTLASS_LIB_SPLIT_K_ROUTE
# 3. the N = 1 rows on the 128x32 cooperative tile against the GEMV kernel, three rounds
{ echo "group,M,N,K,layout"; echo "tokens,11008,1,4096,tn"; echo "tokens,4096,1,11008,tn"; echo "tokens,8192,1,28672,tn"; } > /tmp/n1.csv
for r in 1 2 3; do $B --shapes=/tmp/n1.csv --dtypes=bf16 > $o/l/n1_$r.log 2>&1; grep "^tokens" $o/l/n1_$r.log | cut -c1-200; done
echo "all $(( $(date +%s) - start )) s"
