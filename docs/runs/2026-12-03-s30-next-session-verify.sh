#!/usr/bin/env bash
# Proposed device call for the next session (written in s30, NOT run): verify what s30 landed
# after its device budget, all opt-in: the 2x1-cluster block-scaled kernel's fence (its KernelTest
# and BlockScalesGpu entries, and its speed against the 1x1 kernel), the 51 fused epilogues on
# e4m3 inputs (FusedKernelTest runs every fused kernel of the build), and the f32-output grouped
# kernels (CApiGroupedGpu.F32OutputGroupsMatchTheReference, one launch), plus memcheck of those.
# Copy to .device/ and run with carry [".device"]; LIMIT seconds (default 560).
set -u
o=${OUT:-/tmp/out}; b=build-v; start=$(date +%s); LIMIT=${LIMIT:-560}
mkdir -p $o/l
trap 'tar czf $o/verify_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='*blockscale*,*e4m3_e4m3_f32_*_epi_tma_*,*_f32_f32_*_grouped_*,*e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6*pingpong_epi_tma,*bf16_bf16_f32_f32_f32_128x128x64_1x1x1_6_tnn*pingpong_epi_tma' \
  > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_lib cutlass_lib_gpu_tests cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
T=$b/test/cutlass_lib_gpu_tests
timeout 240 $T --gtest_filter='*BlockScales*:*PreciseAccumulation*:Manifest/KernelTest.*blockscale*:Manifest/FusedKernelTest.*e4m3_e4m3*:Manifest/FusedStreamKTest.*e4m3_e4m3*:CApiGroupedGpu.*:Sm90Grouped.*' > $o/l/gtest.log 2>&1
echo "gtest exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" $o/l/gtest.log | head -30
[ $(left) -gt 150 ] && { timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='CApiGroupedGpu.F32Output*:Manifest/KernelTest.*2x1x1*blockscale*:Manifest/FusedKernelTest.RaggedShapes/*e4m3_e4m3_f32_bf16_bf16*bias_gelu' > $o/l/memcheck.log 2>&1
  echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1) $(grep -cE '^\[       OK' $o/l/memcheck.log) ok"; }
B=$b/src/benchmark/cutlass_bench
head -3 .device/fp8ab.csv > /tmp/two.csv
for r in 1 2; do
  for k in '*128x128x128_1x1x1_6*blockscale*' '*128x128x128_2x1x1_6*blockscale*'; do
    [ $(left) -gt 20 ] || break
    timeout $(( $(left) - 10 )) $B --shapes=/tmp/two.csv --dtypes=fe4m3 --verify=false --kernels="$k" \
      --scale-a=block128x128 --scale-b=block128 > $o/l/blk_$r.log 2>&1
    echo "blk x vec $k r$r: $(grep -E '^(square|llm)' $o/l/blk_$r.log | awk '{printf "%s %s %s | ", $7, $8, $11}')"
  done
done
echo "all $(( $(date +%s) - start )) s"
