/// @file src/reference/epilogue_reference.cu
#include "epilogue_reference.h"

#include <cmath>

#include "cutlass/epilogue/thread/activation.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace reference {

namespace {

using epilogue::thread::Activation;

__device__ __forceinline__ float load_f32(NumericTypeID type, void const *ptr, int64_t i) {
  switch (type) {
    case NumericTypeID::kF16: return __half2float(static_cast<half_t const *>(ptr)[i]);
    case NumericTypeID::kBF16: return __bfloat162float(static_cast<bfloat16_t const *>(ptr)[i]);
    case NumericTypeID::kTF32:
    case NumericTypeID::kF32: return static_cast<float const *>(ptr)[i];
    case NumericTypeID::kF64: return float(static_cast<double const *>(ptr)[i]);
    case NumericTypeID::kFE4M3: return static_cast<float>(static_cast<float_e4m3_t const *>(ptr)[i]);
    case NumericTypeID::kFE5M2: return static_cast<float>(static_cast<float_e5m2_t const *>(ptr)[i]);
    default: return NAN;
  }
}

__device__ __forceinline__ void store_f32(NumericTypeID type, void *ptr, int64_t i, float v) {
  switch (type) {
    case NumericTypeID::kF16: static_cast<half_t *>(ptr)[i] = __float2half_rn(v); break;
    case NumericTypeID::kBF16: static_cast<bfloat16_t *>(ptr)[i] = __float2bfloat16_rn(v); break;
    case NumericTypeID::kTF32:
    case NumericTypeID::kF32: static_cast<float *>(ptr)[i] = v; break;
    case NumericTypeID::kF64: static_cast<double *>(ptr)[i] = double(v); break;
    case NumericTypeID::kFE4M3: static_cast<float_e4m3_t *>(ptr)[i] = float_e4m3_t(v); break;
    case NumericTypeID::kFE5M2: static_cast<float_e5m2_t *>(ptr)[i] = float_e5m2_t(v); break;
    default: break;
  }
}

bool is_float(NumericTypeID type) {
  return type == NumericTypeID::kF16 || type == NumericTypeID::kBF16 || type == NumericTypeID::kTF32 ||
         type == NumericTypeID::kF32 || type == NumericTypeID::kF64 || type == NumericTypeID::kFE4M3 ||
         type == NumericTypeID::kFE5M2;
}


/// Folds a thread's |y| maximum into *amax: one atomic per warp (non-negative floats order as
/// their bits). Every lane of the warp calls it.
__device__ __forceinline__ void fold_amax(float *amax, float value) {
  unsigned bits = __float_as_uint(value);
  for (int offset = 16; offset > 0; offset /= 2) bits = max(bits, __shfl_xor_sync(0xffffffffu, bits, offset));
  if ((threadIdx.x & 31) == 0 && bits != 0u) atomicMax(reinterpret_cast<unsigned *>(amax), bits);
}

__host__ __device__ int64_t offset(LayoutTypeID layout, int64_t row, int64_t column, int64_t ld) {
  return layout == LayoutTypeID::kColumnMajor ? row + column * ld : row * ld + column;
}

// ---- the reference ------------------------------------------------------------------------------

/// One thread per element of D (grid-stride), batch entry blockIdx.y.
__global__ void reference_epilogue_kernel(GemmProblem p, float const *product, EpilogueOperands e) {
  int64_t const l = blockIdx.y;
  float amax = 0.f;
  float const scale = e.scale_d ? *e.scale_d : 1.f;
  int64_t const count = p.m * p.n;
  // Rounded up to whole warps so every lane reaches fold_amax.
  int64_t const stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t base = blockIdx.x * int64_t(blockDim.x); base < count; base += stride) {
    int64_t const idx = base + threadIdx.x;
    if (idx < count) {
      int64_t const i = idx % p.m, j = idx / p.m;
      float x = float(p.alpha) * product[l * p.batch_stride_D + offset(p.layout_C, i, j, p.ldd)];
      if (e.alpha_vector) {
        int64_t const v = e.alpha_vector_broadcast == VectorBroadcast::kPerRow ? i : j;
        x *= e.alpha_vector[l * e.batch_stride_alpha_vector + v];
      }
      if (p.beta != 0) {
        x += float(p.beta) * load_f32(p.element_C, p.C, l * p.batch_stride_C + offset(p.layout_C, i, j, p.ldc));
      }
      if (e.bias) {
        int64_t const v = e.bias_broadcast == VectorBroadcast::kPerRow ? i : j;
        x += load_f32(e.element_bias, e.bias, l * e.batch_stride_bias + v);
      }
      if (e.aux) store_f32(e.element_aux, e.aux, l * e.batch_stride_aux + offset(p.layout_C, i, j, e.ldaux), x);
      float const y = epilogue::thread::apply_activation<false>(e.activation, x, e.clamp_min, e.clamp_max);
      amax = fmaxf(amax, fabsf(y));
      store_f32(p.element_C, p.D, l * p.batch_stride_D + offset(p.layout_C, i, j, p.ldd), y * scale);
    }
  }
  if (e.amax) fold_amax(e.amax, amax);
}

