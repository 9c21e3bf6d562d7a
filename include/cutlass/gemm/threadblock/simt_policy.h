/// @file cutlass/gemm/threadblock/simt_policy.h
/// How a SIMT (FFMA/DFMA/IMAD on CUDA cores) GEMM divides its CTA tile among warps, lanes and
/// per-thread accumulators, with the tile rules as static_asserts.
///
/// CTA tile  kTileM x kTileN x kTileK  (ThreadblockShape), computed by kWarpsM x kWarpsN warps.
/// Warp tile kWarpM x kWarpN           (WarpShape; its K equals the CTA tile's K).
/// Lanes     kLanesM x kLanesN = 32: 4 x 8 when kWarpN >= kWarpM, else 8 x 4.
/// Thread    kThreadM x kThreadN accumulators = (kWarpM / kLanesM) x (kWarpN / kLanesN).
///
/// A thread's accumulators are not a dense sub-block: along M they are kThreadM / kVector chunks
/// of kVector consecutive rows, chunk c starting at warp row c * kLanesM * kVector + lane_m * kVector
/// (the same along N). kVector is the number of accumulator-type elements in 16 bytes, so each
/// chunk of a fragment is one 128-bit shared-memory load, and the kLanesM (kLanesN) lanes that
/// differ in lane_m (lane_n) read adjacent 16-byte words: at most 128 contiguous bytes per warp
/// load, free of bank conflicts.
///
/// Lane order (CUTLASS's RowMajorInterleaved<2> lane layout): lane l has
///     lane_m = (l % 2) + 2 * (l / (2 * kLanesN)),   lane_n = (l / 2) % kLanesN.
/// Shared memory returns 128 bytes (one register per lane) per cycle, so a 128-bit load takes
/// four cycles, or two when lanes l and l^1 (or l and l^2) read the same address (NVIDIA
/// developer forum, "Unexpected shared memory bank conflict", on the CC 7.x load path). In this
/// order lanes l and l^2 share lane_m (same A address) and lanes l and l^1 share lane_n (same B
/// address), so every fragment load takes two cycles, where lane_m = l % kLanesM would take four
/// for A.
/// Example, 32x64 warp of floats: lanes 4 x 8, thread tile 8 x 8 = rows {4*lane_m + 0..3,
/// 16 + 4*lane_m + 0..3} x columns {4*lane_n + 0..3, 32 + 4*lane_n + 0..3}.
///
/// Operands are staged in shared memory in the accumulator type (each element converted once
/// when it is stored), K-major: A as [kTileK][kTileM + kSmemPad], B as [kTileK][kTileN + kSmemPad].
#pragma once

#include "cutlass/gemm_coord.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename ThreadblockShape, typename WarpShape, typename ElementAccumulator_>
struct SimtPolicy {
  using ElementAccumulator = ElementAccumulator_;

  static constexpr int kTileM = ThreadblockShape::kM;
  static constexpr int kTileN = ThreadblockShape::kN;
  static constexpr int kTileK = ThreadblockShape::kK;
  static constexpr int kWarpM = WarpShape::kM;
  static constexpr int kWarpN = WarpShape::kN;

  static_assert(WarpShape::kK == ThreadblockShape::kK,
                "SIMT: WarpShape::kK must equal ThreadblockShape::kK (warps split only M and N)");
  static_assert(kTileM % kWarpM == 0, "SIMT: ThreadblockShape::kM must be a multiple of WarpShape::kM");
  static_assert(kTileN % kWarpN == 0, "SIMT: ThreadblockShape::kN must be a multiple of WarpShape::kN");

  static constexpr int kWarpsM = kTileM / kWarpM;
  static constexpr int kWarpsN = kTileN / kWarpN;
  static constexpr int kWarps = kWarpsM * kWarpsN;
  static constexpr int kThreads = kWarps * 32;
  static_assert(kThreads <= 1024, "SIMT: at most 32 warps (1024 threads) per threadblock");

  static constexpr int kLanesN = (kWarpN >= kWarpM) ? 8 : 4;
  static constexpr int kLanesM = 32 / kLanesN;

  static_assert(sizeof(ElementAccumulator) == 4 || sizeof(ElementAccumulator) == 8,
                "SIMT: the accumulator type must be 4 or 8 bytes (float, int32_t, double)");
  /// Accumulator-type elements per 128-bit shared-memory access.
  static constexpr int kVector = 16 / int(sizeof(ElementAccumulator));

