#!/usr/bin/env bash
# s35 next session, second call (warm, after docs/runs/2026-12-04-s35-next-session-call.sh on the
# same build): ctest without the per-kernel entries (the new LaunchOrderGpu chains: back-to-back
# GEMMs reading each other's output, direct and in a CUDA graph; DeviceSizesGpu.AlphaVectorPerGroup
# skips without the opt-in alphavec kernels), memcheck of the launch-order and graph tests, then the
# decode / tokens / gemv rows timed per launch and --back-to-back=20 with PDL on and off
# (CUTLASS_LIB_PDL=0), and pytest. Run from the repository root with carry [".device"].
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'tar czf $o/next_D_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
[ -x $b/src/profiler/cutlass_profiler ] || { echo "no build (machine not warm)"; exit 1; }
timeout 240 ctest --test-dir $b -j14 --timeout 230 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -10
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-90
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='Chains/LaunchOrderGpu.*:DeviceSizesGpu.ACaptured*:ExpertLayer.*Graph*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
B=$b/src/benchmark/cutlass_bench
for mode in "1 1" "20 1" "20 0"; do set -- $mode
  [ $(left) -gt 60 ] && { CUTLASS_LIB_PDL=$2 timeout $(( $(left) - 40 )) $B --shapes=.device/s28.csv --dtypes=bf16 --kernels=none_such --back-to-back=$1 > $o/l/rows_$1_$2.log 2>&1
    echo "== back-to-back $1, PDL $2"; grep -E "^(decode|tokens|gemv) " $o/l/rows_$1_$2.log | cut -c1-130; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$1_$2.log; }
done
# the opt-in swap-AB 16x128 tile against 16x64 / 32x64 on the decode rows (best-kernel search)
[ $(left) -gt 60 ] && { timeout $(( $(left) - 40 )) $B --shapes=.device/s28.csv --groups=decode --dtypes=bf16 \
    --kernels='*16x128x64*,*16x64x64*,*32x64x64*' > $o/l/rows_16x128.log 2>&1
  echo "== 16x128"; grep -E "^decode " $o/l/rows_16x128.log | cut -c1-170; }
[ $(left) -gt 30 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
