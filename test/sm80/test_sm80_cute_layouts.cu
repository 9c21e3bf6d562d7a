/// @file test/sm80/test_sm80_cute_layouts.cu
/// Host tests (nothing is launched) of the sm80 tensor-op family's addressing, which is written
/// through the layout algebra (include/cute): the swizzled stage layouts
/// (Sm80SwizzledTile::Layout), the global-to-shared tile loader's thread partition and the
/// warp fragment readers' lane layouts. The answer key is the hand-written index math the
/// family used before (kept below, verbatim in substance): for every configuration of the
/// generator's tables, every thread / lane / warp, every chunk, piece, tile, register and k-step,
/// the cute-expressed offsets, pointers and predicates must equal the old formulas exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cutlass/gemm/threadblock/sm80_mma_multistage.h"
#include "cutlass/numeric_types.h"

namespace {

using namespace cutlass::gemm::threadblock;

// ---- answer key: the hand formulas of the family before the layout algebra -------------------

/// Old Sm80SwizzledTile::offset_bytes.
template <class Tile>
uint32_t old_offset_bytes(int row, int column) {
  uint32_t const xor_value = uint32_t(((row >> Tile::kRowShift) & Tile::kXorMask) << Tile::kXorShift);
  uint32_t chunk = uint32_t(row * Tile::kChunksPerRow + column / Tile::kElementsPerChunk) ^ xor_value;
  return chunk * 16u + uint32_t(column % Tile::kElementsPerChunk) * Tile::kElementBytes;
}
template <class Tile>
uint32_t old_row_xor(int row) {
  return uint32_t(((row >> Tile::kRowShift) & Tile::kXorMask) << Tile::kXorShift);
}

/// Old ldmatrix (K-major) reader: offset(load, kk).
template <bool kIsA, class Tile>
uint32_t old_ldsm_offset(int lane, int warp_mn, int load, int kk) {
  int matrix = lane >> 3, r = lane & 7;
  int row = (kIsA ? (matrix & 1) : (matrix >> 1)) * 8 + r;
  int chunk = kIsA ? (matrix >> 1) : (matrix & 1);
  uint32_t base = uint32_t(warp_mn * Tile::kChunksPerRow * 16);
  uint32_t linear = uint32_t(row * Tile::kChunksPerRow + chunk);
  uint32_t x = old_row_xor<Tile>(row);
  return base + uint32_t(load * 16 * Tile::kChunksPerRow * 16) + (((linear + 2u * kk) ^ x) << 4);
}
/// Old ldmatrix .trans (16-bit MN-major) reader.
template <bool kIsA, class Tile>
uint32_t old_ldsm_trans_offset(int lane, int warp_mn, int load, int kk) {
  int matrix = lane >> 3, r = lane & 7;
  int k_half = kIsA ? (matrix >> 1) : (matrix & 1);
  int mn_half = kIsA ? (matrix & 1) : (matrix >> 1);
  uint32_t row_bytes = uint32_t((k_half * 8 + r) * Tile::kChunksPerRow * 16);
  uint32_t chunk = uint32_t(warp_mn / 8 + mn_half);
  uint32_t x = old_row_xor<Tile>(r);
  return row_bytes + uint32_t(kk * 16 * Tile::kChunksPerRow * 16) + (((chunk + 2u * load) ^ x) << 4);
}
/// Old 32-bit (tf32 MN-major) reader.
template <bool kIsA, class Tile>
uint32_t old_lds32_offset(int lane, int warp_mn, int tile, int reg, int kk) {
  int g = lane >> 2, t = lane & 3;
  uint32_t row_bytes = uint32_t(t * Tile::kChunksPerRow * 16);
  uint32_t chunk = uint32_t(warp_mn / 4 + (g >> 2));
  uint32_t x = old_row_xor<Tile>(t);
  uint32_t within = uint32_t((g & 3) * 4);
  int mn_add = kIsA ? 16 * tile + 8 * (reg & 1) : 8 * tile;
  int k_add = kIsA ? (reg >> 1) : reg;
  return row_bytes + uint32_t((8 * kk + 4 * k_add) * Tile::kChunksPerRow * 16) +
         (((chunk + uint32_t(mn_add / 4)) ^ x) << 4) + within;
}

// ---- one mainloop configuration ----------------------------------------------------------------

template <class ElementA, bool kAKMajor, int kAlignA, class ElementB, bool kBKMajor, int kAlignB, class Acc,
          int kM, int kN, int kK, int kWM, int kWN, int kStages>
struct Config {
  using Mma = Sm80MmaMultistage<ElementA, kAKMajor, kAlignA, ElementB, kBKMajor, kAlignB, Acc,
                                cutlass::gemm::GemmShape<kM, kN, kK>, cutlass::gemm::GemmShape<kWM, kWN, kK>, kStages>;

