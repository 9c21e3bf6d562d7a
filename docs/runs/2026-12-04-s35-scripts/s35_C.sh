#!/usr/bin/env bash
# s35_C (warm, after s35_B on the same build): memcheck of the new GPU tests, the three MoE layers
# through cutlass_profiler --operation=grouped_gemm, the mixed block-scaled kernels against
# cuBLASLt, the bf16 suite rows (handle against cuBLAS), pytest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'tar czf $o/s35_C_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
[ -x $b/src/profiler/cutlass_profiler ] || { echo "no build (machine not warm)"; exit 1; }
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='DeviceSizesGpu.AlphaVector*:DeviceSizesGpu.E4m3*:DeviceSizesGpu.Fused*:BlockScalesGpu.SumOfScaledKBlocks/*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
P=$b/src/profiler/cutlass_profiler
for layer in "--experts=8 --m=14336 --k=4096 --tokens=8192" "--experts=32 --m=4096 --k=7168 --tokens=8192 --distribution=sparse" "--experts=8 --m=14336 --k=4096 --tokens=34 --distribution=sparse"; do
  timeout 60 $P --operation=grouped_gemm $layer --profiling-iterations=30 > $o/l/grouped.log 2>&1; echo "rc=$?" >> $o/l/grouped.log
  echo "== grouped $layer"; grep -vE "^cutlass_profiler, grouped" $o/l/grouped.log | cut -c1-160
done
for pair in "fe4m3 fe5m2" "fe5m2 fe4m3" "fe4m3 fe4m3"; do
  set -- $pair
  timeout 40 $P --A=$1:row --B=$2:column --C=bf16 --m=8192 --n=8192 --k=8192 --scale-a=block128x128 --scale-b=block128 \
    --providers=cutlass,handle,cublaslt --profiling-iterations=20 > $o/l/blk_$1_$2.log 2>&1
  echo "== block scales $1 x $2 8192^3 blk x vec"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/blk_$1_$2.log | tr -s ' ' | cut -d' ' -f2,3,5,10,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-140
done
echo "rows start $(( $(date +%s) - start )) s"
B=$b/src/benchmark/cutlass_bench
{ cat .device/s28.csv; tail -n +2 .device/longk.csv; grep -E "^(square|llm)," .device/gemm-shapes.csv; } > /tmp/rows.csv
[ $(left) -gt 80 ] && { timeout $(( $(left) - 50 )) $B --shapes=/tmp/rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  grep -E "^(decode|tokens|gemv|longk|square|llm) " $o/l/rows.log | cut -c1-150; tail -10 $o/l/rows.log; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
