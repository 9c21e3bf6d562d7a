/// @file src/reference/cublas_gemm.h
/// The same GEMM through cuBLAS (cublasGemmEx / cublasGemmStridedBatchedEx), for verification
/// and as the speed reference. Only built when CUTLASS_ENABLE_CUBLAS is on.
#pragma once

#include <cublas_v2.h>

#include "gemm_reference.h"

namespace cutlass {
namespace reference {

/// Maps the problem (column- or row-major C) onto cuBLAS's column-major call and launches it on
/// the handle's stream. Returns CUBLAS_STATUS_NOT_SUPPORTED for type combinations cuBLAS lacks
/// and for operand scales (cuBLASLt's; CublasLtEpilogueGemm).
/// tf32 operands run with CUBLAS_COMPUTE_32F_FAST_TF32; s8 with CUBLAS_COMPUTE_32I.
cublasStatus_t cublas_gemm(cublasHandle_t handle, GemmProblem const &problem);

}  // namespace reference
}  // namespace cutlass
