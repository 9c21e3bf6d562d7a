#!/usr/bin/env bash
# s40_E (s39, final): default set at the final code (the 4-vector GEMV step, 364782c + the split
# plan on the x-direct kernel): build with ptxas report, GEMV entries + memcheck, ctest without
# the per-kernel entries, the decode / tokens / gemv rows (two rounds), pytest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-560}
mkdir -p $o/l
trap 'tar czf $o/s40_E_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -v warning | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 150 $G --gtest_filter='Manifest/*sgemv*' > $o/l/gemv_t.log 2>&1
echo "GEMV entries: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/gemv_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/gemv_t.log | head
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*sgemv_bf16_256x1_1x1_tn_align1_splitk:Manifest/*sgemv_bf16_256x1_1x1_nt_align1_splitk:Manifest/*f16_sgemv_f16_256x1_1x1_tn*' > $o/l/mc.log 2>&1
echo "memcheck GEMV bf16 tn/nt, f16 tn: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc.log | tr '\n' ' ')"
timeout 220 ctest --test-dir $b -j16 --timeout 210 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -8
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  [ $(left) -gt 70 ] && { timeout 60 $B --shapes=.device/s28.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_$r.log 2>&1
    echo "== rows, round $r"; grep -E "^(decode|tokens|gemv) " $o/l/rows_$r.log | cut -c1-150; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$r.log; }
done
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
