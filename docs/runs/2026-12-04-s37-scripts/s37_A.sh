#!/usr/bin/env bash
# s37_A: TMA streaming ceiling microbenchmark (.device/tma_stream.cu)
set -u
o=${OUT:-/tmp/out}
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude .device/tma_stream.cu -o /tmp/tma_stream -lcublas -lcuda || exit 1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv
timeout 200 /tmp/tma_stream 2>&1 | tee $o/tma_stream.log
