/// @file src/profiler/operand_buffers.cpp
#include "operand_buffers.h"

#include <algorithm>
#include <cstdint>

#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

namespace {

/// Every operand starts on this boundary (TMA and vector loads need at most 128 bytes).
constexpr size_t kAlignment = 256;

/// Share of the free device memory the copies may take.
constexpr double kMemoryShare = 0.85;

size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

std::string mib(double bytes) { return std::to_string(int64_t(bytes / (1 << 20))) + " MiB"; }

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
  spec_ = spec;
  rotation_ = 0;
  reference_bytes_ = round_up(spec.bytes_C());
  offset_B_ = round_up(spec.bytes_A());
  offset_C_ = offset_B_ + round_up(spec.bytes_B());
  offset_D_ = offset_C_ + round_up(spec.bytes_C());
  copy_bytes_ = offset_D_ + round_up(spec.bytes_C());

  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    *error = "cudaMemGetInfo failed";
    return false;
  }
  double const budget = kMemoryShare * double(free_bytes) - 2.0 * double(reference_bytes_);
  int64_t const fitting = budget > 0 ? int64_t(budget / double(copy_bytes_)) : 0;
  if (fitting < 1) {
    *error = "the operands need " + mib(double(copy_bytes_) + 2.0 * double(reference_bytes_)) + ", " +
             mib(double(free_bytes)) + " of device memory are free";
    return false;
  }
  int64_t const wanted = std::max<int64_t>(2, int64_t(2 * l2_bytes / copy_bytes_) + 1);
  copies_ = int(std::min(wanted, fitting));
  if (!memory_.reset(2 * reference_bytes_ + size_t(copies_) * copy_bytes_)) {
    *error = "cudaMalloc of " + mib(double(2 * reference_bytes_ + size_t(copies_) * copy_bytes_)) + " failed";
    return false;
  }

  bool const integer = spec.is_integer();
  double const lo = integer ? -2 : -1, hi = integer ? 2 : 1;
  bool ok = true;
  for (int i = 0; i < copies_; ++i) {
    OperandPointers p = copy(i);
    uint64_t const seed = 4 * uint64_t(i);
    ok = ok && reference::fill_uniform(spec.A.element, const_cast<void *>(p.A), spec.elements_A() * spec.batch_count,
                                       seed + 1, lo, hi, stream);
    ok = ok && reference::fill_uniform(spec.B.element, const_cast<void *>(p.B), spec.elements_B() * spec.batch_count,
                                       seed + 2, lo, hi, stream);
    int64_t const count_C = spec.elements_C() * spec.batch_count;
    if (spec.beta != 0) {
      ok = ok && reference::fill_uniform(spec.C.element, const_cast<void *>(p.C), count_C, seed + 3, lo, hi, stream);
    } else {
      ok = ok && reference::fill_poison(spec.C.element, const_cast<void *>(p.C), count_C, stream);
    }
    ok = ok && reference::fill_uniform(spec.C.element, p.D, count_C, seed + 4, lo, hi, stream);
  }
  if (!ok || cudaStreamSynchronize(stream) != cudaSuccess) {
    *error = std::string("filling the operands failed: ") + cudaGetErrorString(cudaGetLastError());
    return false;
  }
  return true;
}

OperandPointers OperandBuffers::copy(int index) const {
  char *base = memory_.data() + 2 * reference_bytes_ + size_t(index) * copy_bytes_;
  return {base, base + offset_B_, base + offset_C_, base + offset_D_};
}

OperandPointers OperandBuffers::next() {
  OperandPointers const p = copy(rotation_);
  rotation_ = (rotation_ + 1) % copies_;
  return p;
}

}  // namespace profiler
}  // namespace cutlass
