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
/// Work unit: each thread moves whole 16-byte chunks (the swizzle unit of SmemLayout), so its
/// shared-memory offsets are the same few for every alignment. Consecutive threads take
/// consecutive chunks of a row (coalesced); a pass of all threads covers kRowsPerPass rows;
/// kPassesRow x kPassesColumn passes cover the tile. A chunk is read from global memory in
/// kPieces accesses of kAlignment elements (kPieceBytes = 16 / kPieces):
///  - kPieceBytes 4, 8, 16: one cp.async per piece, zero-filled when the piece is out of range;
///  - kPieceBytes 1, 2 (below cp.async's 4-byte minimum): predicated loads into registers,
///    packed, then one 16-byte shared store per chunk.
/// Either way an out-of-range piece reads no global memory and leaves zeros, so the partial
/// last K tile and the M/N overhang of edge tiles contribute nothing.
///
/// Addressing, through the layout algebra (include/cute): thread t's place in a pass is the
/// coordinate idx2crd(t, ThreadShape) = (chunk column, row) of a (kThreadsPerRow, kRowsPerPass)
/// arrangement; a chunk or piece is a tile coordinate (row, column) = thread's coordinate +
/// pass_coord(pr, pc, e); that coordinate goes through GmemLayout (rows of ld elements) to the
/// global element and through SmemLayout (Sm80SwizzledTile::Layout, swizzled bytes) to the
/// stage. Each thread keeps its own origin in both (a pointer and one swizzled register, the
/// latter from SmemLayout::offset_bytes, the split evaluation of the layout); the steps are
/// compile-time and are added through Sm80SwizzledOffset's rules, so they end up as address
/// immediates.
///
/// Edge rule: the caller guarantees (can_implement) that the contiguous extent of the operand
/// (K for K-major, M/N for MN-major) is a multiple of kAlignment, so every piece is either
/// wholly inside the matrix or wholly outside; one predicate per piece is exact.
#pragma once

#include <cstdint>
#include "cute/layout.hpp"
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"
#include "cutlass/gemm/threadblock/sm80_smem_layout.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename Element, bool kKMajor_, int kAlignment_, int kThreads_, typename SmemLayout_>
class Sm80TileLoader {
 public:
  using SmemLayout = SmemLayout_;
  using RowMajor = typename SmemLayout::RowMajor;   ///< (row, column) -> unswizzled byte offset
  static constexpr bool kKMajor = kKMajor_;
  static constexpr int kAlignment = kAlignment_;
  static constexpr int kThreads = kThreads_;
  static constexpr int kRows = SmemLayout::kRows;
  static constexpr int kColumns = SmemLayout::kColumns;
  static constexpr int kTileK = kKMajor ? kColumns : kRows;   ///< K extent of one tile, elements
  static constexpr int kElementsPerChunk = SmemLayout::kElementsPerChunk;
  static constexpr int kPieceBytes = kAlignment * int(sizeof(Element));
  static constexpr int kPieces = 16 / kPieceBytes;              ///< global accesses per chunk
  static constexpr bool kUseCpAsync = kPieceBytes >= 4;
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static constexpr int kThreadsPerRow = kChunksPerRow < kThreads ? kChunksPerRow : kThreads;
  static constexpr int kRowsPerPass = kThreads / kThreadsPerRow;
  static constexpr int kPassesColumn = kChunksPerRow / kThreadsPerRow;
  static constexpr int kPassesRow = kRows / kRowsPerPass;

  static_assert(int(sizeof(Element)) == SmemLayout::kElementBytes, "element size and smem layout disagree");
  static_assert(kPieceBytes >= 1 && kPieceBytes <= 16 && 16 % kPieceBytes == 0,
                "operand alignment must give 1, 2, 4, 8 or 16-byte accesses");
  static_assert(kChunksPerRow % kThreadsPerRow == 0 && kThreads % kThreadsPerRow == 0,
                "threads must tile one row of chunks evenly");
  static_assert(kRowsPerPass <= kRows && kRows % kRowsPerPass == 0,
                "tile rows must be a multiple of the rows one pass of all threads covers "
                "(use a deeper K tile or fewer threads)");
  static_assert(!kKMajor || kPassesRow <= 32, "one predicate bit per M/N pass");

