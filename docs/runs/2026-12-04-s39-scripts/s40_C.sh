#!/usr/bin/env bash
# s40_C (s39): GEMV-only build at the final GEMV code (4 vectors for 16-bit x-direct, 3 others;
# plan counts the x-direct kernel): entries, memcheck of the bf16 / f16 x-direct entries, the
# N = 1 / M = 1 rows bf16 and f16 (two rounds), then a forced split sweep (CUTLASS_LIB_SPLIT_K)
# on the bf16 rows: is the plan's split (half the slots) right for the axpy form and the
# 4096-row dot form?
set -u
o=${OUT:-/tmp/out}; b=build-g; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s40_C_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=sgemv -DCUTLASS_LIBRARY_IGNORE_KERNELS=splitk_ -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench cutlass_lib_gpu_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -v warning | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 150 $G --gtest_filter='Manifest/*sgemv*' > $o/l/gemv_t.log 2>&1
echo "GEMV entries: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/gemv_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/gemv_t.log | head
timeout 120 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*sgemv_bf16_256x1_1x1_tn_align1_splitk:Manifest/*sgemv_f16_256x1_1x1_tn_align1_splitk:Manifest/*f16_sgemv_f16_256x1_1x1_tn*' > $o/l/mc.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc.log | tr '\n' ' ')"
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  timeout 90 $B --shapes=.device/gemv_rows.csv --dtypes=bf16,f16 --kernels=none_such > $o/l/rows_$r.log 2>&1
  echo "== round $r"; grep -E "^(tokens|gemv) " $o/l/rows_$r.log | cut -c1-112
done
for s in 1 2 4 8 12 17 24 33 48 64; do
  CUTLASS_LIB_SPLIT_K=$s timeout 60 $B --shapes=.device/gemv_rows.csv --dtypes=bf16 --kernels=none_such > $o/l/split_$s.log 2>&1
  echo "== split $s"; grep -E "^(tokens|gemv) " $o/l/split_$s.log | cut -c1-112
done
echo "all $(( $(date +%s) - start )) s"
