/// @file src/library/scale.cu
#include "scale.h"

#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace library {

namespace {

template <typename Element, typename Scalar>
__global__ void scale_kernel(int64_t m, int64_t n, Scalar beta_value, Scalar const *beta_ptr, Element const *C,
                             int64_t ldc, int64_t batch_stride_C, Element *D, int64_t ldd, int64_t batch_stride_D) {
  Scalar const beta = beta_ptr ? *beta_ptr : beta_value;
  int64_t const batch = blockIdx.z;
  int64_t const total = m * n;
  for (int64_t idx = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    int64_t const i = idx % m;
    int64_t const j = idx / m;
    Element *d = D + batch * batch_stride_D + i + j * ldd;
    if (beta == Scalar(0)) {
      *d = NumericConverter<Element, Scalar>::convert(Scalar(0));
    } else {
      Element c = C[batch * batch_stride_C + i + j * ldc];
      *d = NumericConverter<Element, Scalar>::convert(beta * NumericConverter<Scalar, Element>::convert(c));
    }
  }
}

template <typename Element, typename Scalar>
bool launch(ScaleArguments const &a, cudaStream_t stream) {
  Scalar beta_value = a.beta_on_device ? Scalar(0) : *static_cast<Scalar const *>(a.beta);
  Scalar const *beta_ptr = a.beta_on_device ? static_cast<Scalar const *>(a.beta) : nullptr;
  // beta == 1 with C == D (same leading dimension and stride) leaves D untouched, bit for bit.
  if (!a.beta_on_device && beta_value == Scalar(1) && a.C == a.D && a.ldc == a.ldd &&
      (a.batch_count == 1 || a.batch_stride_C == a.batch_stride_D)) {
    return true;
  }
  int64_t const total = a.m * a.n;
  int const threads = 256;
  int64_t blocks = (total + threads - 1) / threads;
  if (blocks > 4096) blocks = 4096;
  dim3 grid(unsigned(blocks), 1, unsigned(a.batch_count));
  scale_kernel<Element, Scalar><<<grid, threads, 0, stream>>>(
      a.m, a.n, beta_value, beta_ptr, static_cast<Element const *>(a.C), a.ldc, a.batch_stride_C,
      static_cast<Element *>(a.D), a.ldd, a.batch_stride_D);
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace

bool scale_supported(NumericTypeID element, NumericTypeID scalar) {
  switch (element) {
    case NumericTypeID::kF16:
    case NumericTypeID::kBF16:
    case NumericTypeID::kF32: return scalar == NumericTypeID::kF32;
    case NumericTypeID::kF64: return scalar == NumericTypeID::kF64;
    case NumericTypeID::kS32: return scalar == NumericTypeID::kS32;
    case NumericTypeID::kS8: return scalar == NumericTypeID::kF32;   // int8 requantization's C
    default: return false;
  }
}

bool scale_kernel_has_code() {
  cudaFuncAttributes attributes;
  bool const ok = cudaFuncGetAttributes(&attributes, scale_kernel<float, float>) == cudaSuccess;
  cudaGetLastError();
  return ok;
}

bool launch_scale(ScaleArguments const &a, cudaStream_t stream) {
  if (!scale_supported(a.element, a.element_scalar)) return false;
  switch (a.element) {
    case NumericTypeID::kF16: return launch<half_t, float>(a, stream);
    case NumericTypeID::kBF16: return launch<bfloat16_t, float>(a, stream);
    case NumericTypeID::kF32: return launch<float, float>(a, stream);
    case NumericTypeID::kF64: return launch<double, double>(a, stream);
    case NumericTypeID::kS32: return launch<int32_t, int32_t>(a, stream);
    case NumericTypeID::kS8: return launch<int8_t, float>(a, stream);
    default: return false;
  }
}

}  // namespace library
}  // namespace cutlass
