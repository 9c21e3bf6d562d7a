/// Helpers of the GPU tests: device presence, an owning device buffer, element sizes.
#pragma once

#include <cstring>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>
#include <cuda_runtime_api.h>

#include "cutlass/library/singleton.h"
#include "cutlass/library/types.h"
#include "cutlass/library/util.h"
#include "gemm_reference.h"

namespace cutlass_lib_test {

inline bool has_device() {
  static bool const present = [] {
    int count = 0;
    bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
  }();
  return present;
}

/// Whether this build has code for the current device: the library's kernels and the reference
/// are SASS for CUTLASS_NVCC_ARCHS only, so an sm_80-only build has none for an sm_90 device.
inline bool has_code_for_device() {
  static bool const present = cutlass::reference::has_code_for_current_device();
  return present;
}

/// Skips a GPU test without a device, or on a device this build has no code for (its library
/// calls answer ARCH_MISMATCH there, which ArchCoverage.CallsAnswerArchMismatchExactlyWhereNoKernelRuns checks).
#define SKIP_WITHOUT_GPU()                                                                                       \
  do {                                                                                                           \
    if (!::cutlass_lib_test::has_device()) GTEST_SKIP() << "no CUDA device: GPU tests run on the GPU machine";    \
    if (!::cutlass_lib_test::has_code_for_device()) {                                                            \
      GTEST_SKIP() << "this build has no code for the device's compute capability "                             \
                   << ::cutlass_lib_test::device_compute_capability() << " (CUTLASS_NVCC_ARCHS leaves it out)"; \
    }                                                                                                            \
  } while (0)

/// An attribute of the current device (0 when the query fails).
inline int device_attribute(cudaDeviceAttr attribute) {
  int device = 0, value = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return value;
}

/// Compute capability of the current device as major * 10 + minor (0 when the query fails).
inline int device_compute_capability() {
  return device_attribute(cudaDevAttrComputeCapabilityMajor) * 10 + device_attribute(cudaDevAttrComputeCapabilityMinor);
}

/// Whether a kernel is block-scaled (the sm90 FP8BlockScaledAccum schedule, names "..._blockscale"):
/// it takes only calls with block scales or precise accumulation.
inline bool is_block_scaled(cutlass::library::OperationDescription const &d) {
  return std::strstr(d.name, "_blockscale") != nullptr;
}

/// Where build_has_kernel looks: kernels that run on the current device, or kernels for any.
enum class KernelsFor { kThisDevice, kAnyDevice };

/// Whether this build registered a plain (unfused) GEMM kernel for the current device (or, with
/// KernelsFor::kAnyDevice, for any device) with these A/B element type, A and B layouts and C
/// element type (C column-major), of alignment `alignment_A` for A (0: any), that takes any
/// problem shape: the bandwidth kernels (GEMV, skinny: max_small_extent > 0) take only M or N == 1
/// or a small side, so a build whose only kernels for a key are those (the opt-in e4m3 GEMV's
/// MN-major layouts) has none for the tests' square calls. Read from the manifest, not through
/// selection, so a selection bug still fails the tests that use it; without one they answer
/// NO_KERNEL_FOR.
inline bool build_has_kernel(cutlass::library::NumericTypeID element_AB, cutlass::library::LayoutTypeID layout_A,
                             cutlass::library::LayoutTypeID layout_B, cutlass::library::NumericTypeID element_C,
                             int alignment_A = 0, KernelsFor where = KernelsFor::kThisDevice) {
  using namespace cutlass::library;
  int const cc = where == KernelsFor::kThisDevice ? device_compute_capability() : -1;
  for (auto const &op : Singleton::get().manifest.operations()) {
    auto const &d = static_cast<GemmDescription const &>(op->description());
    auto const &tile = d.tile_description;
    if (d.A.element == element_AB && d.B.element == element_AB && d.A.layout == layout_A && d.B.layout == layout_B &&
        d.C.element == element_C && d.C.layout == LayoutTypeID::kColumnMajor && !d.epilogue.fused() &&
        d.max_small_extent == 0 && d.gemm_kind != cutlass::library::GemmKind::kGrouped && !is_block_scaled(d) &&
        (alignment_A == 0 || d.A.alignment == alignment_A) &&
        (cc < 0 || (cc >= tile.minimum_compute_capability && cc <= tile.maximum_compute_capability))) {
      return true;
    }
  }
  return false;
}

/// Whether this build registered a grouped GEMM kernel (GemmKind::kGrouped, one launch over many
/// problems) for the current device with these A/B element type, A and B layouts, C element type and
/// fused epilogue (plain by default).
inline bool build_has_grouped_kernel(cutlass::library::NumericTypeID element_AB, cutlass::library::LayoutTypeID layout_A,
                                     cutlass::library::LayoutTypeID layout_B, cutlass::library::NumericTypeID element_C,
                                     cutlass::library::EpilogueDescription const &epilogue = {}) {
  using namespace cutlass::library;
  int const cc = device_compute_capability();
  for (auto const &op : Singleton::get().manifest.operations()) {
    auto const &d = static_cast<GemmDescription const &>(op->description());
    if (d.gemm_kind == GemmKind::kGrouped && d.A.element == element_AB && d.B.element == element_AB &&
        d.A.layout == layout_A && d.B.layout == layout_B && d.C.element == element_C && d.epilogue == epilogue &&
        cc >= d.tile_description.minimum_compute_capability && cc <= d.tile_description.maximum_compute_capability) {
      return true;
    }
  }
  return false;
}

/// Whether the handle runs calls of these types and A / B layouts on a plain kernel of this build:
/// one of those layouts (build_has_kernel), or one with both operands K-major, which takes
/// MN-major operands through transposed copies (the packing route, src/library/staging.h).
inline bool build_runs_layouts(cutlass::library::NumericTypeID element_AB, cutlass::library::LayoutTypeID layout_A,
                               cutlass::library::LayoutTypeID layout_B, cutlass::library::NumericTypeID element_C,
                               KernelsFor where = KernelsFor::kThisDevice) {
  using cutlass::library::LayoutTypeID;
  return build_has_kernel(element_AB, layout_A, layout_B, element_C, 0, where) ||
         build_has_kernel(element_AB, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor, element_C, 0, where);
}

/// Whether this build has a plain bf16 TN kernel (bf16 C) for the current device: the type the
/// handle and C API tests call with.
inline bool build_has_bf16_tn_kernel() {
  using cutlass::library::LayoutTypeID;
  using cutlass::library::NumericTypeID;
  return build_has_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                          NumericTypeID::kBF16);
}

