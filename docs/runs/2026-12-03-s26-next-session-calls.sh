#!/usr/bin/env bash
# The next session's first device calls, planned in s26 (docs/NOTES.md "Where s26 left things").
# Run from the repository root on the device with the suite in .device/ (carry it):
#   mkdir -p .device && cp ../shared/bench/gemm-shapes.csv .device/
#   printf 'group,M,N,K,layout\nlongk,128,128,65536,tn\nlongk,256,512,32768,tn\nlongk,64,256,131072,tn\n' > .device/longk.csv
#   printf 'group,M,N,K,layout\ndecode,16,8192,8192,tn\ntokens,13824,8,5120,tn\ntokens,5120,8,13824,tn\ntokens,13824,16,5120,tn\ntokens,5120,16,13824,tn\ntokens,14336,16,4096,tn\n' > .device/tok816.csv
# Call 1 (cold, ~5 min): `bash docs/runs/2026-12-03-s26-next-session-calls.sh ctest` (build, ctest
#   minus the per-kernel KernelTest entries)
# Call 2 (right after, warm, ~8 min): `bash docs/runs/2026-12-03-s26-next-session-calls.sh measure`
#   (those KernelTest entries, then the measurements)
set -u
o=${OUT:-/tmp/out}; b=build-gpu; start=$(date +%s)
mkdir -p $o/l
B=$b/src/benchmark/cutlass_bench
case "${1:-}" in
ctest)
  trap 'gzip -c $o/l/ctest.log > $o/ctest.log.gz 2>/dev/null; tar czf $o/ctest_logs.tar.gz -C $o/l .' EXIT
  [ -f $b/build.ninja ] || cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a > $o/l/cfg.log 2>&1
  cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
  echo "build $(( $(date +%s) - start )) s"
  # the whole ctest took 466 s at -j8 in s26 (~2500 s of tests): all but the 936 per-kernel
  # Manifest/KernelTest entries here (~150 s at -j8), those at the start of `measure`
  timeout 420 ctest --test-dir $b -j8 --timeout 300 -E '^Manifest/KernelTest[.]' > $o/l/ctest.log 2>&1
  grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" $o/l/ctest.log | tail -30
  ;;
measure)
  trap 'tar czf $o/measure_logs.tar.gz -C $o/l .' EXIT
  [ -f $b/build.ninja ] || { echo "no build: the machine was released"; exit 1; }
  timeout 300 ctest --test-dir $b -j8 --timeout 300 -R '^Manifest/KernelTest[.]' > $o/l/ctest_kernels.log 2>&1
  grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" $o/l/ctest_kernels.log | tail -10
  gzip -c $o/l/ctest_kernels.log > $o/ctest_kernels.log.gz
  ( CUTLASS_LIB_LIBRARY="$PWD/$b/library/libcutlass_lib.so" python3 -m pip install --quiet --no-deps --no-build-isolation --no-index . > $o/l/py_install.log 2>&1 ) 
  (cd /tmp && timeout 240 python3 -m pytest -q -rs "$OLDPWD/python/tests") > $o/l/pytest.log 2>&1; echo "pytest: $(tail -1 $o/l/pytest.log)"
  # long K: is the handle's slowdown after the stream-K kernels the mid-row workspace allocation?
  for round in 1 2; do
    for w in 0 64; do
      for v in none sk; do
        case $v in none) a=(--kernels=none_such);; sk) a=(--kernels='*tnn*stream_k*');; esac
        timeout 60 $B --shapes=.device/longk.csv --dtypes=bf16 --workspace-mib=$w "${a[@]}" > $o/l/longk_${v}_w${w}_$round.log 2>&1
        grep "^longk" $o/l/longk_${v}_w${w}_$round.log | awk -v v=$v -v w=$w '{print v, "ws", w, $2,$3,$4, "handle", $7, $8, "cublas", $13}'
      done
    done
  done
  # 8 / 16 tokens: kSkinnyBandwidthFraction 0.85 (HEAD) against 0.72, three runs each
  # issue 17: the narrower wgmma on tail tiles (CUTLASS_LIB_GROUPED_NARROW, opt-in since s26) on the MoE layers
  ctest --test-dir $b -R "narrow_tails" --timeout 200 > $o/l/ctest_narrow.log 2>&1; grep -E "tests passed|Failed" $o/l/ctest_narrow.log
  L=( "32,4096,7168 --tokens=8192 --distribution=sparse" "64,2048,7168 --tokens=4096 --distribution=sparse" "8,14336,4096 --tokens=8192" "1,14336,4096 --tokens=8192" )
  for round in 1 2; do
    for nw in 0 1; do
      for layer in "${L[@]}"; do
        echo "== narrow=$nw round $round --grouped=$layer" >> $o/l/layers.log
        CUTLASS_LIB_GROUPED_NARROW=$nw timeout 60 $B --grouped=$layer --profiling-iterations=20 >> $o/l/layers.log 2>&1
      done
    done
  done
  grep -E "^==|cutlass_lib grouped|dense cutlass" $o/l/layers.log | awk '/^==/{h=$0; next} {print h " | " $0}' | cut -c1-160
  cp src/library/gemm_selection.cpp /tmp/gemm_selection.cpp.head
  for f in 0.85 0.72; do
    sed -i "s/^constexpr double kSkinnyBandwidthFraction = .*;/constexpr double kSkinnyBandwidthFraction = $f;/" src/library/gemm_selection.cpp
    cmake --build $b -j16 --target cutlass_bench > $o/l/build_$f.log 2>&1 || { tail -20 $o/l/build_$f.log; exit 1; }
    for round in 1 2 3; do
      timeout 60 $B --shapes=.device/tok816.csv --dtypes=bf16 --details=$o/l/tok_${f}_$round.txt > $o/l/tok_${f}_$round.log 2>&1
      grep -E "^(decode|tokens)" $o/l/tok_${f}_$round.log | awk -v f=$f '{print f, $2,$3,$4, "handle", $8, "best", $12, $NF, $(NF-1)}'
    done
  done
  cp /tmp/gemm_selection.cpp.head src/library/gemm_selection.cpp
  echo "all $(( $(date +%s) - start )) s"
  ;;
*) echo "usage: $0 ctest|measure" >&2; exit 2 ;;
esac
