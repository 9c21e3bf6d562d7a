/// Host tests of kernel selection: preference order of the operation table, the per-operand
/// alignment rule, the description-level first fit, and the row-major transposition. These use
/// descriptions only (no device): pointers are made-up addresses that are never dereferenced.
#include <gtest/gtest.h>

#include <string>

#include "cutlass/library/singleton.h"
#include "gemm_call.h"

namespace {

using namespace cutlass::library;

GemmDescription const &desc_of(Operation const *op) {
  return static_cast<GemmDescription const &>(op->description());
}

int max_alignment(GemmDescription const &d) { return std::max(d.A.alignment, std::max(d.B.alignment, d.C.alignment)); }

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }

/// A bf16 x bf16 -> bf16 TN call (A row-major, B column-major), column-major D, 16-byte aligned.
GemmCall bf16_tn_call(int64_t m, int64_t n, int64_t k) {
  GemmCall c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.element_compute = c.element_scalar = NumericTypeID::kF32;
  c.element_A = c.element_B = c.element_C = c.element_D = NumericTypeID::kBF16;
  c.layout_A = LayoutTypeID::kRowMajor;
  c.layout_B = LayoutTypeID::kColumnMajor;
  c.A = address(0x100000);
  c.B = address(0x200000);
  c.C = address(0x300000);
  c.D = const_cast<void *>(address(0x400000));
  c.lda = k;
  c.ldb = k;
  c.ldc = c.ldd = m;
  return c;
}

GemmOperationVector const *candidates_for(GemmCall const &c) {
  return Singleton::get().operation_table.find_gemm(functional_key(c));
}

Operation const *first_fit(GemmCall const &c, int cc) {
  GemmOperationVector const *candidates = candidates_for(c);
  if (!candidates) return nullptr;
  bool any = false;
  return select_kernel(*candidates, c, cc, /*sm_count=*/132, /*ask_kernel=*/false, &any);
}

TEST(Selection, TableIsInPreferenceOrder) {
  auto const &manifest = Singleton::get().manifest;
  auto registration_index = [&](Operation const *op) {
    for (size_t i = 0; i < manifest.size(); ++i) {
      if (manifest.operations()[i].get() == op) return i;
    }
    return size_t(-1);
  };
  size_t total = 0;
  for (auto const &entry : Singleton::get().operation_table.gemm_operations) {
    auto const &ops = entry.second;
    total += ops.size();
    for (size_t i = 1; i < ops.size(); ++i) {
      auto const &a = desc_of(ops[i - 1]);
      auto const &b = desc_of(ops[i]);
      int cc_a = a.tile_description.minimum_compute_capability, cc_b = b.tile_description.minimum_compute_capability;
      ASSERT_GE(cc_a, cc_b) << a.name << " before " << b.name;
      if (cc_a == cc_b) {
        ASSERT_GE(max_alignment(a), max_alignment(b)) << a.name << " before " << b.name;
        if (max_alignment(a) == max_alignment(b)) {
          ASSERT_LT(registration_index(ops[i - 1]), registration_index(ops[i])) << a.name << " before " << b.name;
        }
      }
      ASSERT_EQ(make_gemm_functional_key(a), make_gemm_functional_key(b));
    }
  }
  EXPECT_EQ(manifest.size(), total) << "every kernel is indexed once";
}

TEST(Selection, OperandAlignmentIsPerOperandAndNeverZero) {
  // bf16 (2 bytes): 16-byte address, ld 8k, extent 8k -> 8 elements
  EXPECT_EQ(8, operand_alignment(NumericTypeID::kBF16, address(0x1000), 4096, 0, 1, 4096));
  EXPECT_EQ(4, operand_alignment(NumericTypeID::kBF16, address(0x1008), 4096, 0, 1, 4096));
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kBF16, address(0x1002), 4096, 0, 1, 4096));
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kBF16, address(0x1000), 4095, 0, 1, 4096));
  EXPECT_EQ(2, operand_alignment(NumericTypeID::kBF16, address(0x1000), 4096, 0, 1, 4094));
  // the batch stride counts only when there is more than one batch
  EXPECT_EQ(8, operand_alignment(NumericTypeID::kBF16, address(0x1000), 4096, 3, 1, 4096));
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kBF16, address(0x1000), 4096, 3, 2, 4096));
  // f64 (8 bytes): at most 2 elements; a 4-byte-aligned pointer gives 1, never 0
  EXPECT_EQ(2, operand_alignment(NumericTypeID::kF64, address(0x1000), 64, 0, 1, 64));
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kF64, address(0x1004), 64, 0, 1, 64));
  // s8: up to 16 elements
  EXPECT_EQ(16, operand_alignment(NumericTypeID::kS8, address(0x1000), 64, 0, 1, 64));
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kS8, address(0x1001), 64, 0, 1, 64));
  // null pointers (e.g. C with beta == 0) do not constrain
  EXPECT_EQ(4, operand_alignment(NumericTypeID::kF32, nullptr, 64, 0, 1, 64));
  // unknown types fall back to 1
  EXPECT_EQ(1, operand_alignment(NumericTypeID::kInvalid, address(0x1000), 64, 0, 1, 64));
}

