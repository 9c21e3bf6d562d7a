#!/usr/bin/env bash
# Proposed first device call for the next session (written in s32, NOT run): what s32 could not
# run at its final code. Default set (402), 90a: the per-kernel Manifest entries (KernelTest,
# RasterKernelTest, StreamKKernelTest, BandwidthKernelTest) of every default kernel, the whole
# pytest, and the window model's one unmeasured departure: bands of columns along M for tiles
# wider than tall (64x128 at 4096^3 and 2048 x 8192 x 4096; 128x208 stream-K at 4096 x 2048 x 11008)
# against the default order; then memcheck of the block-scaled kernels (s32's release_stage
# __syncwarp, after the last device call) and the device-sized Select's GPU test. Copy to .device/ and run with carry [".device"].
set -u
o=${OUT:-/tmp/out}; b=build-n; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'gzip -c $o/l/ctest.log > $o/ctest.log.gz 2>/dev/null; tar czf $o/s33_A_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='default,*blockscale*' > $o/l/cfg.log 2>&1
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
P=$b/src/profiler/cutlass_profiler
for kr in "64x128x64_1x1x1_8_tnn_align8_warpspecialized_pingpong_epi_tma 4096 4096 4096" \
          "64x128x64_1x1x1_8_tnn_align8_warpspecialized_pingpong_epi_tma 2048 8192 4096" \
          "128x208x64_1x1x1_4_tnn_align8_stream_k_warpspecialized_cooperative_epi_tma 4096 2048 11008"; do
  set -- $kr
  for r in "heuristic 0" "along_m 8" "along_n 8" "along_m 4" "along_n 4"; do
    set -- $r $1 $2 $3 $4
    f=""; [ $2 != 0 ] && f="--swizzle_size=$2"
    timeout 20 $P --kernels="*bf16_bf16_f32_bf16_bf16_$3" --providers=cutlass,cublas --m=$4 --n=$5 --k=$6 \
      --raster_order=$1 $f --profiling-iterations=40 > $o/l/sweep.log 2>&1
    echo "$4x$5x$6 $1 $2: $(grep -E '^  cutlass ' $o/l/sweep.log | awk '{print $3, $4, $5, $7}')"
    shift 2
  done
done
timeout $(( $(left) - 120 )) ctest --test-dir $b -j10 --timeout 200 -R '^Manifest/' > $o/l/ctest.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" $o/l/ctest.log | tail -20
timeout 60 $b/test/cutlass_lib_gpu_tests --gtest_filter='DeviceSizesGpu.*:CApiGrouped*' > $o/l/gtest_ds.log 2>&1
echo "device-sized (the new Select) gtest exit $?: $(grep -E '^\[  (PASSED|FAILED)' $o/l/gtest_ds.log | tr '\n' ' ')"
timeout 60 compute-sanitizer --tool memcheck $b/test/cutlass_lib_gpu_tests --gtest_filter='*BlockScales*EveryKernel*' > $o/l/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $o/l/memcheck.log | tail -1) $(grep -cE '^\[       OK' $o/l/memcheck.log) ok"
( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
(cd /tmp && timeout 50 python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"
echo "all $(( $(date +%s) - start )) s"
