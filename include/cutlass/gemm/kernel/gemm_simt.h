/// @file cutlass/gemm/kernel/gemm_simt.h
/// GemmSimt: the SIMT GEMM kernel family (FFMA for float, DFMA for double, IMAD for int32
/// accumulators) for any GPU from sm_50 on, every A/B layout and any alignment (scalar loads).
/// It meets the kernel contract of cutlass/gemm/gemm_arguments.h:
///
///     D[l] = alpha * A[l] * B[l] + beta * C[l]   (A M x K in LayoutA, B K x N in LayoutB,
///                                                 C and D M x N column-major)
///
/// One CTA computes a ThreadblockShape::kM x ::kN tile of one batch entry:
///   mainloop  threadblock/simt_mma_pipelined.h  (two smem stages; next tile by cp.async on
///                                                sm_80+, else through registers; 128-bit
///                                                fragment loads, see simt_policy.h)
///   epilogue  epilogue/threadblock/simt_epilogue.h  (EpilogueOutputOp per element, column-major
///                                                    stores coalesced through smem)
///   grid      threadblock/simt_threadblock_swizzle.h (x: M tiles grouped with N, y: N, z: batch)
/// Operands of 16-bit or 8-bit types are converted to ElementAccumulator as they enter shared
/// memory, so the FMAs always run in the accumulator type.
///
/// Tiles (all compile with 0 spill bytes at sm_80 and sm_90a): float 128x128x8 / warp 32x64
/// (256 threads, 8x8 per thread, 2 CTAs per SM), 128x64x8 / 32x32, 64x64x8 / 32x32; double
/// 64x64x8 / 32x32 and 128x64x8 / 64x32 (8x8 doubles, ~225 registers, 1 CTA per SM); s8 and
/// 16-bit inputs 64x64x16 / 32x32. An 8x8 thread tile of s8 or 16-bit inputs (their operands
/// go through registers) spills a few bytes at the 128-register cap.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "cutlass/arch/arch.h"
#include "cutlass/cutlass.h"
#include "cutlass/device_once.h"
#include "cutlass/epilogue/threadblock/simt_epilogue.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/threadblock/simt_mma_pipelined.h"
#include "cutlass/gemm/threadblock/simt_policy.h"
#include "cutlass/gemm/threadblock/simt_threadblock_swizzle.h"
#include "cutlass/gemm_coord.h"

namespace cutlass {
namespace gemm {
namespace kernel {

/// The __global__ entry of GemmSimt<...>: one CTA per (M tile, N tile, batch entry) of the grid.
template <typename Gemm>
__global__ void __launch_bounds__(Gemm::kThreads, Gemm::kMinBlocksPerSm)
    gemm_simt_kernel(typename Gemm::Params params) {
  extern __shared__ __align__(16) unsigned char gemm_simt_shared_storage[];
  Gemm::run_threadblock(params, *reinterpret_cast<typename Gemm::SharedStorage *>(gemm_simt_shared_storage));
}

template <typename ElementA_, typename LayoutA_, int AlignmentA,
          typename ElementB_, typename LayoutB_, int AlignmentB,
          typename ElementC_, int AlignmentC,
          typename ElementAccumulator_,
          typename ThreadblockShape_,
          typename WarpShape_,
          typename InstructionShape_,
          typename EpilogueOutputOp_,
          int Stages>
struct GemmSimt {
  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB = ElementB_;
  using LayoutB = LayoutB_;
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using ThreadblockShape = ThreadblockShape_;
  using WarpShape = WarpShape_;
  using InstructionShape = InstructionShape_;
  using OperatorClass = arch::OpClassSimt;
  using MathOperator = arch::OpMultiplyAdd;

  static constexpr int kStages = Stages;
  static constexpr int kAlignmentA = AlignmentA;
  static constexpr int kAlignmentB = AlignmentB;
  static constexpr int kAlignmentC = AlignmentC;
  static constexpr int kMinComputeCapability = 50;
  static constexpr int kMaxComputeCapability = 1000;

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;

  static_assert(Stages == 2, "GemmSimt: Stages must be 2 (double-buffered shared memory)");
  static_assert(std::is_same<InstructionShape, GemmShape<1, 1, 1>>::value,
                "GemmSimt: InstructionShape must be GemmShape<1, 1, 1>");
  static_assert(AlignmentA >= 1 && AlignmentB >= 1 && AlignmentC >= 1,
                "GemmSimt: alignments are element counts >= 1 (the kernel reads and writes scalars)");
  static_assert(std::is_same<typename EpilogueOutputOp::ElementOutput, ElementC>::value,
                "GemmSimt: EpilogueOutputOp::ElementOutput must be ElementC");
  static_assert(std::is_same<typename EpilogueOutputOp::ElementAccumulator, ElementAccumulator>::value,
                "GemmSimt: EpilogueOutputOp::ElementAccumulator must be ElementAccumulator");
  static_assert(std::is_same<ElementAccumulator, float>::value || std::is_same<ElementAccumulator, double>::value ||
                    std::is_same<ElementAccumulator, int32_t>::value,
                "GemmSimt: ElementAccumulator must be float, double or int32_t");

