/// @file src/profiler/cublas_runner.cpp
/// The only profiler source that depends on CUTLASS_ENABLE_CUBLAS.
#include "cublas_runner.h"

#if CUTLASS_ENABLE_CUBLAS
#include <cublas_v2.h>

#include "cublas_gemm.h"
#endif

namespace cutlass {
namespace profiler {

#if CUTLASS_ENABLE_CUBLAS

CublasRunner::CublasRunner(cudaStream_t stream) {
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
  if (handle_) cublasDestroy(static_cast<cublasHandle_t>(handle_));
}

std::string CublasRunner::run(reference::GemmProblem const &problem) const {
  if (!handle_) return reason_;
  cublasStatus_t const status = reference::cublas_gemm(static_cast<cublasHandle_t>(handle_), problem);
  return status == CUBLAS_STATUS_SUCCESS ? std::string() : std::string(cublasGetStatusName(status));
}

#else

CublasRunner::CublasRunner(cudaStream_t) : reason_("built without cuBLAS") {}

CublasRunner::~CublasRunner() = default;

std::string CublasRunner::run(reference::GemmProblem const &) const { return reason_; }

#endif

char const *CublasRunner::function_name(int64_t batch_count) {
  return batch_count > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx";
}

}  // namespace profiler
}  // namespace cutlass