// ---- the unfused baseline -----------------------------------------------------------------------

template <typename T>
struct TypeOf;
template <>
struct TypeOf<half_t> {
  static constexpr NumericTypeID kId = NumericTypeID::kF16;
};
template <>
struct TypeOf<bfloat16_t> {
  static constexpr NumericTypeID kId = NumericTypeID::kBF16;
};
template <>
struct TypeOf<float> {
  static constexpr NumericTypeID kId = NumericTypeID::kF32;
};

__device__ __forceinline__ float to_f32(half_t v) { return __half2float(v); }
__device__ __forceinline__ float to_f32(bfloat16_t v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_f32(float v) { return v; }
template <typename T>
__device__ __forceinline__ T from_f32(float v);
template <>
__device__ __forceinline__ half_t from_f32<half_t>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bfloat16_t from_f32<bfloat16_t>(float v) { return __float2bfloat16_rn(v); }
template <>
__device__ __forceinline__ float from_f32<float>(float v) { return v; }

/// kVec elements of T in one (16-byte when kVec * sizeof(T) == 16) access.
template <typename T, int kVec>
struct alignas(sizeof(T) * kVec) Pack {
  T v[kVec];
};

/// Shape of the in-place pass in D's storage order: `contiguous` elements per line (M for
/// column-major D, N for row-major), `lines` lines `ld` apart; `vectors along` says whether
/// a vector follows the contiguous index (true) or the line index.
struct UnfusedShape {
  int64_t contiguous, lines, ld, batch_stride;
  bool bias_along_contiguous, alpha_along_contiguous;
};

/// One thread per kVec consecutive elements of a line (grid-stride), batch entry blockIdx.y.
template <typename T, int kVec, ActivationKind kAct, bool kVecAux, bool kVecBias>
__global__ void __launch_bounds__(256) unfused_epilogue_kernel(T *d, UnfusedShape s, EpilogueOperands e) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
  constexpr bool kFast = false;   // tanh.approx.f32 needs sm_75
#else
  constexpr bool kFast = sizeof(T) <= 2;   // as the fused kernels (linear_combination.h, kFastMath)
#endif
  int64_t const l = blockIdx.y;
  float const scale = e.scale_d ? *e.scale_d : 1.f;
  float amax = 0.f;
  int64_t const chunks = s.contiguous / kVec;
  int64_t const count = chunks * s.lines;
  int64_t const stride = int64_t(gridDim.x) * blockDim.x;
  T *const d_batch = d + l * s.batch_stride;
  for (int64_t base = blockIdx.x * int64_t(blockDim.x); base < count; base += stride) {
    int64_t const idx = base + threadIdx.x;
    if (idx < count) {
      int64_t const line = idx / chunks;
      int64_t const first = (idx - line * chunks) * kVec;   // index along the contiguous dimension
      Pack<T, kVec> *const pd = reinterpret_cast<Pack<T, kVec> *>(d_batch + line * s.ld + first);
      Pack<T, kVec> value = *pd;
      float x[kVec];
#pragma unroll
      for (int v = 0; v < kVec; ++v) x[v] = to_f32(value.v[v]);
      if (e.alpha_vector) {
        float const *av = e.alpha_vector + l * e.batch_stride_alpha_vector;
#pragma unroll
        for (int v = 0; v < kVec; ++v) x[v] *= s.alpha_along_contiguous ? av[first + v] : av[line];
      }
      if (e.bias) {
        if (kVecBias && s.bias_along_contiguous) {
          Pack<T, kVec> const b =
              *reinterpret_cast<Pack<T, kVec> const *>(static_cast<T const *>(e.bias) + l * e.batch_stride_bias + first);
#pragma unroll
          for (int v = 0; v < kVec; ++v) x[v] += to_f32(b.v[v]);
        } else {
          int64_t const b0 = l * e.batch_stride_bias;
          if (s.bias_along_contiguous) {
#pragma unroll
            for (int v = 0; v < kVec; ++v) x[v] += load_f32(e.element_bias, e.bias, b0 + first + v);
          } else {
            float const b = load_f32(e.element_bias, e.bias, b0 + line);
#pragma unroll
            for (int v = 0; v < kVec; ++v) x[v] += b;
          }
        }
      }
      if (e.aux) {
        int64_t const a0 = l * e.batch_stride_aux + line * e.ldaux + first;
        if (kVecAux) {
          Pack<T, kVec> a;
#pragma unroll
          for (int v = 0; v < kVec; ++v) a.v[v] = from_f32<T>(x[v]);
          *reinterpret_cast<Pack<T, kVec> *>(static_cast<T *>(e.aux) + a0) = a;
        } else {
#pragma unroll
          for (int v = 0; v < kVec; ++v) store_f32(e.element_aux, e.aux, a0 + v, x[v]);
        }
      }
#pragma unroll
      for (int v = 0; v < kVec; ++v) {
        float const y = Activation<kAct, kFast>::apply(x[v], e.clamp_min, e.clamp_max);
        amax = fmaxf(amax, fabsf(y));
        value.v[v] = from_f32<T>(e.scale_d ? y * scale : y);
      }
      *pd = value;
    }
  }
  if (e.amax) fold_amax(e.amax, amax);
}

