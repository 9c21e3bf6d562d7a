#!/usr/bin/env bash
# s35 next session, first call (cold): the s35 final code (0f76aa1 and after: programmatic dependent
# launch on every sm90 launch, the explicit trigger removed), default set + the opt-in swap-AB
# 16x128 tile (written s35, never run), 90a. Every per-kernel Manifest entry (s35 ran 154 + 135 of
# them; PDL touches every sm90 launch). Then docs/runs/2026-12-04-s35-next-session-warm.sh (warm).
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-585}
mkdir -p $o/l
trap 'tar czf $o/next_C_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='default,*16x128x64*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
timeout $(( $(left) - 8 )) ctest --test-dir $b -j14 --timeout 100 -R '^Manifest/' > $o/l/ctest_m.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_m.log | tail -12
echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest_m.log); not run: $(grep -c 'Not Run' $o/l/ctest_m.log); $(( $(date +%s) - start )) s"
