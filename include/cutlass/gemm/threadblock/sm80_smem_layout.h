/// @file cutlass/gemm/threadblock/sm80_smem_layout.h
/// XOR-swizzled shared-memory layout of one operand tile of one pipeline stage, as a layout of
/// the algebra (include/cute): a row-major layout (row, column) -> byte offset composed with a
/// Swizzle<B,M,S> on the byte offset, and the split addressing that lets a thread keep one
/// swizzled register and reach every element it touches with compile-time steps.
///
/// The tile is kRows x kColumns elements, row-contiguous in the global operand's sense:
///   K-major operand (row-major A, column-major B):  kRows = M (or N) tile, kColumns = K tile
///   MN-major operand (column-major A, row-major B): kRows = K tile,      kColumns = M (or N) tile
/// Storage unit is the 16-byte chunk (8 x 16-bit, 4 x 32-bit, 16 x 8-bit elements);
/// kChunksPerRow = kColumns * kElementBytes / 16 is a power of two. In chunk terms (q = row *
/// kChunksPerRow + column_chunk) the chunk is stored at
///
///     physical_chunk(row, column_chunk) = q ^ (((row >> kRowShift) & kXorMask) << kXorShift)
///
/// which on byte offsets is the layout
///
///     Layout = Sw<log2(kXorMask+1), 4 + kXorShift, log2(kChunksPerRow) + kRowShift - kXorShift>
///              o (kRows, kColumns):(kChunksPerRow * 16, kElementBytes)
///
/// (the swizzle reads the row bits (row >> kRowShift) & kXorMask, which sit at byte-offset bit
/// 4 + log2(kChunksPerRow) + kRowShift, and XORs them into the chunk bits from bit 4 + kXorShift).
/// The XOR value is < 8, so it only permutes chunks inside an aligned group of 8 chunks (one
/// 128-byte line = all 32 banks): the layout is a bijection on the tile, and a 16-byte access
/// never straddles chunks (elements inside a chunk keep their order).
///
/// The three instances and why each is bank-conflict free (32 banks x 4 bytes; an 8-lane phase
/// of ldmatrix / a 16-byte cp.async store touches 8 chunks and is conflict free when those 8
/// chunks land in 8 distinct positions of a 128-byte line):
///  - K-major, kChunksPerRow >= 8 (kRowShift 0, mask 7, shift 0): ldmatrix reads 8 consecutive
///    rows at one column chunk -> XOR by row % 8 puts them in 8 distinct positions; cp.async
///    stores 8 consecutive chunks of one row -> a permutation of one line.
///  - K-major, kChunksPerRow == 4 (64-byte rows; kRowShift 1): two rows share a line and the
///    line index (row / 2) is the XOR. 8 consecutive rows = lines L..L+3 with L % 4 == 0; their
///    positions ((row % 2) * 4 + c) ^ (line % 8) differ in bit 2 (row parity) and bits 0-1
///    (line % 4) -> 8 distinct. Stores: 8 lanes fill one line -> a permutation.
///  - MN-major (rows = K): ldmatrix .trans reads 8 consecutive K rows at one chunk -> XOR by
///    row % 8 (mask 7) as above. tf32 MN-major tiles are read by 32-bit loads where one warp
///    touches K rows t = 0..3 x two adjacent chunks (lanes' M = 8 consecutive elements): XOR by
///    (row % 4) * 2 (mask 3, shift 1) maps those 4 x 2 chunks to 8 distinct positions.
///
/// Split addressing (Sm80SwizzledOffset): a thread's offsets are Layout(origin + step), origin
/// depending on the thread (a register), step on unrolled loop indices (constants). Two facts
/// of the swizzle let the step stay outside it:
///  - periodic step: when the unswizzled step y is a multiple of 2^(M+S+B) (whole XOR periods of
///    rows), Sw(x + y) == Sw(x) + y for every x (y leaves the bits the swizzle reads and writes
///    alone) -> an address immediate;
///  - disjoint step: when x and y never share a bit, x + y == x ^ y and, the swizzle being linear
///    over XOR, Sw(x + y) == Sw(x) ^ Sw(y) -> one XOR with a constant (an add when Sw(y) also
///    shares no bit with any Sw(x)).
/// Which rule applies is decided at compile time from the bit masks of the origin and the step
/// (sm80_layout_bits of the cute layouts that generate them); a step that fits neither is
/// swizzled with the origin at run time.
///
/// Split evaluation (offset_bytes, the warp readers): the swizzle reads only row bits and flips
/// only chunk bits, so Layout(row, column) == 16 * (ChunkRowMajor(row, chunk) ^ row_xor(row)) +
/// byte in the chunk, with row_xor(row) the swizzle's yyy field of the row moved to its zzz field
/// (in chunks). A thread keeps the chunk index and the row's XOR; a step inside the row that keeps
/// the row (no carry out of it) is added to the chunk index before the XOR, a step of whole
/// swizzle periods of rows is added outside. This is the form the hand-written formulas had, and
/// the one that compiles to the same code as they did (the readers in the byte-level
/// Sw(x) ^ Sw(y) form of the rules above had the same loop instructions but another schedule
/// and -2..+2 registers at sm_90a).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cute/layout.hpp"
#include "cute/swizzle.hpp"
#include "cute/swizzle_layout.hpp"
#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

