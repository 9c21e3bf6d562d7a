#!/usr/bin/env bash
# s35_B (cold): default set + the opt-in block-scaled kernels (27: e4m3 x e4m3 and the new mixed
# pairings) + the grouped bf16 TN alphavec kernels, 90a. ctest without the per-kernel entries
# (block scales, device-sized alpha vector, profiler.grouped_gemm, ...), then the new kernels'
# per-kernel entries. s35_C (warm) runs memcheck, the grouped layers, the mixed block-scaled
# speed and the bf16 suite.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-585}
mkdir -p $o/l
trap 'tar czf $o/s35_B_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='default,*blockscale*,*bf16_bf16_f32_bf16_bf16_*tnn*grouped*alphavec*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
timeout $(( $(left) - 120 )) ctest --test-dir $b -j14 --timeout 280 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -10
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-90
echo "ctest $(( $(date +%s) - start )) s"
timeout $(( $(left) - 8 )) ctest --test-dir $b -j14 --timeout 100 -R '^Manifest/.*(blockscale|alphavec)' > $o/l/ctest_m.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_m.log | tail -8
echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest_m.log); $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
$G --gtest_filter='BlockScalesGpu.*:PreciseAccumulationGpu.*:DeviceSizesGpu.*' > $o/l/gtest_new.log 2>&1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" $o/l/gtest_new.log | head -20
