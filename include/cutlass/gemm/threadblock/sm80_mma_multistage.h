/// @file cutlass/gemm/threadblock/sm80_mma_multistage.h
/// The sm80 multistage mainloop: a kStages-deep ring of shared-memory stages filled by cp.async,
/// consumed by warps through ldmatrix (or 32-bit loads) and mma.sync, with one __syncthreads per
/// K tile and double-buffered register fragments.
///
/// CTA tile kM x kN x kK, warp tile kWarpM x kWarpN x kK; warp w covers rows
/// (w % kWarpsM) * kWarpM and columns (w / kWarpsM) * kWarpN of the CTA tile. Each warp holds
/// kMTiles x kNTiles m16n8 accumulator tiles of 4 values (fragment layout in
/// sm80_warp_fragment_loader.h; accumulator (i, j, v) is element
/// (m 16 i + g + 8 (v >> 1), n 8 j + 2 t + (v & 1)) of the warp tile, g = lane / 4, t = lane % 4).
///
/// Pipeline (k-tile kt lives in stage kt % kStages):
///   prologue: load k-tiles 0 .. kStages-2, one cp.async group each; wait for tile 0; barrier;
///             read fragments of (tile 0, k-step 0).
///   k-tile kt, k-step kk = 0 .. kKSteps-1:
///     read fragments of the next k-step (kk + 1, or k-step 0 of tile kt + 1 when kk is last)
///     kk == 0:          issue the cp.async copies of k-tile kt + kStages - 1 into stage
///                       (kt - 1) % kStages (register-path copies: a share at every kk, see load_part)
///     mma of k-step kk
///     kk == kKSteps-2:  commit; wait until <= kStages-2 groups are pending (tile kt + 1 landed);
///                       __syncthreads; advance the read and write stages
/// Why this is race free: stage (kt-1) % kStages was last read by the fragment loads issued
/// before the barrier of k-tile kt-1, and it is refilled only after that barrier. After the
/// wait of k-tile kt, kStages - 1 + kt + 1 groups were committed and at most kStages - 2 are
/// pending, so the groups of tiles 0 .. kt + 1 are complete; the barrier makes every thread's
/// copies visible before any warp reads tile kt + 1. Loads past the last k-tile are zero-filled
/// (never read); the mainloop waits for all copies and barriers before returning, so the
/// epilogue may reuse the shared memory.
#pragma once

#include <cstdint>
#include <type_traits>
#include "cute/layout.hpp"
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"
#include "cutlass/gemm/threadblock/sm80_mma_traits.h"
#include "cutlass/gemm/threadblock/sm80_smem_layout.h"
#include "cutlass/gemm/threadblock/sm80_tile_loader.h"
#include "cutlass/gemm/threadblock/sm80_warp_fragment_loader.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

/// The swizzled stage layout of an operand: K-major, or MN-major for the given fragment reader.
template <typename Element, bool kKMajor, int kMN, int kK>
using Sm80OperandSmemLayout = std::conditional_t<
    kKMajor, Sm80SmemLayoutKMajor<int(sizeof(Element)), kMN, kK>,
    std::conditional_t<sizeof(Element) == 2, Sm80SmemLayoutMNMajorLdsm<int(sizeof(Element)), kMN, kK>,
                       Sm80SmemLayoutMNMajorLds32<int(sizeof(Element)), kMN, kK>>>;

template <typename ElementA, bool kAKMajor, int kAlignmentA, typename ElementB, bool kBKMajor, int kAlignmentB,
          typename ElementAccumulator, typename ThreadblockShape, typename WarpShape, int kStages_>
