/// @file src/profiler/cublas_runner.cpp
/// The only profiler source that depends on CUTLASS_ENABLE_CUBLAS.
#include "cublas_runner.h"

#if CUTLASS_ENABLE_CUBLAS
#include <cublas_v2.h>

#include "cublas_gemm.h"
#include "cublaslt_epilogue.h"
#endif

namespace cutlass {
namespace profiler {

#if CUTLASS_ENABLE_CUBLAS

struct CublasRunner::Lt {
  cublasLtHandle_t handle = nullptr;
  void *workspace = nullptr;
  reference::CublasLtEpilogueGemm gemm;

  ~Lt() {
    if (workspace) cudaFree(workspace);
    if (handle) cublasLtDestroy(handle);
  }
};

bool CublasRunner::lt_supports(reference::EpilogueOperands const &epilogue, library::LayoutTypeID layout_C) {
  return reference::CublasLtEpilogueGemm::supports(epilogue, layout_C);
}

std::string CublasRunner::lt_prepare(reference::GemmProblem const &problem, reference::EpilogueOperands const &epilogue) {
  if (!handle_) return reason_;
  if (!lt_) {
    auto lt = std::make_unique<Lt>();
    cublasStatus_t const status = cublasLtCreate(&lt->handle);
    if (status != CUBLAS_STATUS_SUCCESS) return std::string("cublasLtCreate failed: ") + cublasGetStatusName(status);
    if (cudaMalloc(&lt->workspace, kLtWorkspaceBytes) != cudaSuccess) {
      cudaGetLastError();
      lt->workspace = nullptr;
      return "cudaMalloc of cuBLASLt's workspace failed";
    }
    lt_ = std::move(lt);
  }
  return lt_->gemm.prepare(lt_->handle, problem, epilogue, lt_->workspace, kLtWorkspaceBytes);
}

std::string CublasRunner::lt_run(reference::GemmProblem const &problem, reference::EpilogueOperands const &epilogue) const {
  if (!lt_ || !lt_->gemm.prepared()) return "cuBLASLt: not prepared";
  return lt_->gemm.run(problem, epilogue, stream_);
}

CublasRunner::CublasRunner(cudaStream_t stream) : stream_(stream) {
  cublasHandle_t handle = nullptr;
  cublasStatus_t const status = cublasCreate(&handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    reason_ = std::string("cublasCreate failed: ") + cublasGetStatusName(status);
    return;
  }
  cublasSetStream(handle, stream);
  handle_ = handle;
}

CublasRunner::~CublasRunner() {
  lt_.reset();
  if (handle_) cublasDestroy(static_cast<cublasHandle_t>(handle_));
}

std::string CublasRunner::run(reference::GemmProblem const &problem) const {
  if (!handle_) return reason_;
  cublasStatus_t const status = reference::cublas_gemm(static_cast<cublasHandle_t>(handle_), problem);
  return status == CUBLAS_STATUS_SUCCESS ? std::string() : std::string(cublasGetStatusName(status));
}

#else

struct CublasRunner::Lt {};

CublasRunner::CublasRunner(cudaStream_t stream) : reason_("built without cuBLAS"), stream_(stream) {}

CublasRunner::~CublasRunner() = default;

std::string CublasRunner::run(reference::GemmProblem const &) const { return reason_; }

bool CublasRunner::lt_supports(reference::EpilogueOperands const &, library::LayoutTypeID) { return false; }

std::string CublasRunner::lt_prepare(reference::GemmProblem const &, reference::EpilogueOperands const &) {
  return reason_;
}

std::string CublasRunner::lt_run(reference::GemmProblem const &, reference::EpilogueOperands const &) const {
  return reason_;
}

#endif

std::string CublasRunner::lt_function_name(char const *epilogue_name) {
  return std::string("cublasLtMatmul(") + epilogue_name + ")";
}

char const *CublasRunner::function_name(int64_t batch_count) {
  return batch_count > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx";
}

}  // namespace profiler
}  // namespace cutlass