/// The smallest power of two >= n (n >= 1).
constexpr uint32_t sm80_ceil_pow2(uint32_t n) { return n <= 1 ? 1u : 2u * sm80_ceil_pow2((n + 1) / 2); }

/// The bits i * stride (0 <= i < extent, stride a power of two) can have.
constexpr uint32_t sm80_range_bits(uint32_t extent, uint32_t stride) { return (sm80_ceil_pow2(extent) - 1u) * stride; }

namespace detail {
template <class S, class D, std::size_t... I>
constexpr uint32_t sm80_flat_layout_bits(S const &, D const &, std::index_sequence<I...>) {
  static_assert(((cute::remove_cvref_t<decltype(cute::get<I>(std::declval<S>()))>::value == 1 ||
                  cute::is_pow2(cute::remove_cvref_t<decltype(cute::get<I>(std::declval<D>()))>::value)) &&
                 ...),
                "sm80_layout_bits: every mode needs a static extent and a static power-of-two stride");
  return (0u | ... |
          sm80_range_bits(cute::remove_cvref_t<decltype(cute::get<I>(std::declval<S>()))>::value,
                          cute::remove_cvref_t<decltype(cute::get<I>(std::declval<D>()))>::value));
}
}  // namespace detail

/// Bits any value of a static layout can have (a superset of the OR of its codomain; exact when
/// the extents are powers of two), for layouts whose strides are powers of two.
/// Example: (_8,_2):(_64,_16) -> 0x1f0.
template <class S, class D>
constexpr uint32_t sm80_layout_bits(cute::Layout<S, D> const &l) {
  auto const flat = cute::flatten(l);
  using FS = cute::remove_cvref_t<decltype(flat.shape())>;
  using FD = cute::remove_cvref_t<decltype(flat.stride())>;
  if constexpr (cute::is_tuple<FS>::value) {
    return detail::sm80_flat_layout_bits(FS{}, FD{}, std::make_index_sequence<cute::tuple_size<FS>::value>{});
  } else {
    return detail::sm80_flat_layout_bits(cute::tuple<FS>{}, cute::tuple<FD>{}, std::index_sequence<0>{});
  }
}

/// The bits a multiple of `step` below `limit` (a power of two) can have. Example: (96, 512) -> 0x1e0.
constexpr uint32_t sm80_multiple_bits(uint32_t step, uint32_t limit) {
  return (limit - 1u) & ~((step & (0u - step)) - 1u);
}

template <int kElementBytes_, int kRows_, int kColumns_, int kRowShift_, int kXorMask_, int kXorShift_>
struct Sm80SwizzledTile {
  static constexpr int kElementBytes = kElementBytes_;
  static constexpr int kRows = kRows_;
  static constexpr int kColumns = kColumns_;
  static constexpr int kElementsPerChunk = 16 / kElementBytes;
  static constexpr int kChunksPerRow = kColumns * kElementBytes / 16;
  static constexpr int kRowBytes = kChunksPerRow * 16;
  static constexpr int kRowShift = kRowShift_;
  static constexpr int kXorMask = kXorMask_;
  static constexpr int kXorShift = kXorShift_;
  static constexpr int kBytes = kRows * kColumns * kElementBytes;

