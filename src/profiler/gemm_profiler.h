/// @file src/profiler/gemm_profiler.h
/// Profiles one problem at a time: every fitting kernel ("cutlass"), the Handle's choice
/// ("handle") and cuBLAS ("cublas"); each verified once on copy 0 of the operands and timed
/// interleaved with cuBLAS on rotating copies. With a fused epilogue (GemmSpec::epilogue) the
/// kernels are those with exactly that epilogue, "cublas" is cublasGemmEx followed by the
/// separate epilogue kernel (reference::unfused_epilogue), and a "cublaslt" row runs
/// cublasLtMatmul with cuBLASLt's fused epilogue where it has one; ours are timed interleaved
/// with both.
#pragma once

#include <string>
#include <vector>
#include <cuda_runtime_api.h>

#include "cublas_runner.h"
#include "cutlass/library/handle.h"
#include "cutlass/library/library.h"
#include "device.h"
#include "gemm_spec.h"
#include "operand_buffers.h"
#include "options.h"
#include "report.h"
#include "timing.h"

namespace cutlass {
namespace profiler {

/// A stream that the profiler creates and destroys.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(Stream const &) = delete;
  Stream &operator=(Stream const &) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class GemmProfiler {
 public:
  /// `kernels`: the kernels that pass the name filters (filter_kernels()). The reports must
  /// outlive the profiler; `csv` may be null.
  GemmProfiler(Options const &options, DeviceFacts const &device, std::vector<library::Operation const *> kernels,
               TableReport &table, CsvReport *csv);

  /// Profiles problem `index`. False when the CUDA context is no longer usable (a kernel
  /// faulted): the caller must stop.
  bool profile(int index, GemmSpec const &spec);

  int failed_rows() const { return failed_rows_; }   ///< verification or run failures so far
  int run_rows() const { return run_rows_; }         ///< rows whose provider launched a GEMM
  /// The rows of the last problem profiled, in the order they were printed (also after an early
  /// return). ResultRow::kernel points into the manifest.
  std::vector<ResultRow> const &rows() const { return rows_; }
  /// The timer of every measurement so far (its counts of timed sets run again).
  EventTimer const &timer() const { return timer_; }

 private:
  struct Problem;   // the state of the problem being profiled (gemm_profiler.cpp)

  ResultRow profile_kernel(Problem &problem, library::Operation const &kernel);
  ResultRow profile_handle(Problem &problem);
  ResultRow profile_cublas(Problem &problem);
  ResultRow profile_cublaslt(Problem &problem);
  /// The reference results on copy 0: the reference GEMM (+ epilogue reference), cuBLAS
  /// (+ separate epilogue kernel), and cuBLASLt's fused epilogue run and verified.
  void compute_references(Problem &problem);
  /// One cuBLAS launch on the next copy (in place, as BLAS), plus the separate epilogue kernel
  /// when the problem has a fused epilogue. False when a launch failed.
  bool launch_cublas(Problem &problem);
  /// One cuBLASLt launch (fused epilogue, or DEFAULT) on the next copy.
  bool launch_cublaslt(Problem &problem);
  /// Whether cuBLASLt races this problem: fused problems whenever cuBLAS runs, plain ones with
  /// the cublaslt provider.
  bool races_cublaslt(Problem const &problem) const;
  /// Times `ours` interleaved with cuBLAS and cuBLASLt (those that run this problem) into row's
  /// runtime_ms, cublas_ms and cublaslt_ms; their samples join the problem's.
  void time_against_cublas(Problem &problem, Launch const &ours, ResultRow &row);
  /// Times a cuBLAS-side launch on its own into `samples` unless they are already filled; on a
  /// timing failure marks `row` failed and returns false.
  bool time_alone(Launch const &launch, std::vector<float> &samples, ResultRow &row);
  /// Finishes a row: counts it, prints it, writes it to the CSV, keeps it for the summary.
  void record(Problem &problem, ResultRow row);
  /// False (after printing why) when the last CUDA error is one the context cannot recover from.
  bool context_usable(char const *after);

  Options const &options_;
  DeviceFacts device_;
  std::vector<library::Operation const *> kernels_;
  TableReport &table_;
  CsvReport *csv_;
  Stream stream_;
  CublasRunner cublas_;
  library::Handle handle_;
  EventTimer timer_;
  DeviceAllocation workspace_;
  std::vector<ResultRow> rows_;
  int failed_rows_ = 0;
  int run_rows_ = 0;
};

}  // namespace profiler
}  // namespace cutlass
