#!/usr/bin/env bash
# s32_D (first of the final pair): default set + the 9 block-scaled kernels (90a) at the session's
# device code (the run-time raster order in every sm90 persistent kernel; block-scaled two-set kinds):
# ctest without the per-kernel Manifest entries (s32_E runs those), pytest, then the raster sweep
# (cutlass provider, 128x128 ping-pong TN, along_n / along_m x 1, 2, 4, 8 against cuBLAS).
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s); LIMIT=${LIMIT:-580}
mkdir -p $o/l
trap 'gzip -c $o/l/ctest.log > $o/ctest_d.log.gz 2>/dev/null; tar czf $o/s32_D_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a \
  -DCUTLASS_LIBRARY_KERNELS='default,*blockscale*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
P=$b/src/profiler/cutlass_profiler
K='cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_warpspecialized_pingpong_epi_tma'
sweep() {  # m n k
  for r in "heuristic 0" "along_n 8" "along_m 8" "along_n 4" "along_m 4" "along_n 2" "along_m 2" "along_n 1" "along_m 1"; do
    set -- $r "$@"; [ $(left) -gt 330 ] || return
    f=""; [ $2 != 0 ] && f="--swizzle_size=$2"
    timeout 20 $P --kernels=$K --providers=cutlass,cublas --m=$3 --n=$4 --k=$5 --raster_order=$1 $f \
      --profiling-iterations=40 > $o/l/sweep_$3_$1_$2.log 2>&1
    echo "$3x$4x$5 $1 $2: $(grep -E '^  cutlass ' $o/l/sweep_$3_$1_$2.log | awk '{print $3, $4, $5, $7}')"
    shift 2
  done
}
sweep 8192 8192 8192
sweep 4096 14336 4096
timeout $(( $(left) - 30 )) ctest --test-dir $b -j10 --timeout 200 -E '^Manifest/(KernelTest|RasterKernelTest)[.]' > $o/l/ctest.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" $o/l/ctest.log | tail -20
echo "skipped: $(grep -c '\*\*\*Skipped' $o/l/ctest.log); ctest $(( $(date +%s) - start )) s"
[ $(left) -gt 25 ] && { ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 )
  (cd /tmp && timeout $(( $(left) - 3 )) python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"; }
echo "all $(( $(date +%s) - start )) s"
