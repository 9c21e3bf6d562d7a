#!/usr/bin/env bash
# s35_G (cold, experiment only): where the early launch_dependents trigger matters. Two builds of the
# same few kernels: A = HEAD (trigger right after each CTA's griddepcontrol.wait), B = the trigger
# line removed on this copy only (dependents launch when every CTA has exited). pdl_bench with
# CUTLASS_LIB_PDL=1 on A, B, and CUTLASS_LIB_PDL=0, twice.
set -u
o=${OUT:-/tmp/out}; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s35_G_logs.tar.gz -C $o/l .' EXIT
K='*bf16_bf16_f32_bf16_bf16_64x32x64_1x1x1_16_tnn_align8_warpspecialized_pingpong_epi_tma,*bf16_bf16_f32_bf16_bf16_16x64x64_1x1x1_20_tnn_align8_warpspecialized_pingpong_epi_tma,*bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_warpspecialized_pingpong_epi_tma,*bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_stream_k_warpspecialized_pingpong_epi_tma,cutlass_simt_bf16_sgemv_bf16_256x1_1x1_tn_align1_splitk'
cfg() { cmake -S . -B $1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_ENABLE_TESTS=OFF -DCUTLASS_ENABLE_PROFILER=OFF -DCUTLASS_LIBRARY_KERNELS="$K" > $o/l/cfg_$1.log 2>&1; }
cfg build-a && cmake --build build-a -j16 > $o/l/build_a.log 2>&1 || { tail -20 $o/l/build_a.log; exit 1; }
sed -i '/^    cudaTriggerProgrammaticLaunchCompletion();$/d' include/cutlass/gemm/kernel/gemm_sm90.h
grep -c "cudaTriggerProgrammaticLaunchCompletion();" include/cutlass/gemm/kernel/gemm_sm90.h
cfg build-b && cmake --build build-b -j16 > $o/l/build_b.log 2>&1 || { tail -20 $o/l/build_b.log; exit 1; }
echo "builds $(( $(date +%s) - start )) s"
nvcc -O2 -std=c++17 -arch=sm_90a -I include .device/pdl_bench.cu -L build-a/library -lcutlass_lib -lcublas -o /tmp/pdl_bench > $o/l/pdl_build.log 2>&1
for r in 1 2; do for v in a:1 b:1 a:0; do
  lib=${v%%:*}; pdl=${v##*:}
  echo "== r$r build-$lib PDL=$pdl"; CUTLASS_LIB_PDL=$pdl LD_LIBRARY_PATH=build-$lib/library timeout 40 /tmp/pdl_bench 2>&1 | grep -E "^ *[0-9]"
done; done
echo "all $(( $(date +%s) - start )) s"
