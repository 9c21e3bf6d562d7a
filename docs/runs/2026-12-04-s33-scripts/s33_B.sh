#!/usr/bin/env bash
# s33_B: default set + the e4m3 x e4m3 -> e4m3 / e5m2 kernels (now on 5 tiles: 128x128, 256x128
# cooperative, 128x32 / 128x64 / 128x96 ping-pong), 90a. Their per-kernel entries and the fp8 C API
# tests, memcheck of the new tiles, then the fp8-output rows against cuBLASLt's fp8 D (bias+GELU,
# D scale, amax) at 28672 x tokens x 4096 and 8192^3, and e4m3 -> bf16 at 256 tokens; pytest.
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s); LIMIT=${LIMIT:-560}
mkdir -p $o/l
trap 'tar czf $o/s33_B_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='default,*e4m3_e4m3_f32_e4m3_e4m3_*,*e4m3_e4m3_f32_e5m2_e5m2_*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
T=$b/test/cutlass_lib_gpu_tests
timeout 120 $T --gtest_filter='*e4m3_e4m3_f32_e4m3_e4m3*:*e4m3_e4m3_f32_e5m2_e5m2*:*Fp8*:*fp8*' > $o/l/gtest.log 2>&1
echo "gtest exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests ran' $o/l/gtest.log | tr '\n' ' ')"; grep -E "^\[  FAILED|^\[  SKIPPED" $o/l/gtest.log | head -12
timeout 90 compute-sanitizer --tool memcheck $T --gtest_filter='*e4m3_e4m3_f32_e4m3_e4m3_128x32*:*e4m3_e4m3_f32_e4m3_e4m3_256x128*bias_gelu*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1) $(grep -cE '^\[       OK' $o/l/memcheck.log) ok"
P=$b/src/profiler/cutlass_profiler
for s in "28672 256 4096" "28672 128 4096" "28672 64 4096" "28672 32 4096" "28672 16 4096" "8192 8192 8192" "28672 256 4096"; do
  set -- $s
  [ $(left) -gt 60 ] || break
  timeout 40 $P --A=fe4m3:row --B=fe4m3:column --C=fe4m3 --m=$1 --n=$2 --k=$3 --epilogue=bias_gelu_amax \
    --providers=cutlass,handle,cublaslt --profiling-iterations=40 > $o/l/fp8_out_$1_$2.log 2>&1
  echo "== fp8 out $s"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/fp8_out_$1_$2.log | cut -c1-230
done
[ $(left) -gt 50 ] && { timeout 30 $P --A=fe4m3:row --B=fe4m3:column --C=bf16 --m=28672 --n=256 --k=4096 \
    --providers=cutlass,handle,cublaslt --profiling-iterations=40 > $o/l/fp8_bf16.log 2>&1
  echo "== e4m3 -> bf16 28672 256 4096"; grep -E "^  (cutlass|handle|cublaslt) " $o/l/fp8_bf16.log | cut -c1-230; }
[ $(left) -gt 35 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 5 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