  static_assert((kColumns * kElementBytes) % 16 == 0, "tile rows must be whole 16-byte chunks");
  static_assert(cute::is_pow2(kChunksPerRow), "tile rows must be a power of two of 16-byte chunks");
  static_assert(kChunksPerRow >= 8 || (kChunksPerRow == 4 && kRowShift == 1),
                "swizzled rows must be >= 128 bytes, or 64 bytes with two rows per 128-byte line");
  static_assert(cute::is_pow2(kXorMask + 1), "the XOR mask must be 2^B - 1");
  static_assert(((kXorMask << kXorShift) & ~7) == 0, "the XOR value must stay inside a 128-byte line");
  static_assert((kRows * kChunksPerRow) % 8 == 0, "the tile must be whole 128-byte lines");

  /// (row, column) -> byte offset before the swizzle: row-major rows of kRowBytes.
  using RowMajor = cute::Layout<cute::Shape<cute::Int<kRows>, cute::Int<kColumns>>,
                                cute::Stride<cute::Int<kRowBytes>, cute::Int<kElementBytes>>>;
  /// The swizzle on byte offsets (see the file comment).
  using Swizzle = cute::Swizzle<cute::log_2(kXorMask + 1), 4 + kXorShift,
                                cute::log_2(kChunksPerRow) + kRowShift - kXorShift>;
  /// (row, column) -> byte offset in the stage.
  using Layout = cute::ComposedLayout<Swizzle, cute::_0, RowMajor>;

  /// A step y of the unswizzled offset that is a multiple of kPeriodBytes passes through the
  /// swizzle unchanged: Sw(x + y) == Sw(x) + y.
  static constexpr uint32_t kPeriodBytes = 1u << (Swizzle::num_bits + Swizzle::num_base + Swizzle::num_shft);
  static_assert(kPeriodBytes == uint32_t((kXorMask + 1) << kRowShift) * kRowBytes,
                "the swizzle period is (kXorMask + 1) << kRowShift rows");

  /// The bits the swizzled value of an offset with bits in `bits` can have.
  CUTLASS_HOST_DEVICE static constexpr uint32_t swizzled_bits(uint32_t bits) {
    return bits | ((bits & uint32_t(Swizzle::yyy_msk::value)) >> Swizzle::num_shft);
  }
  /// Sw(y) of an unswizzled byte offset.
  CUTLASS_HOST_DEVICE static constexpr uint32_t swizzle(uint32_t y) { return Swizzle::apply(y); }
  /// Sw(y) for y with bits within kYBits: y itself when those bits miss the row bits the
  /// swizzle reads (so a run-time y costs nothing).
  template <uint32_t kYBits>
  CUTLASS_HOST_DEVICE static constexpr uint32_t swizzle(uint32_t y) {
    if constexpr ((kYBits & uint32_t(Swizzle::yyy_msk::value)) == 0) {
      return y;
    } else {
      return Swizzle::apply(y);
    }
  }

  /// (row, chunk) -> unswizzled 16-byte chunk index: RowMajor in chunk units.
  using ChunkRowMajor = cute::Layout<cute::Shape<cute::Int<kRows>, cute::Int<kChunksPerRow>>,
                                     cute::Stride<cute::Int<kChunksPerRow>, cute::_1>>;
  static_assert(Swizzle::num_base >= 4 && uint32_t(Swizzle::yyy_msk::value) % kRowBytes == 0,
                "the swizzle reads row bits only and flips chunk bits only");

  /// The swizzle's fields in tile terms: it reads row bits from kYRowShift up (its yyy field over
  /// RowMajor's row stride) and flips chunk bits from kZChunkShift up (its zzz field in chunks).
  static constexpr int kYRowShift = Swizzle::num_base + Swizzle::num_shft - cute::log_2(kRowBytes);
  static constexpr int kZChunkShift = Swizzle::num_base - 4;
  static_assert(kYRowShift == kRowShift && kZChunkShift == kXorShift, "the swizzle reads and flips the documented bits");

