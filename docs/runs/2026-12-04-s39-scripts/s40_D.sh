#!/usr/bin/env bash
# s40_D (s39): the GEMV axpy form with 8 k-steps in flight per warp (kUnroll 4 -> 8; 60 registers)
# and CUTLASS_LIB_SPLIT_K reaching the axpy split (experiment build): entries, the axpy rows at
# the plan's split (against s40_C: nn 1.02-1.03, 0.75 of the copy) and forced splits.
set -u
o=${OUT:-/tmp/out}; b=build-g; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s40_D_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=sgemv -DCUTLASS_LIBRARY_IGNORE_KERNELS=splitk_ -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_bench cutlass_lib_gpu_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -v warning | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 150 $G --gtest_filter='Manifest/*sgemv*' > $o/l/gemv_t.log 2>&1
echo "GEMV entries: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/gemv_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/gemv_t.log | head
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  timeout 60 $B --shapes=.device/axpy_rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_$r.log 2>&1
  echo "== plan, round $r"; grep -E "^(tokens|gemv) " $o/l/rows_$r.log | cut -c1-112
done
for s in 8 16 32 42 64 96; do
  CUTLASS_LIB_SPLIT_K=$s timeout 60 $B --shapes=.device/axpy_rows.csv --dtypes=bf16 --kernels=none_such > $o/l/split_$s.log 2>&1
  echo "== split $s"; grep -E "^(tokens|gemv) " $o/l/split_$s.log | cut -c1-112
done
echo "all $(( $(date +%s) - start )) s"
