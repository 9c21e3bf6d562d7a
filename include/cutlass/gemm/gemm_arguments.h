/// @file cutlass/gemm/gemm_arguments.h
/// The arguments every device-level GEMM kernel template takes, and the interface each one
/// offers to the library (the "kernel contract"). A kernel family adds a template that meets
/// this contract; the library's GemmUniversalOperation<Kernel> adapter wraps any of them.
///
/// Problem (column-major D, as in BLAS):
///     D[l] = alpha * A[l] * B[l] + beta * C[l],  l = 0 .. batch_count-1
/// A is M x K in LayoutA, B is K x N in LayoutB, C and D are M x N column-major.
/// Leading dimensions and batch strides are in elements of the operand's own type.
/// Operand l starts at ptr + l * batch_stride.
///
/// Kernel contract: a kernel type `K` provides
///   using ElementA, ElementB, ElementC (also D's type), ElementAccumulator, ElementCompute;
///   using LayoutA, LayoutB;                    // cutlass::layout::ColumnMajor or RowMajor
///   using ThreadblockShape, WarpShape, InstructionShape;   // GemmShape<M, N, K>
///   using EpilogueOutputOp;                    // e.g. epilogue::thread::LinearCombination
///   using OperatorClass;                       // arch::OpClassSimt or arch::OpClassTensorOp
///   using MathOperator;                        // arch::OpMultiplyAdd
///   static constexpr int kStages, kAlignmentA, kAlignmentB, kAlignmentC;   // alignment in elements
///   static constexpr int kMinComputeCapability, kMaxComputeCapability;     // e.g. 80, 1000
///   using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;
///   static Status can_implement(Arguments const &);   // host only; launches nothing
///   static size_t get_workspace_size(Arguments const &);   // bytes of device workspace run() needs
///   static size_t get_workspace_sync_bytes(Arguments const &);   // its prefix run() needs zero
///   static Status initialize_workspace(Arguments const &, void *workspace, cudaStream_t stream);
///   static Status run(Arguments const &, void *workspace, cudaStream_t stream);
/// initialize_workspace() prepares a workspace of get_workspace_size() bytes (16-byte aligned, as
/// cudaMalloc's are) once; any number of run()s of the same problem shape on the same device may
/// follow on it (one at a time: a workspace is not shared by launches in flight together). Both
/// return kErrorWorkspaceNull when a workspace is needed and null. run() assumes can_implement()
/// returned kSuccess, M, N, K >= 1 and batch_count >= 1; it launches exactly one kernel on
/// `stream` and returns kErrorInternal if the launch failed. The workspace's first
/// get_workspace_sync_bytes() bytes (split-K counters, stream-K flags; 0 for most kernels) must be
/// zero before a run() and every run() leaves them zero; zeroing them is all initialize_workspace()
/// does (zero_workspace_sync_bytes), so a caller that knows them still zero may skip it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include "cutlass/gemm_coord.h"
#include "cutlass/layout/matrix.h"

