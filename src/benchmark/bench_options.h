/// @file src/benchmark/bench_options.h
/// cutlass_bench's command line (`--flag=value`, as the profiler's), parsed without side
/// effects. help_text() is the documentation.
#pragma once

#include <string>
#include <vector>

#include "cutlass/library/types.h"
#include "gemm_spec.h"
#include "grouped_profiler.h"

namespace cutlass {
namespace benchmark {

/// Which shapes get their results verified (--verify).
enum class VerifyMode {
  kAuto,     ///< shapes with M * N * K <= kAutoVerifyMacs: the naive reference GEMM stays quick
  kAlways,
  kNever
};

/// 2^36 multiply-accumulates (4096^3): the largest shape --verify=auto verifies.
constexpr double kAutoVerifyMacs = 68719476736.0;

struct BenchOptions {
  bool help = false;
  std::string shapes;                 ///< CSV path (required)
  std::vector<library::NumericTypeID> dtypes{library::NumericTypeID::kBF16, library::NumericTypeID::kF16};
  std::vector<std::string> groups;    ///< empty: every group of the file
  std::string kernels;                ///< the profiler's --kernels / --ignore-kernels patterns
  std::string ignore_kernels;
  int warmup_iterations = 0;          ///< set to the profiler's defaults by parse_options
  int profiling_iterations = 0;
  int back_to_back = 1;               ///< launches per event pair (profiler::Options::back_to_back)
  double max_kernel_seconds = 0.5;    ///< estimated timed seconds per kernel; 0: no cap
  int workspace_mib = 0;              ///< > 0: workspaces allocated up front (profiler::Options)
  VerifyMode verify = VerifyMode::kAuto;
  std::string output;                 ///< CSV path; empty: none
  std::string details;                ///< the profiler's per-kernel tables; empty: none
  int device = 0;
  bool competitor_cublaslt = false;   ///< --competitor=cublaslt: ratios against cublasLtMatmul
  /// --split-k=2,4,8: the best-kernel search also times the handle's split-K route with each of
  /// these slice counts (profiler --split_k_slices) where it takes the shape; empty: not.
  std::vector<int64_t> split_k_slices;
  profiler::ScalingSpec fp8_scaling;  ///< --scale-a, --scale-b, --accumulation: the fe4m3 rows'
  bool grouped_mode = false;          ///< --grouped=E,N,K: one MoE layer (grouped_profiler.h), no --shapes
  profiler::GroupedOptions grouped;   ///< --grouped (its N: the groups' m), --tokens, --distribution, --counts, --seed
};

/// Options, or the reason the command line is not valid (a usage error, exit status 2).
struct ParseResult {
  BenchOptions options;
  std::string error;   ///< empty when the command line is valid
  bool ok() const { return error.empty(); }
};

/// Parses the arguments after the program name. Unknown flags, flags given twice, bad values, a
/// missing --shapes (unless --help or --grouped), --shapes with --grouped, the grouped flags
/// without --grouped, and the fp8 scaling flags without fe4m3 in --dtypes are errors.
ParseResult parse_options(std::vector<std::string> const &arguments);

/// The --help text.
std::string help_text();

}  // namespace benchmark
}  // namespace cutlass
