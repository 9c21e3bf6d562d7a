/// @file src/reference/cublas_gemm.cu
#include "cublas_gemm.h"

#include <cstdint>

#include "cutlass_lib.h"

// The C API's enumerators that mirror cuBLAS's carry its values (include/cutlass_lib.h): checked
// wherever cuBLAS is found, so a cuBLAS caller's values can be passed through.
static_assert(int(CUTLASS_LIB_COMPUTE_32F) == int(CUBLAS_COMPUTE_32F) &&
                  int(CUTLASS_LIB_COMPUTE_32F_FAST_TF32) == int(CUBLAS_COMPUTE_32F_FAST_TF32) &&
                  int(CUTLASS_LIB_COMPUTE_64F) == int(CUBLAS_COMPUTE_64F) &&
                  int(CUTLASS_LIB_COMPUTE_32I) == int(CUBLAS_COMPUTE_32I),
              "cutlassLibComputeType_t's values are cublasComputeType_t's");
static_assert(int(CUTLASS_LIB_OP_N) == int(CUBLAS_OP_N) && int(CUTLASS_LIB_OP_T) == int(CUBLAS_OP_T),
              "cutlassLibOperation_t's values are cublasOperation_t's");
static_assert(int(CUTLASS_LIB_POINTER_MODE_HOST) == int(CUBLAS_POINTER_MODE_HOST) &&
                  int(CUTLASS_LIB_POINTER_MODE_DEVICE) == int(CUBLAS_POINTER_MODE_DEVICE),
              "cutlassLibPointerMode_t's values are cublasPointerMode_t's");
static_assert(int(CUTLASS_LIB_STATUS_SUCCESS) == int(CUBLAS_STATUS_SUCCESS) &&
                  int(CUTLASS_LIB_STATUS_NOT_INITIALIZED) == int(CUBLAS_STATUS_NOT_INITIALIZED) &&
                  int(CUTLASS_LIB_STATUS_ALLOC_FAILED) == int(CUBLAS_STATUS_ALLOC_FAILED) &&
                  int(CUTLASS_LIB_STATUS_INVALID_VALUE) == int(CUBLAS_STATUS_INVALID_VALUE) &&
                  int(CUTLASS_LIB_STATUS_ARCH_MISMATCH) == int(CUBLAS_STATUS_ARCH_MISMATCH) &&
                  int(CUTLASS_LIB_STATUS_EXECUTION_FAILED) == int(CUBLAS_STATUS_EXECUTION_FAILED) &&
                  int(CUTLASS_LIB_STATUS_INTERNAL_ERROR) == int(CUBLAS_STATUS_INTERNAL_ERROR) &&
                  int(CUTLASS_LIB_STATUS_NOT_SUPPORTED) == int(CUBLAS_STATUS_NOT_SUPPORTED),
              "cutlassLibStatus_t's values are cublasStatus_t's where both have the status");

namespace cutlass {
namespace reference {

namespace {

bool cuda_type(NumericTypeID type, cudaDataType_t *out) {
  switch (type) {
    case NumericTypeID::kF16: *out = CUDA_R_16F; return true;
    case NumericTypeID::kBF16: *out = CUDA_R_16BF; return true;
    case NumericTypeID::kTF32:
    case NumericTypeID::kF32: *out = CUDA_R_32F; return true;
    case NumericTypeID::kF64: *out = CUDA_R_64F; return true;
    case NumericTypeID::kS8: *out = CUDA_R_8I; return true;
    case NumericTypeID::kS32: *out = CUDA_R_32I; return true;
    default: return false;
  }
}

}  // namespace

cublasStatus_t cublas_gemm(cublasHandle_t handle, GemmProblem const &p0) {
  // Row-major C: compute the transpose, D^T = B^T A^T, on column-major storage.
  GemmProblem const p = column_major(p0);
  if (p.scale_A || p.scale_B) return CUBLAS_STATUS_NOT_SUPPORTED;   // operand scales are cuBLASLt's
  cudaDataType_t ta, tb, tc;
  if (!cuda_type(p.element_A, &ta) || !cuda_type(p.element_B, &tb) || !cuda_type(p.element_C, &tc)) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  // cublasGemmEx writes 16F, 16BF, 32F, 64F or 32I only (an s8 C is cuBLASLt's): refuse before
  // the copy below, which sizes the other types' elements
  if (p.element_C == NumericTypeID::kS8) return CUBLAS_STATUS_NOT_SUPPORTED;
  cudaStream_t stream = nullptr;
  cublasGetStream(handle, &stream);
  if (p.C != p.D && p.beta != 0) {
    // cuBLAS updates C in place: copy C into D first (column by column, leading dims may differ).
    int bytes = p.element_C == NumericTypeID::kF16 || p.element_C == NumericTypeID::kBF16 ? 2
                : p.element_C == NumericTypeID::kF64                                         ? 8
                                                                                             : 4;
    for (int64_t l = 0; l < p.batch_count; ++l) {
      if (cudaMemcpy2DAsync(static_cast<char *>(p.D) + l * p.batch_stride_D * bytes, size_t(p.ldd) * bytes,
                            static_cast<char const *>(p.C) + l * p.batch_stride_C * bytes, size_t(p.ldc) * bytes,
                            size_t(p.m) * bytes, size_t(p.n), cudaMemcpyDeviceToDevice, stream) != cudaSuccess) {
        return CUBLAS_STATUS_EXECUTION_FAILED;
      }
    }
  }
  cublasOperation_t opa = p.layout_A == LayoutTypeID::kColumnMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasOperation_t opb = p.layout_B == LayoutTypeID::kColumnMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasComputeType_t compute;
  float alpha_f = float(p.alpha), beta_f = float(p.beta);
  double alpha_d = p.alpha, beta_d = p.beta;
  int32_t alpha_i = int32_t(p.alpha), beta_i = int32_t(p.beta);
  void const *alpha = &alpha_f;
  void const *beta = &beta_f;
  if (p.element_A == NumericTypeID::kTF32) {
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  } else if (p.element_A == NumericTypeID::kF64) {
    compute = CUBLAS_COMPUTE_64F;
    alpha = &alpha_d;
    beta = &beta_d;
  } else if (p.element_A == NumericTypeID::kS8 && p.element_C != NumericTypeID::kF32) {
    compute = CUBLAS_COMPUTE_32I;   // s8 x s8 -> s32 (or s8); s8 x s8 -> f32 is cuBLAS's COMPUTE_32F row
    alpha = &alpha_i;
    beta = &beta_i;
  } else {
    compute = CUBLAS_COMPUTE_32F;
  }
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  if (p.batch_count == 1) {
    return cublasGemmEx(handle, opa, opb, int(p.m), int(p.n), int(p.k), alpha, p.A, ta, int(p.lda), p.B, tb,
                        int(p.ldb), beta, p.D, tc, int(p.ldd), compute, CUBLAS_GEMM_DEFAULT);
  }
  return cublasGemmStridedBatchedEx(handle, opa, opb, int(p.m), int(p.n), int(p.k), alpha, p.A, ta, int(p.lda),
                                    p.batch_stride_A, p.B, tb, int(p.ldb), p.batch_stride_B, beta, p.D, tc,
                                    int(p.ldd), p.batch_stride_D, int(p.batch_count), compute, CUBLAS_GEMM_DEFAULT);
}

}  // namespace reference
}  // namespace cutlass
