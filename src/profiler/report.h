/// @file src/profiler/report.h
/// What the profiler prints: per problem a header, one aligned table row per (provider,
/// kernel), and a one-line summary; optionally the same rows as CSV.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cutlass/library/library.h"
#include "gemm_spec.h"
#include "verification.h"

namespace cutlass {
namespace profiler {

/// One result: a (problem, provider, kernel).
struct ResultRow {
  int problem = 0;
  std::string provider;        ///< "cutlass", "handle", "cublas" or (fused epilogues) "cublaslt"
  std::string operation;       ///< kernel name, cuBLAS function, or "" when the handle chose none
  library::GemmDescription const *kernel = nullptr;   ///< the kernel's facts; null for cuBLAS
  std::string status = "success";                     ///< or why it did not run / failed
  Disposition disposition = Disposition::kNotVerified;
  double runtime_ms = 0;       ///< median; NaN when not timed
  double cublas_ms = 0;        ///< cuBLAS's median from the same interleaved run; NaN when none
                               ///< (fused epilogue: cuBLAS GEMM + the separate epilogue kernel)
  double cublaslt_ms = 0;      ///< fused epilogue: cuBLASLt's fused-epilogue median, same run; NaN when none
  double relative_error = 0;   ///< NaN when not verified
  std::string detail;          ///< verification lines / error text, printed under failed rows

  ResultRow();
  /// GFLOP/s of `spec` at runtime_ms (NaN when not timed).
  double gflops(GemmSpec const &spec) const;
  /// cublas_ms / runtime_ms: above 1 means faster than cuBLAS (NaN when either is missing).
  double ratio_to_cublas() const;
  /// cublaslt_ms / runtime_ms (NaN when either is missing).
  double ratio_to_cublaslt() const;
};

/// The human-readable report on `out` (stdout), flushed after every row. A null `out` prints
/// nothing (cutlass_bench without --details).
class TableReport {
 public:
  explicit TableReport(std::FILE *out) : out_(out) {}

  void problem_header(int index, GemmSpec const &spec, std::string const &memory_note);
  void row(ResultRow const &row, GemmSpec const &spec);
  /// An indented free-text line inside the problem's block.
  void note(std::string const &text);
  /// "Summary of problem i: best cutlass ..., handle ..., cublas ...".
  void summary(int index, GemmSpec const &spec, std::vector<ResultRow> const &rows);

 private:
  std::FILE *out_;
};

/// --output: the CSV columns of the brief, one line per row, written as rows arrive.
class CsvReport {
 public:
  /// Creates (truncates) `path` and writes the header line. False with `error` set on failure.
  bool open(std::string const &path, std::string *error);
  bool is_open() const { return file_.is_open(); }
  void row(ResultRow const &row, GemmSpec const &spec);

 private:
  std::ofstream file_;
};

}  // namespace profiler
}  // namespace cutlass
