/// @file cute/atom/smem_layout_atoms.hpp
/// Swizzled shared-memory layout atoms in the named patterns of Hopper's TMA and wgmma (and the
/// bank-conflict-free tiles sm80 kernels feed to ldmatrix). Each atom is a ComposedLayout in
/// units of elements of T: a swizzle over an 8-row block whose rows are 16, 32, 64 or 128 bytes.
/// Tile an atom over a stage buffer with tile_to_shape, e.g.
///   tile_to_shape(GMMA::Layout_K_SW128_Atom<half>{}, make_shape(_128{}, _64{}, _4{})).
/// K-major atoms have K contiguous (rows along M or N); MN-major atoms have M or N contiguous.
/// The buffer must start on a boundary of the atom's size in bytes (1024 for 128B) for the
/// hardware's swizzle and this layout's to agree.
#pragma once

#include "cute/layout.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/numeric/math.hpp"
#include "cute/swizzle.hpp"
#include "cute/swizzle_layout.hpp"

namespace cute {

/// The swizzle of a TMA/wgmma pattern of `SwizzleBytes` (16 = none, 32, 64, 128) on offsets in
/// elements of `ElementBytes` bytes: Swizzle<log2(SwizzleBytes/16), 4 - log2(ElementBytes), 3>.
/// Example: SmemSwizzle<128, 2> is Swizzle<3,3,3>.
template <int SwizzleBytes, int ElementBytes>
using SmemSwizzle = Swizzle<log_2(SwizzleBytes / 16), 4 - log_2(ElementBytes), 3>;

namespace detail {
template <class T, int SwizzleBytes>
struct smem_atom {
  static_assert(sizeof(T) <= 16 && is_pow2(sizeof(T)), "smem layout atoms: sizeof(T) must be a power of two <= 16");
  static_assert(SwizzleBytes == 16 || SwizzleBytes == 32 || SwizzleBytes == 64 || SwizzleBytes == 128,
                "smem layout atoms: the swizzle width must be 16 (none), 32, 64 or 128 bytes");
  static constexpr int row = SwizzleBytes / int(sizeof(T));  // elements in one swizzled row
  using swizzle = SmemSwizzle<SwizzleBytes, int(sizeof(T))>;
  using k_major = ComposedLayout<swizzle, C<0>, Layout<Shape<C<8>, C<row>>, Stride<C<row>, C<1>>>>;
  using mn_major = ComposedLayout<swizzle, C<0>, Layout<Shape<C<row>, C<8>>, Stride<C<1>, C<row>>>>;
};
}  // namespace detail

namespace GMMA {
/// K-major atoms: (8 rows, SwizzleBytes/sizeof(T) elements of K), rows contiguous in K.
/// Layout_K_SW128_Atom<half> is Sw<3,3,3> o _0 o (_8,_64):(_64,_1).
template <class T>
using Layout_K_INTER_Atom = typename detail::smem_atom<T, 16>::k_major;
template <class T>
using Layout_K_SW32_Atom = typename detail::smem_atom<T, 32>::k_major;
template <class T>
using Layout_K_SW64_Atom = typename detail::smem_atom<T, 64>::k_major;
template <class T>
using Layout_K_SW128_Atom = typename detail::smem_atom<T, 128>::k_major;

/// MN-major atoms: (SwizzleBytes/sizeof(T) elements of M or N, 8 columns of K).
/// Layout_MN_SW128_Atom<half> is Sw<3,3,3> o _0 o (_64,_8):(_1,_64).
template <class T>
using Layout_MN_INTER_Atom = typename detail::smem_atom<T, 16>::mn_major;
template <class T>
using Layout_MN_SW32_Atom = typename detail::smem_atom<T, 32>::mn_major;
template <class T>
using Layout_MN_SW64_Atom = typename detail::smem_atom<T, 64>::mn_major;
template <class T>
using Layout_MN_SW128_Atom = typename detail::smem_atom<T, 128>::mn_major;
}  // namespace GMMA

}  // namespace cute
