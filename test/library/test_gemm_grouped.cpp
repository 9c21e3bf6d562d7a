/// Host tests of src/library/gemm_grouped.cpp: where a grouped call's failure is (group and
/// problem index), the order of its checks, and that the device is asked only after every
/// argument passed. Made-up addresses; the contexts have no device (compute capability 0), so
/// nothing can launch.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

#include "gemm_grouped.h"

namespace {

using namespace cutlass::library;

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }

/// Three groups of bf16 TN problems (sizes 2, 1, 2: entries 0-1, 2, 3-4), 32x32x32, on made-up
/// addresses.
struct Grouped {
  float alpha = 1, beta = 0;
  void const *A[5], *B[5], *C[5];
  void *D[5];
  GemmGroupedCall call;

  Grouped() {
    for (int64_t size : {2, 1, 2}) {
      GemmGroup group;
      GemmCall &s = group.shape;
      s.m = s.n = s.k = 32;
      s.lda = s.ldb = s.ldc = s.ldd = 32;
      s.element_A = s.element_B = s.element_C = s.element_D = NumericTypeID::kBF16;
      s.element_compute = s.element_scalar = NumericTypeID::kF32;
      s.layout_A = LayoutTypeID::kRowMajor;
      s.layout_B = LayoutTypeID::kColumnMajor;
      s.alpha = &alpha;
      s.beta = &beta;
      group.size = size;
      call.groups.push_back(group);
    }
    for (int i = 0; i < 5; ++i) {
      A[i] = address(0x1000000 + uintptr_t(i) * 0x10000);
      B[i] = address(0x2000000 + uintptr_t(i) * 0x10000);
      C[i] = address(0x3000000 + uintptr_t(i) * 0x10000);
      D[i] = const_cast<void *>(C[i]);
    }
    call.A = A, call.B = B, call.C = C, call.D = D;
  }
  Grouped(Grouped const &) = delete;
  Grouped &operator=(Grouped const &) = delete;
};

GemmContext no_device() { return GemmContext(); }   // compute capability 0

TEST(GemmGrouped, AProblemsFailureNamesItsGroupAndIndex) {
  Grouped g;
  g.D[4] = nullptr;   // group 2, problem 1
  GemmGroupedOutcome const o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(1, o.problem);
  EXPECT_STREQ("D must not be null", o.detail);
}

TEST(GemmGrouped, AGroupsOwnFailureHasNoProblemIndex) {
  Grouped g;
  g.call.groups[1].size = -3;
  GemmGroupedOutcome o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(1, o.group);
  EXPECT_EQ(-1, o.problem);
  Grouped h;
  h.call.groups[2].size = 0;
  h.call.groups[2].shape.ldc = 31;   // an empty group's shape is checked too
  o = check_grouped_arguments(h.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(-1, o.problem);
}

TEST(GemmGrouped, ArgumentErrorsAnywhereComeBeforeNotSupported) {
  Grouped g;
  g.call.groups[0].shape.n = int64_t(INT_MAX) + 1;   // group 0: NOT_SUPPORTED (beyond 32 bits)
  g.D[0] = reinterpret_cast<void *>(uintptr_t(1) << 44);   // its 128 GB outputs apart from the others'
  g.D[1] = reinterpret_cast<void *>(uintptr_t(1) << 45);
  GemmGroupedOutcome o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kNotSupported, o.failure);
  EXPECT_EQ(0, o.group);
  EXPECT_EQ(0, o.problem);
  g.A[3] = nullptr;   // group 2, problem 0: an argument error, reported first
  o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(0, o.problem);
}

/// Outputs that share an element: INVALID_VALUE at the later problem (in call order), after every
/// problem's own checks; outputs that only interleave (row blocks of one matrix) are fine.
TEST(GemmGrouped, OverlappingOutputsAreAnArgumentError) {
  Grouped g;   // every problem 32 x 32, ldd 32: 2 KB of bf16 each
  EXPECT_EQ(GemmFailure::kNone, check_grouped_arguments(g.call).failure);
  g.D[3] = g.D[1];   // group 2, problem 0 writes where group 0, problem 1 does
  GemmGroupedOutcome o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(0, o.problem);
  g.A[4] = nullptr;   // a problem's own argument error is reported first
  EXPECT_EQ(1, check_grouped_arguments(g.call).problem);   // group 2, problem 1: A is null

  Grouped rows;   // row blocks of one 64-row column-major matrix: ldd 64, D[i] 32 rows apart
  for (GemmGroup &group : rows.call.groups) group.shape.ldc = group.shape.ldd = 64;
  char *base = reinterpret_cast<char *>(uintptr_t(0x5000000));
  for (int i = 0; i < 5; ++i) {
    rows.D[i] = base + (i % 2) * 32 * 2 + (i / 2) * 64 * 32 * 2;   // (rows 0 or 32) of column block i / 2
    rows.C[i] = rows.D[i];
  }
  EXPECT_EQ(GemmFailure::kNone, check_grouped_arguments(rows.call).failure) << "interleaved, no element shared";
  rows.D[1] = base + 16 * 2;   // rows 16..47 of column block 0: half of problem 0's rows
  rows.C[1] = rows.D[1];
  o = check_grouped_arguments(rows.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(0, o.group);
  EXPECT_EQ(1, o.problem);
  rows.D[1] = base + (64 * 31 + 48) * 2;   // rows 48..63 of column 31 and 0..15 of column 32 (wraps)
  rows.C[1] = rows.D[1];
  o = check_grouped_arguments(rows.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure) << "column 32 is problem 2's";
  EXPECT_EQ(1, o.group);
}

TEST(GemmGrouped, OutputsOfHugeLeadingDimensionsStillOverlap) {
  // two 1 x 2 bf16 outputs with ldc = 2^60: a span of 2^61 bytes (within the 2^63 the checks
  // allow, but 2^64 counted in bits); problem 1 starts at problem 0's second column
  Grouped g;
  g.call.groups.resize(1);
  GemmCall &s = g.call.groups[0].shape;
  s.m = 1, s.n = 2, s.k = 1;
  s.lda = s.ldb = 1;
  s.ldc = s.ldd = int64_t(1) << 60;
  g.call.groups[0].size = 2;
  g.D[1] = static_cast<char *>(g.D[0]) + (s.ldd << 1);
  g.C[1] = g.D[1];
  GemmGroupedOutcome const o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure) << o.detail;
  EXPECT_EQ(0, o.group);
  EXPECT_EQ(1, o.problem);
}

