#!/usr/bin/env bash
# Host time and CPU profile of the host-sized grouped call against a build's library (a GPU
# machine): scripts/host_profile/run.sh <build dir> [out dir]. Prints the time per call with the
# GPU queue full and idle, then the sampled profile (sampler.c, resolve.py) of 6000 calls.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh <build dir> [out dir]}" && pwd)
out=${2:-$build/host_profile}
mkdir -p "$out"
library=$(dirname "$(find "$build" -name 'libcutlass_lib.so' | head -1)")
cuda=${CUDA_HOME:-/usr/local/cuda}
gcc -O2 -shared -fPIC -o "$out/sampler.so" "$here/sampler.c" -ldl
g++ -O2 -std=c++17 -o "$out/grouped_call" "$here/grouped_call.cpp" -I"$here/../../include" -I"$cuda/include" \
  -L"$library" -lcutlass_lib -L"$cuda/lib64" -lcudart -Wl,-rpath,"$library"
"$out/grouped_call" 300
SYNC_EACH=1 "$out/grouped_call" 300
SAMPLE_OUT="$out/samples.txt" LD_PRELOAD="$out/sampler.so" "$out/grouped_call" 6000
python3 "$here/resolve.py" "$out/samples.txt" 40
