/// @file src/profiler/cublas_runner.h
/// The cuBLAS provider. Built with CUTLASS_ENABLE_CUBLAS=1 it runs reference::cublas_gemm on
/// the profiler's stream; built without cuBLAS it runs nothing and says so ("not run").
#pragma once

#include <string>
#include <cuda_runtime_api.h>

#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

class CublasRunner {
 public:
  /// Creates a cuBLAS handle bound to `stream` (when built with cuBLAS).
  explicit CublasRunner(cudaStream_t stream);
  ~CublasRunner();
  CublasRunner(CublasRunner const &) = delete;
  CublasRunner &operator=(CublasRunner const &) = delete;

  /// True when cuBLAS was built in and its handle was created.
  bool available() const { return handle_ != nullptr; }
  /// Why available() is false ("built without cuBLAS", "cublasCreate failed: ...").
  std::string const &unavailable_reason() const { return reason_; }

  /// Launches the problem (asynchronously). Returns "" on success, else the cuBLAS status
  /// name, e.g. "CUBLAS_STATUS_NOT_SUPPORTED" for types cuBLAS lacks.
  std::string run(reference::GemmProblem const &problem) const;

  /// The cuBLAS function the profiler calls for this batch count.
  static char const *function_name(int64_t batch_count);

 private:
  void *handle_ = nullptr;   ///< cublasHandle_t when built with cuBLAS
  std::string reason_;
};

}  // namespace profiler
}  // namespace cutlass
