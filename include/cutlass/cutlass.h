/// @file cutlass/cutlass.h
/// Basic definitions shared by every kernel template and by the library runtime:
/// the Status enum (same enumerators and order as CUTLASS's `cutlass::Status`, so
/// code written against CUTLASS compares the same values) and host/device macros.
#pragma once

#include <cstdint>
#include <cstdlib>

#if defined(__CUDACC__) || defined(__CUDA_ARCH__)
#define CUTLASS_HOST_DEVICE __forceinline__ __device__ __host__
#define CUTLASS_DEVICE __forceinline__ __device__
#define CUTLASS_GLOBAL __global__
#else
#define CUTLASS_HOST_DEVICE inline
#define CUTLASS_DEVICE inline
#endif
#define CUTLASS_HOST inline

#if defined(__CUDA_ARCH__)
#define CUTLASS_PRAGMA_UNROLL _Pragma("unroll")
#define CUTLASS_PRAGMA_NO_UNROLL _Pragma("unroll 1")
#else
#define CUTLASS_PRAGMA_UNROLL
#define CUTLASS_PRAGMA_NO_UNROLL
#endif

namespace cutlass {

/// Result of every host-side call of the kernel templates and the C++ library API.
enum class Status {
  kSuccess,                  ///< Operation was successful.
  kErrorMisalignedOperand,   ///< An operand's pointer, leading dimension or extent breaks the kernel's alignment.
  kErrorInvalidDataType,     ///< The data types do not fit the operation.
  kErrorInvalidLayout,       ///< The layouts do not fit the operation.
  kErrorInvalidProblem,      ///< The problem is not well formed (negative size, ld too small, null pointer).
  kErrorNotSupported,        ///< The operation is valid but this kernel / library does not implement it.
  kErrorWorkspaceNull,       ///< A workspace is needed but none was given.
  kErrorInternal,            ///< A CUDA call failed or an invariant broke (see cudaGetLastError).
  kErrorArchMismatch,        ///< No kernel for this device's compute capability.
  kErrorInsufficientDriver,  ///< The driver is older than the runtime the library was built with.
  kErrorMemoryAllocation,    ///< A device or host allocation failed.
  kInvalid                   ///< Status is unspecified.
};

/// Short text for a Status, e.g. "Error Not Supported".
inline char const *cutlassGetStatusString(Status status) {
  switch (status) {
    case Status::kSuccess: return "Success";
    case Status::kErrorMisalignedOperand: return "Error Misaligned Operand";
    case Status::kErrorInvalidDataType: return "Error Invalid Data Type";
    case Status::kErrorInvalidLayout: return "Error Invalid Layout";
    case Status::kErrorInvalidProblem: return "Error Invalid Problem";
    case Status::kErrorNotSupported: return "Error Not Supported";
    case Status::kErrorWorkspaceNull: return "Error Workspace Null";
    case Status::kErrorInternal: return "Error Internal";
    case Status::kErrorArchMismatch: return "Error Architecture Mismatch";
    case Status::kErrorInsufficientDriver: return "Error Insufficient Driver";
    case Status::kErrorMemoryAllocation: return "Error Memory Allocation";
    case Status::kInvalid: break;
  }
  return "Invalid status";
}

/// The integer environment variable `name` when it is set to a value in [lo, hi], else
/// `fallback` (host). The library's measurement aids (CUTLASS_LIB_SPLIT_K, _GROUPED_BAND,
/// _GROUPED_NARROW, _PREPARE_CTAS, _STREAM_K_MAX_SPLITS, _PDL, _TMA_L2_PROMOTION) read theirs once per process
/// through it.
inline int env_int_in(char const *name, int lo, int hi, int fallback) {
  char const *text = std::getenv(name);
  long const value = text ? std::strtol(text, nullptr, 10) : 0;
  return text && value >= lo && value <= hi ? int(value) : fallback;
}

}  // namespace cutlass
