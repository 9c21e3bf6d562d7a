#!/usr/bin/env bash
# s32_B: kBoth (vec x vec) on two accumulator sets, its column pairs loaded at the promotion;
# block-scaled consumers 224 registers on one CTA (producer 56). Block-scale tests + memcheck,
# the mode ratios (two rounds), then the opt-in e4m3 -> fp8 kernels against cuBLASLt's fp8 D.
set -u
o=${OUT:-/tmp/out}; b=build-b; start=$(date +%s); LIMIT=${LIMIT:-420}
mkdir -p $o/l
trap 'tar czf $o/s32_B_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='*blockscale*,*e4m3_e4m3_f32_e*m*_e*m*_*,*e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6*pingpong_epi_tma' > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_lib cutlass_lib_gpu_tests cutlass_bench cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
T=$b/test/cutlass_lib_gpu_tests
timeout 150 $T --gtest_filter='*BlockScales*:*PreciseAccumulation*:Manifest/KernelTest.*blockscale*:*Fp8*:*fp8*' > $o/l/gtest.log 2>&1
echo "gtest exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" $o/l/gtest.log | head -12
timeout 90 compute-sanitizer --tool memcheck $T --gtest_filter='*BlockScales*EveryKernel*' > $o/l/memcheck.log 2>&1; echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1) $(grep -cE '^\[       OK' $o/l/memcheck.log) ok"
echo "tests $(( $(date +%s) - start )) s"
B=$b/src/benchmark/cutlass_bench
for r in 1 2; do
  for mode in "vecvec --scale-a=block128 --scale-b=block128" "vecblk --scale-a=block128 --scale-b=block128x128" \
              "blkvec --scale-a=block128x128 --scale-b=block128" "precise --accumulation=precise"; do
    set -- $mode; name=$1; shift
    [ $(left) -gt 60 ] || break
    timeout 40 $B --shapes=.device/fp8ab.csv --dtypes=fe4m3 --verify=false --max-kernel-seconds=0.15 \
      --kernels='*blockscale*' "$@" > $o/l/$name.$r.log 2>&1
    echo "$name r$r: $(grep -E '^(square|llm|tokens)' $o/l/$name.$r.log | cut -c1-150 | tr '\n' ';')"
  done
done
P=$b/src/profiler/cutlass_profiler
for s in "8192 8192 8192" "28672 256 4096"; do
  set -- $s
  [ $(left) -gt 25 ] || break
  timeout 20 $P --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=$1 --n=$2 --k=$3 --epilogue=bias_gelu_amax \
    --providers=cutlass,handle,cublaslt > $o/l/fp8_out_$1.log 2>&1
  echo "fp8 out $s: $(grep -E '^Summary' $o/l/fp8_out_$1.log | cut -c1-200)"; grep -E "^  cublaslt" $o/l/fp8_out_$1.log | head -2 | cut -c1-200
done
echo "all $(( $(date +%s) - start )) s"
