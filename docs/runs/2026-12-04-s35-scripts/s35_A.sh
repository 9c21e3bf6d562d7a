#!/usr/bin/env bash
# Proposed first device call for the next session (written in s34, NOT run: the budget was spent).
# Three questions s34 left (docs/NOTES.md, "Where s34 left things"):
# (1) decode bandwidth: what cuBLASLt runs for bias+GELU at 16 x 28672 x 4096 (60.6 us, 3.88 TB/s)
#     against our swap-AB 16x64 (65.0 us) and cublasGemmEx's plain kernel (64.8 us): tile, cluster,
#     CTAs, stages (ncu kernel names and launch stats), and DRAM throughput of each;
# (2) the M == 1 / N == 1 rows on the opt-in sm90 tiles against the GEMV kernel: the swap-AB 16x64
#     stream-K at 1 x 11008 x 4096 (s28: 0.96 against the GEMV's 0.91) and the 64x16 / 64x32 tiles at
#     11008 x 1 x 4096, interleaved with cuBLAS, to decide a selection rule for the GEMV rows;
# (3) where the fp8-output epilogue's last ~8 us go at 28672 x 256 x 4096 (128x128: 63.7 us fp8 out
#     + bias+GELU+amax against ~55 us with a bf16 out);
# (0) first: the opt-in bulk-copy GEMV (sm90_gemv, "*sgemv*_1x4_*", written s34, never run): its
#     per-kernel GPU tests and memcheck, then it races the register-form GEMV in (2).
# Run from the repository root with carry [".device"]; ~7 minutes cold.
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/next_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='*sgemv*_1x4_*,*bf16_bf16_f32_bf16_bf16_16x64x64*_tnn_*,*bf16_bf16_f32_bf16_bf16_64x16x64*_tnn_*,*bf16_bf16_f32_bf16_bf16_64x32x64_1x1x1_16_tnn_align8_warpspecialized_pingpong_epi_tma,*sgemv_bf16_256x1*_tn_*,*e4m3_e4m3_f32_e4m3_e4m3_128x128x128_1x1x1_6*bias_gelu_amax,cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6_tnn_align16_warpspecialized_pingpong_epi_tma,cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_*warpspecialized_pingpong_epi_tma' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
# (0) the opt-in kernels' per-kernel entries (bulk GEMV, 16x64 stream-K, 64x16), memcheck of the bulk GEMV's
timeout 200 ctest --test-dir $b -j14 --timeout 100 -R 'Manifest/.*(_1x4_|16x64x64_1x1x1_20_tnn_align8_stream_k|64x16x64)' > $o/l/ctest_optin.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $o/l/ctest_optin.log | tail -12
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 60 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/BandwidthKernelTest.*sgemv_bf16_256x1_1x4*' > $o/l/memcheck.log 2>&1
echo "memcheck bulk GEMV: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1)"
P=$b/src/profiler/cutlass_profiler
# (2) the opt-in tiles on the GEMV rows, every built kernel against cuBLAS, two rounds
for r in 1 2; do
  for s in "1 11008 4096" "11008 1 4096" "1 8192 8192" "8192 1 28672"; do
    set -- $s
    timeout 40 $P --A=bf16:row --B=bf16:column --C=bf16 --m=$1 --n=$2 --k=$3 --providers=cutlass,handle,cublas \
      --profiling-iterations=50 > $o/l/gemv_${1}_${2}_$r.log 2>&1
    echo "== r$r ${1}x${2}x${3}"; grep -E "^  (cutlass|handle|cublas) " $o/l/gemv_${1}_${2}_$r.log | tr -s ' ' | cut -d' ' -f2,5,9,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-110
  done
done
# llm 4096x14336x4096 re-time (s34: 1.023 -> 0.986 unexplained), three rounds
for r in 1 2 3; do timeout 40 $P --A=bf16:row --B=bf16:column --C=bf16 --m=4096 --n=14336 --k=4096 --providers=cutlass,handle,cublas --kernels='*128x128x64*' --profiling-iterations=50 > $o/l/llm_$r.log 2>&1
  echo "== llm r$r"; grep -E "^  (cutlass|handle|cublas) " $o/l/llm_$r.log | tr -s ' ' | cut -d' ' -f2,5,9,12 | sed 's/cutlass3x_sm90_tensorop_gemm_//' | cut -c1-110; done
# (1) and (3): ncu, one launch each
nc() {  # name kernel-regex launches profiler-args...
  local n=$1 k=$2 c=$3; shift 3
  timeout 120 ncu --clock-control none -k "regex:$k" -c $c --section SpeedOfLight --section LaunchStats \
    --section WarpStateStats --metrics dram__bytes_read.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    -o $o/l/rep_$n $P "$@" --warmup-iterations=0 --profiling-iterations=1 --verification-enabled=false > $o/l/ncu_run_$n.log 2>&1
  ncu -i $o/l/rep_$n.ncu-rep --print-details all > $o/l/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "^  [a-zA-Z_].*\(|^    [a-zA-Z_].*Context|Duration|Grid Size|Block Size|Cluster Size|Registers Per|Dynamic Shared|dram__|Stall [A-Z]" $o/l/ncu_$n.txt | head -24
}
D="--A=bf16:row --B=bf16:column --C=bf16 --m=16 --n=28672 --k=4096"
# cuBLAS's sm90 kernels are named nvjet_* / *xmma* (s11, s28); cublaslt also runs cublas + an epilogue kernel
nc cublaslt_gelu_bias 'nvjet|xmma' 3 $D --epilogue=bias_gelu --providers=cublaslt
nc ours_gelu_bias 'gemm_sm90' 1 $D --epilogue=bias_gelu --providers=handle
nc cublas_plain 'nvjet|xmma' 1 $D --providers=cublas
F="--A=fe4m3:row --B=fe4m3:column --m=28672 --n=256 --k=4096"
nc fp8out_128x128 'gemm_sm90' 1 $F --C=fe4m3 --epilogue=bias_gelu_amax --providers=cutlass --kernels='*e4m3_e4m3_f32_e4m3_e4m3_128x128x128*'
nc bf16out_128x128 'gemm_sm90' 1 $F --C=bf16 --providers=cutlass --kernels='*e4m3_e4m3_f32_bf16_bf16_128x128x128*'
rm -f $o/l/*.ncu-rep
echo "all $(( $(date +%s) - start )) s"
