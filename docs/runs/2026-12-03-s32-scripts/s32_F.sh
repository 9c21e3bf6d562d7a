#!/usr/bin/env bash
# s32_F: s32_E's rows again with the bf16 -> f32 kernels the split-K route slices on (s32_E left them out:
# its longk rows ran without the route), tokens / decode / gemv / longk only.
set -u
o=${OUT:-/tmp/out}; b=build-g; start=$(date +%s); LIMIT=${LIMIT:-120}
mkdir -p $o/l
trap 'tar czf $o/s32_F_logs.tar.gz -C $o/l .' EXIT
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS=90a -DCUTLASS_LIBRARY_KERNELS=default \
  -DCUTLASS_LIBRARY_IGNORE_KERNELS='*_epi_tma_*,*align8_epi_*,*align1_epi_*,*tensorop_f16_*,*simt_f16*,*e4m3*,*e5m2*,*s8*,*tf32*,*f64*,*grouped*,*simt_s*,*simt_d*,*simt_h*,*s16816gemm_bf16_*nn_*,*s16816gemm_bf16_*nt_*,*s16816gemm_bf16_*tt_*,*tensorop_s16816*,*f16_f16*' > $o/l/cfg.log 2>&1
grep "kernels selected" $o/l/cfg.log
cmake --build $b -j16 --target cutlass_bench > $o/l/build.log 2>&1 || { grep -E "error" $o/l/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - start )) s"
B=$b/src/benchmark/cutlass_bench
{ cat .device/s28.csv; tail -n +2 .device/longk.csv; } > /tmp/rows.csv
[ $(left) -gt 30 ] && { timeout $(( $(left) - 10 )) $B --shapes=/tmp/rows.csv --dtypes=bf16 --kernels=none_such > $o/l/rows.log 2>&1
  tail -9 $o/l/rows.log; grep -E "^(decode|tokens|gemv|longk|square|llm)" $o/l/rows.log | cut -c1-150; }
echo "all $(( $(date +%s) - start )) s"