  template <class Tile>
  static void check_layout() {
    for (int row = 0; row < Tile::kRows; ++row)
      for (int column = 0; column < Tile::kColumns; ++column) {
        ASSERT_EQ(Tile::offset_bytes(row, column), old_offset_bytes<Tile>(row, column)) << row << ", " << column;
        ASSERT_EQ(uint32_t(typename Tile::Layout{}(row, column)), old_offset_bytes<Tile>(row, column));
        // the split form: 16 * (chunk index ^ the row's XOR) + byte in the chunk
        ASSERT_EQ(Tile::row_xor(row), old_row_xor<Tile>(row));
        ASSERT_EQ((Sm80SwizzledOffset<Tile, 0>::at(row, column).value()), old_offset_bytes<Tile>(row, column));
      }
  }

  /// Every thread's chunks, pieces, pointers and predicates against the old formulas.
  template <class Loader, class Element>
  static void check_loader(int mn_extent, int mn_offset) {
    using Tile = typename Loader::SmemLayout;
    constexpr int tpr = Loader::kThreadsPerRow, rpp = Loader::kRowsPerPass, epc = Tile::kElementsPerChunk;
    int64_t const ld = 1000 + 8;   // any leading dimension
    std::vector<Element> storage(8);
    Element const *ptr = storage.data();
    int const k_remainings[] = {Loader::kTileK, Loader::kTileK - Loader::kAlignment, Loader::kAlignment, 0, 1000};
    for (int t = 0; t < Loader::kThreads; ++t) {
      Loader loader(ptr, ld, mn_extent, mn_offset, t);
      int const row0 = t / tpr, column0 = (t % tpr) * epc;
      for (int pr = 0; pr < Loader::kPassesRow; ++pr)
        for (int pc = 0; pc < Loader::kPassesColumn; ++pc) {
          int const row = pr * rpp + row0, column = (pc * tpr) * epc + column0;
          ASSERT_EQ(Loader::row_of(t, pr), row);
          ASSERT_EQ(Loader::column_of(t, pc), column);
          ASSERT_EQ(loader.chunk_smem_offset(pr, pc), old_offset_bytes<Tile>(row, column)) << "thread " << t;
          for (int e = 0; e < Loader::kPieces; ++e) {
            int const column_e = column + e * Loader::kAlignment;
            // old piece_source: the K-major operand's row is M/N, the MN-major one's is K
            Element const *expect = Loader::kKMajor ? ptr + int64_t(mn_offset + row) * ld + column_e
                                                    : ptr + int64_t(row) * ld + mn_offset + column_e;
            ASSERT_EQ(loader.piece_source(pr, pc, e), expect);
            for (int k_remaining : k_remainings) {
              bool const old_valid = Loader::kKMajor ? (mn_offset + row < mn_extent) && (column_e < k_remaining)
                                                     : (row < k_remaining) && (mn_offset + column_e < mn_extent);
              ASSERT_EQ(loader.piece_valid(pr, pc, e, k_remaining), old_valid);
            }
          }
        }
    }
  }

