#!/usr/bin/env bash
# s32_E (second of the final pair, device time short: a bf16 subset of the default set, 44 kernels):
# the per-kernel KernelTest and RasterKernelTest entries of the sm90 bf16 kernels, then the bf16
# tokens / decode / gemv / longk rows and the square / llm groups against cuBLAS (handle: its tile order).
set -u
o=${OUT:-/tmp/out}; b=build-e; start=$(date +%s); LIMIT=${LIMIT:-245}
mkdir -p $o/l
trap 'tar czf $o/s32_E_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=default \
  -DCUTLASS_LIBRARY_IGNORE_KERNELS='*_epi_tma_*,*align8_epi_*,*align1_epi_*,*tensorop_f16_*,*simt_f16*,*e4m3*,*e5m2*,*s8*,*tf32*,*f64*,*grouped*,*_f32_f32_*,*bf16_bf16_f32_f32_f32*,*simt_s*,*simt_d*,*simt_h*,*s16816gemm_bf16_*nn_*,*s16816gemm_bf16_*nt_*,*s16816gemm_bf16_*tt_*,*tensorop_s16816*,*f16_f16*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_lib_gpu_tests cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
timeout 90 $b/test/cutlass_lib_gpu_tests --gtest_filter='Manifest/RasterKernelTest.*:Manifest/KernelTest.*:Manifest/StreamKKernelTest.*' > $o/l/gtest.log 2>&1
echo "gtest exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests ran' $o/l/gtest.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $o/l/gtest.log | head
B=$b/src/benchmark/cutlass_bench
{ cat .device/s28.csv; tail -n +2 .device/longk.csv; grep -E "^(square|llm)," .device/gemm-shapes.csv; } > /tmp/rows.csv
[ $(left) -gt 30 ] && { timeout $(( $(left) - 10 )) $B --shapes=/tmp/rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  tail -9 $o/l/rows.log; grep -E "^(decode|tokens|gemv|longk|square|llm)" $o/l/rows.log | cut -c1-150; }
echo "all $(( $(date +%s) - start )) s"
