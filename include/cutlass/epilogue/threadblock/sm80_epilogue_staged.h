/// @file cutlass/epilogue/threadblock/sm80_epilogue_staged.h
/// Epilogue of the sm80 tensor-op GEMM: takes the warps' m16n8 accumulator fragments, stages
/// them through shared memory, and writes D = OutputOp(acc, C) to the column-major M x N output
/// with coalesced vectors of kAlignmentC elements along M.
///
/// Accumulator fragment (per warp, from Sm80MmaMultistage): acc[i][j][v] is element
///   (m = warp_m * kWarpM + 16 i + g + 8 (v >> 1),  n = warp_n * kWarpN + 8 j + 2 t + (v & 1))
/// of the CTA tile, g = lane / 4, t = lane % 4.
///
/// The tile goes through shared memory in kSteps slabs. Slab s holds n8 tiles
/// j = kNTilesPerStep * s + jj (jj < kNTilesPerStep) of every warp: kSlabColumns = kWarpsN x
/// kNTilesPerStep x 8 columns of all kM rows, stored column-major (M contiguous) with a leading
/// dimension of kSlabLd = kM + 4 accumulator words. Slab column c is CTA-tile column
///   (c / (8 kNTilesPerStep)) * kWarpN + 8 kNTilesPerStep s + c % (8 kNTilesPerStep).
/// Writes are conflict free: one store instruction of a warp touches words 2t * kSlabLd + g
/// (+ const) and kSlabLd % 32 == 4, so bank = 8t + g, 32 distinct banks. Reads take kAlignmentC
/// consecutive rows of one column per thread, consecutive threads consecutive rows.
///
/// Per output vector: if it lies in the problem (m < M, n < N; M % kAlignmentC == 0 so a vector
/// is wholly in or out) the thread loads C (only when OutputOp::is_source_needed(); C is never
/// touched when beta == 0), applies the operator per element, and stores D. The same thread
/// reads C[m..m+V) of column n before it writes D[m..m+V) of column n, so D may alias C.
/// Fused pieces of the operator (thread/linear_combination.h) get their per-row and per-column
/// vector terms per element and per vector; op.set_batch() must have been called.
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

namespace cutlass {
namespace epilogue {
namespace threadblock {

/// N elements of T packed for one vector access of kAlign bytes.
template <typename T, int N, int kAlign>
struct alignas(kAlign) Sm80VectorAccess {
  T storage[N];
};

template <typename ElementC_, int kAlignmentC_, typename ElementAccumulator_, typename OutputOp_, int kM_,
          int kN_, int kWarpM_, int kWarpN_>
class Sm80EpilogueStaged {
 public:
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using OutputOp = OutputOp_;
  static constexpr int kAlignmentC = kAlignmentC_;
  static constexpr int kM = kM_;
  static constexpr int kN = kN_;
  static constexpr int kWarpM = kWarpM_;
  static constexpr int kWarpN = kWarpN_;
  static constexpr int kWarpsM = kM / kWarpM;
  static constexpr int kWarpsN = kN / kWarpN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kMTiles = kWarpM / 16;
  static constexpr int kNTiles = kWarpN / 8;
  static constexpr int kNTilesPerStep = 2;
  static constexpr int kSteps = kNTiles / kNTilesPerStep;
  static constexpr int kWarpSlabColumns = 8 * kNTilesPerStep;
  static constexpr int kSlabColumns = kWarpsN * kWarpSlabColumns;
  static constexpr int kSlabLd = kM + 4;   ///< accumulator words
  static constexpr int kSmemBytes = kSlabColumns * kSlabLd * int(sizeof(ElementAccumulator));
  static constexpr int kVectorsPerColumn = kM / kAlignmentC;
  static constexpr int kIterations = kVectorsPerColumn * kSlabColumns / kThreads;
  /// Accumulators are read from the slab in pieces of up to 16 bytes (kSlabLd keeps 16-byte alignment).
  static constexpr int kReadPiece = kAlignmentC < 4 ? kAlignmentC : 4;

  using Accumulators = ElementAccumulator[kMTiles][kNTiles][4];

  static_assert(sizeof(ElementAccumulator) == 4, "the slab holds 32-bit accumulators");
  static_assert(kM % 32 == 0, "GemmSm80: ThreadblockShape::kM must be a multiple of 32 (epilogue slab banks)");
  static_assert(kNTiles % kNTilesPerStep == 0, "GemmSm80: WarpShape::kN must be a multiple of 16");
  static_assert(kAlignmentC >= 1 && (kAlignmentC & (kAlignmentC - 1)) == 0 &&
                    kAlignmentC * int(sizeof(ElementC)) <= 16,
                "GemmSm80: AlignmentC must be a power of two of at most 16 bytes");
  static_assert((kVectorsPerColumn * kSlabColumns) % kThreads == 0,
                "GemmSm80: the epilogue slab must split evenly over the threads (raise WarpShape::kM)");