class Sm80MmaMultistage {
 public:
  using Instruction = typename Sm80MmaTraits<ElementA, ElementB, ElementAccumulator>::Instruction;
  static constexpr int kStages = kStages_;
  static constexpr int kM = ThreadblockShape::kM;
  static constexpr int kN = ThreadblockShape::kN;
  static constexpr int kK = ThreadblockShape::kK;
  static constexpr int kWarpM = WarpShape::kM;
  static constexpr int kWarpN = WarpShape::kN;
  static constexpr int kWarpsM = kM / kWarpM;
  static constexpr int kWarpsN = kN / kWarpN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kKSteps = kK / Instruction::Shape::kK;
  static constexpr int kMTiles = kWarpM / 16;
  static constexpr int kNTiles = kWarpN / 8;
  /// Warps of the CTA over its tile: warp w takes warp tile idx2crd(w, WarpGridShape) =
  /// (w % kWarpsM, w / kWarpsM); its origin in the CTA tile is WarpOriginM/N at that coordinate.
  using WarpGridShape = cute::Shape<cute::Int<kWarpsM>, cute::Int<kWarpsN>>;
  using WarpOriginM = cute::Layout<cute::Shape<cute::Int<kWarpsM>>, cute::Stride<cute::Int<kWarpM>>>;
  using WarpOriginN = cute::Layout<cute::Shape<cute::Int<kWarpsN>>, cute::Stride<cute::Int<kWarpN>>>;