  /// The XOR, in chunks, that the swizzle applies to every chunk of `row`: Sw reads only row
  /// bits, so Sw(RowMajor(row, c)) == RowMajor(row, c) ^ (row_xor(row) << 4) for every column c.
  CUTLASS_HOST_DEVICE static constexpr uint32_t row_xor(int row) {
    return uint32_t(((row >> kYRowShift) & Swizzle::bit_msk::value) << kZChunkShift);
  }

  /// Byte offset of element (row, column) inside the tile: Layout{}(row, column), evaluated
  /// split (the row's XOR applied to the chunk index; the chunk index and the row's XOR are
  /// what the warp readers of sm80_warp_fragment_loader.h keep per lane).
  /// @pre 0 <= row < kRows, 0 <= column < kColumns.
  CUTLASS_HOST_DEVICE static constexpr uint32_t offset_bytes(int row, int column) {
    uint32_t const chunk = uint32_t(ChunkRowMajor{}(row, column / kElementsPerChunk)) ^ row_xor(row);
    return chunk * 16u + uint32_t(column % kElementsPerChunk) * kElementBytes;
  }
};

/// A thread's position in a swizzled tile: its unswizzled byte origin x (bits within kXBits) and
/// Sw(x), plus steps through the rules of the file comment. Every member function folds at
/// compile time except the one XOR or add a rule leaves; x is dead (and removed by the compiler)
/// unless a step needs the run-time fallback.
template <class Tile, uint32_t kXBits>
struct Sm80SwizzledOffset {
  uint32_t x;    ///< unswizzled byte offset
  uint32_t sx;   ///< Tile::swizzle(x)

  CUTLASS_HOST_DEVICE static Sm80SwizzledOffset origin(uint32_t x) { return {x, Tile::template swizzle<kXBits>(x)}; }
  /// The origin at tile coordinate (row, column), swizzled through Tile::offset_bytes.
  CUTLASS_HOST_DEVICE static Sm80SwizzledOffset at(int row, int column) {
    return {uint32_t(typename Tile::RowMajor{}(row, column)), Tile::offset_bytes(row, column)};
  }

  /// The position y bytes (unswizzled) further, y with bits within kYBits (constant after unrolling).
  template <uint32_t kYBits>
  CUTLASS_HOST_DEVICE Sm80SwizzledOffset<Tile, kXBits | kYBits> plus(uint32_t y) const {
    if constexpr ((kYBits & (Tile::kPeriodBytes - 1)) == 0) {
      return {x + y, sx + y};                                   // periodic step
    } else if constexpr ((kXBits & kYBits) == 0) {
      if constexpr ((Tile::swizzled_bits(kXBits) & Tile::swizzled_bits(kYBits)) == 0) {
        return {x + y, sx + Tile::template swizzle<kYBits>(y)};   // disjoint, and so are the results
      } else {
        return {x + y, sx ^ Tile::template swizzle<kYBits>(y)};   // disjoint: XOR-linear
      }
    } else {
      return {x + y, Tile::swizzle(x + y)};                     // no rule: swizzle at run time
    }
  }
  /// The swizzled byte offset.
  CUTLASS_HOST_DEVICE uint32_t value() const { return sx; }
};

/// Layout of a K-major operand tile: kMN rows (M or N) of kK elements.
template <int kElementBytes, int kMN, int kK>
using Sm80SmemLayoutKMajor =
    Sm80SwizzledTile<kElementBytes, kMN, kK, (kK * kElementBytes / 16 >= 8 ? 0 : 1), 7, 0>;

/// Layout of an MN-major operand tile read by ldmatrix .trans (16-bit): kK rows of kMN elements.
template <int kElementBytes, int kMN, int kK>
using Sm80SmemLayoutMNMajorLdsm = Sm80SwizzledTile<kElementBytes, kK, kMN, 0, 7, 0>;

/// Layout of an MN-major operand tile read by 32-bit shared loads (tf32): kK rows of kMN elements.
template <int kElementBytes, int kMN, int kK>
using Sm80SmemLayoutMNMajorLds32 = Sm80SwizzledTile<kElementBytes, kK, kMN, 0, 3, 1>;

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
