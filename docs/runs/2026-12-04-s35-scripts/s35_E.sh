#!/usr/bin/env bash
# s35_E (cold): why the handle runs the block-scaled 128x128 kernel 4-12% slower than the profiler's
# direct call of the same kernel (s35_D, 8192^3 blk x vec): every kernel each provider launches
# under ncu (names, grid, duration), e4m3 x e4m3 and e4m3 x e5m2.
set -u
o=${OUT:-/tmp/out}; b=build-e; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s35_E_logs.tar.gz -C $o/l .' EXIT
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_ENABLE_TESTS=OFF \
  -DCUTLASS_LIBRARY_KERNELS='*e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_6_tnn_align16_warpspecialized_cooperative_blockscale*,*e4m3_e5m2_f32_bf16_bf16_128x128x128_1x1x1_6_tnn_align16_warpspecialized_cooperative_blockscale*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
P=$b/src/profiler/cutlass_profiler
for pair in "fe4m3 fe4m3" "fe4m3 fe5m2"; do set -- $pair
  for prov in cutlass handle; do
    A="--A=$1:row --B=$2:column --C=bf16 --m=8192 --n=8192 --k=8192 --scale-a=block128x128 --scale-b=block128 --providers=$prov --verification-enabled=false"
    timeout 60 $P $A --profiling-iterations=30 > $o/l/t_$1_$2_$prov.log 2>&1
    echo "== $1 x $2 $prov: $(grep -E "^  $prov " $o/l/t_$1_$2_$prov.log | awk '{print $4}')"
    timeout 90 ncu --clock-control none -c 60 --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_size $P $A --warmup-iterations=1 --profiling-iterations=2 > $o/l/ncu_$1_$2_$prov.log 2>&1
    awk '/Context/ {sub(/, Context.*/, ""); name=substr($0, 3, 90)} /gpu__time_duration/ {print $NF, name}' $o/l/ncu_$1_$2_$prov.log | grep -v "fill\|poison" | head -16
  done
done
echo "all $(( $(date +%s) - start )) s"
