/// @file src/profiler/cublas_runner.h
/// The cuBLAS provider. Built with CUTLASS_ENABLE_CUBLAS=1 it runs reference::cublas_gemm on
/// the profiler's stream; built without cuBLAS it runs nothing and says so ("not run").
#pragma once

#include <memory>
#include <string>
#include <cuda_runtime_api.h>

#include "epilogue_reference.h"
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

  // ---- cuBLASLt with its fused epilogue (reference/cublaslt_epilogue.h) ----

  /// True when cuBLASLt has a fused epilogue for these pieces and C layout (false without cuBLAS).
  static bool lt_supports(reference::EpilogueOperands const &epilogue, library::LayoutTypeID layout_C);

  /// Builds cuBLASLt's descriptors and picks the heuristic's algorithm for the problem (a 32 MiB
  /// workspace, allocated once). "" on success, else why not.
  std::string lt_prepare(reference::GemmProblem const &problem, reference::EpilogueOperands const &epilogue);

  /// Launches the prepared cuBLASLt GEMM with these pointers. "" or the cuBLAS status name.
  std::string lt_run(reference::GemmProblem const &problem, reference::EpilogueOperands const &epilogue) const;

  /// "cublasLtMatmul(CUBLASLT_EPILOGUE_GELU_BIAS)".
  static std::string lt_function_name(char const *epilogue_name);

  /// Bytes of cuBLASLt's workspace.
  static constexpr size_t kLtWorkspaceBytes = size_t(32) << 20;

 private:
  struct Lt;   ///< cuBLASLt's handle, workspace and prepared GEMM (cublas_runner.cpp)

  void *handle_ = nullptr;   ///< cublasHandle_t when built with cuBLAS
  std::string reason_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<Lt> lt_;
};

}  // namespace profiler
}  // namespace cutlass
