/// @file src/benchmark/bench_plan.h
/// What the profiler runs for one shape and dtype: the GEMM and the profiler options (launch
/// counts capped for large shapes, verification on or off).
#pragma once

#include "bench_options.h"
#include "gemm_spec.h"
#include "options.h"
#include "shape_suite.h"

namespace cutlass {
namespace benchmark {

/// Throughput that --max-kernel-seconds assumes when it estimates a launch's time: about what
/// cuBLAS reaches with 16-bit operands on an H200.
constexpr double kEstimatedFlopsPerSecond = 700e12;

/// D = A * B, A = B = C = D of type `dtype` (fe4m3: A and B e4m3, C and D bf16), alpha 1, beta 0,
/// layouts from the shape; fe4m3 rows take `fp8_scaling` (--scale-a, --scale-b, --accumulation).
profiler::GemmSpec gemm_spec(Shape const &shape, library::NumericTypeID dtype, profiler::ScalingSpec const &fp8_scaling);

/// The profiler options of one problem: every provider (handle, cutlass, cublas); verification
/// per --verify; warm-up and timed launches per --warmup/--profiling-iterations, both scaled
/// down when an estimated kernel-plus-cuBLAS pair times their sum exceeds --max-kernel-seconds
/// (to at least 10 timed and 2 warm-up launches, or the flag's value when smaller).
profiler::Options profiler_options(BenchOptions const &options, profiler::GemmSpec const &spec);

}  // namespace benchmark
}  // namespace cutlass