TEST(Selection, AlignedCallPicksTheFirstPreferredKernel) {
  GemmCall c = bf16_tn_call(4096, 4096, 4096);
  GemmOperationVector const *candidates = candidates_for(c);
  if (!candidates) GTEST_SKIP() << "this build has no bf16 -> bf16 TN kernels";
  Operation const *op = first_fit(c, 90);
  ASSERT_NE(nullptr, op);
  EXPECT_EQ((*candidates)[0], op) << "an aligned problem runs the most preferred kernel";
  auto const &d = desc_of(op);
  EXPECT_EQ(max_alignment(d), d.A.alignment);
  EXPECT_EQ(8, d.A.alignment) << d.name;
}

TEST(Selection, MisalignedOperandFallsBackToSmallerAlignment) {
  GemmCall c = bf16_tn_call(4096, 4096, 4096);
  if (!candidates_for(c)) GTEST_SKIP() << "this build has no bf16 -> bf16 TN kernels";
  c.A = address(0x100002);   // 2-byte aligned: one bf16 element
  Operation const *op = first_fit(c, 90);
  ASSERT_NE(nullptr, op);
  EXPECT_EQ(1, desc_of(op).A.alignment) << desc_of(op).name;

  c = bf16_tn_call(4096, 4096, 4095);   // K odd: row-major A and column-major B rows break 16 bytes
  c.lda = c.ldb = 4096;
  op = first_fit(c, 90);
  ASSERT_NE(nullptr, op);
  EXPECT_EQ(1, desc_of(op).A.alignment) << desc_of(op).name;
}

TEST(Selection, NoKernelFitsWhenOnlyWideAlignmentsAreBuilt) {
  GemmCall c = bf16_tn_call(64, 64, 64);
  GemmOperationVector const *candidates = candidates_for(c);
  if (!candidates) GTEST_SKIP() << "this build has no bf16 -> bf16 TN kernels";
  GemmOperationVector wide;
  for (Operation const *op : *candidates) {
    if (desc_of(op).A.alignment > 1) wide.push_back(op);
  }
  if (wide.empty()) GTEST_SKIP() << "this build has only align1 bf16 TN kernels";
  c.A = address(0x100002);
  bool any = false;
  EXPECT_EQ(nullptr, select_kernel(wide, c, 90, 132, false, &any));
  EXPECT_TRUE(any) << "the kernels exist for the device; they refuse the alignment";
}

TEST(Selection, ComputeCapabilityBoundsAreRespected) {
  GemmCall c = bf16_tn_call(256, 256, 256);
  if (!candidates_for(c)) GTEST_SKIP() << "this build has no bf16 -> bf16 TN kernels";
  bool any = true;
  EXPECT_EQ(nullptr, select_kernel(*candidates_for(c), c, 75, 132, false, &any)) << "sm80 tensor-op kernels need sm_80";
  EXPECT_FALSE(any);
  Operation const *op = first_fit(c, 80);
  ASSERT_NE(nullptr, op);
  EXPECT_LE(desc_of(op).tile_description.minimum_compute_capability, 80);
}