  static_assert(kStages >= 3, "GemmSm80: Stages must be >= 3 (the ring keeps Stages-1 tiles in flight)");
  static_assert(kM % kWarpM == 0 && kN % kWarpN == 0,
                "GemmSm80: ThreadblockShape M and N must be multiples of WarpShape M and N");
  static_assert(WarpShape::kK == kK, "GemmSm80: WarpShape::kK must equal ThreadblockShape::kK");
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "GemmSm80: WarpShape M and N must be multiples of 16");
  static_assert(kK % (2 * Instruction::Shape::kK) == 0,
                "GemmSm80: ThreadblockShape::kK must be a multiple of twice the instruction K "
                "(32 for f16/bf16, 16 for tf32, 64 for s8)");

  using SmemLayoutA = Sm80OperandSmemLayout<ElementA, kAKMajor, kM, kK>;
  using SmemLayoutB = Sm80OperandSmemLayout<ElementB, kBKMajor, kN, kK>;
  using LoaderA = Sm80TileLoader<ElementA, kAKMajor, kAlignmentA, kThreads, SmemLayoutA>;
  using LoaderB = Sm80TileLoader<ElementB, kBKMajor, kAlignmentB, kThreads, SmemLayoutB>;
  using WarpLoaderA =
      Sm80WarpFragmentLoader<sm80_fragment_read<int(sizeof(ElementA)), kAKMajor>(), true, SmemLayoutA, kWarpM>;
  using WarpLoaderB =
      Sm80WarpFragmentLoader<sm80_fragment_read<int(sizeof(ElementB)), kBKMajor>(), false, SmemLayoutB, kWarpN>;

  using FragmentA = uint32_t[kMTiles][4];
  using FragmentB = uint32_t[kNTiles][2];
  using Accumulators = ElementAccumulator[kMTiles][kNTiles][4];

  /// Shared memory: kStages A stages, then kStages B stages (bytes; each stage 128-byte aligned).
  static constexpr int kStageBytesA = SmemLayoutA::kBytes;
  static constexpr int kStageBytesB = SmemLayoutB::kBytes;
  static constexpr int kSmemBytes = kStages * (kStageBytesA + kStageBytesB);
  static_assert(kStageBytesA % 128 == 0 && kStageBytesB % 128 == 0, "stages must be whole 128-byte lines");
  /// Stage s of A (B) starts StageA{}(s) (StageB{}(s)) bytes into the A (B) ring.
  using StageA = cute::Layout<cute::Shape<cute::Int<kStages>>, cute::Stride<cute::Int<kStageBytesA>>>;
  using StageB = cute::Layout<cute::Shape<cute::Int<kStages>>, cute::Stride<cute::Int<kStageBytesB>>>;

  /// Computes acc = sum over K of A_tile * B_tile for this CTA (acc must be zero on entry).
  /// @param smem        .shared address of the kSmemBytes pipeline buffer (128-byte aligned)
  /// @param problem_k   K of the problem (>= 1)
  /// @param warp_m, warp_n  this warp's coordinates in the kWarpsM x kWarpsN warp grid
  CUTLASS_DEVICE static void run(Accumulators &acc, uint32_t smem, LoaderA &loader_a, LoaderB &loader_b,
                                 int problem_k, int lane, int warp_m, int warp_n) {
    WarpLoaderA const warp_a(lane, WarpOriginM{}(warp_m));
    WarpLoaderB const warp_b(lane, WarpOriginN{}(warp_n));
    uint32_t const smem_b = smem + kStages * kStageBytesA;
    int const k_tiles = (problem_k + kK - 1) / kK;
    int k_load_remaining = problem_k;   // K - (index of the next k-tile to load) * kK

    auto load_stage = [&](int s) {
      loader_a.load(smem + StageA{}(s), k_load_remaining);
      loader_b.load(smem_b + StageB{}(s), k_load_remaining);
      k_load_remaining -= kK;
      arch::cp_async_commit();
    };
    if constexpr (LoaderA::kUseCpAsync && LoaderB::kUseCpAsync) {
      CUTLASS_PRAGMA_UNROLL
      for (int s = 0; s < kStages - 1; ++s) load_stage(s);
    } else {
      // NOTE: a runtime loop for the register path: unrolled, ptxas keeps every stage's narrow
      // loads in flight at once and spills.
      CUTLASS_PRAGMA_NO_UNROLL
      for (int s = 0; s < kStages - 1; ++s) load_stage(s);
    }
    arch::cp_async_wait<kStages - 2>();
    __syncthreads();

    FragmentA frag_a[2];
    FragmentB frag_b[2];
    warp_a.load(frag_a[0], smem, 0);
    warp_b.load(frag_b[0], smem_b, 0);

    int read_stage = 0;
    int write_stage = kStages - 1;
    uint32_t write_a = 0, write_b = 0;   // stage being filled during this k-tile
    int write_k_remaining = 0;           // its k_remaining

    // NOTE: the stage layouts take the ring indices by value (int(...)): a cute layout takes its
    // coordinate by reference, and a reference to the loop-carried index changed the compiled
    // ring update (compare with the next index instead of the current one).
    CUTLASS_PRAGMA_NO_UNROLL
    for (int kt = 0; kt < k_tiles; ++kt) {
      CUTLASS_PRAGMA_UNROLL
      for (int kk = 0; kk < kKSteps; ++kk) {
        int const next = (kk + 1) % 2;
        warp_a.load(frag_a[next], smem + StageA{}(int(read_stage)), (kk + 1) % kKSteps);
        warp_b.load(frag_b[next], smem_b + StageB{}(int(read_stage)), (kk + 1) % kKSteps);
        if (kk == 0) {
          write_a = smem + StageA{}(int(write_stage));
          write_b = smem_b + StageB{}(int(write_stage));
          write_k_remaining = k_load_remaining;
          k_load_remaining -= kK;
        }
        load_part(loader_a, write_a, write_k_remaining, kk);
        load_part(loader_b, write_b, write_k_remaining, kk);
        warp_mma(acc, frag_a[kk % 2], frag_b[kk % 2]);
        if (kk == kKSteps - 2) {
          arch::cp_async_commit();
          arch::cp_async_wait<kStages - 2>();
          __syncthreads();
          read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
          write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
        }
      }
    }
    arch::cp_async_wait_all();
    __syncthreads();
  }

 private:
  /// The share of k-step kk of the copies of the k-tile being loaded. cp.async copies are all
  /// issued at kk == 0 (they must precede the commit at kk == kKSteps-2). Register-path copies
  /// (loads + st.shared, no group) are spread evenly over all k-steps to bound the registers they
  /// hold next to the accumulators: the stage they fill is not read before the barrier of a later
  /// k-tile (kStages >= 3), and was released by the previous k-tile's barrier.
  template <typename Loader>
  CUTLASS_DEVICE static void load_part(Loader &loader, uint32_t stage, int k_remaining, int kk) {
    if constexpr (Loader::kUseCpAsync) {
      if (kk == 0) loader.load(stage, k_remaining);
    } else {
      loader.load_chunks(stage, k_remaining, kk * Loader::kChunks / kKSteps, (kk + 1) * Loader::kChunks / kKSteps);
      if (kk == kKSteps - 1) loader.advance();
    }
  }

  /// kMTiles x kNTiles mma.sync of one k-step, serpentine over N so consecutive instructions
  /// share an operand.
  CUTLASS_DEVICE static void warp_mma(Accumulators &acc, FragmentA const &a, FragmentB const &b) {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kMTiles; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int jj = 0; jj < kNTiles; ++jj) {
        int const j = (i % 2) ? kNTiles - 1 - jj : jj;
        Instruction::fma(acc[i][j], a[i], b[j]);
      }
    }
  }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