bool aligned(void const *p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

unsigned blocks_for(int64_t count) {
  int64_t const blocks = (count + 255) / 256;
  return unsigned(blocks < 1 ? 1 : (blocks > (1 << 30) ? (1 << 30) : blocks));
}

template <typename T, int kVec, ActivationKind kAct>
bool launch_unfused(T *d, UnfusedShape const &s, EpilogueOperands const &e, int64_t batch_count, bool vec_aux,
                    bool vec_bias, cudaStream_t stream) {
  dim3 const grid(blocks_for(s.contiguous / kVec * s.lines), unsigned(batch_count));
  if (vec_aux && vec_bias) {
    unfused_epilogue_kernel<T, kVec, kAct, true, true><<<grid, 256, 0, stream>>>(d, s, e);
  } else if (vec_aux) {
    unfused_epilogue_kernel<T, kVec, kAct, true, false><<<grid, 256, 0, stream>>>(d, s, e);
  } else if (vec_bias) {
    unfused_epilogue_kernel<T, kVec, kAct, false, true><<<grid, 256, 0, stream>>>(d, s, e);
  } else {
    unfused_epilogue_kernel<T, kVec, kAct, false, false><<<grid, 256, 0, stream>>>(d, s, e);
  }
  return cudaGetLastError() == cudaSuccess;
}

template <typename T, int kVec>
bool dispatch_activation(T *d, UnfusedShape const &s, EpilogueOperands const &e, int64_t batch_count, bool vec_aux,
                         bool vec_bias, cudaStream_t stream) {
  switch (e.activation) {
    case ActivationKind::kIdentity:
      return launch_unfused<T, kVec, ActivationKind::kIdentity>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kReLU:
      return launch_unfused<T, kVec, ActivationKind::kReLU>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kGELU:
      return launch_unfused<T, kVec, ActivationKind::kGELU>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kGELUErf:
      return launch_unfused<T, kVec, ActivationKind::kGELUErf>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kSiLU:
      return launch_unfused<T, kVec, ActivationKind::kSiLU>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kSigmoid:
      return launch_unfused<T, kVec, ActivationKind::kSigmoid>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    case ActivationKind::kClamp:
      return launch_unfused<T, kVec, ActivationKind::kClamp>(d, s, e, batch_count, vec_aux, vec_bias, stream);
    default: return false;
  }
}

template <typename T>
bool unfused_typed(LayoutTypeID layout, int64_t m, int64_t n, int64_t batch_count, T *d, int64_t ldd,
                   int64_t batch_stride_d, EpilogueOperands const &e, cudaStream_t stream) {
  constexpr int kVec = 16 / sizeof(T);
  bool const column = layout == LayoutTypeID::kColumnMajor;
  UnfusedShape s;
  s.contiguous = column ? m : n;
  s.lines = column ? n : m;
  s.ld = ldd;
  s.batch_stride = batch_stride_d;
  s.bias_along_contiguous = (e.bias_broadcast == VectorBroadcast::kPerRow) == column;
  s.alpha_along_contiguous = (e.alpha_vector_broadcast == VectorBroadcast::kPerRow) == column;
  size_t const bytes = sizeof(T) * kVec;
  bool vector = s.contiguous % kVec == 0 && ldd % kVec == 0 && batch_stride_d % kVec == 0 && aligned(d, bytes);
  bool const aux_same = e.aux && e.element_aux == TypeOf<T>::kId;
  if (e.aux && !aux_same && e.element_aux != NumericTypeID::kF32 && e.element_aux != NumericTypeID::kF16 &&
      e.element_aux != NumericTypeID::kBF16) {
    return false;
  }
  // aux of D's type goes vectorized too, when its layout allows; else the whole pass is scalar
  // (a rare case: the profiler's aux always has D's type and leading dimension).
  if (aux_same) vector = vector && e.ldaux % kVec == 0 && e.batch_stride_aux % kVec == 0 && aligned(e.aux, bytes);
  bool const vec_bias = e.bias && e.element_bias == TypeOf<T>::kId && s.bias_along_contiguous &&
                        e.batch_stride_bias % kVec == 0 && aligned(e.bias, bytes);
  if (vector) return dispatch_activation<T, kVec>(d, s, e, batch_count, aux_same, vec_bias, stream);
  return dispatch_activation<T, 1>(d, s, e, batch_count, aux_same, e.bias && e.element_bias == TypeOf<T>::kId, stream);
}

}  // namespace