  template <class WarpLoader, bool kIsA, class Tile, int kWarps, int kWarpMN>
  static void check_reader() {
    constexpr Sm80FragmentRead kRead =
        kIsA ? sm80_fragment_read<int(sizeof(ElementA)), kAKMajor>() : sm80_fragment_read<int(sizeof(ElementB)), kBKMajor>();
    constexpr int kKSteps = Mma::kKSteps;
    for (int w = 0; w < kWarps; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        int const warp_mn = w * kWarpMN;
        WarpLoader const reader(lane, warp_mn);
        for (int kk = 0; kk < kKSteps; ++kk) {
          if constexpr (kRead == Sm80FragmentRead::kLds32) {
            for (int tile = 0; tile < WarpLoader::kTiles; ++tile)
              for (int reg = 0; reg < WarpLoader::kRegs; ++reg)
                ASSERT_EQ(reader.offset(tile, reg, kk), (old_lds32_offset<kIsA, Tile>(lane, warp_mn, tile, reg, kk)))
                    << "warp " << w << " lane " << lane;
          } else {
            for (int load = 0; load < WarpLoader::kLoads; ++load) {
              uint32_t const expect = kRead == Sm80FragmentRead::kLdsm
                                          ? old_ldsm_offset<kIsA, Tile>(lane, warp_mn, load, kk)
                                          : old_ldsm_trans_offset<kIsA, Tile>(lane, warp_mn, load, kk);
              ASSERT_EQ(reader.offset(load, kk), expect) << "warp " << w << " lane " << lane;
            }
          }
        }
      }
  }

  static void check() {
    check_layout<typename Mma::SmemLayoutA>();
    check_layout<typename Mma::SmemLayoutB>();
    // interior tile, edge tile, past-the-edge tile
    int const extents[][2] = {{4096, kM}, {kM + 37, kM}, {kM + 37, 0}, {5, 0}};
    for (auto const &e : extents) {
      check_loader<typename Mma::LoaderA, ElementA>(e[0], e[1]);
      check_loader<typename Mma::LoaderB, ElementB>(e[0], e[1] / kM * kN);
    }
    check_reader<typename Mma::WarpLoaderA, true, typename Mma::SmemLayoutA, Mma::kWarpsM, kWM>();
    check_reader<typename Mma::WarpLoaderB, false, typename Mma::SmemLayoutB, Mma::kWarpsN, kWN>();
    // the warp grid: warp w -> (w % kWarpsM, w / kWarpsM), origins w * kWarpM / kWarpN
    for (int w = 0; w < Mma::kWarpsM * Mma::kWarpsN; ++w) {
      auto const c = cute::idx2crd(w, typename Mma::WarpGridShape{});
      ASSERT_EQ(int(cute::get<0>(c)), w % Mma::kWarpsM);
      ASSERT_EQ(int(cute::get<1>(c)), w / Mma::kWarpsM);
      ASSERT_EQ(int(typename Mma::WarpOriginM{}(int(cute::get<0>(c)))), (w % Mma::kWarpsM) * kWM);
      ASSERT_EQ(int(typename Mma::WarpOriginN{}(int(cute::get<1>(c)))), (w / Mma::kWarpsM) * kWN);
    }
    for (int s = 0; s < kStages; ++s) {
      ASSERT_EQ(int(typename Mma::StageA{}(s)), s * Mma::kStageBytesA);
      ASSERT_EQ(int(typename Mma::StageB{}(s)), s * Mma::kStageBytesB);
    }
  }
};

using half = cutlass::half_t;
using bf16 = cutlass::bfloat16_t;
using tf32 = cutlass::tfloat32_t;
constexpr bool T = true;    // K-major (A row-major "t", B column-major "n")
constexpr bool F = false;   // MN-major

}  // namespace

