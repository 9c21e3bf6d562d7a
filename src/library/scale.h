/// @file src/library/scale.h
/// D = beta * C over an M x N column-major matrix (batched): the BLAS quick return for
/// K == 0 or alpha == 0. beta == 0 writes zeros without reading C (internal).
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

#include "cutlass/library/types.h"

namespace cutlass {
namespace library {

struct ScaleArguments {
  NumericTypeID element = NumericTypeID::kInvalid;   ///< type of C and D
  NumericTypeID element_scalar = NumericTypeID::kInvalid;
  int64_t m = 0, n = 0, batch_count = 1;
  void const *beta = nullptr;
  bool beta_on_device = false;
  void const *C = nullptr;
  int64_t ldc = 0, batch_stride_C = 0;
  void *D = nullptr;
  int64_t ldd = 0, batch_stride_D = 0;
};

/// True for the (element, scalar) pairs launch_scale supports: (f16|bf16|f32, f32), (f64, f64), (s32, s32).
bool scale_supported(NumericTypeID element, NumericTypeID element_scalar);

/// Whether the scaling kernel has code for the current device (cudaFuncGetAttributes, which fails
/// for a kernel without a fitting image). It is built for every architecture in
/// CUTLASS_NVCC_ARCHS, and each kernel family for a subset of them, so without it no kernel of
/// this build runs on the device either (device_info.h caches the answer per device).
bool scale_kernel_has_code();

/// Launches the scaling kernel on `stream`; false if the pair is unsupported or the launch failed.
bool launch_scale(ScaleArguments const &args, cudaStream_t stream);

}  // namespace library
}  // namespace cutlass
