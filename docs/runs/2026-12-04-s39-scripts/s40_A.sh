#!/usr/bin/env bash
# Written s38, not run. The next session's second call: the opt-in candidates for the rows below
# 1.0 (every plain bf16 TN sm90 tile incl. the swap-AB tiles on 1x2 clusters added in s38, never
# run: 16x64x64_1x2x1, 32x64x64_1x2x1; the 128x256 stream-K cooperative for 10240 x 512 x 5120;
# the GEMV and skinny kernels): the new kernels' per-kernel tests and memcheck, then the suite's
# decode / tokens / gemv rows, best-kernel search with per-kernel details, two rounds (the handle
# then ranks only these kernels: its picks are not the default set's). ~46 kernels.
set -u
o=${OUT:-/tmp/out}; b=build-c; start=$(date +%s); LIMIT=${LIMIT:-570}
mkdir -p $o/l
trap 'tar czf $o/s40_A_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  "-DCUTLASS_LIBRARY_KERNELS=cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_*_tnn_align8_*,cutlass_simt_bf16_sgemv_bf16_256x1_1x1,cutlass_tensorop_bf16_s16816gemm_bf16_32x8_128x1_tn_align8_splitk,cutlass_tensorop_bf16_s16816gemm_bf16_32x16_128x1_tn_align8_splitk" \
  "-DCUTLASS_LIBRARY_IGNORE_KERNELS=_epi_tma_,_grouped_,splitk_" > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench cutlass_lib_gpu_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 90 $G --gtest_filter='Manifest/*x64x64_1x2x1*' > $o/l/t.log 2>&1
echo "1x2 swap-AB entries: $(grep -E '^\[  (PASSED|FAILED)' $o/l/t.log | tr '\n' ' ')"; grep '^\[  FAILED  \] Manifest' $o/l/t.log | head
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*16x64x64_1x2x1*bf16*' > $o/l/mc.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1)"
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  [ $(left) -gt 80 ] || break
  timeout $(( $(left) - 40 )) $B --shapes=.device/s28.csv --dtypes=bf16 --details=$o/l/det_$r.txt > $o/l/rows_$r.log 2>&1
  echo "== round $r"; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$r.log
done
echo "all $(( $(date +%s) - start )) s"
