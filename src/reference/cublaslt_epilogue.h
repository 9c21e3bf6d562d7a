/// @file src/reference/cublaslt_epilogue.h
/// The GEMM with cuBLASLt's own fused epilogue (cublasLtMatmul with CUBLASLT_MATMUL_DESC_EPILOGUE,
/// bias and aux pointers, the heuristic's first algorithm): the fused baseline the profiler races
/// against, and the plain baseline for fp8 inputs (cublasGemmEx takes none; cuBLASLt runs them
/// TN only, with dimensions multiples of 16; with the problem's operand scales and accumulation mode:
/// fast unless precise or block scales, as our kernels).
/// Only built when CUTLASS_ENABLE_CUBLAS is on.
#pragma once

#include <cstddef>
#include <string>
#include <cublasLt.h>

#include "epilogue_reference.h"
#include "gemm_reference.h"

namespace cutlass {
namespace reference {

/// One problem's cuBLASLt descriptors and algorithm, built once by prepare() and reused by every
/// run() (pointers change per launch; shapes, types and epilogue do not).
class CublasLtEpilogueGemm {
 public:
  CublasLtEpilogueGemm() = default;
  ~CublasLtEpilogueGemm();
  CublasLtEpilogueGemm(CublasLtEpilogueGemm const &) = delete;
  CublasLtEpilogueGemm &operator=(CublasLtEpilogueGemm const &) = delete;

  /// The cuBLASLt epilogue that computes `epilogue`'s pieces for a problem with C in `layout_C`
  /// (bias and aux pointers only need to be non-null here): none, BIAS, RELU, RELU_BIAS, GELU,
  /// GELU_BIAS, GELU_AUX, GELU_AUX_BIAS. False when cuBLASLt has none: another activation, an
  /// alpha vector, amax / scale_d, or a bias along D's columns (cuBLASLt's bias has one entry per
  /// row of its column-major D; a row-major problem runs transposed, which turns a per-column
  /// bias into cuBLASLt's per-row one).
  static bool supports(EpilogueOperands const &epilogue, LayoutTypeID layout_C, cublasLtEpilogue_t *kind = nullptr);

  /// Builds the descriptors for the problem (its pointers and the epilogue's bias/aux pointers
  /// serve the heuristic's alignment assumptions) and asks the heuristic for an algorithm within
  /// `workspace_bytes`. Returns "" or why not (a cuBLAS status name or a sentence).
  std::string prepare(cublasLtHandle_t handle, GemmProblem const &problem, EpilogueOperands const &epilogue,
                      void *workspace, size_t workspace_bytes);

  /// Launches the prepared problem on `stream` with these pointers (same shapes as prepared).
  /// C and D may differ (beta == 0: C is not read). Returns "" or the cuBLAS status name.
  std::string run(GemmProblem const &problem, EpilogueOperands const &epilogue, cudaStream_t stream) const;

  bool prepared() const { return desc_ != nullptr; }

 private:
  void release();

  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr, d_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  bool transposed_ = false;   ///< row-major C: runs D^T = B^T A^T
  bool c_differs_ = false;    ///< C's layout type is not D's (fp8 D: C bf16), so C may not be D's buffer
  void *workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
};

}  // namespace reference
}  // namespace cutlass
