#!/usr/bin/env bash
# s34_A (cold): the one-body epilogue (docs/runs/2026-12-04-s33-one-body-epilogue.diff, applied in
# the working tree) against the base code (the diff reversed in a copy), same kernels, built side by
# side, timed alternately: fp8 out bias+GELU+amax and bf16 bias+GELU at 28672 x {16,64,256} x 4096.
set -u
o=${OUT:-/tmp/out}; start=$(date +%s)
mkdir -p $o/l
trap 'tar czf $o/s34_A_logs.tar.gz -C $o/l .' EXIT
K='*e4m3_e4m3_f32_e4m3_e4m3_128x128x128_1x1x1_6*bias_gelu_amax,*e4m3_e4m3_f32_e4m3_e4m3_128x64x128*bias_gelu_amax,*sm90*bf16_bf16_f32_bf16_bf16_*_tnn_*_bias_gelu'
rm -rf /tmp/base && mkdir /tmp/base && cp -r . /tmp/base/ 2>/dev/null; rm -rf /tmp/base/build*
(cd /tmp/base && patch -R -p1 -s < docs/runs/2026-12-04-s33-one-body-epilogue.diff) || { echo "reverse failed"; exit 1; }
for t in new base; do
  src=.; [ $t = base ] && src=/tmp/base
  ( cmake -S $src -B /tmp/b-$t -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_ENABLE_TESTS=OFF \
      -DCUTLASS_LIB_PTXAS_VERBOSE=ON -DCUTLASS_LIBRARY_KERNELS="$K" > $o/l/cfg_$t.log 2>&1 &&
    cmake --build /tmp/b-$t -j8 --target cutlass_profiler > $o/l/build_$t.log 2>&1; echo "$t rc $?" ) &
done
wait
grep "kernels selected" $o/l/cfg_new.log
echo "build $(( $(date +%s) - start )) s; spills new $(grep -c 'Registers are spilled\|[1-9][0-9]* bytes spill' $o/l/build_new.log) base $(grep -c 'Registers are spilled\|[1-9][0-9]* bytes spill' $o/l/build_base.log)"
prof() { # tree type n epilogue
  local t=$1 ty=$2 n=$3 e=$4 C=$2; [ $ty = fe4m3 ] && C=fe4m3
  timeout 40 /tmp/b-$t/src/profiler/cutlass_profiler --A=$ty:row --B=$ty:column --C=$C --m=28672 --n=$n --k=4096 --epilogue=$e \
    --providers=cutlass,handle,cublaslt --profiling-iterations=40 > $o/l/${t}_${ty}_${n}_r$r.log 2>&1
  grep -E "^  (cutlass|handle|cublaslt) " $o/l/${t}_${ty}_${n}_r$r.log | sed "s/^/$t /" | tr -s " " | cut -c1-200
}
for r in 1 2; do
  for s in "fe4m3 256 bias_gelu_amax" "fe4m3 64 bias_gelu_amax" "bf16 16 bias_gelu" "bf16 64 bias_gelu" "bf16 256 bias_gelu"; do
    set -- $s; echo "== r$r $1 28672x$2x4096 $3"
    prof new $1 $2 $3; prof base $1 $2 $3
  done
done
echo "all $(( $(date +%s) - start )) s"
