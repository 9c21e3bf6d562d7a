/// @file cutlass/gemm/threadblock/simt_mma_pipelined.h
/// The SIMT mainloop: a CTA's kTileM x kTileN accumulators += A tile (kTileM x K) * B tile
/// (K x kTileN), software-pipelined over K tiles of kTileK with two shared-memory stages.
///
/// Per K tile (one __syncthreads):
///   1. start the next K tile's global reads (SimtGlobalTileLoader): cp.async straight into the
///      write stage, or loads into registers for operands that need a conversion or run below
///      sm_80;
///   2. for each of the kTileK steps kk: load the A and B fragments of step kk from the read
///      stage (128-bit LDS) and run its kThreadM x kThreadN FMAs (simt_thread_mma);
///   3. store the prefetched registers into the write stage, wait for this thread's cp.async
///      group, __syncthreads, swap the stages. The write stage of tile t was last read in tile
///      t-1, before tile t-1's barrier, so one barrier per tile suffices.
/// NOTE: the fragments have no second register buffer in the source: the kk steps are unrolled,
/// so ptxas already issues step kk+1's loads under step kk's FMAs, and an explicit buffer costs
/// the registers an 8x8 thread tile does not have (it made ptxas spill at the 128 cap).
/// Measured on the H200 (docs/NOTES.md, 2026-11-29): two explicit buffers held across the tile
/// barrier (the next tile's first fragments loaded right after the barrier, under the last
/// step's FMAs) compiled without spills once the loader's warp-run map freed registers, but ran
/// 7% slower (128x128x8 NN 0.712 / 0.720 of cuBLAS at 4096^3 / 8192^3 against 0.767 / 0.773),
/// measured before the register-bank FMA order (SimtPolicy::kSwapRowPairsA); not re-measured since.
/// The K residue (K % kTileK, or a full tile) is the first tile. Every tile runs the same code:
/// on the last one the reads are predicated off and the store and barrier are idle work, so the
/// loop body has no branch (a branch there also cost registers).
/// run() returns after a barrier that follows every read of the stages and every cp.async, so
/// the caller may reuse the shared memory at once.
///
/// Shared memory: two stages, each A as [kTileK][kTileM + pad] then B as [kTileK][kTileN + pad],
/// in the accumulator type (see simt_policy.h).
#pragma once

#include <type_traits>

#include "cutlass/arch/memory_sm80.h"
#include "cutlass/layout/matrix.h"
#include "cutlass/gemm/threadblock/simt_global_tile_loader.h"
#include "cutlass/gemm/threadblock/simt_policy.h"
#include "cutlass/gemm/threadblock/simt_thread_mma.h"
#include "cutlass/gemm/threadblock/simt_vector.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename Policy, typename ElementA, typename LayoutA, typename ElementB, typename LayoutB>
class SimtMmaPipelined {
 public:
  using ElementAccumulator = typename Policy::ElementAccumulator;
  using AccumulatorTile = SimtAccumulatorTile<Policy>;

  static_assert(std::is_same<LayoutA, layout::ColumnMajor>::value || std::is_same<LayoutA, layout::RowMajor>::value,
                "SIMT: LayoutA must be layout::ColumnMajor or layout::RowMajor");
  static_assert(std::is_same<LayoutB, layout::ColumnMajor>::value || std::is_same<LayoutB, layout::RowMajor>::value,
                "SIMT: LayoutB must be layout::ColumnMajor or layout::RowMajor");

  /// A (M x K) has M contiguous when column-major; B (K x N) has N contiguous when row-major.
  using LoaderA = SimtGlobalTileLoader<ElementA, std::is_same<LayoutA, layout::ColumnMajor>::value, Policy::kTileM,
                                       Policy::kTileK, Policy::kThreads, Policy::kSmemStrideA, Policy::kSwapRowPairsA>;
  using LoaderB = SimtGlobalTileLoader<ElementB, std::is_same<LayoutB, layout::RowMajor>::value, Policy::kTileN,
                                       Policy::kTileK, Policy::kThreads, Policy::kSmemStrideB>;

  /// One pipeline stage: A as [kTileK][kSmemStrideA] (element (m, k) at k * kSmemStrideA + m),
  /// then B as [kTileK][kSmemStrideB], both in the accumulator type.
  static constexpr int kStageOffsetB = Policy::kTileK * Policy::kSmemStrideA;
  static constexpr int kStageElements = kStageOffsetB + Policy::kTileK * Policy::kSmemStrideB;

  struct SharedStorage {
    alignas(16) ElementAccumulator stages[2][kStageElements];
  };

