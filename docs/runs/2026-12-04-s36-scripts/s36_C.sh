#!/usr/bin/env bash
# s36_C (final): the default set at the final commit (the GEMV dot form's 2-vector interleaved
# step), 90a: ctest without the per-kernel entries, the GEMV per-kernel entries, memcheck of the
# bf16 GEMV entries, the decode / tokens / gemv rows (handle against cuBLAS, per launch, two
# rounds), pytest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-590}
mkdir -p $o/l
trap 'tar czf $o/s36_C_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
timeout 230 ctest --test-dir $b -j14 --timeout 220 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -8
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-70
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 $G --gtest_filter='Manifest/*gemv*' > $o/l/gemv_entries.log 2>&1
echo "gemv entries: $(grep -E '^\[  (PASSED|FAILED)' $o/l/gemv_entries.log | tr '\n' ' ') $(grep -c '^\[  FAILED  \] Manifest' $o/l/gemv_entries.log) failed; skipped $(grep -c '^\[  SKIPPED \] Manifest' $o/l/gemv_entries.log)"
timeout 45 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*sgemv_bf16_256x1_1x1_tn_align1_splitk*:Manifest/*sgemv_bf16_256x1_1x1_nt_align1_splitk*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  [ $(left) -gt 70 ] && { timeout $(( $(left) - 50 )) $B --shapes=.device/s28.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_$r.log 2>&1
    echo "== rows, round $r"; grep -E "^(decode|tokens|gemv) " $o/l/rows_$r.log | cut -c1-150; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$r.log; }
done
[ $(left) -gt 40 ] && { timeout 30 $B --shapes=.device/gemv.csv --dtypes=bf16 --kernels=none_such > $o/l/gemv_rows.log 2>&1; echo "== gemv rows"; grep -E "^(tokens|gemv) " $o/l/gemv_rows.log | cut -c1-110; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
