#!/usr/bin/env bash
# The full check on a GPU machine, in one go (device time is scarce): build the default kernel set
# with every core, run the whole test suite (GPU tests included), the profiler's default problem,
# and the ratio table against cuBLAS. Logs go to $OUT (default: ./gpu_check_out).
#
# Environment: OUT, BUILD_DIR (default build-gpu), CUTLASS_NVCC_ARCHS (default 90a: the H200's
# own architecture only, to halve the build), CUTLASS_LIBRARY_KERNELS, CUTLASS_LIBRARY_IGNORE_KERNELS,
# SKIP_BUILD=1 to reuse a build, TESTS=0 to skip ctest, TABLE=0 to skip the ratio table, BENCH_SIZES (default "4096 8192"), and the optional stages
#   SANITIZE=1        compute-sanitizer memcheck of one small problem (D aliasing C) per sm90 kernel,
#                     of stream-K's split problems, and of the grouped calls' GPU tests
#   EPILOGUE_BENCH=1  scripts/bench_epilogues.sh (fused vs cuBLASLt and vs cuBLAS + separate kernel)
#   GROUPED=1         the mixture-of-experts layers through cutlass_bench --grouped (the library's
#                     two grouped calls against cuBLAS's grouped call, a loop and the dense GEMM):
#                     prefill 8 x 14336 x 4096 and sparse 32 x 4096 x 7168 at 8192 tokens, decode,
#                     many small experts (256 and 1024)
#   SHAPES=<csv>      cutlass_bench over a shape suite (group,M,N,K,layout rows), e.g. ../shared/bench/gemm-shapes.csv (copy it into the checkout for a device run)
#   PYTHON=1          the Python package bound to this build's library (a venv that sees the
#                     machine's PyTorch), its pytest suite, python/examples/decoder_block.py and
#                     python/examples/overhead.py (the machine's python3 when it has PyTorch,
#                     nanobind, scikit-build-core and pytest). Otherwise, without network, WHEELS=<folder> holds the
#                     wheels of scikit-build-core, nanobind, pytest and their dependencies
#                     (`pip download -d <folder> scikit-build-core nanobind pytest`; carry it)
# Every stage runs under a time limit, so a hang costs minutes, not the session.
# $OUT receives gpu_check_logs.tar.gz (every log and CSV), profile_default.log and bench.log.
set -uo pipefail
cd "$(dirname "$0")/.."
final=${OUT:-$PWD/gpu_check_out}
out="$final/logs"          # everything, tarred at the end (the device returns at most 8 files)
build_dir=${BUILD_DIR:-build-gpu}
mkdir -p "$out"
trap 'tar czf "$final/gpu_check_logs.tar.gz" -C "$out" . && cp "$out"/profile_default.log "$out"/bench.log "$final"/ 2>/dev/null; rm -rf "$out"' EXIT
export CUTLASS_NVCC_ARCHS=${CUTLASS_NVCC_ARCHS:-90a}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv
  nvcc --version | tail -1
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  start=$(date +%s)
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLASS_NVCC_ARCHS="$CUTLASS_NVCC_ARCHS" \
        -DCUTLASS_LIBRARY_KERNELS="${CUTLASS_LIBRARY_KERNELS:-}" \
        -DCUTLASS_LIBRARY_IGNORE_KERNELS="${CUTLASS_LIBRARY_IGNORE_KERNELS:-}" > "$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
  grep "kernels selected" "$out/configure.log"
  cmake --build "$build_dir" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
  echo "build: $(( $(date +%s) - start )) s"
  grep -iE "spill|stack frame" "$out/build.log" | sort | uniq -c | head -20
fi

# Tests: everything ctest knows (GPU tests run here, nothing may be skipped on this machine).
if [ "${TESTS:-1}" = 1 ]; then
  ctest --test-dir "$build_dir" --output-on-failure -j 4 --timeout 300 > "$out/ctest.log" 2>&1
  grep -E "tests passed|tests failed|Skipped|\*\*\*Failed|Not Run|Timeout" "$out/ctest.log" | tail -40
fi

# The profiler's default problem (bf16 4096^3 TN), then the ratio table.
profiler="$build_dir/src/profiler/cutlass_profiler"
"$profiler" --output="$out/profile_default.csv" > "$out/profile_default.log" 2>&1
tail -25 "$out/profile_default.log"
[ "${TABLE:-1}" = 1 ] && for s in ${BENCH_SIZES:-4096 8192}; do
  for types in "f32:column f32:column f32:column" "bf16:row bf16:column bf16:column" "f16:row f16:column f16:column" \
               "tf32:row tf32:column f32:column" "s8:row s8:column s32:column"; do
    set -- $types
    "$profiler" --m=$s --n=$s --k=$s --A=$1 --B=$2 --C=$3 --providers=handle,cublas,cutlass \
      --output="$out/bench_${s}_${1%%:*}.csv" >> "$out/bench.log" 2>&1
    tail -3 "$out/bench.log"
  done
done