  static_assert(kWarpM % (kLanesM * kVector) == 0,
                "SIMT: WarpShape::kM must be a multiple of lanes-along-M x (16 bytes / sizeof(accumulator)), "
                "e.g. 16 for float with a 4x8 lane grid");
  static_assert(kWarpN % (kLanesN * kVector) == 0,
                "SIMT: WarpShape::kN must be a multiple of lanes-along-N x (16 bytes / sizeof(accumulator)), "
                "e.g. 32 for float with a 4x8 lane grid");

  static constexpr int kThreadM = kWarpM / kLanesM;
  static constexpr int kThreadN = kWarpN / kLanesN;

  /// Padding (elements) of each K-row of the shared A and B tiles: one 16-byte word, which keeps
  /// every row 16-byte aligned and spreads the rows of K-contiguous operands over the banks.
  static constexpr int kSmemPad = kVector;
  static constexpr int kSmemStrideA = kTileM + kSmemPad;
  static constexpr int kSmemStrideB = kTileN + kSmemPad;

  /// Whether A's shared tile holds each pair of adjacent rows swapped (row m at column m ^ 1),
  /// so that a 128-bit fragment load puts row m in a register of the other parity than the
  /// accumulators of row m. The FMA loop then reuses the B operand (j outer, i inner): each FMA
  /// reads A[m] and C[m][n] from the register file, and those sit in different banks.
  /// Why: ptxas keeps a column of accumulators (rows m .. m+3, one 128-bit epilogue store) in an
  /// aligned quad, and a 128-bit fragment load fills an aligned quad, so with plain order row m's
  /// A register and accumulator share a parity. The register file has two banks (register number
  /// mod 2) and an instruction whose register-file reads fall twice in one bank waits a cycle
  /// (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018,
  /// sec. 2.2; the same on Ampere and Hopper by ncu's "dispatch stall"). Measured on the H200
  /// (128x128x8 NN, docs/NOTES.md): plain order left 59% of the loop's FFMAs with two same-bank
  /// reads and issue slots 69% busy (0.764x cuBLAS at 4096^3); swapped, 18% (the chain starts,
  /// which read three registers) and 83% busy (0.919x). 4-byte accumulators only (a double or its
  /// pair of registers spans both banks).
  static constexpr bool kSwapRowPairsA = sizeof(ElementAccumulator) == 4;

  /// 32-bit registers the accumulators take.
  static constexpr int kAccumulatorRegisters = kThreadM * kThreadN * int(sizeof(ElementAccumulator)) / 4;
  /// Threadblocks per SM requested through __launch_bounds__. When the accumulators take at most
  /// 64 registers, enough CTAs for 512 resident threads, which caps ptxas at 65536 / 512 = 128
  /// registers per thread (two 256-thread CTAs per SM); otherwise 1 (up to 255 registers).
  static constexpr int kMinBlocksPerSm = (kAccumulatorRegisters <= 64 && kThreads < 512) ? 512 / kThreads : 1;
};

/// Where a thread's accumulators sit in its warp tile (see SimtPolicy). All indices in elements.
template <typename Policy>
struct SimtThreadCoord {
  int warp_m;  ///< warp's row of warps, 0 .. kWarpsM-1
  int warp_n;  ///< warp's column of warps, 0 .. kWarpsN-1
  int lane_m;  ///< 0 .. kLanesM-1
  int lane_n;  ///< 0 .. kLanesN-1

  CUTLASS_DEVICE SimtThreadCoord(int thread_idx) {
    int warp = thread_idx / 32;
    int lane = thread_idx % 32;
    warp_m = warp % Policy::kWarpsM;
    warp_n = warp / Policy::kWarpsM;
    lane_m = (lane % 2) + 2 * (lane / (2 * Policy::kLanesN));
    lane_n = (lane / 2) % Policy::kLanesN;
  }

  /// Row of accumulator row i (0 .. kThreadM-1) within the warp tile.
  CUTLASS_DEVICE int row_in_warp(int i) const {
    return (i / Policy::kVector) * (Policy::kLanesM * Policy::kVector) + lane_m * Policy::kVector + i % Policy::kVector;
  }
  /// Column of accumulator column j (0 .. kThreadN-1) within the warp tile.
  CUTLASS_DEVICE int column_in_warp(int j) const {
    return (j / Policy::kVector) * (Policy::kLanesN * Policy::kVector) + lane_n * Policy::kVector + j % Policy::kVector;
  }
};

/// A thread's accumulators: element (i, j) is row_in_warp(i), column_in_warp(j) of its warp tile.
template <typename Policy>
struct SimtAccumulatorTile {
  typename Policy::ElementAccumulator data[Policy::kThreadM][Policy::kThreadN];

  CUTLASS_DEVICE void clear() {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < Policy::kThreadM; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < Policy::kThreadN; ++j) data[i][j] = typename Policy::ElementAccumulator(0);
    }
  }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
