#!/usr/bin/env bash
# Written s38, not run (the device was withdrawn after two calls). The next session's first call:
# (1) the GEMV microbenchmark's second form (.device/gemv_flat.cu from docs/runs/2026-12-04-s38-scripts/:
#     rows_t / rows_p variants against rows8, read_flat, cuBLAS, a copy; ~1 minute);
# (2) the default set at HEAD on the GPU (nothing after 2c1a132 has run there at full set: 9cc0742,
#     65cb7d1, f892dec, 9e87581, e0c262c; s38_A ran 9cc0742's tests on a 6-kernel build, passing):
#     build with ptxas report, ctest without the per-kernel entries, workspace / launch-order tests
#     and memcheck, the suite's decode / tokens / gemv rows (two rounds), the big rows, the long-K
#     rows (not timed since s35; 9e87581 touches their route), pytest. Copy gemv_flat.cu, s28.csv,
#     big.csv, longk.csv into .device/ and run with carry [".device"].
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'tar czf $o/s39_A_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
# (after the build: the microbenchmark's host enqueues must not wait on a loaded CPU)
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a .device/gemv_flat.cu -o /tmp/gemv_flat -lcublas &&
  timeout 120 /tmp/gemv_flat > $o/l/gemv_flat.log 2>&1
grep -E "^==|^[a-z_]+ .* (ok|WRONG)$|regs" $o/l/gemv_flat.log | head -120
timeout 220 ctest --test-dir $b -j16 --timeout 210 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -8
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-70
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 $G --gtest_filter='WorkspaceStateGpu.*:Chains/LaunchOrderGpu.*:ExpertLayer.*' > $o/l/ws.log 2>&1
echo "workspace / launch order / expert layer: $(grep -E '^\[  (PASSED|FAILED)' $o/l/ws.log | tr '\n' ' ')"
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='WorkspaceStateGpu.*:ExpertLayer.AGraphReplay*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  [ $(left) -gt 90 ] && { timeout 60 $B --shapes=.device/s28.csv --dtypes=bf16 --kernels=none_such > $o/l/rows_$r.log 2>&1
    echo "== rows, round $r"; grep -E "^(decode|tokens|gemv) " $o/l/rows_$r.log | cut -c1-150; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$r.log; }
done
[ $(left) -gt 80 ] && { timeout 50 $B --shapes=.device/big.csv --dtypes=bf16 --kernels=none_such > $o/l/big.log 2>&1; echo "== big rows"; grep -E "^(square|llm) " $o/l/big.log | cut -c1-150; grep -E "bf16  (square|llm) " $o/l/big.log; }
[ $(left) -gt 60 ] && { timeout 40 $B --shapes=.device/longk.csv --dtypes=bf16 --kernels=none_such > $o/l/longk.log 2>&1; echo "== long-K rows"; grep -E "^longk " $o/l/longk.log | cut -c1-150; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
