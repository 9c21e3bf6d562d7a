/// @file src/library/gemm_grouped.h
/// Grouped and pointer-array GEMMs (the C API's cutlassLibGemmGroupedBatchedEx and
/// cutlassLibGemmBatchedEx): every problem is checked; then, when the build has a grouped kernel
/// (names "_grouped"; in the default set) that takes every problem with M, N, K > 0 (the same types and
/// layouts, each its own M, N and K, column-major D, a stream not being captured), they run in one
/// launch of it; otherwise
/// every problem's kernel is selected, and only then does each problem run, in order, through
/// the one-GEMM path (gemm_call.h) on the handle's stream (internal).
#pragma once

#include <cstdint>
#include <vector>
#include <cuda_runtime_api.h>

#include "gemm_call.h"

namespace cutlass {
namespace library {

/// One group: `size` problems that share `shape` (M, N, K, types, layouts, leading dimensions,
/// alpha and beta, pointer mode, epilogue). The shape's mode is kGemm with batch_count 1; its
/// A, B, C and D are not used: each problem's come from GemmGroupedCall's pointer arrays.
struct GemmGroup {
  GemmCall shape;
  int64_t size = 0;
};

/// A grouped GEMM: problem j of group g is entry (size of groups 0 .. g-1) + j of the pointer
/// arrays, which are HOST arrays of device pointers (copy_device_pointer_arrays makes host copies
/// of arrays in device memory); a null array counts as an array of null pointers (so it is an
/// error exactly where a null pointer would be one).
struct GemmGroupedCall {
  std::vector<GemmGroup> groups;
  void const *const *A = nullptr;
  void const *const *B = nullptr;
  void const *const *C = nullptr;
  void *const *D = nullptr;
  /// The arrays hold only the problems the call visits, in order: one entry for a group whose
  /// output is empty (M or N == 0), every problem's of the others (copy_device_pointer_arrays'
  /// copies); false: one entry per problem.
  bool packed_arrays = false;
  /// check_grouped_arguments already answered kNone for exactly this call (the C API checks
  /// before its type check): gemm_grouped does not repeat it.
  bool arguments_checked = false;
};

/// A grouped call's answer: the first failure and where it was, or success.
struct GemmGroupedOutcome {
  GemmFailure failure = GemmFailure::kNone;
  char const *detail = "";
  int64_t group = -1;     ///< group of the failing problem; -1 when the failure is the call's own
  int64_t problem = -1;   ///< the problem's index in its group; -1 for the group as a whole
  /// The kernel of the last problem that ran (null if none); planned without running: the grouped
  /// kernel of a one-launch call, null when the problems would run one by one (or none would).
  Operation const *operation = nullptr;
  size_t workspace_bytes = 0;   ///< planned without running: the workspace the call would need
};

/// The packed host copies of a call's pointer arrays (copy_device_pointer_arrays).
struct PointerArrayCopies {
  std::vector<void const *> A, B, C;
  std::vector<void *> D;   ///< also C's when one array is both (the C API's Carray)
};

/// cuBLAS's batched and grouped calls take their pointer arrays in device memory. When any of
/// call->A, B, C, D is there (cudaPointerGetAttributes says device or managed memory; pageable and
/// pinned host arrays are read in place), the entries of the problems the call visits (a group
/// with an empty output: its first only, so a huge count of such problems costs nothing) are
/// copied into `copies` on `stream`, the stream is waited for (so what the caller's work on it
/// wrote there is seen), the host arrays' entries are packed likewise, and `call` points at the
/// packed arrays (packed_arrays; an array passed as both C and D is copied once). Nothing is done
/// (kNone) when no array is in device memory, when the group sizes are invalid
/// (check_grouped_arguments tells) or when there is no problem. Failures: kNotSupported while
/// `stream` is being captured (a capture cannot wait for the copy;
/// cutlassLibGemmGroupedDeviceSizesEx reads its arrays on the device), kAllocFailed when the host
/// cannot hold the copies, kInvalidValue when CUDA refuses a copy (an array shorter than the
/// problem count, when CUDA can tell), kLaunchFailed when CUDA cannot tell where an array lives or
/// the stream holds an earlier failure.
GemmGroupedOutcome copy_device_pointer_arrays(GemmGroupedCall *call, cudaStream_t stream, PointerArrayCopies *copies);

/// The argument checks of every problem, before anything else: a negative group size or a
/// problem count past 2^63 - 1, a pointer array still in device memory (not copied by
/// copy_device_pointer_arrays: the host cannot read it) (kInvalidValue), then
/// check_gemm_arguments for every problem (for a group without problems: check_gemm_shape, then
/// check_gemm_arguments of its shape with N = 0, which reads no pointer but the handle's
/// epilogue and scale arguments, as a single call with N == 0 does); the answer is the first
/// kInvalidValue in problem order; when there is none, outputs that share an element
/// (kInvalidValue at the later problem; overlapping_output in gemm_grouped.cpp says when it is
/// detected; kAllocFailed if the host cannot hold the list of outputs); only then the first other
/// failure (the kNotSupported sizes), so every argument error comes before anything unsupported,
/// as in a single call.
GemmGroupedOutcome check_grouped_arguments(GemmGroupedCall const &call);

/// Runs a grouped call: check_grouped_arguments; kNotSupported for a D scale / amax or an
/// outer-vector operand scale (this version takes neither; the fused epilogue's vectors and aux
/// of problem e are batch entry e's); then, when a grouped kernel takes the
/// problems, one launch of it (the K == 0 problems through gemm_call, planned before it);
/// otherwise every problem through gemm_call without launching (the device, the kernels,
/// the workspace each needs); kWorkspaceTooSmall when a caller's workspace is smaller than a
/// problem needs; and only when all of that passed, each problem through gemm_call, in order on
/// context.stream. So every failure but kAllocFailed (the handle's workspace cannot grow) and
/// kLaunchFailed comes before anything is launched. A call without problems succeeds without
/// looking at the device. With CUTLASS_LIB_LOG set, a failure is printed with its group and
/// problem index. With execute == false nothing is launched or allocated and the caller's
/// workspace is not compared: the answer is the failure the call would meet before that, else
/// the plan (operation, workspace_bytes: what a caller's workspace must hold for it).
GemmGroupedOutcome gemm_grouped(GemmGroupedCall const &call, GemmContext const &context, bool execute = true);

/// A contiguous grouped GEMM (gemm_grouped_contiguous.cpp): the mixture-of-experts layout with
/// the group sizes in device memory. `shape` is the packed problem as one call (M, N = every
/// group's columns, K, types, layouts, leading dimensions, scalars, A, B, C, D; batch_count 1);
/// group g multiplies A + g * stride_A (elements) by columns [offsets[g - 1], offsets[g]) of B
/// (offsets[-1] = 0) into the same columns of C / D. `offsets`: `count` ints in device-readable
/// memory (device, managed or pinned host), read by the kernels only.
struct GemmContiguousCall {
  GemmCall shape;
  int64_t stride_A = 0;
  int64_t count = 0;
  int const *offsets = nullptr;
};

/// The argument checks of a contiguous grouped call, all kInvalidValue first:
/// check_gemm_arguments' kInvalidValue of the packed shape (group 0's A), count < 0, stride_A < 0,
/// a batched shape, a null or misaligned offsets array or one in pageable host memory when
/// count > 0; then the shape's other failures (kNotSupported sizes).
GemmGroupedOutcome check_contiguous_arguments(GemmContiguousCall const &call);

/// Runs a contiguous grouped call: check_contiguous_arguments; kNotSupported for a D scale / amax,
/// non-scalar operand scales or precise accumulation (a fused epilogue's per-row vectors of
/// group g are batch entry g's, per-column vectors and aux follow the packed columns); count == 0, M == 0 or N == 0 return at
/// once, touching nothing; then kNotSupported: K == 0 or host alpha == 0 (beta * C over columns
/// only the device knows), B not column-major (transb = N), row-major C / D, count or a size past
/// 2^31 - 1; then the device and the grouped kernels (kNoDevice, kNoKernel, kArchMismatch,
/// kNoKernelFits, also for a caller's workspace not 256-byte aligned), the workspace
/// (kWorkspaceTooSmall; kAllocFailed, also when it would grow while the stream is being captured)
/// and the launch (kLaunchFailed). The group offsets are never read on the host: a group whose end
/// lies before an earlier end or past N is skipped by the kernels, and so is every group after an
/// end past N (GemmSm90Grouped::run_contiguous). With execute == false nothing is launched or
/// allocated and the caller's workspace is not compared: the failure the call would meet before
/// that, else the plan (the grouped kernel, or none for a call with nothing to compute, and the
/// workspace it needs).
GemmGroupedOutcome gemm_grouped_contiguous(GemmContiguousCall const &call, GemmContext const &context,
                                           bool execute = true);

/// A device-sized grouped GEMM (gemm_grouped_contiguous.cpp; Operation::run_device_sized states
/// what the kernels compute and skip): `count` groups whose sizes, leading dimensions and
/// pointers are `arrays` in device-readable memory, never read on the host; `shape` gives the
/// types, layouts (C column-major), scalars, pointer mode and the handle's epilogue and scales
/// (its sizes, leading dimensions and pointers are not used). `max_n`: an upper bound on every
/// group's N when the caller knows one (the tokens of a step), else 0; it only picks the tile.
struct GemmGroupedDeviceCall {
  GemmCall shape;
  int64_t count = 0;
  int64_t max_n = 0;
  GroupedDeviceArrays arrays;
};

/// The argument checks of a device-sized call, every kInvalidValue first: count < 0, max_n < 0,
/// null alpha / beta, a null per-group array, one in pageable host memory or not aligned to its
/// element type (when count > 0), the handle's epilogue and scale arguments (check_gemm_arguments
/// of a 128^3 problem); then kNotSupported: an aux output, D scale / amax, non-scalar operand
/// scales, precise accumulation, row-major C, count past 2^30 - 1.
GemmGroupedOutcome check_device_sized_arguments(GemmGroupedDeviceCall const &call);

/// Runs a device-sized call: check_device_sized_arguments; count == 0 returns at once; then the
/// device and the grouped kernels of the call's types and layouts (kNoDevice, kNoKernel,
/// kArchMismatch, kNoKernelFits also for a caller's workspace not 256-byte aligned), the
/// workspace (kWorkspaceTooSmall; kAllocFailed, also when it would grow while the stream is being
/// captured) and the launch (kLaunchFailed). With execute == false nothing is launched or
/// allocated and the caller's workspace is not compared: the failure the call would meet before
/// that, else the plan (the grouped kernel and the workspace it needs).
GemmGroupedOutcome gemm_grouped_device(GemmGroupedDeviceCall const &call, GemmContext const &context,
                                       bool execute = true);

}  // namespace library
}  // namespace cutlass
