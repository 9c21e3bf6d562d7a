#!/usr/bin/env bash
# s33_C (first of the final pair, cold): the session's final code. Default set + the e4m3 -> e4m3 /
# e5m2 kernels (5 tiles), 90a. The per-kernel entries of every kernel whose epilogue takes the
# per-element path (f32, s32 and fp8 outputs: the path changed), the fp8-output rows against
# cuBLASLt, the bf16 suite rows against cuBLAS (handle), pytest. s33_D (warm) runs the rest of ctest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-560}
mkdir -p $o/l
trap 'tar czf $o/s33_C_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='default,*e4m3_e4m3_f32_e4m3_e4m3_*,*e4m3_e4m3_f32_e5m2_e5m2_*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
timeout 150 ctest --test-dir $b -j12 --timeout 100 -R '^Manifest/.*(_f32_f32_f32_|_s32_s32_s32_|_f32_e4m3_e4m3_|_f32_e5m2_e5m2_)' > $o/l/ctest_pe.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_pe.log | tail -8; echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest_pe.log); $(( $(date +%s) - start )) s"
P=$b/src/profiler/cutlass_profiler
for s in "28672 256 4096" "28672 128 4096" "28672 64 4096" "8192 8192 8192"; do
  set -- $s
  [ $(left) -gt 250 ] || break
  timeout 40 $P --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=$1 --n=$2 --k=$3 --epilogue=bias_gelu_amax \
    --providers=cutlass,handle,cublaslt --profiling-iterations=40 > $o/l/fp8_out_$1_$2.log 2>&1
  echo "== fp8 out $s"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/fp8_out_$1_$2.log | cut -c1-200
done
B=$b/src/benchmark/cutlass_bench
{ cat .device/s28.csv; tail -n +2 .device/longk.csv; grep -E "^(square|llm)," .device/gemm-shapes.csv; } > /tmp/rows.csv
[ $(left) -gt 60 ] && { timeout $(( $(left) - 40 )) $B --shapes=/tmp/rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  tail -9 $o/l/rows.log; grep -E "^(decode|tokens|gemv|longk|square|llm)" $o/l/rows.log | cut -c1-150; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
