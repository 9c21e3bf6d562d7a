#!/usr/bin/env bash
# s38_A: (1) s37's unrun tests of the workspace-state capture fix (ExpertLayer incl.
# AGraphReplayBetweenStreamKCallsKeepsThemExact, WorkspaceStateGpu, LaunchOrderGpu, host
# WorkspaceState); (2) ncu --set full with SASS-level stall sampling of the swap-AB 16x64
# stream-K and persistent kernels and the TMA stream at 16 x 14336 x 4096 (the 8% gap).
set -u
o=${OUT:-/tmp/out}; b=build-a; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s38_A_logs.tar.gz -C $o/l .' EXIT
K=cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=${K}_64x16x64_1x1x1_20_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma,${K}_128x128x64_1x1x1_6_tnn_align8_grouped_warpspecialized_pingpong_epi_tma,${K}_64x32x64_1x1x1_16_tnn_align8_grouped_warpspecialized_pingpong_epi_tma,${K}_128x128x64_1x1x1_6_tnn_align8_warpspecialized_pingpong_epi_tma,${K}_16x64x64_1x1x1_20_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma,${K}_16x64x64_1x1x1_20_tnn_align8_warpspecialized_pingpong_epi_tma > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_lib_gpu_tests cutlass_lib_host_tests cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 90 $G --gtest_filter='ExpertLayer.*:WorkspaceStateGpu.*:Chains/LaunchOrderGpu.*' > $o/l/t.log 2>&1
grep -E '^\[  (PASSED|FAILED|SKIPPED)|^\[  FAILED  \]|Failure' $o/l/t.log | head -20
H=$(find $b -name cutlass_lib_host_tests -type f | head -1)
timeout 30 $H --gtest_filter='WorkspaceState*' 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED)'
echo "tests $(( $(date +%s) - start )) s"
P=$(find $b -name cutlass_profiler -type f | head -1)
D="--A=bf16:row --B=bf16:column --C=bf16 --m=16 --n=14336 --k=4096"
for k in stream_k warpspecialized; do
  timeout 120 ncu --clock-control none -k "regex:gemm_sm90" -c 1 --set full --import-source no \
    -o $o/l/rep_$k $P $D --providers=cutlass --kernels="*16x64x64_1x1x1_20_tnn_align8_${k}*" \
    --warmup-iterations=0 --profiling-iterations=1 --verification-enabled=false > $o/l/run_$k.log 2>&1
  ncu -i $o/l/rep_$k.ncu-rep --page source --csv --print-source sass > $o/l/sass_$k.csv 2>&1
  ncu -i $o/l/rep_$k.ncu-rep --print-details all > $o/l/ncu_$k.txt 2>&1
  echo "== $k"; grep -E "Duration|DRAM Throughput|Stall [A-Z]" $o/l/ncu_$k.txt | head -12
done
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude .device/tma_stream.cu -o /tmp/tma_stream -lcublas -lcuda
timeout 60 ncu --clock-control none -k "regex:stream_tma" -c 1 --launch-skip 2 --set full -o $o/l/rep_stream /tmp/tma_stream 14336 4096 64 64 20 132 1 0 16 > $o/l/run_stream.log 2>&1
ncu -i $o/l/rep_stream.ncu-rep --print-details all > $o/l/ncu_stream.txt 2>&1
echo "== stream"; grep -E "Duration|DRAM Throughput" $o/l/ncu_stream.txt | head -4
rm -f $o/l/*.ncu-rep
echo "all $(( $(date +%s) - start )) s"
