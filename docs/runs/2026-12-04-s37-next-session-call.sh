#!/usr/bin/env bash
# Written s37, not run (the device budget was spent): the workspace-state fix (9cc0742) and its
# tests: ExpertLayer (incl. AGraphReplayBetweenStreamKCallsKeepsThemExact), WorkspaceStateGpu,
# LaunchOrderGpu, the host WorkspaceState tests (one needs a device), on a 4-kernel build.
set -u
o=${OUT:-/tmp/out}; b=build-h; start=$(date +%s)
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_64x16x64_1x1x1_20_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_grouped_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_64x32x64_1x1x1_16_tnn_align8_grouped_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_warpspecialized_pingpong_epi_tma > $o/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_lib_gpu_tests cutlass_lib_host_tests > $o/build.log 2>&1 || { grep -E "error" $o/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 $G --gtest_filter='ExpertLayer.*:WorkspaceStateGpu.*:Chains/LaunchOrderGpu.*' > $o/t.log 2>&1
grep -E '^\[  (PASSED|FAILED|SKIPPED)|^\[  FAILED  \]|Failure' $o/t.log | head -20
H=$(find $b -name cutlass_lib_host_tests -type f | head -1)
timeout 30 $H --gtest_filter='WorkspaceState.*' 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED)'
echo "all $(( $(date +%s) - start )) s"
