#!/usr/bin/env bash
# Written s39, NOT run (the device was withdrawn). The next session's first call, s41_A: (1) GemvParams::x_direct dropped (host-only since s38; the kernel parameters shift)
# and the split plan's occupancy query without a dynamic x buffer for the x-direct kernel: GEMV
# entries + memcheck; (2) the opt-in grouped 64x16 token tile (decode MoE at 1-16 tokens per
# expert): its direct kernel tests + memcheck, the grouped C API / expert-layer tests preferring
# it, then decode MoE layers through the profiler: the ranking's pick, 64x32 and 64x16 forced.
set -u
o=${OUT:-/tmp/out}; b=build-h; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s41_A_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  "-DCUTLASS_LIBRARY_KERNELS=sgemv,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_*_tnn_align8_grouped_*" \
  "-DCUTLASS_LIBRARY_IGNORE_KERNELS=_epi_tma_,splitk_" > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_lib_gpu_tests cutlass_sm90_grouped_tests cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -v warning | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1); S=$(find $b -name cutlass_sm90_grouped_tests -type f | head -1)
timeout 150 $G --gtest_filter='Manifest/*sgemv*' > $o/l/gemv_t.log 2>&1
echo "GEMV entries: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/gemv_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/gemv_t.log | head
timeout 90 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*sgemv_bf16_256x1_1x1_tn_align1_splitk:Manifest/*sgemv_bf16_256x1_1x1_nt_align1_splitk' > $o/l/mc.log 2>&1
echo "memcheck GEMV: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc.log | tr '\n' ' ')"
timeout 120 $S > $o/l/sm90g.log 2>&1
echo "sm90 grouped: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/sm90g.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/sm90g.log | head
timeout 90 compute-sanitizer --tool memcheck $S --gtest_filter='*SixteenToken*' > $o/l/mc16.log 2>&1
echo "memcheck 64x16 grouped: $(grep -E 'ERROR SUMMARY' $o/l/mc16.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc16.log | tr '\n' ' ')"
for pref in "" _64x16x64_; do
  CUTLASS_LIB_GROUPED_KERNEL=$pref timeout 120 $G --gtest_filter='ExpertLayer.*:CApiGroupedGpu.*:DeviceSizesGpu.*' > $o/l/api$pref.log 2>&1
  echo "grouped API/expert tests, preferring '$pref': $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/api$pref.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/api$pref.log | head
done
P=$b/src/profiler/cutlass_profiler
for layer in "--counts=9,0,3,16,1,0,4,1" "--tokens=34 --distribution=sparse" "--counts=16,16,16,16,16,16,16,16" "--counts=2,0,5,1,0,0,8,0"; do
  for pref in "" _64x32x64_ _64x16x64_; do
    CUTLASS_LIB_LOG=1 CUTLASS_LIB_GROUPED_KERNEL=$pref timeout 60 $P --operation=grouped_gemm --experts=8 --m=14336 --k=4096 $layer --profiling-iterations=30 > $o/l/grouped.log 2>&1
    echo "== $layer, preferring '$pref'"; grep -oE "in one launch of [a-z0-9_]+" $o/l/grouped.log | sed 's/cutlass3x_sm90_tensorop_gemm_//' | sort | uniq -c | head -3
    grep -vE "^cutlass_profiler, grouped|one launch of|cutlass_lib:" $o/l/grouped.log | cut -c1-170 | tail -9
  done
done
echo "all $(( $(date +%s) - start )) s"
