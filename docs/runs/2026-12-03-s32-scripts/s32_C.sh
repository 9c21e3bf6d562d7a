#!/usr/bin/env bash
# s32_C: the column kinds (kColumnScales, kBoth) on two sets where consumers have 224 registers.
# Build b: this tree (blk x vec on the square tile still swapped to the row kind); build ns: the
# same with kSwapsColumnScales off (blk x vec as kColumnScales, two sets, unswapped). Tests on both,
# then blk x vec of both builds interleaved, two rounds; vec x vec and vec x blk of build b.
set -u
o=${OUT:-/tmp/out}; b=build-b; ns=/tmp/ns/build-ns; start=$(date +%s); LIMIT=${LIMIT:-420}
mkdir -p $o/l
trap 'tar czf $o/s32_C_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
F='*blockscale*,*e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6*pingpong_epi_tma'
mkdir -p /tmp/ns && git ls-files -z | xargs -0 cp --parents -t /tmp/ns && cp -r .device /tmp/ns/
sed -i 's/kBlockScaled \&\& TileShape::kM == TileShape::kN \&\& Mainloop::kSplitM/false \&\& TileShape::kM == TileShape::kN \&\& Mainloop::kSplitM/' /tmp/ns/include/cutlass/gemm/kernel/gemm_sm90.h
grep -c "false && TileShape::kM == TileShape::kN" /tmp/ns/include/cutlass/gemm/kernel/gemm_sm90.h
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS="$F" > $o/l/cfg.log 2>&1
cmake -S /tmp/ns -B $ns -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS="$F" > $o/l/cfg_ns.log 2>&1
cmake --build $b -j16 --target cutlass_lib cutlass_lib_gpu_tests cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
cmake --build $ns -j16 --target cutlass_lib cutlass_lib_gpu_tests cutlass_bench > $o/l/build_ns.log 2>&1 || { grep -E "error" $o/l/build_ns.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
for t in $b $ns; do
  timeout 100 $t/test/cutlass_lib_gpu_tests --gtest_filter='*BlockScales*:*PreciseAccumulation*:Manifest/KernelTest.*blockscale*' > $o/l/gtest_$(basename $t).log 2>&1
  echo "gtest $(basename $t) exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $o/l/gtest_$(basename $t).log | tr '\n' ' ')"
done
timeout 90 compute-sanitizer --tool memcheck $b/test/cutlass_lib_gpu_tests --gtest_filter='*BlockScales*EveryKernel*' > $o/l/memcheck.log 2>&1; echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1) $(grep -cE '^\[       OK' $o/l/memcheck.log) ok"
echo "tests $(( $(date +%s) - start )) s"
bench() {  # build name flags...
  local t=$1 name=$2; shift 2
  [ $(left) -gt 40 ] || return
  timeout 40 $t/src/benchmark/cutlass_bench --shapes=.device/fp8ab.csv --dtypes=fe4m3 --verify=false --max-kernel-seconds=0.15 \
    --kernels='*blockscale*' "$@" > $o/l/$name.log 2>&1
  echo "$name: $(grep -E '^(square|llm|tokens)' $o/l/$name.log | cut -c1-150 | tr '\n' ';')"
}
for r in 1 2; do
  bench $b blkvec_b.$r --scale-a=block128x128 --scale-b=block128
  bench $ns blkvec_ns.$r --scale-a=block128x128 --scale-b=block128
done
bench $b vecvec_b --scale-a=block128 --scale-b=block128
bench $b vecblk_b --scale-a=block128 --scale-b=block128x128
echo "all $(( $(date +%s) - start )) s"
