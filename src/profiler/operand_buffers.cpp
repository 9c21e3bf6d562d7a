/// @file src/profiler/operand_buffers.cpp
#include "operand_buffers.h"

#include <algorithm>
#include <cstdint>

#include "cutlass/library/util.h"
#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

namespace {

/// Every matrix starts on this boundary (TMA and vector loads need at most 128 bytes).
constexpr size_t kAlignment = 256;

/// Share of the free device memory the buffers may take.
constexpr double kMemoryShare = 0.85;

size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

/// The copy count: at least `wanted`, and neither even nor a multiple of 3 (5, 7, 11, ...), so
/// the two or three providers that take turns on next() (ours, cuBLAS, cuBLASLt) each visit
/// every copy, whatever launch the rotation stands at when a measurement starts. With an even
/// count two providers would each keep one half of the copies, and which half would depend on
/// how many launches came before. When that count does not fit: the largest such count that
/// does, from 5 up; else (fewer than 5 copies fit) min(wanted, fitting).
int64_t copy_count(int64_t wanted, int64_t fitting) {
  auto const coprime_to_6 = [](int64_t n) { return n % 2 != 0 && n % 3 != 0; };
  int64_t n = wanted;
  while (!coprime_to_6(n)) ++n;
  if (n <= fitting) return n;
  for (n = fitting; n >= 5; --n) {
    if (coprime_to_6(n)) return n;
  }
  return std::min(wanted, fitting);
}

std::string mib(double bytes) { return std::to_string(int64_t(bytes / (1 << 20))) + " MiB"; }

/// Elements of `type` in `bytes` (a multiple of kAlignment, so of every element size).
int64_t elements_in(NumericTypeID type, size_t bytes) {
  return int64_t(bytes / size_t(library::sizeof_bits(type) / 8));
}

}  // namespace

DeviceAllocation::~DeviceAllocation() {
  if (data_) cudaFree(data_);
}

bool DeviceAllocation::reset(size_t bytes) {
  if (data_) cudaFree(data_);
  data_ = nullptr;
  size_ = 0;
  void *memory = nullptr;
  if (cudaMalloc(&memory, std::max<size_t>(bytes, 1)) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  data_ = static_cast<char *>(memory);
  size_ = bytes;
  return true;
}

bool OperandBuffers::initialize(GemmSpec const &spec, size_t l2_bytes, cudaStream_t stream, std::string *error) {
  rotation_ = 0;
  stride_A_ = round_up(spec.bytes_A());
  stride_B_ = round_up(spec.bytes_B());
  stride_C_ = round_up(spec.bytes_C());
  copy_bytes_ = stride_A_ + stride_B_ + 2 * stride_C_;
  size_t const reference_bytes = 2 * stride_C_;

  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    *error = "cudaMemGetInfo failed";
    return false;
  }
  double const budget = kMemoryShare * double(free_bytes) - double(reference_bytes);
  int64_t const fitting = budget > 0 ? int64_t(budget / double(copy_bytes_)) : 0;
  if (fitting < 1) {
    *error = "the operands need " + mib(double(copy_bytes_ + reference_bytes)) + ", " + mib(double(free_bytes)) +
             " of device memory are free";
    return false;
  }
  int64_t const wanted = std::max<int64_t>(2, int64_t(2 * l2_bytes / copy_bytes_) + 1);
  copies_ = int(copy_count(wanted, fitting));
  size_t const total = reference_bytes + size_t(copies_) * copy_bytes_;
  if (!memory_.reset(total)) {
    *error = "cudaMalloc of " + mib(double(total)) + " failed";
    return false;
  }

  // One fill per operand over all its copies: the counter-based fill gives every element (and
  // so every copy) its own value.
  OperandPointers const first = copy(0);
  bool const integer = spec.is_integer();
  double const lo = integer ? -2 : -1, hi = integer ? 2 : 1;
  size_t const copies = size_t(copies_);
  bool ok = reference::fill_uniform(spec.A.element, const_cast<void *>(first.A),
                                    elements_in(spec.A.element, copies * stride_A_), 1, lo, hi, stream) &&
            reference::fill_uniform(spec.B.element, const_cast<void *>(first.B),
                                    elements_in(spec.B.element, copies * stride_B_), 2, lo, hi, stream) &&
            reference::fill_uniform(spec.C.element, first.D, elements_in(spec.C.element, copies * stride_C_), 4, lo,
                                    hi, stream);
  int64_t const count_C = elements_in(spec.C.element, copies * stride_C_);
  ok = ok && (spec.beta != 0
                  ? reference::fill_uniform(spec.C.element, const_cast<void *>(first.C), count_C, 3, lo, hi, stream)
                  : reference::fill_poison(spec.C.element, const_cast<void *>(first.C), count_C, stream));
  // fp8 operand scales: one set for every copy (a few MiB at most, as the caller's would be)
  int64_t const scales_A = spec.scale_entries_A(), scales_B = spec.scale_entries_B();
  scale_A_ = scale_B_ = nullptr;
  if (scales_A + scales_B > 0) {
    if (!scales_.reset(round_up(size_t(scales_A) * sizeof(float)) + size_t(scales_B) * sizeof(float))) {
      *error = "cudaMalloc of the operand scales failed";
      return false;
    }
    float *const scales = reinterpret_cast<float *>(scales_.data());
    if (scales_A > 0) scale_A_ = scales;
    if (scales_B > 0) scale_B_ = scales + round_up(size_t(scales_A) * sizeof(float)) / sizeof(float);
    double const lo = ScalingSpec::kLow, hi = ScalingSpec::kHigh;
    if (scale_A_) ok = ok && reference::fill_uniform(NumericTypeID::kF32, const_cast<float *>(scale_A_), scales_A, 5, lo, hi, stream);
    if (scale_B_) ok = ok && reference::fill_uniform(NumericTypeID::kF32, const_cast<float *>(scale_B_), scales_B, 6, lo, hi, stream);
  }
  if (!ok || cudaStreamSynchronize(stream) != cudaSuccess) {
    *error = std::string("filling the operands failed: ") + cudaGetErrorString(cudaGetLastError());
    return false;
  }
  return true;
}

OperandPointers OperandBuffers::copy(int index) const {
  size_t const i = size_t(index), copies = size_t(copies_);
  char *A = memory_.data() + 2 * stride_C_;
  char *B = A + copies * stride_A_;
  char *C = B + copies * stride_B_;
  char *D = C + copies * stride_C_;
  return {A + i * stride_A_, B + i * stride_B_, C + i * stride_C_, D + i * stride_C_, index, scale_A_, scale_B_};
}

OperandPointers OperandBuffers::next() {
  OperandPointers const p = copy(rotation_);
  rotation_ = (rotation_ + 1) % copies_;
  return p;
}

}  // namespace profiler
}  // namespace cutlass