  /// Global coordinates of the output vector a thread handles in slab `step`, iteration `it`,
  /// relative to the CTA tile origin. Host-callable so tests can check the mapping.
  CUTLASS_HOST_DEVICE static constexpr int vector_row(int thread, int it) {
    return ((it * kThreads + thread) % kVectorsPerColumn) * kAlignmentC;
  }
  CUTLASS_HOST_DEVICE static constexpr int vector_slab_column(int thread, int it) {
    return (it * kThreads + thread) / kVectorsPerColumn;
  }
  CUTLASS_HOST_DEVICE static constexpr int slab_column_to_tile_column(int slab_column, int step) {
    return (slab_column / kWarpSlabColumns) * kWarpN + step * kWarpSlabColumns + slab_column % kWarpSlabColumns;
  }
  /// Slab word of accumulator (i, jj, v) of lane `lane` in warp (warp_m, warp_n) (jj < kNTilesPerStep).
  CUTLASS_HOST_DEVICE static constexpr int fragment_slab_offset(int warp_m, int warp_n, int lane, int i, int jj,
                                                                int v) {
    return (warp_n * kWarpSlabColumns + 8 * jj + 2 * (lane & 3) + (v & 1)) * kSlabLd + warp_m * kWarpM + 16 * i +
           (lane >> 2) + 8 * (v >> 1);
  }

  /// Writes the CTA tile whose element (0, 0) is D(m0, n0) / C(m0, n0).
  /// @param smem     kSmemBytes of shared memory, 16-byte aligned, free for use (no pending copies)
  /// @param ptr_c    C of this batch; read only when op.is_source_needed()
  /// @param ptr_d    D of this batch; may equal ptr_c
  /// @param ldc, ldd leading dimensions, elements
  CUTLASS_DEVICE static void store(Accumulators const &acc, OutputOp &op, void *smem, ElementC const *ptr_c,
                                   int64_t ldc, ElementC *ptr_d, int64_t ldd, int problem_m, int problem_n, int m0,
                                   int n0, int thread, int lane, int warp_m, int warp_n) {
    ElementAccumulator *slab = static_cast<ElementAccumulator *>(smem);
    bool const read_c = op.is_source_needed();

    CUTLASS_PRAGMA_UNROLL
    for (int step = 0; step < kSteps; ++step) {
      CUTLASS_PRAGMA_UNROLL
      for (int jj = 0; jj < kNTilesPerStep; ++jj) {
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kMTiles; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int v = 0; v < 4; ++v) {
            slab[fragment_slab_offset(warp_m, warp_n, lane, i, jj, v)] = acc[i][step * kNTilesPerStep + jj][v];
          }
        }
      }
      __syncthreads();

      // NOTE: a runtime loop on purpose: it touches no accumulator register, while unrolled the
      // compiler keeps every iteration's addresses live across the slab steps (spills at small
      // AlignmentC).
      CUTLASS_PRAGMA_NO_UNROLL
      for (int it = 0; it < kIterations; ++it) {
        int const row = vector_row(thread, it);
        int const column = vector_slab_column(thread, it);
        int const m = m0 + row;
        int const n = n0 + slab_column_to_tile_column(column, step);
        if (m < problem_m && n < problem_n) {
          ElementAccumulator const *src = slab + column * kSlabLd + row;
          Sm80VectorAccess<ElementAccumulator, kAlignmentC, 4 * kReadPiece> accum;
          CUTLASS_PRAGMA_UNROLL
          for (int p = 0; p < kAlignmentC; p += kReadPiece) {
            auto const piece = *reinterpret_cast<Sm80VectorAccess<ElementAccumulator, kReadPiece, 4 * kReadPiece> const *>(
                src + p);
            CUTLASS_PRAGMA_UNROLL
            for (int e = 0; e < kReadPiece; ++e) accum.storage[p + e] = piece.storage[e];
          }
          using OutputVector = Sm80VectorAccess<ElementC, kAlignmentC, kAlignmentC * int(sizeof(ElementC))>;
          OutputVector out;
          typename OutputOp::Terms const column_terms = op.column_terms(n);
          OutputVector c{};
          if (read_c) c = *reinterpret_cast<OutputVector const *>(ptr_c + int64_t(n) * ldc + m);
          CUTLASS_PRAGMA_UNROLL
          for (int e = 0; e < kAlignmentC; ++e) {
            out.storage[e] = op(accum.storage[e], read_c, c.storage[e], op.row_terms(m + e), column_terms, m + e, n);
          }
          *reinterpret_cast<OutputVector *>(ptr_d + int64_t(n) * ldd + m) = out;
        }
      }
      if (step + 1 < kSteps) {
        __syncthreads();
      }
    }
    op.end_tile();
  }
};

}  // namespace threadblock
}  // namespace epilogue
}  // namespace cutlass