// 16-bit, the generator's tiles, all layouts, cp.async and register-path alignments
TEST(Sm80CuteLayouts, F16_128x256x32_TN_Align8) { Config<half, T, 8, half, T, 8, float, 128, 256, 32, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, F16_128x256x32_NT_Align8) { Config<half, F, 8, half, F, 8, float, 128, 256, 32, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, Bf16_128x256x32_NN_Align1) { Config<bf16, F, 1, bf16, T, 1, float, 128, 256, 32, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, Bf16_128x256x32_TT_Align2) { Config<bf16, T, 2, bf16, F, 2, float, 128, 256, 32, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, F16_256x128x32_TN_Align4) { Config<half, T, 4, half, T, 4, float, 256, 128, 32, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, F16_128x128x64_NT_Align8) { Config<half, F, 8, half, F, 8, float, 128, 128, 64, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, Bf16_128x128x64_TN_Align8) { Config<bf16, T, 8, bf16, T, 8, float, 128, 128, 64, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, F16_64x64x32_NN_Align8) { Config<half, F, 8, half, T, 8, float, 64, 64, 32, 32, 32, 5>::check(); }
TEST(Sm80CuteLayouts, F16_64x64x64_TT_Align1) { Config<half, T, 1, half, F, 1, float, 64, 64, 64, 32, 32, 5>::check(); }
// tf32: K-major ldmatrix, MN-major 32-bit loads
TEST(Sm80CuteLayouts, Tf32_128x128x16_TN_Align4) { Config<tf32, T, 4, tf32, T, 4, float, 128, 128, 16, 64, 64, 4>::check(); }
TEST(Sm80CuteLayouts, Tf32_128x128x16_NT_Align1) { Config<tf32, F, 1, tf32, F, 1, float, 128, 128, 16, 64, 64, 4>::check(); }
TEST(Sm80CuteLayouts, Tf32_128x256x16_NN_Align2) { Config<tf32, F, 2, tf32, T, 2, float, 128, 256, 16, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, Tf32_64x64x16_TT_Align4) { Config<tf32, T, 4, tf32, F, 4, float, 64, 64, 16, 32, 32, 5>::check(); }
TEST(Sm80CuteLayouts, Tf32_128x128x32_NT_Align4) { Config<tf32, F, 4, tf32, F, 4, float, 128, 128, 32, 64, 64, 3>::check(); }
// s8 TN
TEST(Sm80CuteLayouts, S8_128x256x64_TN_Align16) { Config<int8_t, T, 16, int8_t, T, 16, int32_t, 128, 256, 64, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, S8_128x256x64_TN_Align1) { Config<int8_t, T, 1, int8_t, T, 1, int32_t, 128, 256, 64, 64, 64, 3>::check(); }
TEST(Sm80CuteLayouts, S8_64x64x64_TN_Align4) { Config<int8_t, T, 4, int8_t, T, 4, int32_t, 64, 64, 64, 32, 32, 5>::check(); }
TEST(Sm80CuteLayouts, S8_128x128x128_TN_Align8) { Config<int8_t, T, 8, int8_t, T, 8, int32_t, 128, 128, 128, 64, 64, 3>::check(); }

/// The swizzle rules the split addressing relies on, checked exhaustively on one layout of each
/// kind: Sw(x + y) == Sw(x) + y for y a multiple of the period, and == Sw(x) ^ Sw(y) for x & y == 0.
TEST(Sm80CuteLayouts, SwizzleSplitRules) {
  auto check = [](auto tile) {
    using Tile = decltype(tile);
    for (uint32_t x = 0; x < uint32_t(Tile::kBytes); x += 4)
      for (uint32_t y = 0; y < uint32_t(Tile::kBytes); y += 4) {
        if (y % Tile::kPeriodBytes == 0) ASSERT_EQ(Tile::swizzle(x + y), Tile::swizzle(x) + y);
        if ((x & y) == 0) ASSERT_EQ(Tile::swizzle(x + y), Tile::swizzle(x) ^ Tile::swizzle(y));
      }
  };
  check(Sm80SmemLayoutKMajor<2, 64, 32>{});
  check(Sm80SmemLayoutKMajor<2, 32, 64>{});
  check(Sm80SmemLayoutMNMajorLdsm<2, 64, 16>{});
  check(Sm80SmemLayoutMNMajorLds32<4, 32, 16>{});
}
