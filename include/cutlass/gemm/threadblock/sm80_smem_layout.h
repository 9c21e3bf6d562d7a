/// @file cutlass/gemm/threadblock/sm80_smem_layout.h
/// XOR-swizzled shared-memory layout of one operand tile of one pipeline stage.
///
/// The tile is kRows x kColumns elements, row-contiguous in the global operand's sense:
///   K-major operand (row-major A, column-major B):  kRows = M (or N) tile, kColumns = K tile
///   MN-major operand (column-major A, row-major B): kRows = K tile,      kColumns = M (or N) tile
/// Storage unit is the 16-byte chunk (8 x 16-bit, 4 x 32-bit, 16 x 8-bit elements).
/// With kChunksPerRow = kColumns * kElementBytes / 16 and q = row * kChunksPerRow + column_chunk
/// the linear chunk index, the chunk is stored at
///
///     physical_chunk(row, column_chunk) = q ^ (((row >> kRowShift) & kXorMask) << kXorShift)
///
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
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <int kElementBytes_, int kRows_, int kColumns_, int kRowShift_, int kXorMask_, int kXorShift_>
struct Sm80SwizzledTile {
  static constexpr int kElementBytes = kElementBytes_;
  static constexpr int kRows = kRows_;
  static constexpr int kColumns = kColumns_;
  static constexpr int kElementsPerChunk = 16 / kElementBytes;
  static constexpr int kChunksPerRow = kColumns * kElementBytes / 16;
  static constexpr int kRowShift = kRowShift_;
  static constexpr int kXorMask = kXorMask_;
  static constexpr int kXorShift = kXorShift_;
  static constexpr int kBytes = kRows * kColumns * kElementBytes;

  static_assert((kColumns * kElementBytes) % 16 == 0, "tile rows must be whole 16-byte chunks");
  static_assert(kChunksPerRow >= 8 || (kChunksPerRow == 4 && kRowShift == 1),
                "swizzled rows must be >= 128 bytes, or 64 bytes with two rows per 128-byte line");
  static_assert(((kXorMask << kXorShift) & ~7) == 0, "the XOR value must stay inside a 128-byte line");
  static_assert((kRows * kChunksPerRow) % 8 == 0, "the tile must be whole 128-byte lines");

  /// XOR value applied to the chunks of `row`.
  CUTLASS_HOST_DEVICE static constexpr uint32_t row_xor(int row) {
    return uint32_t(((row >> kRowShift) & kXorMask) << kXorShift);
  }

  /// Byte offset of element (row, column) inside the tile.
  /// @pre 0 <= row < kRows, 0 <= column < kColumns.
  CUTLASS_HOST_DEVICE static constexpr uint32_t offset_bytes(int row, int column) {
    uint32_t chunk = uint32_t(row * kChunksPerRow + column / kElementsPerChunk) ^ row_xor(row);
    return chunk * 16u + uint32_t(column % kElementsPerChunk) * kElementBytes;
  }
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
