/// @file cute/swizzle.hpp
/// Swizzle<B, M, S>: the bit permutation of offsets that spreads the rows of a shared-memory
/// tile over the banks. It XORs the B bits starting at bit M+S (the "row" bits, yyy) into the B
/// bits starting at bit M (the "column" bits, zzz); the M lowest bits (a vector of 2^M elements)
/// are left alone. With S < 0 the row bits are below the column bits instead.
///
///   offset bits:  ... [ yyy: M+S .. M+S+B-1 ] ... [ zzz: M .. M+B-1 ] [ kept: 0 .. M-1 ]
///   result:       offset ^ (yyy >> S) (into the zzz field)
///
/// On byte offsets, Hopper's TMA and wgmma 32B, 64B and 128B swizzle modes are Swizzle<1,4,3>,
/// Swizzle<2,4,3> and Swizzle<3,4,3> (16-byte chunks, 2/4/8 of them permuted within rows of
/// 32/64/128 bytes, repeating every 8 rows); on offsets in elements of b bytes, M is 4 - log2(b)
/// (see cute/atom/smem_layout_atoms.hpp).
#pragma once

#include "cute/config.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/util/print.hpp"

namespace cute {

/// A swizzle functor; an empty type. Applied to a static offset it gives a static offset.
/// Example: Swizzle<3,3,3>{}(64 * r + c) == 64 * r + (c ^ (8 * (r % 8))) for 0 <= c < 64.
template <int BBits, int MBase, int SShift = BBits>
struct Swizzle {
  static constexpr int num_bits = BBits;
  static constexpr int num_base = MBase;
  static constexpr int num_shft = SShift;
  static_assert(BBits >= 0, "Swizzle<B,M,S>: B (the number of bits) must be >= 0");
  static_assert(MBase >= 0, "Swizzle<B,M,S>: M (the number of kept low bits) must be >= 0");
  static_assert((SShift < 0 ? -SShift : SShift) >= BBits,
                "Swizzle<B,M,S>: |S| must be >= B, so the row and column bit fields do not overlap");

  using bit_msk = C<(1 << BBits) - 1>;
  /// The row bits read by the swizzle.
  using yyy_msk = C<bit_msk::value << (MBase + (SShift > 0 ? SShift : 0))>;
  /// The column bits it flips.
  using zzz_msk = C<bit_msk::value << (MBase - (SShift < 0 ? SShift : 0))>;

  /// The swizzled offset: offset ^ ((offset & yyy_msk) >> S). Swizzle is an involution:
  /// applying it twice gives the offset back.
  template <class Offset>
  CUTE_HOST_DEVICE static constexpr auto apply(Offset const& offset) {
    if constexpr (BBits == 0) {
      return offset;
    } else if constexpr (SShift >= 0) {
      return offset ^ ((offset & yyy_msk{}) >> C<SShift>{});
    } else {
      return offset ^ ((offset & yyy_msk{}) << C<-SShift>{});
    }
  }
  template <class Offset>
  CUTE_HOST_DEVICE constexpr auto operator()(Offset const& offset) const {
    return apply(offset);
  }
};

/// Prints `Sw<B,M,S>`.
template <int B, int M, int S>
CUTE_HOST_DEVICE void print(Swizzle<B, M, S>) {
  printf("Sw<%d,%d,%d>", B, M, S);
}

}  // namespace cute
