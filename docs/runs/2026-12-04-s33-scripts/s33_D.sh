#!/usr/bin/env bash
# s33_D (second of the final pair, warm after s33_C, same build): ctest without the per-kernel
# Manifest entries (s33_A ran all 1809 of those at 82cd015; s33_C the ones whose epilogue changed).
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-560}
mkdir -p $o/l
trap 'gzip -c $o/l/ctest.log > $o/ctest_d.log.gz 2>/dev/null; tar czf $o/s33_D_logs.tar.gz -C $o/l .' EXIT
[ -f $b/build.ninja ] || { echo "no build (the machine was not warm)"; exit 1; }
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head; exit 1; }
timeout 540 ctest --test-dir $b -j10 --timeout 200 -E '^Manifest/' > $o/l/ctest.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Total Test" $o/l/ctest.log | tail -20
echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest.log)"; grep '\*\*\*Skipped' $o/l/ctest.log | sed 's/.*: //; s/ \.\..*//' | head -20
echo "all $(( $(date +%s) - start )) s"
