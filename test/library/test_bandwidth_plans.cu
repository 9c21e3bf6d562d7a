/// Host tests of the bandwidth kernels' plans (gemv.h, gemm_skinny_sm80.h, output_block.h): the
/// split rule, the grid limits can_implement must keep, and empty K (no device needed: without
/// one the SM count reads 1 and the occupancy query falls back to its default).
#include <gtest/gtest.h>

#include <cstdint>

#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/kernel/gemm_skinny_sm80.h"
#include "cutlass/gemm/kernel/gemv.h"

namespace {

using cutlass::gemm::kernel::plan_splits;

template <typename T>
T const *fake(uintptr_t address) {
  return reinterpret_cast<T const *>(address);   // never dereferenced on the host
}

TEST(BandwidthPlans, SplitOnlyWhenTheBlocksFillLessThanHalfTheGpu) {
  EXPECT_EQ(1, plan_splits(1376, 660, 4)) << "11008 GEMV rows: more blocks than resident CTAs";
  EXPECT_EQ(1, plan_splits(344, 264, 16)) << "11008 skinny rows fill the GPU";
  EXPECT_EQ(1, plan_splits(132, 264, 16)) << "exactly half";
  EXPECT_EQ(2, plan_splits(128, 264, 16)) << "4096 skinny rows: 128 blocks, under half of 264";
  EXPECT_EQ(16, plan_splits(1, 264, 16)) << "capped at max_splits";
  EXPECT_EQ(1, plan_splits(1, 264, 0)) << "never fewer than one";
  EXPECT_EQ(1, plan_splits(0, 264, 8));
  EXPECT_EQ(1, plan_splits(8, 0, 8));
}

using GemvF64 = cutlass::gemm::kernel::Gemv<double, cutlass::layout::RowMajor, double, cutlass::layout::ColumnMajor,
                                            double, double, cutlass::epilogue::thread::LinearCombination<double, double, double>>;

GemvF64::Arguments dot_product(int k, uintptr_t x_address) {
  GemvF64::Arguments args;
  args.problem_size = cutlass::gemm::GemmCoord(1, 1, k);
  args.ptr_A = fake<double>(0x10000000);
  args.lda = k;
  args.ptr_B = fake<double>(x_address);
  args.ldb = k;
  args.ptr_D = const_cast<double *>(fake<double>(0x20000000));
  args.ldc = args.ldd = 1;
  return args;
}

TEST(BandwidthPlans, GemvRefusesKRunsPastTheGridLimitInsteadOfFailingAtLaunch) {
  int const k = 250 * 1000 * 1000;   // a 2 GB f64 dot product: runs of one 24 KB x buffer, more than grid y's 65535
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, GemvF64::can_implement(dot_product(k, 0x30000000)));
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, GemvF64::can_implement(dot_product(k, 0x30000008)));
  EXPECT_EQ(cutlass::Status::kSuccess, GemvF64::can_implement(dot_product(1 << 20, 0x30000008)));
}

TEST(BandwidthPlans, GemvWorkspaceDependsOnTheShapeAlone) {
  // initialize_workspace sees only the shape (GemmUniversalOperation::initialize): the plan of a
  // call with pointers must need the same workspace, aligned or not
  GemvF64::Arguments aligned = dot_product(1 << 16, 0x30000000), misaligned = dot_product(1 << 16, 0x30000008);
  misaligned.ptr_A = fake<double>(0x10000008);
  GemvF64::Arguments shape;
  shape.problem_size = aligned.problem_size;
  EXPECT_EQ(GemvF64::get_workspace_size(shape), GemvF64::get_workspace_size(aligned));
  EXPECT_EQ(GemvF64::get_workspace_size(shape), GemvF64::get_workspace_size(misaligned));
}

TEST(BandwidthPlans, EmptyKPlansWithoutDividingByZero) {
  GemvF64::Arguments args = dot_product(0, 0x30000000);
  EXPECT_EQ(0u, GemvF64::get_workspace_size(args));
  EXPECT_EQ(cutlass::Status::kSuccess, GemvF64::initialize_workspace(args, nullptr, nullptr));
  using Skinny = cutlass::gemm::kernel::GemmSkinnySm80<cutlass::bfloat16_t, cutlass::bfloat16_t,
                                                       cutlass::epilogue::thread::LinearCombination<cutlass::bfloat16_t, float, float>,
                                                       8>;
  Skinny::Arguments s;
  s.problem_size = cutlass::gemm::GemmCoord(4096, 8, 0);
  s.ptr_A = fake<cutlass::bfloat16_t>(0x10000000);
  s.ptr_B = fake<cutlass::bfloat16_t>(0x20000000);
  s.lda = s.ldb = 8;
  s.ldc = s.ldd = 4096;
  EXPECT_EQ(0u, Skinny::get_workspace_size(s));
  EXPECT_EQ(cutlass::Status::kSuccess, Skinny::initialize_workspace(s, nullptr, nullptr));
}

}  // namespace
