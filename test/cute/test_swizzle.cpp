// Swizzle<B,M,S>, swizzled (composed) layouts, and the 32B/64B/128B shared-memory atoms.
// Source: the TMA / wgmma swizzle modes as byte-address bit permutations (16-byte chunks XORed
// with the row index within 8-row groups) and CuTe's Swizzle / ComposedLayout
// (include/cute/swizzle.hpp, swizzle_layout.hpp in NVIDIA/cutlass).
#include <gtest/gtest.h>

#include <type_traits>

#include "cute_test_util.hpp"
#include "cute/atom/smem_layout_atoms.hpp"
#include "cute/swizzle_layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::sorted;
using cute_test::values;

namespace {
// A swizzle is an involution and a bijection on each aligned block of 2^(B+M+S) offsets.
template <int B, int M, int S>
void expect_swizzle_bijection(Swizzle<B, M, S> sw) {
  int const n = 1 << (B + M + (S < 0 ? -S : S));
  std::vector<int> img;
  for (int x = 0; x < 4 * n; ++x) {
    EXPECT_EQ(sw(sw(x)), x);
    if (x < n) img.push_back(sw(x));
  }
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int x = 0; x < n; ++x) all[static_cast<std::size_t>(x)] = x;
  EXPECT_EQ(sorted(img), all);
}

// The byte-level pattern of a `width`-byte swizzle (32, 64 or 128): within each 8 rows of
// `width` bytes, 16-byte chunk c of row r moves to chunk c ^ ((r / (128/width)) % (width/16)),
// which is the XOR of address bits [4, 4+B) with bits [7, 7+B).
int hardware_swizzle(int width, int byte) {
  int const chunk_bits = width == 32 ? 1 : width == 64 ? 2 : 3;
  int const row_bits = (byte >> 7) & ((1 << chunk_bits) - 1);
  return byte ^ (row_bits << 4);
}

// Each element (r, k) of a K-major atom of T lands at the byte the hardware pattern gives for
// row r, byte k*sizeof(T); each element (m, k) of an MN-major atom at row k, byte m*sizeof(T).
template <class T, int Width, class KAtom, class MNAtom>
void expect_atom_matches_hardware() {
  int const row = Width / int(sizeof(T));
  for (int r = 0; r < 8; ++r) {
    for (int k = 0; k < row; ++k) {
      EXPECT_EQ(int(sizeof(T)) * KAtom{}(r, k), hardware_swizzle(Width, r * Width + k * int(sizeof(T))))
          << Width << "B K-major, sizeof " << sizeof(T) << " at " << r << "," << k;
      EXPECT_EQ(int(sizeof(T)) * MNAtom{}(k, r), hardware_swizzle(Width, r * Width + k * int(sizeof(T))))
          << Width << "B MN-major, sizeof " << sizeof(T) << " at " << k << "," << r;
    }
  }
}
template <class T>
void expect_atoms_match_hardware() {
  expect_atom_matches_hardware<T, 32, GMMA::Layout_K_SW32_Atom<T>, GMMA::Layout_MN_SW32_Atom<T>>();
  expect_atom_matches_hardware<T, 64, GMMA::Layout_K_SW64_Atom<T>, GMMA::Layout_MN_SW64_Atom<T>>();
  expect_atom_matches_hardware<T, 128, GMMA::Layout_K_SW128_Atom<T>, GMMA::Layout_MN_SW128_Atom<T>>();
}
}  // namespace

TEST(CuteSwizzle, BitPermutation) {
  expect_swizzle_bijection(Swizzle<1, 4, 3>{});
  expect_swizzle_bijection(Swizzle<2, 4, 3>{});
  expect_swizzle_bijection(Swizzle<3, 4, 3>{});
  expect_swizzle_bijection(Swizzle<3, 3, 3>{});
  expect_swizzle_bijection(Swizzle<2, 0, -2>{});
  expect_swizzle_bijection(Swizzle<0, 4, 3>{});
  // 128B: chunk c of row r goes to chunk c ^ (r % 8).
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ((Swizzle<3, 4, 3>{}(r * 128 + c * 16 + 5)), r * 128 + ((c ^ (r % 8)) * 16) + 5);
    }
  static_assert(std::is_same<decltype(Swizzle<3, 3, 3>{}(Int<197>{})), C<221>>::value, "static offsets stay static");
  EXPECT_EQ(printed(Swizzle<3, 4, 3>{}), "Sw<3,4,3>");
}

TEST(CuteSwizzle, AtomsMatchTheHardwarePatterns) {
  expect_atoms_match_hardware<char>();
  expect_atoms_match_hardware<short>();
  expect_atoms_match_hardware<float>();
  EXPECT_EQ(printed(GMMA::Layout_K_SW128_Atom<short>{}), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(printed(GMMA::Layout_MN_SW128_Atom<short>{}), "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)");
  EXPECT_EQ(printed(GMMA::Layout_K_SW32_Atom<float>{}), "Sw<1,2,3> o _0 o (_8,_8):(_8,_1)");
  static_assert(std::is_same<SmemSwizzle<128, 2>, Swizzle<3, 3, 3>>::value, "");
  static_assert(std::is_empty<GMMA::Layout_K_SW128_Atom<short>>::value, "");
}

// The swizzle applies after B: composed(c) == swizzle(offset + B(c)), and the tiling algebra on
// a composed layout acts on B.
TEST(CuteSwizzle, ComposedLayoutAlgebra) {
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 64; ++k) EXPECT_EQ(atom(r, k), (Swizzle<3, 3, 3>{}(r * 64 + k)));

  auto stages = tile_to_shape(atom, make_shape(_128{}, _64{}, _3{}));
  static_assert(std::is_empty<decltype(stages)>::value, "a static swizzled buffer layout is an empty type");
  static_assert(cosize_v<decltype(stages)> == 128 * 64 * 3, "");
  EXPECT_EQ(printed(stages), "Sw<3,3,3> o _0 o (_128,_64,_3):(_64,_1,_8192)");
  EXPECT_EQ(sorted(values(stages)), cute_test::iota(128 * 64 * 3));
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k)
      for (int p = 0; p < 3; ++p) {
        EXPECT_EQ(stages(m, k, p), 8192 * p + 512 * (m / 8) + atom(m % 8, k));
      }

  // Tiles of the swizzled buffer: the swizzle stays outside.
  auto tiles = zipped_divide(stages, make_shape(_64{}, _32{}));
  EXPECT_EQ(printed(tiles), "Sw<3,3,3> o _0 o ((_64,_32),(_2,_2,_3)):((_64,_1),(_4096,_32,_8192))");
  for (int t = 0; t < 64 * 32; ++t)
    for (int r = 0; r < 12; ++r) {
      int const m = t % 64 + 64 * (r % 2), k = t / 64 + 32 * (r / 2 % 2), p = r / 4;
      EXPECT_EQ(tiles(t, r), stages(m, k, p));
    }
  // Slicing moves the slice's origin into the offset under the swizzle.
  auto so = slice_and_offset(make_coord(_, _, _2{}), stages);  // a static stage index: static offset
  EXPECT_EQ(printed(get<0>(so)), "Sw<3,3,3> o _16384 o (_128,_64):(_64,_1)");
  EXPECT_EQ(get<0>(so)(5, 9), stages(5, 9, 2));
}