  /// acc += A * B over k (>= 1) elements of K; the loaders point at the CTA's first K tile.
  CUTLASS_DEVICE static void run(AccumulatorTile &acc, LoaderA &loader_a, LoaderB &loader_b, SharedStorage &smem,
                                 SimtThreadCoord<Policy> const &coord, int k) {
    int const k_tiles = (k - 1) / Policy::kTileK + 1;
    int const k_residue = k - (k_tiles - 1) * Policy::kTileK;  // 1 .. kTileK

    ElementAccumulator *const smem_base = smem.stages[0];
    Prefetch prefetch;
    prefetch.start(loader_a, loader_b, smem_base, k_residue);
    loader_a.advance(k_residue);
    loader_b.advance(k_residue);
    prefetch.finish(loader_a, loader_b, smem_base);
    __syncthreads();

    // NOTE: stage offsets are 0 or kStageElements; XOR swaps them after every tile's barrier.
    int read_stage = 0;
    int write_stage = kStageElements;
    ElementAccumulator const *const thread_a = smem_base + coord.warp_m * Policy::kWarpM + coord.lane_m * Policy::kVector;
    ElementAccumulator const *const thread_b =
        smem_base + kStageOffsetB + coord.warp_n * Policy::kWarpN + coord.lane_n * Policy::kVector;

    ElementAccumulator frag_a[Policy::kThreadM];
    ElementAccumulator frag_b[Policy::kThreadN];

    CUTLASS_PRAGMA_NO_UNROLL
    for (int tile = 0; tile < k_tiles; ++tile) {
      prefetch.start(loader_a, loader_b, smem_base + write_stage, tile + 1 < k_tiles ? Policy::kTileK : 0);
      loader_a.advance(Policy::kTileK);
      loader_b.advance(Policy::kTileK);

      CUTLASS_PRAGMA_UNROLL
      for (int kk = 0; kk < Policy::kTileK; ++kk) {
        load_fragments(frag_a, frag_b, thread_a + read_stage, thread_b + read_stage, kk);
        simt_thread_mma<Policy>(acc, frag_a, frag_b);
      }
      prefetch.finish(loader_a, loader_b, smem_base + write_stage);
      __syncthreads();
      read_stage ^= kStageElements;
      write_stage ^= kStageElements;
    }
  }

 private:
  using Vector = SimtVector<ElementAccumulator, Policy::kVector>;

#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
  static constexpr bool kArchHasCpAsync = true;
#else
  static constexpr bool kArchHasCpAsync = false;
#endif
  /// An operand goes by cp.async when the device pass targets sm_80 or later and it is stored
  /// in shared memory unconverted (its type is the accumulator type: float, double, int32_t).
  static constexpr bool kAsyncA = kArchHasCpAsync && std::is_same<ElementA, ElementAccumulator>::value;
  static constexpr bool kAsyncB = kArchHasCpAsync && std::is_same<ElementB, ElementAccumulator>::value;

  /// The next tile on its way to a shared stage: start() issues the global reads, finish() lands
  /// them (register stores, then the wait for this thread's cp.async group); a barrier follows.
  struct Prefetch {
    typename LoaderA::Fragment a;  ///< unused (and removed by the compiler) when kAsyncA
    typename LoaderB::Fragment b;  ///< unused (and removed by the compiler) when kAsyncB

    CUTLASS_DEVICE void start(LoaderA const &loader_a, LoaderB const &loader_b, ElementAccumulator *stage,
                              int k_limit) {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
      if constexpr (kAsyncA) loader_a.copy_async(stage, k_limit);
      if constexpr (kAsyncB) loader_b.copy_async(stage + kStageOffsetB, k_limit);
      if constexpr (kAsyncA || kAsyncB) arch::cp_async_commit();
#endif
      if constexpr (!kAsyncA) loader_a.load(a, k_limit);
      if constexpr (!kAsyncB) loader_b.load(b, k_limit);
    }

    CUTLASS_DEVICE void finish(LoaderA const &loader_a, LoaderB const &loader_b, ElementAccumulator *stage) {
      if constexpr (!kAsyncA) loader_a.store(a, stage);
      if constexpr (!kAsyncB) loader_b.store(b, stage + kStageOffsetB);
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
      if constexpr (kAsyncA || kAsyncB) arch::cp_async_wait_all();
#endif
    }
  };

  /// The thread's A and B fragments of K step kk: chunk c of A is the kVector rows at
  /// warp row c * kLanesM * kVector + lane_m * kVector (thread_a points at chunk 0 of step 0).
  CUTLASS_DEVICE static void load_fragments(ElementAccumulator (&a)[Policy::kThreadM],
                                            ElementAccumulator (&b)[Policy::kThreadN],
                                            ElementAccumulator const *thread_a, ElementAccumulator const *thread_b,
                                            int kk) {
    CUTLASS_PRAGMA_UNROLL
    for (int c = 0; c < Policy::kThreadM / Policy::kVector; ++c) {
      Vector v = Vector::load(thread_a + kk * Policy::kSmemStrideA + c * Policy::kLanesM * Policy::kVector);
      CUTLASS_PRAGMA_UNROLL
      for (int e = 0; e < Policy::kVector; ++e) a[c * Policy::kVector + e] = v.data[e];
    }
    CUTLASS_PRAGMA_UNROLL
    for (int c = 0; c < Policy::kThreadN / Policy::kVector; ++c) {
      Vector v = Vector::load(thread_b + kk * Policy::kSmemStrideB + c * Policy::kLanesN * Policy::kVector);
      CUTLASS_PRAGMA_UNROLL
      for (int e = 0; e < Policy::kVector; ++e) b[c * Policy::kVector + e] = v.data[e];
    }
  }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
