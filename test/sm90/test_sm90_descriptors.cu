/// @file test/sm90/test_sm90_descriptors.cu
/// Host tests (nothing is launched) of the sm90 mainloop's wgmma shared-memory descriptors: the
/// consumer builds one descriptor per operand stage and reaches every k-step and atom through
/// arch::advance_smem_desc(descriptor, slab_offset). The answer key is the descriptor encoded
/// from the slab's own address (make_smem_desc_sw128 of stage address + offset), for every
/// address a 1024-byte-aligned stage can have in the 227 KB of shared memory an sm90 CTA may
/// use and every slab of the mainloop configurations below: the add must never carry out of the
/// 14-bit start-address field.
#include <gtest/gtest.h>

#include <cstdint>

#include "cutlass/arch/wgmma_sm90.h"
#include "cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h"
#include "cutlass/numeric_types.h"

namespace {

using cutlass::bfloat16_t;
using cutlass::half_t;
using cutlass::gemm::GemmShape;
using cutlass::layout::ColumnMajor;
using cutlass::layout::RowMajor;

constexpr uint32_t kMaxSharedBytes = 227 * 1024;   // sm_90 opt-in shared memory per block

/// Every slab the consumers of Mainloop read: operand A (K-major or not), MN extent rows.
template <class Mainloop, bool KMajor>
void check_operand(int rows, int leading_byte_offset, char const *what) {
  for (uint32_t stage = 0; stage + uint32_t(rows) * Mainloop::kRowBytes <= kMaxSharedBytes; stage += 1024) {
    uint64_t const base = cutlass::arch::make_smem_desc_sw128(stage, leading_byte_offset, 1024);
    for (int mn = 0; mn < rows; mn += 64) {
      for (int kk = 0; kk < Mainloop::kTileK / Mainloop::kInstructionK; ++kk) {
        uint32_t const offset = Mainloop::template slab_offset<KMajor>(mn, kk);
        uint64_t const expected = cutlass::arch::make_smem_desc_sw128(stage + offset, leading_byte_offset, 1024);
        ASSERT_EQ(expected, cutlass::arch::advance_smem_desc(base, offset))
            << what << ": stage at " << stage << ", mn " << mn << ", kk " << kk;
      }
    }
  }
}

template <class Mainloop>
void check(char const *what) {
  check_operand<Mainloop, Mainloop::kKMajorA>(Mainloop::kTileM, Mainloop::kKMajorA ? 16 : Mainloop::kMnChunkBytes,
                                              what);
  check_operand<Mainloop, Mainloop::kKMajorB>(Mainloop::kTileN, Mainloop::kKMajorB ? 16 : Mainloop::kMnChunkBytes,
                                              what);
}

template <class LayoutA, class LayoutB, int M, int N, bool Cooperative, class Element = bfloat16_t>
using Mainloop = cutlass::gemm::collective::Sm90MmaTmaGmmaSS<Element, LayoutA, Element, LayoutB,
                                                             GemmShape<M, N, 128 / sizeof(Element)>, 4, Cooperative>;

TEST(Sm90Descriptors, SlabOffsetsAddToTheStageDescriptor) {
  check<Mainloop<RowMajor, ColumnMajor, 128, 128, false>>("tn 128x128 ping-pong");
  check<Mainloop<ColumnMajor, ColumnMajor, 128, 128, false>>("nn 128x128 ping-pong");
  check<Mainloop<ColumnMajor, RowMajor, 128, 256, true>>("nt 128x256 cooperative");
  check<Mainloop<RowMajor, RowMajor, 256, 128, true>>("tt 256x128 cooperative");
  check<Mainloop<RowMajor, ColumnMajor, 64, 256, false>>("tn 64x256 ping-pong");
  check<Mainloop<RowMajor, ColumnMajor, 128, 128, false, cutlass::tfloat32_t>>("tf32 tn 128x128 ping-pong");
  check<Mainloop<RowMajor, ColumnMajor, 128, 256, true, cutlass::tfloat32_t>>("tf32 tn 128x256 cooperative");
}

/// A k-step is 32 bytes of K for every element type: 16 16-bit or 8 tf32 elements, 4 per stage.
TEST(Sm90Descriptors, KStepIs32BytesOfK) {
  using Bf16 = Mainloop<RowMajor, ColumnMajor, 128, 128, false>;
  using Tf32 = Mainloop<RowMajor, ColumnMajor, 128, 128, false, cutlass::tfloat32_t>;
  static_assert(Bf16::kInstructionK == 16 && Tf32::kInstructionK == 8, "instruction K");
  static_assert(Bf16::kTileK / Bf16::kInstructionK == 4 && Tf32::kTileK / Tf32::kInstructionK == 4, "k-steps");
  static_assert(Bf16::kStageBytes == Tf32::kStageBytes, "a stage holds the same bytes");
  EXPECT_EQ(Tf32::slab_offset<true>(0, 1), 32u);
  EXPECT_EQ(Tf32::slab_offset<true>(64, 3), 64u * 128u + 96u);
  EXPECT_EQ(Bf16::slab_offset<false>(64, 1), uint32_t(Bf16::kMnChunkBytes + 16 * 128));
}

}  // namespace