if [ "${SANITIZE:-0}" = 1 ]; then
  # One small problem per sm90 kernel (every built one), under memcheck; the summary line counts errors.
  timeout 600 compute-sanitizer --tool memcheck --print-limit 20 "$build_dir/test/cutlass_lib_gpu_tests" \
    --gtest_filter='Manifest/KernelTest.DAliasesC/cutlass3x_sm90*' > "$out/memcheck.log" 2>&1
  echo "memcheck: $(grep -c '^\[       OK' "$out/memcheck.log") sm90 kernels ran; $(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
  # stream-K's split problems (partial sums through the workspace), one kernel
  timeout 300 compute-sanitizer --tool memcheck --print-limit 20 "$build_dir/test/cutlass_lib_gpu_tests" \
    --gtest_filter='Manifest/StreamKKernelTest.Splits/cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8_stream_k*' \
    > "$out/memcheck_stream_k.log" 2>&1
  echo "memcheck stream-K splits: $(grep -E '^\[  (PASSED|FAILED)' "$out/memcheck_stream_k.log" | tail -1); $(grep -E 'ERROR SUMMARY' "$out/memcheck_stream_k.log" | tail -1)"
  # the grouped kernels through the contiguous call: its prologue writes the group table on the device
  timeout 300 compute-sanitizer --tool memcheck --print-limit 20 "$build_dir/test/cutlass_lib_gpu_tests" \
    --gtest_filter='ExpertLayer.*:CApiGroupedGpu.*' > "$out/memcheck_grouped.log" 2>&1
  echo "memcheck grouped: $(grep -E '^\[  (PASSED|FAILED)' "$out/memcheck_grouped.log" | tail -1); $(grep -E 'ERROR SUMMARY' "$out/memcheck_grouped.log" | tail -1)"
fi

if [ "${EPILOGUE_BENCH:-0}" = 1 ] && [ -x scripts/bench_epilogues.sh ]; then
  # its SHAPES (a list of MxNxK) is not ours (a CSV path): unset for it
  env -u SHAPES SKIP_BUILD=1 OUT="$out/epilogues" BUILD_DIR="$build_dir" timeout 600 scripts/bench_epilogues.sh > "$out/bench_epilogues.log" 2>&1
  tail -30 "$out/bench_epilogues.log"
fi

if [ "${GROUPED:-0}" = 1 ]; then
  for layer in "8,14336,4096 --tokens=8192" "32,4096,7168 --tokens=8192 --distribution=sparse" \
               "8,14336,4096 --counts=0,0,0,21,8,1,4,0" "256,2048,1024 --tokens=1024" "1024,512,512 --tokens=4096"; do
    echo "== --grouped=$layer" >> "$out/grouped_layers.log"
    timeout 120 "$build_dir/src/benchmark/cutlass_bench" --grouped=$layer --profiling-iterations=30 \
      >> "$out/grouped_layers.log" 2>&1
  done
  grep -E "^==|verification|cutlass_lib grouped|GroupedBatchedEx|contiguous|dense cuBLAS" "$out/grouped_layers.log"
fi

if [ "${PYTHON:-0}" = 1 ]; then
  # The machine's python3 when it has what the package needs (the GPU machine's image: PyTorch,
  # nanobind, scikit-build-core, pytest; a venv made from it would not see its PyTorch), else a
  # venv that installs them (from WHEELS without network).
  if python3 -c "import torch, nanobind, scikit_build_core, pytest" 2> /dev/null; then
    python_bin=$(command -v python3)
    CUTLASS_LIB_LIBRARY="$PWD/$build_dir/library/libcutlass_lib.so" \
      "$python_bin" -m pip install --quiet --no-deps --no-build-isolation --no-index . > "$out/python_install.log" 2>&1 ||
      { echo "python package: install failed"; tail -20 "$out/python_install.log"; }
  else
    python_env="$build_dir/python-env"
    python_bin="$python_env/bin/python"
    python3 -m venv --system-site-packages "$python_env"
    pip_source=()
    [ -n "${WHEELS:-}" ] && pip_source=(--no-index --find-links "$WHEELS")
    {
      "$python_env/bin/pip" install --quiet "${pip_source[@]}" scikit-build-core nanobind pytest &&
        CUTLASS_LIB_LIBRARY="$PWD/$build_dir/library/libcutlass_lib.so" \
          "$python_env/bin/pip" install --quiet --no-build-isolation "${pip_source[@]}" .
    } > "$out/python_install.log" 2>&1 || { echo "python package: install failed"; tail -20 "$out/python_install.log"; }
  fi
  (cd /tmp && timeout 900 "$python_bin" -m pytest -q -rs "$OLDPWD/python/tests") > "$out/pytest.log" 2>&1
  echo "pytest: $(tail -1 "$out/pytest.log")"
  grep -E "^(SKIPPED|FAILED)" "$out/pytest.log" | head -20
  timeout 600 "$python_bin" python/examples/decoder_block.py > "$out/decoder_block.log" 2>&1
  tail -8 "$out/decoder_block.log"
  timeout 300 "$python_bin" python/examples/overhead.py > "$out/overhead.log" 2>&1
  tail -5 "$out/overhead.log"
fi

if [ -n "${SHAPES:-}" ] && [ -f "$SHAPES" ]; then
  timeout 900 "$build_dir/src/benchmark/cutlass_bench" --shapes="$SHAPES" --output="$out/bench_shapes.csv" \
    > "$out/bench_shapes.log" 2>&1
  grep -A 12 "geometric mean" "$out/bench_shapes.log" | head -14
fi
