/// @file cutlass/gemm/threadblock/sm80_tile_loader.h
/// Copies one operand tile (one K step of the CTA tile) from global memory into one pipeline
/// stage of shared memory, all threads of the CTA together, predicated on the problem edges.
///
/// The tile is SmemLayout::kRows x kColumns elements, row-contiguous in global memory:
///   K-major operand (row-major A, column-major B): rows = M (N) of the CTA tile, columns = K
///   MN-major operand (column-major A, row-major B): rows = K, columns = M (N) of the CTA tile
/// Global element (row, column) of k-tile kt is at
///   K-major:  ptr + (mn_offset + row) * ld + kt * kK + column
///   MN-major: ptr + (kt * kK + row) * ld + mn_offset + column
///
/// Each thread moves vectors of kAlignment elements. Consecutive threads take consecutive vectors
/// of a row (coalesced); a pass covers kRowsPerPass rows; kPassesRow x kPassesColumn passes cover
/// the tile. Vector bytes 4, 8, 16 go through cp.async (zero-filled when out of range, so the
/// partial last K tile and M/N overhang read nothing and leave zeros); 1 and 2 bytes (below
/// cp.async's minimum) go through a predicated load into a register and a shared store.
///
/// Edge rule: the caller guarantees (can_implement) that the contiguous extent of the operand
/// (K for K-major, M/N for MN-major) is a multiple of kAlignment, so every vector is either
/// wholly inside the matrix or wholly outside; one predicate per vector is exact.
#pragma once

#include <cstdint>
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename Element, bool kKMajor_, int kAlignment_, int kThreads_, typename SmemLayout_>
class Sm80TileLoader {
 public:
  using SmemLayout = SmemLayout_;
  static constexpr bool kKMajor = kKMajor_;
  static constexpr int kAlignment = kAlignment_;
  static constexpr int kThreads = kThreads_;
  static constexpr int kRows = SmemLayout::kRows;
  static constexpr int kColumns = SmemLayout::kColumns;
  static constexpr int kTileK = kKMajor ? kColumns : kRows;   ///< K extent of one tile, elements
  static constexpr int kVectorBytes = kAlignment * int(sizeof(Element));
  static constexpr bool kUseCpAsync = kVectorBytes >= 4;
  static constexpr int kVectorsPerRow = kColumns / kAlignment;
  static constexpr int kThreadsPerRow = kVectorsPerRow < kThreads ? kVectorsPerRow : kThreads;
  static constexpr int kRowsPerPass = kThreads / kThreadsPerRow;
  static constexpr int kPassesColumn = kVectorsPerRow / kThreadsPerRow;
  static constexpr int kPassesRow = kRows / kRowsPerPass;

  static_assert(int(sizeof(Element)) == SmemLayout::kElementBytes, "element size and smem layout disagree");
  static_assert(kVectorBytes == 1 || kVectorBytes == 2 || kVectorBytes == 4 || kVectorBytes == 8 ||
                    kVectorBytes == 16,
                "operand alignment must give 1, 2, 4, 8 or 16-byte vectors");
  static_assert(kColumns % kAlignment == 0, "tile row must be a whole number of vectors");
  static_assert(kVectorsPerRow % kThreadsPerRow == 0 && kThreads % kThreadsPerRow == 0,
                "threads must tile one row of vectors evenly");
  static_assert(kRowsPerPass <= kRows && kRows % kRowsPerPass == 0,
                "tile rows must be a multiple of the rows one pass of all threads covers "
                "(use a deeper K tile or a wider alignment)");
  static_assert((kKMajor ? kPassesRow : kPassesColumn) <= 32, "one predicate bit per M/N pass");

  /// Tile row of this thread's vectors in pass `pass_row`.
  CUTLASS_HOST_DEVICE static constexpr int row_of(int thread, int pass_row) {
    return pass_row * kRowsPerPass + thread / kThreadsPerRow;
  }
  /// Tile column (element) where this thread's vector of pass `pass_column` starts.
  CUTLASS_HOST_DEVICE static constexpr int column_of(int thread, int pass_column) {
    return (pass_column * kThreadsPerRow + thread % kThreadsPerRow) * kAlignment;
  }

