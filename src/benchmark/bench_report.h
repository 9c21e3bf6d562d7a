/// @file src/benchmark/bench_report.h
/// One shape-and-dtype result distilled from the profiler's rows, and how cutlass_bench prints
/// it: a table line on stdout, a CSV line, and the geometric-mean summary.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cutlass/library/types.h"
#include "gemm_spec.h"
#include "report.h"
#include "shape_suite.h"

namespace cutlass {
namespace benchmark {

/// A kernel's (or the Handle's) timing: NaN times when it did not run or failed.
struct Timing {
  std::string kernel;   ///< full kernel name; "" when none
  double ms = 0;        ///< median runtime
  double ratio = 0;     ///< cuBLAS time / this time, from their interleaved launches
  Timing();
};

struct BenchResult {
  Shape shape;
  library::NumericTypeID dtype = library::NumericTypeID::kInvalid;
  double flops = 0;
  double bytes = 0;           ///< the fewest bytes the GEMM moves: A, B and D once, C when beta != 0
  double copy_gbps = 0;       ///< the device-to-device copy bandwidth measured in the same run (NaN: none)
  Timing handle;              ///< Handle::gemm_universal's choice
  Timing best;                ///< the fitting kernel with the highest ratio (lowest time without cuBLAS)
  double cublas_ms = 0;       ///< median of every launch of the competitor (cuBLAS, or cuBLASLt); NaN when none
  int kernels_timed = 0;      ///< kernels of the best-kernel search that ran and were not rejected
  int timed_launches = 0;     ///< per kernel
  std::string verified;       ///< "passed", "failed" or "not_verified" over every row of the problem
  std::vector<std::string> failures;   ///< "<provider> <kernel>: <status>" per failed row, with its detail
  double seconds = 0;         ///< wall time of the problem
  std::string scaling;        ///< the fp8 scaling (profiler::describe(ScalingSpec)); empty: none

  double tflops(double ms) const { return flops / (ms * 1e9); }
  /// Achieved bandwidth (GB/s, the fewest bytes over the time) and its fraction of the copy's.
  double gbps(double ms) const { return bytes / (ms * 1e6); }
  double copy_fraction(double ms) const { return gbps(ms) / copy_gbps; }
};

/// Reads the profiler's rows of one problem; `copy_gbps` is the run's copy bandwidth; with
/// `against_cublaslt` the ratios and the competitor's time are cuBLASLt's, else cuBLAS's.
BenchResult distill(Shape const &shape, profiler::GemmSpec const &spec, std::vector<profiler::ResultRow> const &rows,
                    double copy_gbps, bool against_cublaslt = false);

/// A kernel name without the parts the table already shows (types, layouts) or that every
/// kernel has: "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_4_tnn_align8
/// _warpspecialized_cooperative_epi_tma" -> "sm90_128x256x64_1x1x1_4_a8_coop",
/// "cutlass_tensorop_bf16_s16816gemm_bf16_128x128_32x3_tn_align8" -> "s16816gemm_128x128_32x3_a8".
std::string short_kernel_name(std::string const &name);

/// The stdout table: a header, then one line per result (failures indented below it).
/// `competitor`: "cublas" or "cublaslt", the column's name.
void print_table_header(std::FILE *out, char const *competitor = "cublas");
void print_table_row(std::FILE *out, BenchResult const &result);

/// Per dtype: each group's geometric mean of the Handle's and the best kernel's ratio, then the
/// large shapes' (M, N, K >= 1024) geometric mean and the Handle's minimum ratio.
/// `competitor`: "cuBLAS" or "cuBLASLt", as the heading names it.
void print_summary(std::FILE *out, std::vector<BenchResult> const &results, char const *competitor = "cuBLAS");

/// --output: one CSV line per result, flushed as it arrives.
class CsvOutput {
 public:
  /// Creates (truncates) `path` and writes the header. False with `error` set on failure.
  bool open(std::string const &path, std::string *error);
  bool is_open() const { return file_.is_open(); }
  void row(BenchResult const &result);

 private:
  std::ofstream file_;
};

}  // namespace benchmark
}  // namespace cutlass
