#!/usr/bin/env bash
# s37_F: where the swap-AB 16x64 tiles lose to a TMA-only stream (s37_A-C: 16 x 14336 x 4096 the
# real kernels ~35 us, the stream with the same boxes, split as stream-K, 31.5 us): ncu of the
# persistent and stream-K kernels and of cuBLAS, one launch each (duration, DRAM, warp stalls).
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s37_F_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_16x64x64_1x1x1_20_tnn_align8_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_16x64x64_1x1x1_20_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma -DCUTLASS_ENABLE_TESTS=OFF > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
P=$b/src/profiler/cutlass_profiler
nc() {  # name kernel-regex launches profiler-args...
  local n=$1 k=$2 c=$3; shift 3
  timeout 100 ncu --clock-control none -k "regex:$k" -c $c --section SpeedOfLight --section LaunchStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct \
    -o $o/l/rep_$n $P "$@" --warmup-iterations=0 --profiling-iterations=1 --verification-enabled=false > $o/l/ncu_run_$n.log 2>&1
  ncu -i $o/l/rep_$n.ncu-rep --print-details all > $o/l/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Registers Per|dram__|lts__t_sector_hit|Stall [A-Z]|L2 Hit|Mem Busy|Max Bandwidth" $o/l/ncu_$n.txt | head -30
}
for shape in "16 14336 4096" "16 28672 4096" "16 8192 8192"; do
  set -- $shape
  D="--A=bf16:row --B=bf16:column --C=bf16 --m=$1 --n=$2 --k=$3"
  nc sk_$2 'gemm_sm90' 1 $D --providers=cutlass --kernels='*16x64x64*stream_k*'
  nc pers_$2 'gemm_sm90' 1 $D --providers=cutlass --kernels='*16x64x64_1x1x1_20_tnn_align8_warp*'
  nc cublas_$2 'nvjet|xmma' 1 $D --providers=cublas
done
rm -f $o/l/*.ncu-rep
echo "all $(( $(date +%s) - start )) s"
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude .device/tma_stream.cu -o /tmp/tma_stream -lcublas -lcuda
for cfg in "14336 4096 64 64 20 132 1 0 16" "14336 4096 64 64 20 132 0 0 16"; do
  n=stream_$(echo $cfg | tr ' ' '_')
  timeout 60 ncu --clock-control none -k "regex:stream_tma" -c 1 --launch-skip 2 --section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    --metrics dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct -o $o/l/rep_$n /tmp/tma_stream $cfg > $o/l/ncu_run_$n.log 2>&1
  ncu -i $o/l/rep_$n.ncu-rep --print-details all > $o/l/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "Duration|dram__|lts__t_sector_hit|L2 Hit|Mem Busy|Max Bandwidth" $o/l/ncu_$n.txt | head -12
done
rm -f $o/l/*.ncu-rep