TEST(Selection, SgemmFallsToSimtOnAnyArch) {
  GemmCall c = bf16_tn_call(100, 100, 100);
  c.element_A = c.element_B = c.element_C = c.element_D = NumericTypeID::kF32;
  c.layout_A = LayoutTypeID::kColumnMajor;
  c.lda = 100;
  if (!candidates_for(c)) GTEST_SKIP() << "this build has no f32 NN kernels";
  Operation const *op = first_fit(c, 60);
  ASSERT_NE(nullptr, op);
  EXPECT_EQ(OpcodeClassID::kSimt, desc_of(op).tile_description.math_instruction.opcode_class);
}

TEST(Selection, WaveCostCountsWavesOfTiles) {
  GemmDescription d;
  d.tile_description.threadblock_shape = cutlass::gemm::GemmCoord(128, 128, 64);
  GemmCall c = bf16_tn_call(1024, 1024, 1024);
  EXPECT_EQ(1.0 * 128 * 128, wave_cost(d, c, 132)) << "64 tiles: one wave";
  c = bf16_tn_call(4096, 4096, 4096);
  EXPECT_EQ(8.0 * 128 * 128, wave_cost(d, c, 132)) << "1024 tiles: ceil(1024 / 132) = 8 waves";
  c.batch_count = 2;
  EXPECT_EQ(16.0 * 128 * 128, wave_cost(d, c, 132));
  EXPECT_EQ(1.0 * 128 * 128, wave_cost(d, c, 0)) << "unknown SM count: no reordering";
  // a 64x128 tile counts its area at 0.8 efficiency: it wins one-wave problems, not 8192^3
  GemmDescription small = d;
  small.tile_description.threadblock_shape = cutlass::gemm::GemmCoord(64, 128, 64);
  c = bf16_tn_call(1024, 1024, 1024);
  EXPECT_LT(wave_cost(small, c, 132), wave_cost(d, c, 132));
  c = bf16_tn_call(8192, 8192, 8192);
  EXPECT_GT(wave_cost(small, c, 132), wave_cost(d, c, 132));
}

TEST(Selection, SmallProblemsPickTheCheapestKernelOfTheGroup) {
  for (int64_t m : {16, 64, 1024}) {
    GemmCall c = bf16_tn_call(m, m == 1024 ? 1024 : 8192, m == 1024 ? 1024 : 8192);
    GemmOperationVector const *candidates = candidates_for(c);
    if (!candidates) GTEST_SKIP() << "this build has no bf16 -> bf16 TN kernels";
    Operation const *op = first_fit(c, 90);
    ASSERT_NE(nullptr, op);
    auto const &chosen = desc_of(op);
    auto const &lead = desc_of(candidates->front());
    for (Operation const *other : *candidates) {
      auto const &d = desc_of(other);
      bool const same_group = d.tile_description.minimum_compute_capability ==
                                  chosen.tile_description.minimum_compute_capability &&
                              max_alignment(d) == max_alignment(chosen);
      if (same_group) EXPECT_LE(wave_cost(chosen, c, 132), wave_cost(d, c, 132)) << chosen.name << " vs " << d.name;
    }
    EXPECT_LE(wave_cost(chosen, c, 132), wave_cost(lead, c, 132));
  }
}

TEST(Selection, RowMajorOutputIsComputedTransposed) {
  GemmCall c = bf16_tn_call(300, 200, 100);
  c.layout_C = c.layout_D = LayoutTypeID::kRowMajor;
  c.ldc = c.ldd = 200;
  GemmCall t = to_column_major_output(c);
  EXPECT_EQ(200, t.m);
  EXPECT_EQ(300, t.n);
  EXPECT_EQ(100, t.k);
  EXPECT_EQ(c.B, t.A);
  EXPECT_EQ(c.A, t.B);
  EXPECT_EQ(c.ldb, t.lda);
  EXPECT_EQ(c.lda, t.ldb);
  EXPECT_EQ(LayoutTypeID::kRowMajor, t.layout_A) << "B column-major K x N is B^T row-major N x K";
  EXPECT_EQ(LayoutTypeID::kColumnMajor, t.layout_B) << "A row-major M x K is A^T column-major K x M";
  EXPECT_EQ(LayoutTypeID::kColumnMajor, t.layout_C);
  EXPECT_EQ(LayoutTypeID::kColumnMajor, t.layout_D);
  EXPECT_EQ(c.C, t.C);
  EXPECT_EQ(c.D, t.D);
}

}  // namespace
