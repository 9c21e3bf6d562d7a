#!/usr/bin/env bash
# s35_D (cold): the swapped promotion for the mixed block-scaled pairings (115cd1c) on the GPU:
# default set + block-scaled + grouped alphavec (as s35_B), whole ctest without the per-kernel
# entries, the block-scaled per-kernel entries, memcheck of the block-scale tests; then the mixed
# pairings against cuBLASLt, and the tokens / decode rows three times (13824 x 8 x 5120 fell from
# 0.945 in s34 to 0.830 in s35_C on the same kernel: spread or not).
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-585}
mkdir -p $o/l
trap 'tar czf $o/s35_D_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='default,*blockscale*,*bf16_bf16_f32_bf16_bf16_*tnn*grouped*alphavec*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
timeout 250 ctest --test-dir $b -j14 --timeout 240 -E '^Manifest/' > $o/l/ctest_o.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Total Test" $o/l/ctest_o.log | tail -10
grep '\*\*\*Skipped' $o/l/ctest_o.log | sed 's/.*Test *#[0-9]*: //' | cut -c1-90
timeout 80 ctest --test-dir $b -j14 --timeout 60 -R '^Manifest/.*blockscale' > $o/l/ctest_m.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $o/l/ctest_m.log | tail -5
echo "ctest $(( $(date +%s) - start )) s"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 compute-sanitizer --tool memcheck $G --gtest_filter='Modes/BlockScalesGpu.SumOfScaledKBlocks/*:Modes/BlockScalesGpu.EveryKernel/blk_vec' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/memcheck.log | tr '\n' ' ')"
P=$b/src/profiler/cutlass_profiler
for r in 1 2; do for pair in "fe4m3 fe5m2" "fe5m2 fe4m3" "fe4m3 fe4m3"; do
  set -- $pair
  timeout 40 $P --A=$1:row --B=$2:column --C=bf16 --m=8192 --n=8192 --k=8192 --scale-a=block128x128 --scale-b=block128 \
    --providers=cutlass,handle,cublaslt --profiling-iterations=20 > $o/l/blk_$1_$2_$r.log 2>&1
  echo "== r$r block scales $1 x $2 8192^3 blk x vec"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/blk_$1_$2_$r.log | tr -s ' ' | cut -d' ' -f2,3,5,7,10,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-140
done; done
B=$b/src/benchmark/cutlass_bench
for r in 1 2 3; do
  [ $(left) -gt 60 ] && timeout $(( $(left) - 40 )) $B --shapes=.device/s28.csv --dtypes=bf16 --kernels='*64x32x64*,*16x64x64*,*32x64x64*' > $o/l/rows_$r.log 2>&1
  echo "== rows r$r"; grep -E "^(decode|tokens|gemv) " $o/l/rows_$r.log | cut -c1-130; grep -E "bf16  (decode|tokens|gemv) " $o/l/rows_$r.log
done
echo "all $(( $(date +%s) - start )) s"
