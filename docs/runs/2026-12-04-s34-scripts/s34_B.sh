#!/usr/bin/env bash
# s34_B: the one-body epilogue (working tree) on the default set + the fp8-output kernels, 90a:
# every per-kernel Manifest entry (the epilogue body of every sm90 kernel changed), then the rest.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'tar czf $o/s34_B_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='default,*e4m3_e4m3_f32_e4m3_e4m3_*,*e4m3_e4m3_f32_e5m2_e5m2_*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
timeout $(( $(left) - 20 )) ctest --test-dir $b -j14 --timeout 100 -R '^Manifest/' > $o/l/ctest_m.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_m.log | tail -8; echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest_m.log); $(( $(date +%s) - start )) s"
[ $(left) -gt 60 ] && { timeout $(( $(left) - 10 )) ctest --test-dir $b -j14 --timeout 100 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
  grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -8; }
echo "all $(( $(date +%s) - start )) s"