  /// @param ptr        operand of this batch (element (0, 0))
  /// @param ld         leading dimension, elements
  /// @param mn_extent  M (for A) or N (for B) of the problem
  /// @param mn_offset  first M (N) index of this CTA tile
  /// @param thread     thread index in the CTA
  CUTLASS_HOST_DEVICE Sm80TileLoader(Element const *ptr, int64_t ld, int mn_extent, int mn_offset, int thread)
      : base_(ptr), ld_(ld), row_(row_of(thread, 0)), column_(column_of(thread, 0)), mn_valid_(0) {
    if constexpr (kKMajor) {
      ptr_ = ptr + int64_t(mn_offset + row_) * ld + column_;
      CUTLASS_PRAGMA_UNROLL
      for (int p = 0; p < kPassesRow; ++p) {
        mn_valid_ |= uint32_t(mn_offset + row_ + p * kRowsPerPass < mn_extent) << p;
      }
    } else {
      ptr_ = ptr + int64_t(row_) * ld + mn_offset + column_;
      CUTLASS_PRAGMA_UNROLL
      for (int p = 0; p < kPassesColumn; ++p) {
        mn_valid_ |= uint32_t(mn_offset + column_ + p * kThreadsPerRow * kAlignment < mn_extent) << p;
      }
    }
  }

  /// Issues the copies of the current k-tile into the stage at shared address `stage`, then
  /// moves to the next k-tile. `k_remaining` = K - (index of this k-tile) * kTileK; vectors whose
  /// K index is >= k_remaining (or whose M/N index is past the edge) are zero-filled.
  CUTLASS_DEVICE void load(uint32_t stage, int k_remaining) {
    if constexpr (kUseCpAsync) {
      CUTLASS_PRAGMA_UNROLL
      for (int pr = 0; pr < kPassesRow; ++pr) {
        CUTLASS_PRAGMA_UNROLL
        for (int pc = 0; pc < kPassesColumn; ++pc) {
          bool const valid = vector_valid(pr, pc, k_remaining);
          arch::cp_async_zfill<kVectorBytes>(stage + vector_smem_offset(pr, pc),
                                             valid ? vector_source(pr, pc) : base_, valid);
        }
      }
    } else {
      uint32_t v[kPassesRow][kPassesColumn];
      CUTLASS_PRAGMA_UNROLL
      for (int pr = 0; pr < kPassesRow; ++pr) {
        CUTLASS_PRAGMA_UNROLL
        for (int pc = 0; pc < kPassesColumn; ++pc) {
          bool const valid = vector_valid(pr, pc, k_remaining);
          v[pr][pc] = arch::ld_global_zfill<kVectorBytes>(valid ? vector_source(pr, pc) : base_, valid);
        }
      }
      CUTLASS_PRAGMA_UNROLL
      for (int pr = 0; pr < kPassesRow; ++pr) {
        CUTLASS_PRAGMA_UNROLL
        for (int pc = 0; pc < kPassesColumn; ++pc) {
          arch::sts_narrow<kVectorBytes>(stage + vector_smem_offset(pr, pc), v[pr][pc]);
        }
      }
    }
    advance();
  }

  // The index math load() uses, host-callable so tests can replay it.

  /// True when the vector of pass (pr, pc) of the current k-tile lies inside the matrix.
  CUTLASS_HOST_DEVICE bool vector_valid(int pr, int pc, int k_remaining) const {
    if constexpr (kKMajor) {
      return ((mn_valid_ >> pr) & 1u) && (column_ + pc * kThreadsPerRow * kAlignment < k_remaining);
    } else {
      return ((mn_valid_ >> pc) & 1u) && (row_ + pr * kRowsPerPass < k_remaining);
    }
  }
  /// Global address of the vector of pass (pr, pc) of the current k-tile.
  CUTLASS_HOST_DEVICE Element const *vector_source(int pr, int pc) const {
    return ptr_ + int64_t(pr * kRowsPerPass) * ld_ + pc * kThreadsPerRow * kAlignment;
  }
  /// Byte offset in the stage of the vector of pass (pr, pc).
  CUTLASS_HOST_DEVICE uint32_t vector_smem_offset(int pr, int pc) const {
    return SmemLayout::offset_bytes(row_ + pr * kRowsPerPass, column_ + pc * kThreadsPerRow * kAlignment);
  }
  /// Moves to the next k-tile.
  CUTLASS_HOST_DEVICE void advance() { ptr_ += kKMajor ? int64_t(kTileK) : int64_t(kTileK) * ld_; }

 private:
  Element const *ptr_;    ///< this thread's first vector in the current k-tile
  Element const *base_;   ///< a valid address handed to predicated-off copies
  int64_t ld_;
  int row_;               ///< row_of(thread, 0)
  int column_;            ///< column_of(thread, 0)
  uint32_t mn_valid_;     ///< bit p: M/N index of pass p is inside the problem
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
