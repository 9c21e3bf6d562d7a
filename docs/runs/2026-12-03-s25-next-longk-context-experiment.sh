#!/usr/bin/env bash
# s25_F: is the long-K handle slower after the best-kernel search? The longk rows with no search,
# with the search, and with the search minus the stream-K kernels, alternating twice.
set -u
o=${OUT:-/tmp/out}; b=build-f; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s25_F_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_ENABLE_TESTS=OFF "-DCUTLASS_LIBRARY_KERNELS=cutlass3x_sm90_*_bf16_bf16_f32_*_tnn_align8*" "-DCUTLASS_LIBRARY_IGNORE_KERNELS=_epi_tma_,grouped" > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
B=$(find $b -name cutlass_bench -type f | head -1)
for round in 1 2; do
  for v in none all nosk; do
    case $v in none) a=(--kernels=none_such);; all) a=();; nosk) a=(--ignore-kernels='*stream_k*');; esac
    timeout 60 $B --shapes=.device/longk.csv --dtypes=bf16 "${a[@]}" > $o/l/${v}_$round.log 2>&1
    grep "^longk" $o/l/${v}_$round.log | awk -v v=$v -v r=$round '{print v, r, $2,$3,$4, "handle", $7, $8, "cublas", $13, "kern", $14}'
  done
done
echo "all $(( $(date +%s) - start )) s"