TEST(GemmGrouped, PackedArraysHoldOnlyTheVisitedProblems) {
  // copy_device_pointer_arrays' layout: group 1 (3 problems, M = 0) keeps one slot, so the five
  // slots are group 0's two, group 1's first, group 2's two; the problems keep their places
  Grouped g;
  g.call.groups[1].size = 3;
  g.call.groups[1].shape.m = 0;
  g.call.packed_arrays = true;
  EXPECT_EQ(GemmFailure::kNone, check_grouped_arguments(g.call).failure);
  g.A[4] = nullptr;   // slot 4: group 2, problem 1 (entry 6)
  GemmGroupedOutcome o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(1, o.problem);
  EXPECT_STREQ("A and B must not be null", o.detail);
  g.A[4] = g.A[3];
  g.D[3] = g.D[0];   // slot 3: group 2, problem 0 writes where group 0, problem 0 does
  g.C[3] = g.C[0];
  o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
  EXPECT_EQ(0, o.problem);
}

TEST(GemmGrouped, TheDeviceIsAskedOnlyAfterEveryArgumentPassed) {
  Grouped g;
  GemmGroupedOutcome o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kNoDevice, o.failure) << "the first problem's selection, after every check";
  EXPECT_EQ(0, o.group);
  EXPECT_EQ(0, o.problem);
  EXPECT_EQ(nullptr, o.operation);
  g.call.groups[2].shape.k = -1;
  o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(2, o.group);
}

TEST(GemmGrouped, FusedEpiloguesRunButTheDScaleIsNotSupported) {
  Grouped g;
  for (GemmGroup &group : g.call.groups) group.shape.epilogue.kind.activation = cutlass::epilogue::ActivationKind::kReLU;
  GemmGroupedOutcome o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kNoDevice, o.failure) << "a fused epilogue goes on to the device";
  for (GemmGroup &group : g.call.groups) group.shape.epilogue.kind.scale_amax = true;
  o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kNotSupported, o.failure) << "answered before the device";
  EXPECT_EQ(0, o.group);
}

TEST(GemmGrouped, OuterVectorOperandScalesAreNotSupported) {
  Grouped g;
  float const *vector = static_cast<float const *>(address(0x5000000));
  for (GemmGroup &group : g.call.groups) {
    group.shape.element_A = group.shape.element_B = NumericTypeID::kFE4M3;
    group.shape.epilogue.scale_a = vector;
    group.shape.epilogue.scale_a_mode = cutlass::epilogue::OperandScaleMode::kOuterVector;
  }
  GemmGroupedOutcome o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kNotSupported, o.failure) << "answered before the device";
  EXPECT_EQ(0, o.group);
  for (GemmGroup &group : g.call.groups) group.shape.epilogue.scale_a_mode = cutlass::epilogue::OperandScaleMode::kScalar;   // per-tensor: every problem
  o = gemm_grouped(g.call, no_device());
  EXPECT_EQ(GemmFailure::kNoDevice, o.failure);
}

TEST(GemmGrouped, NoProblemsSucceedWithoutTheDevice) {
  Grouped g;
  for (GemmGroup &group : g.call.groups) group.size = 0;
  g.call.A = g.call.B = g.call.C = nullptr;
  g.call.D = nullptr;
  EXPECT_EQ(GemmFailure::kNone, gemm_grouped(g.call, no_device()).failure);
  g.call.groups.clear();
  EXPECT_EQ(GemmFailure::kNone, gemm_grouped(g.call, no_device()).failure);
}

TEST(GemmGrouped, NullPointerArraysAreNullPointers) {
  Grouped g;
  for (GemmGroup &group : g.call.groups) group.shape.k = 0;   // nothing reads A or B
  g.call.A = g.call.B = nullptr;
  EXPECT_EQ(GemmFailure::kNone, check_grouped_arguments(g.call).failure);
  g.call.C = nullptr;   // beta == 0: C is not read either
  EXPECT_EQ(GemmFailure::kNone, check_grouped_arguments(g.call).failure);
  g.call.D = nullptr;   // but every output is written
  GemmGroupedOutcome const o = check_grouped_arguments(g.call);
  EXPECT_EQ(GemmFailure::kInvalidValue, o.failure);
  EXPECT_EQ(0, o.group);
  EXPECT_EQ(0, o.problem);
}

}  // namespace
