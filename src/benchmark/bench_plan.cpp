/// @file src/benchmark/bench_plan.cpp
#include "bench_plan.h"

#include <algorithm>

namespace cutlass {
namespace benchmark {

namespace {

constexpr int kMinTimedLaunches = 10;
constexpr int kMinWarmupLaunches = 2;

}  // namespace

profiler::GemmSpec gemm_spec(Shape const &shape, library::NumericTypeID dtype, profiler::ScalingSpec const &fp8_scaling) {
  profiler::GemmSpec spec;
  spec.m = shape.m;
  spec.n = shape.n;
  spec.k = shape.k;
  spec.A = {dtype, shape.layout_A};
  spec.B = {dtype, shape.layout_B};
  // fp8 inputs write bf16 (fp8 outputs need a D scale)
  library::NumericTypeID const out = dtype == library::NumericTypeID::kFE4M3 ? library::NumericTypeID::kBF16 : dtype;
  spec.C = {out, library::LayoutTypeID::kColumnMajor};
  if (dtype == library::NumericTypeID::kFE4M3) spec.scaling = fp8_scaling;
  return spec;
}

profiler::Options profiler_options(BenchOptions const &options, profiler::GemmSpec const &spec) {
  profiler::Options result;
  double const macs = double(spec.m) * double(spec.n) * double(spec.k);
  result.verification_enabled = options.verify == VerifyMode::kAlways ||
                                (options.verify == VerifyMode::kAuto && macs <= kAutoVerifyMacs);
  result.providers.cublaslt = options.competitor_cublaslt;
  result.warmup_iterations = options.warmup_iterations;
  result.profiling_iterations = options.profiling_iterations;
  result.back_to_back = options.back_to_back;
  result.workspace_bytes = size_t(options.workspace_mib) << 20;

  double const pair_seconds = 2 * options.back_to_back * spec.flops() / kEstimatedFlopsPerSecond;
  int const launches = options.warmup_iterations + options.profiling_iterations;
  if (options.max_kernel_seconds > 0 && launches > 0 && launches * pair_seconds > options.max_kernel_seconds) {
    double const scale = options.max_kernel_seconds / (launches * pair_seconds);
    result.profiling_iterations = std::max(std::min(kMinTimedLaunches, options.profiling_iterations),
                                           int(options.profiling_iterations * scale));
    result.warmup_iterations = std::max(std::min(kMinWarmupLaunches, options.warmup_iterations),
                                        int(options.warmup_iterations * scale));
  }
  return result;
}

}  // namespace benchmark
}  // namespace cutlass
