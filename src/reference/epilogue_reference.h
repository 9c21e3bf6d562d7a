/// @file src/reference/epilogue_reference.h
/// Fused-epilogue tools for the profiler (and GPU tests): the elementwise reference that turns
/// a plain GEMM's product into the fused result (f32 math, precise tanh / erf / exp), and the
/// separate, 16-byte-vectorized epilogue kernel that the "cuBLAS GEMM + unfused epilogue"
/// baseline launches after cublasGemmEx (`unfused_epilogue`). Semantics as the kernels'
/// (include/cutlass/epilogue/thread/linear_combination.h), per element (m, n) of D:
///     x = alpha [* alpha_vector] * AB + beta * C [+ bias];  [aux = x];  y = act(x);
///     [amax = max |y|];  D = y [* scale_d]
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

#include "cutlass/epilogue/epilogue_types.h"
#include "gemm_reference.h"

namespace cutlass {
namespace reference {

using epilogue::ActivationKind;
using epilogue::VectorBroadcast;

/// The operands of the fused pieces. A piece is on when its pointer is set (element type known).
/// Vectors broadcast per row (entry m, M entries per batch) or per column (entry n); aux has D's
/// layout with leading dimension ldaux. scale_d and amax are device scalars; amax is
/// max-reduced into (the caller zeroes it; NaNs are ignored).
struct EpilogueOperands {
  ActivationKind activation = ActivationKind::kIdentity;
  float clamp_min = 0, clamp_max = 0;
  NumericTypeID element_bias = NumericTypeID::kInvalid;
  void const *bias = nullptr;
  VectorBroadcast bias_broadcast = VectorBroadcast::kPerRow;
  int64_t batch_stride_bias = 0;
  float const *alpha_vector = nullptr;
  VectorBroadcast alpha_vector_broadcast = VectorBroadcast::kPerRow;
  int64_t batch_stride_alpha_vector = 0;
  NumericTypeID element_aux = NumericTypeID::kInvalid;
  void *aux = nullptr;
  int64_t ldaux = 0, batch_stride_aux = 0;
  float const *scale_d = nullptr;
  float *amax = nullptr;
};

/// The reference: `product` holds A*B (f32, laid out as D: problem.layout_C, ldd,
/// batch_stride_D), e.g. from reference_gemm with element_C = f32, alpha 1, beta 0. Reads C
/// (problem.element_C) only when beta != 0, writes D, aux and amax. Activations in precise f32
/// (tanhf, erff, expf). False for an unknown type or a failed launch.
bool reference_epilogue(GemmProblem const &problem, float const *product, EpilogueOperands const &epilogue,
                        cudaStream_t stream = nullptr);

/// The separate epilogue kernel of the unfused baseline, in place on D (a GEMM already wrote
/// D = alpha * AB + beta * C):  x = D [* alpha_vector] [+ bias];  [aux = x];  D = act(x) [* scale_d];
/// [amax]. Exactly the fused math when there is no alpha vector or beta == 0. D is f16, bf16 or
/// f32 (M x N, `layout`, ldd, batch_stride_d). 16-byte loads and stores of D (and of aux and a
/// vector along D's contiguous dimension when they have D's type) whenever the contiguous extent,
/// ldd, ldaux and the pointers allow it, else element by element. Activations as the fused
/// kernels compute them (fast tanh / exp for 16-bit D). False for an unsupported type or a
/// failed launch.
bool unfused_epilogue(NumericTypeID element_d, LayoutTypeID layout, int64_t m, int64_t n, int64_t batch_count,
                      void *d, int64_t ldd, int64_t batch_stride_d, EpilogueOperands const &epilogue,
                      cudaStream_t stream = nullptr);

/// Reads a device float (synchronizes); NaN when the copy fails.
float read_device_float(float const *ptr);

}  // namespace reference
}  // namespace cutlass