/// The answer of a test whose call has no kernel in this build (`what` names the call): a skip
/// when the build chose a kernel subset (CUTLASS_LIBRARY_KERNELS / _IGNORE_KERNELS; test/CMakeLists
/// defines CUTLASS_LIB_TEST_KERNEL_SUBSET), a failure for the default set, which must cover it.
#if defined(CUTLASS_LIB_TEST_KERNEL_SUBSET)
#define NO_KERNEL_FOR(what) \
  GTEST_SKIP() << "this build's kernel list (CUTLASS_LIBRARY_KERNELS) has no kernel on this device for " << what
#else
#define NO_KERNEL_FOR(what) FAIL() << "the default kernel set has no kernel on this device for " << what
#endif

/// SMs of the current device (0 when the query fails).
inline int device_sm_count() { return device_attribute(cudaDevAttrMultiProcessorCount); }

/// An m x n problem for a kernel that takes only min(M, N) <= limit (GemmDescription::
/// max_small_extent: GEMV 1, skinny 8 / 16 / 32; 0 = any): unchanged when it fits, else its N
/// (when m + n is even) or its M brought into 1 .. limit, so a test's shapes reach both
/// orientations and stay ragged.
inline void fit_small_side(int limit, int64_t &m, int64_t &n) {
  if (limit <= 0 || (m < n ? m : n) <= limit) return;
  if ((m + n) % 2 == 0) {
    n = 1 + (n - 1) % limit;
  } else {
    m = 1 + (m - 1) % limit;
  }
}

/// The manifest indices among `indices` whose kernels use the stream-K tile scheduler.
inline std::vector<size_t> stream_k_only(std::vector<size_t> const &indices) {
  std::vector<size_t> out;
  for (size_t i : indices) {
    auto const &d = static_cast<cutlass::library::GemmDescription const &>(
        cutlass::library::Singleton::get().manifest.operations()[i]->description());
    if (d.tile_description.tile_scheduler == cutlass::library::TileSchedulerType::kStreamK) out.push_back(i);
  }
  return out;
}

inline int64_t element_bytes(cutlass::library::NumericTypeID type) {
  return cutlass::library::sizeof_bits(type) / 8;
}

/// An owning device allocation of `bytes` bytes (zero-size allocations give a null pointer).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes && cudaMalloc(&ptr_, bytes) != cudaSuccess) {
      ptr_ = nullptr;
      ADD_FAILURE() << "cudaMalloc(" << bytes << ") failed";
    }
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(DeviceBuffer const &) = delete;
  DeviceBuffer &operator=(DeviceBuffer const &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  void *get() const { return ptr_; }
  char *bytes_ptr() const { return static_cast<char *>(ptr_); }
  size_t size() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace cutlass_lib_test
