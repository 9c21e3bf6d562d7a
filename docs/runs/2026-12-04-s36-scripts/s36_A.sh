#!/usr/bin/env bash
# s36_A: the GEMV dot form's load variants (CUTLASS_LIB_GEMV_DOT=0..4, gemv.h), bf16 plain kernels
# only: their per-kernel GPU tests under every variant, then the dot-form rows, handle against
# cuBLAS interleaved, three rounds of every variant. s36_B ran this same script (renamed) at
# 4707a1d's gemv.h: the second round of variants (see docs/NOTES.md, s36).
set -u
o=${OUT:-/tmp/out}; b=build-g; start=$(date +%s); LIMIT=${LIMIT:-330}
mkdir -p $o/l
trap 'tar czf $o/s36_A_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
K=cutlass_simt_bf16_sgemv_bf16_256x1_1x1_tn_align1_splitk,cutlass_simt_bf16_sgemv_bf16_256x1_1x1_nn_align1_splitk,cutlass_simt_bf16_sgemv_bf16_256x1_1x1_nt_align1_splitk,cutlass_simt_bf16_sgemv_bf16_256x1_1x1_tt_align1_splitk
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=$K > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench cutlass_lib_gpu_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
for v in 0 1 2 3 4; do
  CUTLASS_LIB_GEMV_DOT=$v timeout 60 $G --gtest_filter='Manifest/*gemv*' > $o/l/t_$v.log 2>&1
  echo "variant $v tests: $(grep -E '^\[  (PASSED|FAILED)' $o/l/t_$v.log | tr '\n' ' ') $(grep -c '^\[  FAILED  \] Manifest' $o/l/t_$v.log) failed"
done
B=$b/src/benchmark/cutlass_bench
for r in 1 2 3; do for v in 0 1 2 3 4; do
  [ $(left) -gt 25 ] || break 2
  CUTLASS_LIB_GEMV_DOT=$v timeout 40 $B --shapes=.device/gemv.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_${v}_$r.log 2>&1
  echo "== variant $v round $r"; grep -E "^(tokens|gemv) " $o/l/rows_${v}_$r.log | cut -c1-100
done; done
echo "all $(( $(date +%s) - start )) s"