  // ---- layouts ----
  /// Threads of one pass: thread t takes chunk column c of row r, (c, r) = idx2crd(t, ThreadShape):
  /// consecutive threads, consecutive chunks of a row (coalesced).
  using ThreadShape = cute::Shape<cute::Int<kThreadsPerRow>, cute::Int<kRowsPerPass>>;
  /// Thread t -> unswizzled byte offset of its first chunk in the stage (= RowMajor at the
  /// thread's (row, column); gives the bits a thread's origin can have).
  using ThreadBytes =
      cute::Layout<ThreadShape, cute::Stride<cute::Int<16>, cute::Int<SmemLayout::kRowBytes>>>;
  /// Global tile: (row, column) -> element offset, rows ld elements apart.
  using GmemLayout = cute::Layout<cute::Shape<cute::Int<kRows>, cute::Int<kColumns>>, cute::Stride<int64_t, cute::_1>>;
  static_assert(ThreadBytes{}(cute::Int<kThreadsPerRow + 1>{}) ==
                    RowMajor{}(cute::Int<1>{}, cute::Int<kElementsPerChunk>{}),
                "ThreadBytes must be SmemLayout::RowMajor at the thread's (row, column)");

  /// Bits of the unswizzled offsets: a thread's origin, the pass-row, pass-column and piece steps.
  static constexpr uint32_t kThreadBits = sm80_layout_bits(ThreadBytes{});
  static constexpr uint32_t kPassRowBits =
      sm80_multiple_bits(kRowsPerPass * SmemLayout::kRowBytes, sm80_ceil_pow2(uint32_t(SmemLayout::kBytes)));
  static constexpr uint32_t kPassColumnBits = sm80_multiple_bits(kThreadsPerRow * 16, SmemLayout::kRowBytes);
  static_assert(16 <= (1 << SmemLayout::Swizzle::num_base), "a chunk's pieces must lie below the swizzled bits");
  using SmemOffset = Sm80SwizzledOffset<SmemLayout, kThreadBits>;

  /// (row, column) of piece e of the chunk of pass (pr, pc), relative to the thread's first chunk.
  CUTLASS_HOST_DEVICE static constexpr auto pass_coord(int pr, int pc, int e = 0) {
    return cute::make_coord(pr * kRowsPerPass, pc * kThreadsPerRow * kElementsPerChunk + e * kAlignment);
  }

  /// Tile row of this thread's chunks in pass `pass_row`.
  CUTLASS_HOST_DEVICE static constexpr int row_of(int thread, int pass_row) {
    return cute::get<1>(cute::idx2crd(thread, ThreadShape{})) + cute::get<0>(pass_coord(pass_row, 0));
  }
  /// Tile column (element) where this thread's chunk of pass `pass_column` starts.
  CUTLASS_HOST_DEVICE static constexpr int column_of(int thread, int pass_column) {
    return cute::get<0>(cute::idx2crd(thread, ThreadShape{})) * kElementsPerChunk +
           cute::get<1>(pass_coord(0, pass_column));
  }

  /// @param ptr        operand of this batch (element (0, 0))
  /// @param ld         leading dimension, elements
  /// @param mn_extent  M (for A) or N (for B) of the problem
  /// @param mn_offset  first M (N) index of this CTA tile
  /// @param thread     thread index in the CTA
  CUTLASS_HOST_DEVICE Sm80TileLoader(Element const *ptr, int64_t ld, int mn_extent, int mn_offset, int thread)
      : base_(ptr),
        ld_(ld),
        row_(row_of(thread, 0)),
        column_(column_of(thread, 0)),
        mn_limit_(0),
        mn_valid_(0) {
    GmemLayout const gmem(cute::make_shape(cute::Int<kRows>{}, cute::Int<kColumns>{}), cute::make_stride(ld, cute::_1{}));
    if constexpr (kKMajor) {
      ptr_ = ptr + gmem(mn_offset + row_, column_);
      CUTLASS_PRAGMA_UNROLL
      for (int p = 0; p < kPassesRow; ++p) {
        mn_valid_ |= uint32_t(mn_offset + row_ + cute::get<0>(pass_coord(p, 0)) < mn_extent) << p;
      }
    } else {
      ptr_ = ptr + gmem(row_, mn_offset) + column_;
      mn_limit_ = mn_extent - mn_offset - column_;
    }
  }

  /// Chunks each thread moves per k-tile.
  static constexpr int kChunks = kPassesRow * kPassesColumn;

