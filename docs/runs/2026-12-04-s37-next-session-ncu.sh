#!/usr/bin/env bash
# Written s37, not run: where the swap-AB 16x64 stream-K kernel loses 8% to a TMA-only stream split
# the same way (s37_F, ncu at 16 x 14336 x 4096: 33.7 us against the stream's 31.2; persistent
# 32.7). Full ncu sections with warp-state sampling per SASS instruction (no -lineinfo: read the
# SASS), for the stream-K and persistent kernels and the stream (.device/tma_stream.cu from
# docs/runs/2026-12-04-s37-scripts/). Questions: do the consumers or the producer wait at unit
# boundaries (ping-pong hand-over, the partial-sum store, the owner's flag wait)? Is the token box's
# TMA issue on the producer's critical path? Copy tma_stream.cu into .device/ first.
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/ncu_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_16x64x64_1x1x1_20_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_16x64x64_1x1x1_20_tnn_align8_warpspecialized_pingpong_epi_tma -DCUTLASS_ENABLE_TESTS=OFF > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
P=$b/src/profiler/cutlass_profiler
D="--A=bf16:row --B=bf16:column --C=bf16 --m=16 --n=14336 --k=4096"
for k in stream_k warpspecialized; do
  timeout 120 ncu --clock-control none -k "regex:gemm_sm90" -c 1 --set full --import-source no \
    -o $o/l/rep_$k $P $D --providers=cutlass --kernels="*16x64x64_1x1x1_20_tnn_align8_${k}*" \
    --warmup-iterations=0 --profiling-iterations=1 --verification-enabled=false > $o/l/run_$k.log 2>&1
  ncu -i $o/l/rep_$k.ncu-rep --page source --csv --print-source sass > $o/l/sass_$k.csv 2>&1
  ncu -i $o/l/rep_$k.ncu-rep --print-details all > $o/l/ncu_$k.txt 2>&1
  echo "== $k"; grep -E "Duration|dram__throughput|Stall [A-Z]" $o/l/ncu_$k.txt | head -12
done
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude .device/tma_stream.cu -o /tmp/tma_stream -lcublas -lcuda
timeout 60 ncu --clock-control none -k "regex:stream_tma" -c 1 --launch-skip 2 --set full -o $o/l/rep_stream /tmp/tma_stream 14336 4096 64 64 20 132 1 0 16 > $o/l/run_stream.log 2>&1
ncu -i $o/l/rep_stream.ncu-rep --print-details all > $o/l/ncu_stream.txt 2>&1
echo "== stream"; grep -E "Duration|dram__throughput" $o/l/ncu_stream.txt | head -4
rm -f $o/l/*.ncu-rep
echo "all $(( $(date +%s) - start )) s"