  using Policy = threadblock::SimtPolicy<ThreadblockShape, WarpShape, ElementAccumulator>;
  using Mma = threadblock::SimtMmaPipelined<Policy, ElementA, LayoutA, ElementB, LayoutB>;
  using Epilogue = epilogue::threadblock::SimtEpilogue<Policy, EpilogueOutputOp>;
  using Swizzle = threadblock::SimtThreadblockSwizzle;

  static constexpr int kThreads = Policy::kThreads;
  static constexpr int kMinBlocksPerSm = Policy::kMinBlocksPerSm;

  struct SharedStorage {
    /// The mainloop's stages and the epilogue's staging reuse the same bytes (a barrier separates them).
    union {
      typename Mma::SharedStorage mainloop;
      typename Epilogue::SharedStorage epilogue;
    };
    /// Where the epilogue writes, set by thread 0 before the mainloop (see run_threadblock).
    typename Epilogue::Output output;
  };

  /// What the kernel receives by value.
  struct Params {
    Arguments args;
    Swizzle swizzle;
  };

  static Status can_implement(Arguments const &args) {
    Status status = can_implement_common<GemmSimt>(args);
    if (status != Status::kSuccess) return status;
    if (!make_swizzle(args).fits()) return Status::kErrorNotSupported;
    return Status::kSuccess;
  }

  static size_t get_workspace_size(Arguments const &) { return 0; }
  static size_t get_workspace_sync_bytes(Arguments const &) { return 0; }
  static Status initialize_workspace(Arguments const &, void *, cudaStream_t) { return Status::kSuccess; }

  /// Launches the kernel on `stream`; assumes can_implement(args) == kSuccess.
  static Status run(Arguments const &args, void * /*workspace*/, cudaStream_t stream) {
    Params params{args, make_swizzle(args)};
    int smem_bytes = int(sizeof(SharedStorage));
    if (smem_bytes > 48 * 1024) {
      int device = 0;
      if (cudaGetDevice(&device) != cudaSuccess) return Status::kErrorInternal;
      cudaError_t const smem_limit_set = once_per_device(device, [] {
        return cudaFuncSetAttribute(gemm_simt_kernel<GemmSimt>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(sizeof(SharedStorage)));
      });
      if (smem_limit_set != cudaSuccess) return Status::kErrorInternal;
    }
    gemm_simt_kernel<GemmSimt><<<params.swizzle.grid_shape(), kThreads, smem_bytes, stream>>>(params);
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

  /// One CTA: one output tile of one batch entry.
  CUTLASS_DEVICE static void run_threadblock(Params const &params, SharedStorage &smem) {
    Arguments const &args = params.args;
    int tile_m, tile_n, batch;
    if (!params.swizzle.get_tile(tile_m, tile_n, batch)) return;

    int const thread_idx = int(threadIdx.x);
    int const m_begin = tile_m * Policy::kTileM;
    int const n_begin = tile_n * Policy::kTileN;
    int64_t const l = batch;
    // NOTE: the epilogue's CTA-wide scalars go through shared memory, so ptxas keeps nothing but
    // the accumulators live across the mainloop, whose 8x8 thread tile needs every register.
    if (thread_idx == 0) {
      smem.output = typename Epilogue::Output{args.ptr_C ? args.ptr_C + l * args.batch_stride_C : nullptr,
                                              args.ldc,
                                              args.ptr_D + l * args.batch_stride_D,
                                              args.ldd,
                                              m_begin,
                                              n_begin,
                                              args.problem_size.m(),
                                              args.problem_size.n()};
    }
    typename Mma::LoaderA loader_a(args.ptr_A + l * args.batch_stride_A, args.lda, m_begin, args.problem_size.m(),
                                   thread_idx);
    typename Mma::LoaderB loader_b(args.ptr_B + l * args.batch_stride_B, args.ldb, n_begin, args.problem_size.n(),
                                   thread_idx);
    typename Mma::AccumulatorTile accumulators;
    accumulators.clear();
    Mma::run(accumulators, loader_a, loader_b, smem.mainloop, threadblock::SimtThreadCoord<Policy>(thread_idx),
             args.problem_size.k());

    // Mma::run ended on a barrier: the stages are free for staging, smem.output is visible to all.
    // The output operator is built only now: alpha/beta may be device loads.
    EpilogueOutputOp output_op(args.epilogue);
    output_op.set_batch(l);
    Epilogue(smem.epilogue, reread_thread_idx())(output_op, accumulators, smem.output);
  }

 private:
  /// threadIdx.x through a volatile PTX move (PTX ISA "Special Registers": %tid). NOTE: the
  /// epilogue derives its lane and warp coordinates from this fresh read, so ptxas recomputes
  /// them after the mainloop instead of holding (or spilling) the mainloop's copies across it.
  CUTLASS_DEVICE static int reread_thread_idx() {
    unsigned tid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    return int(tid);
  }

  static Swizzle make_swizzle(Arguments const &args) {
    return Swizzle(int((int64_t(args.problem_size.m()) + Policy::kTileM - 1) / Policy::kTileM),
                   int((int64_t(args.problem_size.n()) + Policy::kTileN - 1) / Policy::kTileN), args.batch_count);
  }
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
