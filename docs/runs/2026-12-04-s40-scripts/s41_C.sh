#!/usr/bin/env bash
# Written s40, NOT run. s41_C: the bias-only epilogue (cuBLASLt's EPILOGUE_BIAS, nn.Linear with a
# bias) for the default set. A default build answers NO_KERNEL for it on dense calls today: only
# bias+ReLU / bias+GELU are default, and bias alone exists only on each row's first tile. This
# call adds Epilogue(bias=True) to DEFAULT_SET in the device's copy of generator/epilogues.py
# (the one-line change to land if it passes: every default fused tile gets its bias twin, ~90
# kernels), builds, and runs every bias-only kernel's per-kernel entries and the C API bias
# tests. If all pass: land that line on main with the generator test counts and README counts.
set -u
o=${OUT:-/tmp/out}; b=build-bias; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s41_C_logs.tar.gz -C $o/l .' EXIT
sed -i 's/^DEFAULT_SET = (Epilogue(activation="relu", bias=True), Epilogue(activation="gelu", bias=True))$/DEFAULT_SET = (Epilogue(bias=True), Epilogue(activation="relu", bias=True), Epilogue(activation="gelu", bias=True))/' generator/epilogues.py
grep -n "^DEFAULT_SET" generator/epilogues.py
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIB_PTXAS_VERBOSE=ON > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_lib_gpu_tests cutlass_lib_c_api_tests > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s; nonzero spills: $(grep 'bytes spill' $o/l/build.log | grep -v warning | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
G=$(find $b -name cutlass_lib_gpu_tests -type f | head -1)
timeout 300 $G --gtest_filter='Manifest/*_epi_tma_bias:Manifest/*_epi_tma_bias_amax:Manifest/*_epi_bias:*Bias*:*bias*' > $o/l/bias_t.log 2>&1
echo "bias-only entries and bias tests: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $o/l/bias_t.log | tr '\n' ' ')"; grep '^\[  FAILED  \]' $o/l/bias_t.log | head
timeout 120 compute-sanitizer --tool memcheck $G --gtest_filter='Manifest/*bf16_bf16_f32_bf16_bf16_64x32x64*_epi_tma_bias:Manifest/*sgemv_bf16*tn*_epi_bias' > $o/l/mc.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/mc.log | tail -1); $(grep -E '^\[  (PASSED|FAILED)' $o/l/mc.log | tr '\n' ' ')"
echo "all $(( $(date +%s) - start )) s"
