#!/usr/bin/env bash
# s35_F (cold): programmatic dependent launch on every sm90 GEMM launch (gemm_sm90.h launch /
# run_device), default set + block-scaled, 90a: ctest without the per-kernel entries, a sample of
# per-kernel entries (every sm90 tile family, stream-K, swap-AB, 2x1 clusters), memcheck of the
# stream-K and grouped tests; then back-to-back calls with CUTLASS_LIB_PDL=1 / 0 (pdl_bench.cu)
# and the suite's decode / tokens / gemv rows (interleaved, per-launch events).
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-585}
mkdir -p $o/l
trap 'tar czf $o/s35_F_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='default,*blockscale*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
nvcc -O2 -std=c++17 -arch=sm_90a -I include .device/pdl_bench.cu -L $b/library -lcutlass_lib -lcublas -o /tmp/pdl_bench > $o/l/pdl_build.log 2>&1
for pdl in 1 0 1 0; do CUTLASS_LIB_PDL=$pdl LD_LIBRARY_PATH=$b/library timeout 60 /tmp/pdl_bench > $o/l/pdl_$pdl.log 2>&1; cat $o/l/pdl_$pdl.log; done
echo "pdl $(( $(date +%s) - start )) s"
timeout 230 ctest --test-dir $b -j14 --timeout 220 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -10
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-90
timeout $(( $(left) - 60 )) ctest --test-dir $b -j14 --timeout 60 -R '^Manifest/.*(bf16_bf16_f32_bf16_bf16_.*_tnn_|e4m3_e4m3_f32_bf16_bf16_.*blockscale)' > $o/l/ctest_m.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $o/l/ctest_m.log | tail -6
echo "ctest $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
[ $(left) -gt 50 ] && { timeout 40 compute-sanitizer --tool memcheck $G --gtest_filter='*StreamK*:CApiGroupedGpu.*' > $o/l/memcheck.log 2>&1
  echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"; }
B=$b/src/benchmark/cutlass_bench
[ $(left) -gt 40 ] && { timeout $(( $(left) - 10 )) $B --shapes=.device/s28.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  grep -E "^(decode|tokens|gemv) " $o/l/rows.log | cut -c1-130; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows.log; }
echo "all $(( $(date +%s) - start )) s"
