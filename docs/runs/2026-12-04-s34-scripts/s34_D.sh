#!/usr/bin/env bash
# s34_D (warm, after s34_C on the same machine and build): ctest without the per-kernel entries,
# memcheck of the new device-sized fused test, the fp8-output and fused rows against cuBLASLt, the
# bf16 suite rows (handle against cuBLAS), pytest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'tar czf $o/s34_D_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
[ -x $b/src/profiler/cutlass_profiler ] || { echo "no build (machine not warm)"; exit 1; }
timeout 200 ctest --test-dir $b -j14 --timeout 100 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -10
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-90
echo "ctest $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 compute-sanitizer --tool memcheck $G --gtest_filter='DeviceSizesGpu.Fused*:DeviceSizesGpu.BetaZero*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
P=$b/src/profiler/cutlass_profiler
for n in 16 64 128 256; do
  timeout 30 $P --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=28672 --n=$n --k=4096 --epilogue=bias_gelu_amax \
    --providers=cutlass,handle,cublaslt --profiling-iterations=40 > $o/l/fp8_out_$n.log 2>&1
  echo "== fp8 out 28672x${n}x4096 bias_gelu_amax"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/fp8_out_$n.log | tr -s ' ' | cut -d' ' -f2,5,10,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-110
done
for s in "16 28672 4096" "28672 16 4096" "8 8192 8192" "32 14336 4096"; do
  set -- $s
  timeout 30 $P --A=bf16:row --B=bf16:column --C=bf16 --m=$1 --n=$2 --k=$3 --epilogue=bias_gelu \
    --providers=handle,cublaslt --profiling-iterations=40 > $o/l/bf16_gelu_$1_$2.log 2>&1
  echo "== bf16 ${1}x${2}x${3} bias_gelu"; grep -E "^  (handle|cublaslt) " $o/l/bf16_gelu_$1_$2.log | tr -s ' ' | cut -d' ' -f2,5,10,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-110
done
echo "rows start $(( $(date +%s) - start )) s"
B=$b/src/benchmark/cutlass_bench
{ cat .device/s28.csv; tail -n +2 .device/longk.csv; grep -E "^(square|llm)," .device/gemm-shapes.csv; } > /tmp/rows.csv
[ $(left) -gt 80 ] && { timeout $(( $(left) - 50 )) $B --shapes=/tmp/rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  grep -E "^(decode|tokens|gemv|longk|square|llm) " $o/l/rows.log | cut -c1-150; tail -10 $o/l/rows.log; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