  /// Issues the copies of chunks [first, last) (pass-row-major order) of the current k-tile into
  /// the stage at shared address `stage`. `k_remaining` = K - (index of this k-tile) * kTileK;
  /// pieces whose K index is >= k_remaining (or whose M/N index is past the edge) are zero-filled.
  /// Call advance() once all chunks of the k-tile are issued.
  CUTLASS_DEVICE void load_chunks(uint32_t stage, int k_remaining, int first, int last) const {
    if constexpr (kUseCpAsync) {
      CUTLASS_PRAGMA_UNROLL
      for (int c = 0; c < kChunks; ++c) {
        if (c < first || c >= last) continue;
        int const pr = c / kPassesColumn, pc = c % kPassesColumn;
        uint32_t const dst = stage + chunk_smem_offset(pr, pc);
        CUTLASS_PRAGMA_UNROLL
        for (int e = 0; e < kPieces; ++e) {
          bool const valid = piece_valid(pr, pc, e, k_remaining);
          arch::cp_async_zfill<kPieceBytes>(dst + e * kPieceBytes, valid ? piece_source(pr, pc, e) : base_, valid);
        }
      }
    } else {
      // NOTE: a runtime loop: unrolled, ptxas keeps the narrow loads, addresses and predicates
      // of every chunk in flight next to the accumulators and spills.
      CUTLASS_PRAGMA_NO_UNROLL
      for (int c = first; c < last; ++c) {
        int const pr = c / kPassesColumn, pc = c % kPassesColumn;
        uint32_t chunk[4] = {0, 0, 0, 0};
        CUTLASS_PRAGMA_UNROLL
        for (int e = 0; e < kPieces; ++e) {
          bool const valid = piece_valid(pr, pc, e, k_remaining);
          // (a predicated-off ld.global does not execute, so the address needs no clamping)
          uint32_t const piece = arch::ld_global_zfill<kPieceBytes>(piece_source(pr, pc, e), valid);
          chunk[(e * kPieceBytes) / 4] |= piece << (8 * ((e * kPieceBytes) % 4));
        }
        arch::sts_u32x4(stage + chunk_smem_offset(pr, pc), chunk);
      }
    }
  }

  /// All chunks of the current k-tile, then advance().
  CUTLASS_DEVICE void load(uint32_t stage, int k_remaining) {
    load_chunks(stage, k_remaining, 0, kChunks);
    advance();
  }

  // The index math load() uses, host-callable so tests can replay it.

  /// True when piece e of the chunk of pass (pr, pc) of the current k-tile lies inside the matrix.
  /// NOTE: each bound is written as (compile-time step < runtime limit) so a piece costs one
  /// compare with an immediate; as (thread base + step < k_remaining) the compiler keeps one
  /// "base + step" register per piece alive across the K loop.
  /// NOTE: the steps are the plain-int form of pass_coord(pr, pc, e): read through the coordinate
  /// tuple, the compiler formed every predicate inverted (or of negations) and the sm_90a build
  /// kept the predicated-off source pointer in vector instead of uniform registers (+4 registers).
  CUTLASS_HOST_DEVICE bool piece_valid(int pr, int pc, int e, int k_remaining) const {
    int const column_step = pc * kThreadsPerRow * kElementsPerChunk + e * kAlignment;
    if constexpr (kKMajor) {
      return ((mn_valid_ >> pr) & 1u) && (column_step < k_remaining - column_);
    } else {
      return (pr * kRowsPerPass < k_remaining - row_) && (column_step < mn_limit_);
    }
  }
  /// Global address of piece e of the chunk of pass (pr, pc) of the current k-tile.
  CUTLASS_HOST_DEVICE Element const *piece_source(int pr, int pc, int e) const {
    GmemLayout const gmem(cute::make_shape(cute::Int<kRows>{}, cute::Int<kColumns>{}), cute::make_stride(ld_, cute::_1{}));
    return ptr_ + gmem(pass_coord(pr, pc, e));
  }

  /// Byte offset in the stage of the chunk of pass (pr, pc); piece e is at + e * kPieceBytes.
  /// Equals SmemLayout::offset_bytes(row_of(thread, pr), column_of(thread, pc)): the thread's
  /// swizzled origin plus the steps, which the swizzle lets through (Sm80SwizzledOffset).
  CUTLASS_HOST_DEVICE uint32_t chunk_smem_offset(int pr, int pc) const {
    auto const step = pass_coord(pr, pc);
    return SmemOffset::at(row_, column_)
        .template plus<kPassRowBits>(uint32_t(RowMajor{}(cute::get<0>(step), cute::_0{})))
        .template plus<kPassColumnBits>(uint32_t(RowMajor{}(cute::_0{}, cute::get<1>(step))))
        .value();
  }
  /// Moves to the next k-tile.
  CUTLASS_HOST_DEVICE void advance() { ptr_ += kKMajor ? int64_t(kTileK) : int64_t(kTileK) * ld_; }

 private:
  Element const *ptr_;    ///< this thread's first chunk in the current k-tile
  Element const *base_;   ///< a valid address handed to predicated-off cp.async copies
  int64_t ld_;
  int row_;               ///< row_of(thread, 0)
  int column_;            ///< column_of(thread, 0)
  int mn_limit_;          ///< MN-major: columns (relative to column_) inside the problem
  uint32_t mn_valid_;     ///< K-major: bit p set when the M/N row of pass p is inside the problem
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
