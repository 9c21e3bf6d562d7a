#!/usr/bin/env bash
# Proposed first device call for the next session (written in s31, NOT run): what s31 changed after
# its last device call. Default set (402): the device-sized grouped tests (the host-alpha-0 path in
# the prologue, BetaZeroAndAlphaZero, ManyGroupsAcrossPrologueRounds, the stricter skip and decode
# tests), memcheck of them, the C API host tests with a device present (DeviceSizesArgumentChecks
# after 1c26692), the profiler / packaging ctest entries s31_D's 300-s cap left unfinished, pytest.
# Copy to .device/ and run with carry [".device"].
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/next_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a > $o/l/cfg.log 2>&1
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
( cmake -S . -B $b-fp8 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='*e4m3_e4m3_f32_e*m*_e*m*_*' > $o/l/cfg_fp8.log 2>&1 &&
  cmake --build $b-fp8 -j6 --target cutlass_profiler > $o/l/build_fp8.log 2>&1; echo done > $o/l/fp8_built ) &
T=$b/test/cutlass_lib_gpu_tests
timeout 200 $T --gtest_filter='DeviceSizes*:CApiGroupedGpu.*:ExpertLayer.*' > $o/l/gtest.log 2>&1
echo "gtest exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) \]" $o/l/gtest.log | head -20
timeout 150 compute-sanitizer --tool memcheck $T --gtest_filter='DeviceSizes*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1)"
CUTLASS_LIB_LOG=1 timeout 60 $b/test/cutlass_lib_c_api_tests > $o/l/capi.log 2>&1; echo "c api: $(grep -E '^\[  (PASSED|FAILED)' $o/l/capi.log | head -3)"
timeout 150 ctest --test-dir $b -j8 --timeout 120 -R '^(profiler|packaging|readme|Profiler|cute|Cute|sm80|sm90)' > $o/l/ctest_rest.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed" $o/l/ctest_rest.log | tail -5
wait; echo "fp8 build: $(tail -2 $o/l/build_fp8.log | head -1)"
timeout 90 $b-fp8/src/profiler/cutlass_profiler --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=8192 --n=8192 \
    --k=8192 --epilogue=bias_gelu_amax --providers=cutlass,handle,cublaslt > $o/l/fp8_out.log 2>&1
grep -E "^Summary" $o/l/fp8_out.log | cut -c1-240
( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
(cd /tmp && timeout 90 python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"
echo "all $(( $(date +%s) - start )) s"