namespace cutlass {
namespace gemm {

/// initialize_workspace() of the kernel contract: zeroes the first `bytes` of `workspace` (the
/// kernel's get_workspace_sync_bytes) on `stream`; kSuccess with nothing to zero,
/// kErrorWorkspaceNull when there is and the workspace is null, kErrorInternal if the memset fails.
inline Status zero_workspace_sync_bytes(void *workspace, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return Status::kSuccess;
  if (workspace == nullptr) return Status::kErrorWorkspaceNull;
  if (cudaMemsetAsync(workspace, 0, bytes, stream) != cudaSuccess) {
    cudaGetLastError();
    return Status::kErrorInternal;
  }
  return Status::kSuccess;
}

/// The order in which a persistent kernel's CTAs take output tiles (CUTLASS's RasterOrder, same
/// enumerators and values; library::RasterOrder is this type). Tiles go in bands of
/// `swizzle_size` tile rows (kAlongN: M fastest inside a band, the band walked along N, then the
/// next band) or of `swizzle_size` tile columns (kAlongM: N fastest inside a band, walked along
/// M), so the CTAs running at once share a few A row panels and B column panels in L2.
/// kHeuristic: the kernel's default, kAlongN (a swap-AB kernel, which tiles the transposed
/// problem: along N of that problem, kAlongM in the caller's terms). Only the sm90 persistent and
/// stream-K kernels read it; the other families keep their own order. kInvalid is refused
/// (kErrorInvalidProblem). Unlike CUTLASS: swizzle_size counts tiles, not clusters; 1, 2, 4 and 8
/// only (CUTLASS clamps other values); kHeuristic is one fixed order (CUTLASS's picks along M
/// when there are more N tiles than M tiles); the default width is 8 (CUTLASS's 1).
enum class RasterOrder { kAlongN, kAlongM, kHeuristic, kInvalid };

/// Whether a raster order and swizzle width (tiles per band) are valid arguments: an order of
/// kAlongN, kAlongM or kHeuristic, and a width of 1, 2, 4 or 8 (CUTLASS's values), or 0 for the
/// kernel's default (8 tiles).
CUTLASS_HOST_DEVICE bool raster_is_valid(RasterOrder order, int swizzle_size) {
  bool const order_ok = order == RasterOrder::kAlongN || order == RasterOrder::kAlongM || order == RasterOrder::kHeuristic;
  return order_ok && (swizzle_size == 0 || swizzle_size == 1 || swizzle_size == 2 || swizzle_size == 4 ||
                      swizzle_size == 8);
}

/// The order `order` names for the transposed problem (D^T = B^T A^T, where M and N trade
/// places): along M and along N swap; kHeuristic and kInvalid stay.
CUTLASS_HOST_DEVICE RasterOrder transposed(RasterOrder order) {
  return order == RasterOrder::kAlongM ? RasterOrder::kAlongN
                                       : order == RasterOrder::kAlongN ? RasterOrder::kAlongM : order;
}

template <typename ElementA, typename ElementB, typename ElementC, typename EpilogueParams>
struct GemmArguments {
  GemmCoord problem_size;       ///< M, N, K (elements)
  int batch_count = 1;          ///< number of independent GEMMs (>= 1)
  EpilogueParams epilogue;      ///< alpha, beta (and later fusion operands)
  ElementA const *ptr_A = nullptr;
  int64_t lda = 0;
  int64_t batch_stride_A = 0;
  ElementB const *ptr_B = nullptr;
  int64_t ldb = 0;
  int64_t batch_stride_B = 0;
  ElementC const *ptr_C = nullptr;  ///< may be null when beta == 0; may equal ptr_D
  int64_t ldc = 0;
  int64_t batch_stride_C = 0;
  ElementC *ptr_D = nullptr;
  int64_t ldd = 0;
  int64_t batch_stride_D = 0;
  RasterOrder raster_order = RasterOrder::kHeuristic;   ///< tile order (sm90 persistent kernels)
  int swizzle_size = 0;                                 ///< tiles per raster band: 1, 2, 4, 8; 0: 8
};

/// The per-group arrays of a device-sized grouped launch (GemmSm90Grouped::run_device_sized, the
/// library's Operation::run_device_sized), all in device-readable memory: sizes holds count x
/// {m, n, k}; A, B, C count device pointers (C is also the output); lda, ldb, ldc count leading
/// dimensions (elements).
struct GroupedDeviceArrays {
  int const *sizes = nullptr;
  void const *const *A = nullptr;
  void const *const *B = nullptr;
  void *const *C = nullptr;
  int64_t const *lda = nullptr, *ldb = nullptr, *ldc = nullptr;
};

/// True when a pointer, a leading dimension, a batch stride (if batch_count > 1) and the
/// contiguous extent of one operand allow vector accesses of `alignment` elements of T.
template <typename T>
CUTLASS_HOST_DEVICE bool operand_is_aligned(void const *ptr, int64_t ld, int64_t batch_stride, int batch_count,
                               int64_t contiguous_extent, int alignment) {
  if (alignment <= 1) return true;
  uint64_t bytes = uint64_t(alignment) * sizeof(T);
  if (ptr && (reinterpret_cast<uintptr_t>(ptr) % bytes) != 0) return false;
  if (ld % alignment != 0) return false;
  if (batch_count > 1 && batch_stride % alignment != 0) return false;
  return contiguous_extent % alignment == 0;
}

/// The contiguous extent of an M x K (or K x N) operand in the given layout: the number of
/// elements one vector access may run along before the next row/column starts.
template <typename Layout>
constexpr int64_t contiguous_extent(int64_t rows, int64_t columns) {
  return std::is_same<Layout, layout::ColumnMajor>::value ? rows : columns;
}

/// The common alignment and shape checks of can_implement for column-major C/D kernels.
template <typename Kernel>
inline Status can_implement_common(typename Kernel::Arguments const &args) {
  auto const &p = args.problem_size;
  if (p.m() < 1 || p.n() < 1 || p.k() < 1 || args.batch_count < 1) return Status::kErrorInvalidProblem;
  if (!raster_is_valid(args.raster_order, args.swizzle_size)) return Status::kErrorInvalidProblem;
  using LA = typename Kernel::LayoutA;
  using LB = typename Kernel::LayoutB;
  if (!operand_is_aligned<typename Kernel::ElementA>(args.ptr_A, args.lda, args.batch_stride_A, args.batch_count,
                                                     contiguous_extent<LA>(p.m(), p.k()), Kernel::kAlignmentA) ||
      !operand_is_aligned<typename Kernel::ElementB>(args.ptr_B, args.ldb, args.batch_stride_B, args.batch_count,
                                                     contiguous_extent<LB>(p.k(), p.n()), Kernel::kAlignmentB) ||
      !operand_is_aligned<typename Kernel::ElementC>(args.ptr_C, args.ldc, args.batch_stride_C, args.batch_count,
                                                     p.m(), Kernel::kAlignmentC) ||
      !operand_is_aligned<typename Kernel::ElementC>(args.ptr_D, args.ldd, args.batch_stride_D, args.batch_count,
                                                     p.m(), Kernel::kAlignmentC)) {
    return Status::kErrorMisalignedOperand;
  }
  return Status::kSuccess;
}

}  // namespace gemm
}  // namespace cutlass
