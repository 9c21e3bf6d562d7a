#!/usr/bin/env bash
# s40_B (s39): the x-direct GEMV dot kernel at 4 vectors per step, walked by pointers (64 registers under __launch_bounds__(256, 4), 4 CTAs per SM,
# as the split plan counts; the staged kernel 63 -> 56); GEMV-only build: the GEMV per-kernel entries and
# memcheck, the N = 1 / M = 1 rows (three rounds; against s40_A = this session, 3 vectors).
set -u
o=${OUT:-/tmp/out}; b=build-g; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s40_B_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=sgemv -DCUTLASS_LIBRARY_IGNORE_KERNELS=splitk_ -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench cutlass_lib_gpu_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 150 $G --gtest_filter='Manifest/*sgemv*' > $o/l/gemv_t.log 2>&1
echo "GEMV entries: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/gemv_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/gemv_t.log | head
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*sgemv_bf16_256x1_1x1_tn_align1_splitk:Manifest/*sgemv_256x1_1x1_tn_align1_splitk' > $o/l/mc.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc.log | tr '\n' ' ')"
B=$b/src/benchmark/cutlass_bench
for r in 1 2 3; do
  timeout 60 $B --shapes=.device/gemv_rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_$r.log 2>&1
  echo "== round $r"; grep -E "^(tokens|gemv) " $o/l/rows_$r.log | cut -c1-150
done
echo "all $(( $(date +%s) - start )) s"