bool reference_epilogue(GemmProblem const &p, float const *product, EpilogueOperands const &e, cudaStream_t stream) {
  if (!is_float(p.element_C) || (e.bias && !is_float(e.element_bias)) || (e.aux && !is_float(e.element_aux))) {
    return false;
  }
  if (p.m <= 0 || p.n <= 0 || p.batch_count <= 0) return true;
  dim3 const grid(blocks_for(p.m * p.n) > 8192 ? 8192 : blocks_for(p.m * p.n), unsigned(p.batch_count));
  reference_epilogue_kernel<<<grid, 256, 0, stream>>>(p, product, e);
  return cudaGetLastError() == cudaSuccess;
}

bool unfused_epilogue(NumericTypeID element_d, LayoutTypeID layout, int64_t m, int64_t n, int64_t batch_count,
                      void *d, int64_t ldd, int64_t batch_stride_d, EpilogueOperands const &e, cudaStream_t stream) {
  if (m <= 0 || n <= 0 || batch_count <= 0) return true;
  if (e.bias && !is_float(e.element_bias)) return false;
  switch (element_d) {
    case NumericTypeID::kF16:
      return unfused_typed(layout, m, n, batch_count, static_cast<half_t *>(d), ldd, batch_stride_d, e, stream);
    case NumericTypeID::kBF16:
      return unfused_typed(layout, m, n, batch_count, static_cast<bfloat16_t *>(d), ldd, batch_stride_d, e, stream);
    case NumericTypeID::kF32:
      return unfused_typed(layout, m, n, batch_count, static_cast<float *>(d), ldd, batch_stride_d, e, stream);
    default: return false;
  }
}

float read_device_float(float const *ptr) {
  float value = NAN;
  if (cudaMemcpy(&value, ptr, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
  return value;
}

}  // namespace reference
}  // namespace cutlass
