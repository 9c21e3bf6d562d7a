/// @file src/profiler/epilogue_buffers.cpp
#include "epilogue_buffers.h"

#include "cutlass/library/util.h"
#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

namespace {

constexpr size_t kAlignment = 256;

size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

}  // namespace

bool EpilogueBuffers::initialize(GemmSpec const &spec, int copies, bool verifying, cudaStream_t stream,
                                 std::string *error) {
  spec_ = spec;
  copies_ = copies;
  bias_ = alpha_vector_ = aux_ = nullptr;
  product_ = nullptr;
  reference_aux_ = cublas_aux_ = nullptr;
  scalars_ = nullptr;
  EpilogueSpec const &e = spec.epilogue;
  if (!e.fused()) return true;

  stride_bias_ = e.variant.bias ? round_up(bytes_of(e.element_bias, spec.bias_extent() * spec.batch_count)) : 0;
  stride_alpha_vector_ =
      e.variant.alpha_vector ? round_up(bytes_of(NumericTypeID::kF32, spec.alpha_vector_extent() * spec.batch_count)) : 0;
  stride_aux_ = e.variant.aux ? round_up(bytes_of(e.element_aux, spec.elements_C() * spec.batch_count)) : 0;
  size_t const product_bytes = verifying ? round_up(bytes_of(NumericTypeID::kF32, spec.elements_C() * spec.batch_count)) : 0;
  size_t const scalar_bytes = round_up(sizeof(float) * (1 + size_t(AmaxSlot::kCount)));
  size_t const total = size_t(copies) * (stride_bias_ + stride_alpha_vector_ + stride_aux_) + product_bytes +
                       (verifying ? 2 * stride_aux_ : 0) + scalar_bytes;
  if (!memory_.reset(total)) {
    *error = "cudaMalloc of " + std::to_string(total >> 20) + " MiB for the epilogue operands failed";
    return false;
  }
  char *p = memory_.data();
  scalars_ = reinterpret_cast<float *>(p);
  p += scalar_bytes;
  if (product_bytes) {
    product_ = reinterpret_cast<float *>(p);
    p += product_bytes;
  }
  if (stride_aux_ && verifying) {
    reference_aux_ = p;
    cublas_aux_ = p + stride_aux_;
    p += 2 * stride_aux_;
  }
  bias_ = stride_bias_ ? p : nullptr;
  p += size_t(copies) * stride_bias_;
  alpha_vector_ = stride_alpha_vector_ ? p : nullptr;
  p += size_t(copies) * stride_alpha_vector_;
  aux_ = stride_aux_ ? p : nullptr;

  bool ok = cudaMemsetAsync(scalars_, 0, scalar_bytes, stream) == cudaSuccess &&
            reference::fill_value(NumericTypeID::kF32, scalars_, 1, EpilogueSpec::kScaleD, stream);
  // One fill over all copies: each element (so each copy) gets its own value.
  if (bias_) {
    ok = ok && reference::fill_uniform(e.element_bias, bias_,
                                       int64_t(size_t(copies) * stride_bias_ * 8 / library::sizeof_bits(e.element_bias)),
                                       5, -1, 1, stream);
  }
  if (alpha_vector_) {
    ok = ok && reference::fill_uniform(NumericTypeID::kF32, alpha_vector_,
                                       int64_t(size_t(copies) * stride_alpha_vector_ / sizeof(float)), 6, 0.5, 1.5,
                                       stream);
  }
  if (aux_) {
    int64_t const per_copy = int64_t(stride_aux_ * 8 / library::sizeof_bits(e.element_aux));
    ok = ok && reference::fill_poison(e.element_aux, aux_, per_copy * copies, stream);
    if (reference_aux_) ok = ok && reference::fill_poison(e.element_aux, reference_aux_, 2 * per_copy, stream);
  }
  if (!ok || cudaStreamSynchronize(stream) != cudaSuccess) {
    *error = std::string("filling the epilogue operands failed: ") + cudaGetErrorString(cudaGetLastError());
    return false;
  }
  return true;
}

void *EpilogueBuffers::aux(int copy) const { return aux_ ? aux_ + size_t(copy) * stride_aux_ : nullptr; }

float *EpilogueBuffers::amax(AmaxSlot slot) const {
  if (!scalars_ || !spec_.epilogue.variant.scale_amax) return nullptr;
  return scalars_ + 1 + int(slot);
}

bool EpilogueBuffers::clear_amax(AmaxSlot slot, cudaStream_t stream) const {
  float *const p = amax(slot);
  return !p || cudaMemsetAsync(p, 0, sizeof(float), stream) == cudaSuccess;
}

reference::EpilogueOperands EpilogueBuffers::operands(int copy, AmaxSlot slot, void *aux_override) const {
  reference::EpilogueOperands o;
  EpilogueSpec const &e = spec_.epilogue;
  if (!e.fused()) return o;
  o.activation = e.variant.activation;
  o.clamp_min = e.clamp_min;
  o.clamp_max = e.clamp_max;
  if (bias_) {
    o.element_bias = e.element_bias;
    o.bias = bias_ + size_t(copy) * stride_bias_;
    o.bias_broadcast = e.bias_broadcast;
    o.batch_stride_bias = spec_.bias_extent();
  }
  if (alpha_vector_) {
    o.alpha_vector = reinterpret_cast<float const *>(alpha_vector_ + size_t(copy) * stride_alpha_vector_);
    o.alpha_vector_broadcast = e.alpha_vector_broadcast;
    o.batch_stride_alpha_vector = spec_.alpha_vector_extent();
  }
  if (aux_) {
    o.element_aux = e.element_aux;
    o.aux = aux_override ? aux_override : aux(copy);
    o.ldaux = spec_.ldc();
    o.batch_stride_aux = spec_.elements_C();
  }
  if (e.variant.scale_amax) {
    o.scale_d = scalars_;
    o.amax = amax(slot);
  }
  return o;
}

}  // namespace profiler
}  // namespace cutlass
