#!/usr/bin/env bash
# Proposed first device call for the next session (written in s33, NOT run: the budget was spent).
# Apply docs/runs/2026-12-04-s33-one-body-epilogue.diff first (git apply): the per-element epilogue
# with one body for both C cases. fp8 out at 28672 x 256 x 4096 against s33_C / s33_E (82.6-89 us).
set -u
o=${OUT:-/tmp/out}; b=build-x; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s33_F_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_ENABLE_TESTS=OFF -DCUTLASS_LIB_PTXAS_VERBOSE=ON \
  -DCUTLASS_LIBRARY_KERNELS='*e4m3_e4m3_f32_e4m3_e4m3_128x128x128_1x1x1_6*bias_gelu_amax,*e4m3_e4m3_f32_e4m3_e4m3_128x64x128*bias_gelu_amax' > $o/l/cfg.log 2>&1
cmake --build $b -j16 --target cutlass_profiler > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; spills: $(grep -c 'Registers are spilled' $o/l/build.log)"
for r in 1 2; do
timeout 25 $b/src/profiler/cutlass_profiler --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=28672 --n=256 --k=4096 --epilogue=bias_gelu_amax \
  --providers=cutlass,cublaslt --profiling-iterations=40 > $o/l/fp8_$r.log 2>&1
grep -E "^  (cutlass|cublaslt) " $o/l/fp8_$r.log | cut -c1-200
done
timeout 25 $b/src/profiler/cutlass_profiler --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=28672 --n=256 --k=4096 --epilogue=bias_gelu_amax \
  --beta=1 --providers=cutlass --profiling-iterations=5 > $o/l/fp8_beta.log 2>&1
echo "beta=1:"; grep -E "^  cutlass " $o/l/fp8_beta.log | cut -c1-120
echo "all $(( $(date +%s) - start )) s"
