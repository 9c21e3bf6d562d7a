/// @file src/library/gemm_call.h
/// The one path every GEMM entry point (Handle::gemm, Handle::gemm_universal, the C API)
/// goes through: check the arguments (gemm_arguments.cpp), take the BLAS quick returns,
/// transpose row-major C/D calls, choose the kernel and its route (gemm_route.h) and run it
/// (gemm_call.cpp) (internal).
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

#include "cutlass/library/library.h"
#include "cutlass/library/operation_table.h"

namespace cutlass {
namespace library {

class RouteCache;

/// A GEMM call as the user made it (column- or row-major C/D; sizes as given).
struct GemmCall {
  gemm::GemmUniversalMode mode = gemm::GemmUniversalMode::kGemm;
  int64_t m = 0, n = 0, k = 0;
  int64_t batch_count = 1;
  NumericTypeID element_compute = NumericTypeID::kInvalid;
  NumericTypeID element_scalar = NumericTypeID::kInvalid;
  void const *alpha = nullptr;
  void const *beta = nullptr;
  ScalarPointerMode pointer_mode = ScalarPointerMode::kHost;
  NumericTypeID element_A = NumericTypeID::kInvalid, element_B = NumericTypeID::kInvalid;
  NumericTypeID element_C = NumericTypeID::kInvalid, element_D = NumericTypeID::kInvalid;
  LayoutTypeID layout_A = LayoutTypeID::kInvalid, layout_B = LayoutTypeID::kInvalid;
  LayoutTypeID layout_C = LayoutTypeID::kColumnMajor, layout_D = LayoutTypeID::kColumnMajor;
  ComplexTransform transform_A = ComplexTransform::kNone, transform_B = ComplexTransform::kNone;
  void const *A = nullptr;
  void const *B = nullptr;
  void const *C = nullptr;
  void *D = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  int64_t batch_stride_A = 0, batch_stride_B = 0, batch_stride_C = 0, batch_stride_D = 0;
  GemmEpilogueArguments epilogue;   ///< fused pieces and their operands (plain by default)
  /// The split-K route's sliced GEMM (split_k.h): an f32 batch of K slices, never a caller's
  /// call; selection lets the few-token tiles run it at any N (gemm_selection.cpp).
  bool split_k_slices = false;
  /// > 1: the caller's split-K slice count (Handle::gemm_universal's kGemm batch_count, as in
  /// CUTLASS): the call runs the split-K route with exactly this many slices, its slice kernel
  /// chosen by the cost model; 1: the unfused epilogue route (split_k.h, set by gemm_call when
  /// no fused kernel is built); 0: the library decides (choose_route).
  int split_k_request = 0;
};

/// Why a call did not run a kernel; each entry point maps these to its own status codes.
enum class GemmFailure {
  kNone,            ///< ran (or quick-returned) successfully
  kInvalidValue,    ///< a BLAS argument check failed
  kNotSupported,    ///< valid, but a mode / provider / size this library does not offer
  kNoDevice,        ///< no usable CUDA device
  kNoKernel,        ///< no kernel in this build for these types and layouts
  kArchMismatch,    ///< kernels exist for the types, none for this device's compute capability
  kNoKernelFits,    ///< kernels exist, none accepts this alignment / problem
  kAllocFailed,     ///< the device workspace could not be grown
  kWorkspaceTooSmall,   ///< the caller's workspace (set_workspace) is smaller than the call needs
  kLaunchFailed     ///< the kernel launch failed
};

struct WorkspaceState;   // workspace.h

/// What a call needs from its handle.
struct GemmContext {
  int compute_capability = 0;         ///< 0: no usable device
  int sm_count = 0;                   ///< multiprocessors of the device (0: unknown)
  bool has_code = true;               ///< the build has code for the device (device_info.h)
  cudaStream_t stream = nullptr;
  void **workspace = nullptr;         ///< grown on demand, unless workspace_fixed
  size_t *workspace_size = nullptr;
  bool workspace_fixed = false;       ///< the caller's workspace: never grown; too small is kWorkspaceTooSmall
  WorkspaceState *workspace_state = nullptr;   ///< the handle's own workspace (null: a caller's, nothing known)
  RouteCache *routes = nullptr;       ///< the handle's remembered selections (gemm_route.h); null: none
};

struct GemmOutcome {
  GemmFailure failure = GemmFailure::kNone;
  Operation const *operation = nullptr;  ///< the kernel chosen (null for quick returns)
  size_t workspace_bytes = 0;            ///< device workspace the call needs (staging copies + the kernel's)
  char const *detail = "";               ///< one-line reason for a failure
};

/// The outcome of a call that failed for `failure`, with its one-line reason.
inline GemmOutcome gemm_failure(GemmFailure failure, char const *detail) {
  GemmOutcome outcome;
  outcome.failure = failure;
  outcome.detail = detail;
  return outcome;
}

/// A row-major C/D call as the column-major one the kernels compute (D^T = B^T * A^T).
GemmCall to_column_major_output(GemmCall call);

/// The operation-table key of a column-major-output call (C and D column-major).
GemmFunctionalKey functional_key(GemmCall const &call);

// ---- Argument checks and the facts of a call they share (gemm_arguments.cpp) ---------------

/// The extent a leading dimension must cover: rows for column-major, columns for row-major.
int64_t leading_extent(LayoutTypeID layout, int64_t rows, int64_t columns);

/// True when a rows x columns operand stored with leading dimension `ld`, `batch` of them
/// `batch_stride` elements apart, spans more than 2^63 - 1 bytes (an empty operand spans nothing, nor does one of a negative
/// size: the size checks refuse it, and its span would overflow the arithmetic).
bool operand_span_overflows(LayoutTypeID layout, int64_t rows, int64_t columns, int64_t ld, int64_t batch_stride,
                            int64_t batch, NumericTypeID element);

/// True when a checked call computes C = beta * C without a GEMM kernel (the BLAS quick return):
/// K == 0, or alpha == 0 in host memory, and no fused epilogue. A and B are then not read (they
/// may be null).
bool runs_scale_only(GemmCall const &call);

/// A host scalar of `type` at `ptr` compared with `value`; false for scalar types without a fixed
/// meaning (so such a scalar counts as non-zero everywhere: C is read, the GEMM runs).
bool host_scalar_equals(NumericTypeID type, void const *ptr, int value);

/// True when the call reads C: scalars on the device, or a host beta other than zero.
bool gemm_reads_c(GemmCall const &call);

/// The BLAS argument checks alone (the first step of gemm_call), the epilogue's included.
GemmOutcome check_gemm_arguments(GemmCall const &call);

/// The first of those checks, the ones that read no pointer or scalar (all kInvalidValue): M, N,
/// K >= 0, batch_count >= 1, layouts, leading dimensions, batch strides and the operands' spans.
/// What a grouped call checks for a group that has no problems.
GemmOutcome check_gemm_shape(GemmCall const &call);

/// Why the fused-epilogue operands cannot run the pieces `e.kind` names (library.h,
/// GemmEpilogueArguments, states the rules), or null when they can. `aux_extent` is the extent
/// D's leading dimension must cover (ldaux >= it); missing pointers count only when
/// `output_nonempty`. The one check behind check_epilogue_arguments and every kernel's can_implement.
char const *epilogue_operands_error(GemmEpilogueArguments const &e, int64_t aux_extent, bool output_nonempty);

/// The fused-epilogue operand checks, all kInvalidValue (part of check_gemm_arguments, which runs
/// them before its NOT_SUPPORTED size checks and then refuses a fused call with K == 0).
GemmOutcome check_epilogue_arguments(GemmCall const &call);

/// Checks, quick-returns, selects. When `execute` is false nothing is launched and the
/// outcome names the kernel that would run.
GemmOutcome gemm_call(GemmCall const &call, GemmContext const &context, bool execute);

/// cutlass::Status for a failure, as the C++ API reports it (handle.h documents the mapping).
Status to_status(GemmFailure failure);

}  // namespace library
}  // namespace cutlass
