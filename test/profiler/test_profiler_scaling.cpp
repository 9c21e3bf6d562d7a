/// Host tests of the profiler's and cutlass_bench's fp8 scaling flags (--scale-a, --scale-b,
/// --accumulation): the mode names, the usage errors, which kernels a scaled problem fits, the
/// scale sizes in cuBLASLt's layouts and the kernel call's orientation for a row-major C.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench_options.h"
#include "gemm_spec.h"
#include "kernel_call.h"
#include "kernel_selection.h"
#include "options.h"
#include "problem_space.h"

namespace {

using namespace cutlass::profiler;
using cutlass::epilogue::OperandScaleMode;
using cutlass::library::AccumulationMode;
using cutlass::library::LayoutTypeID;
using cutlass::library::NumericTypeID;

std::vector<std::string> fp8(std::vector<std::string> flags) {
  flags.insert(flags.begin(), {"--A=fe4m3:row", "--B=e4m3:column", "--C=bf16"});
  return flags;
}

TEST(ProfilerScaling, ModeNamesAreCublasLtsModes) {
  ParseResult r = parse_options(fp8({"--scale-a=block128x128", "--scale-b=block128", "--accumulation=precise"}));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(OperandScaleMode::kBlock128x128, r.options.scaling.A.value());
  EXPECT_EQ(OperandScaleMode::kBlock1x128, r.options.scaling.B.value());
  EXPECT_EQ(AccumulationMode::kPrecise, r.options.scaling.accumulation);
  // the enumerators' values are cuBLASLt's cublasLtMatmulMatrixScale_t
  std::pair<char const *, int> const modes[] = {{"tensor", 0}, {"row", 3}, {"block128", 4}, {"block128x128", 5}};
  for (auto const &[name, value] : modes) {
    r = parse_options(fp8({std::string("--scale-a=") + name}));
    ASSERT_TRUE(r.ok()) << name << ": " << r.error;
    EXPECT_EQ(value, int(r.options.scaling.A.value())) << name;
    EXPECT_STREQ(name, to_string(*r.options.scaling.A));
  }
  r = parse_options(fp8({"--scale-a=none"}));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.options.scaling.A.has_value());
  EXPECT_EQ(AccumulationMode::kFast, parse_options(fp8({})).options.scaling.accumulation) << "fast by default";
}

TEST(ProfilerScaling, UsageErrors) {
  for (std::string const &bad : {"--scale-a=vec128", "--scale-b=", "--scale-a=Tensor", "--accumulation=exact"}) {
    EXPECT_FALSE(parse_options(fp8({bad})).ok()) << bad;
  }
  // scales and precise sums need fp8 inputs: the default bf16 problem, or one fp8 operand
  EXPECT_FALSE(parse_options({"--scale-a=tensor"}).ok());
  EXPECT_FALSE(parse_options({"--accumulation=precise"}).ok());
  EXPECT_FALSE(parse_options({"--A=fe4m3:row", "--B=bf16", "--scale-b=row"}).ok());
  EXPECT_TRUE(parse_options({"--accumulation=fast"}).ok()) << "fast is every kernel's own mode";
  // wildcard types parse (the problem space then keeps the fp8 combinations: problem_space.cpp)
  EXPECT_TRUE(parse_options({"--A=*", "--B=*", "--scale-a=row"}).ok());
}

TEST(ProfilerScaling, BlockScaledKernelsFitExactlyTheBlockScaledProblems) {
  cutlass::library::GemmDescription kernel;
  kernel.A = {NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor, 16};
  kernel.B = {NumericTypeID::kFE4M3, LayoutTypeID::kColumnMajor, 16};
  kernel.C = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, 8};
  kernel.D = kernel.C;
  GemmSpec spec;
  spec.m = spec.n = spec.k = 256;
  spec.A = {NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor};
  spec.B = {NumericTypeID::kFE4M3, LayoutTypeID::kColumnMajor};
  spec.C = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor};
  EXPECT_TRUE(kernel_fits(kernel, spec));
  spec.scaling.A = OperandScaleMode::kOuterVector;
  spec.scaling.B = OperandScaleMode::kScalar;
  EXPECT_TRUE(kernel_fits(kernel, spec)) << "per-tensor and row-wise scales: every fp8 kernel";
  spec.scaling.B = OperandScaleMode::kBlock1x128;
  EXPECT_FALSE(kernel_fits(kernel, spec));
  kernel.block_scaled = true;
  EXPECT_TRUE(kernel_fits(kernel, spec));
  spec.scaling = {};
  EXPECT_FALSE(kernel_fits(kernel, spec)) << "a block-scaled kernel takes no plain call";
  spec.scaling.accumulation = AccumulationMode::kPrecise;
  EXPECT_TRUE(kernel_fits(kernel, spec));
}

TEST(ProfilerScaling, ScaleEntriesFollowCublasLtsLayouts) {
  GemmSpec spec;
  spec.m = 300;
  spec.n = 40;
  spec.k = 600;   // 5 k-blocks, the last one 88 deep; 128x128 rows padded to 8 (cuBLASLt's)
  spec.batch_count = 2;
  EXPECT_EQ(0, spec.scale_entries_A());
  spec.scaling.A = OperandScaleMode::kScalar;
  EXPECT_EQ(1, spec.scale_entries_A());
  spec.scaling.A = OperandScaleMode::kOuterVector;
  EXPECT_EQ(300, spec.scale_entries_A()) << "one vector for every batch entry";
  spec.scaling.A = OperandScaleMode::kBlock1x128;
  EXPECT_EQ(5 * 300 * 2, spec.scale_entries_A());
  spec.scaling.B = OperandScaleMode::kBlock128x128;
  EXPECT_EQ(1 * 8 * 2, spec.scale_entries_B());
  spec.scaling.A = OperandScaleMode::kBlock128x128;
  EXPECT_EQ(3 * 8 * 2, spec.scale_entries_A());
}

TEST(ProfilerScaling, RowMajorCSwapsTheScalesWithTheOperands) {
  GemmSpec spec;
  spec.m = 256;
  spec.n = 128;
  spec.k = 512;
  spec.A = {NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor};
  spec.B = {NumericTypeID::kFE4M3, LayoutTypeID::kColumnMajor};
  spec.C = {NumericTypeID::kBF16, LayoutTypeID::kRowMajor};
  spec.scaling.A = OperandScaleMode::kBlock128x128;
  spec.scaling.B = OperandScaleMode::kBlock1x128;
  spec.scaling.accumulation = AccumulationMode::kPrecise;
  float scales[2];
  OperandPointers p;
  p.scale_A = &scales[0];
  p.scale_B = &scales[1];
  float const alpha = 1, beta = 0;
  KernelCall const call = kernel_call(spec, p, &alpha, &beta);
  // the kernel runs D^T = B^T A^T: its A is the problem's B, with B's scale
  EXPECT_EQ(&scales[1], call.arguments.epilogue.scale_a);
  EXPECT_EQ(&scales[0], call.arguments.epilogue.scale_b);
  EXPECT_EQ(OperandScaleMode::kBlock1x128, call.arguments.epilogue.scale_a_mode);
  EXPECT_EQ(OperandScaleMode::kBlock128x128, call.arguments.epilogue.scale_b_mode);
  EXPECT_EQ(AccumulationMode::kPrecise, call.arguments.epilogue.accumulation);
  cutlass::reference::GemmProblem const ref = reference_problem(spec, p);
  EXPECT_EQ(&scales[0], ref.scale_A) << "the reference takes the user's orientation";
  EXPECT_EQ(OperandScaleMode::kBlock128x128, ref.scale_A_mode);
  cutlass::reference::GemmProblem const flipped = cutlass::reference::column_major(ref);
  EXPECT_EQ(&scales[1], flipped.scale_A);
  EXPECT_EQ(OperandScaleMode::kBlock1x128, flipped.scale_A_mode);
  EXPECT_NE(std::string::npos, describe(spec).find("scale_a=block128x128 scale_b=block128 accumulation=precise"));
  EXPECT_EQ("", describe(ScalingSpec{})) << "no scaling, no text (the bench CSV's fp8_scaling column)";
}

/// A kernel that only describes itself (the problem space reads descriptions, nothing runs).
class DescribedKernel : public cutlass::library::Operation {
 public:
  explicit DescribedKernel(cutlass::library::GemmDescription d) : desc_(std::move(d)) {}
  cutlass::library::OperationDescription const &description() const override { return desc_; }
  cutlass::Status can_implement(cutlass::library::GemmUniversalConfiguration const &,
                                cutlass::library::GemmUniversalArguments const &) const override {
    return cutlass::Status::kErrorNotSupported;
  }
  uint64_t get_host_workspace_size(cutlass::library::GemmUniversalConfiguration const &) const override { return 0; }
  uint64_t get_device_workspace_size(cutlass::library::GemmUniversalConfiguration const &,
                                     cutlass::library::GemmUniversalArguments const &) const override {
    return 0;
  }
  cutlass::Status initialize(cutlass::library::GemmUniversalConfiguration const &, void *, void *,
                             cudaStream_t) const override {
    return cutlass::Status::kErrorNotSupported;
  }
  cutlass::Status run(cutlass::library::GemmUniversalArguments const &, void *, void *, cudaStream_t) const override {
    return cutlass::Status::kErrorNotSupported;
  }

 private:
  cutlass::library::GemmDescription desc_;
};

TEST(ProfilerScaling, WildcardTypesKeepTheFp8CombinationsOnly) {
  auto kernel = [](NumericTypeID input, NumericTypeID output) {
    cutlass::library::GemmDescription d;
    d.kind = cutlass::library::OperationKind::kGemm;
    d.A = {input, LayoutTypeID::kRowMajor, 16};
    d.B = {input, LayoutTypeID::kColumnMajor, 16};
    d.C = {output, LayoutTypeID::kColumnMajor, 8};
    d.D = d.C;
    return DescribedKernel(d);
  };
  DescribedKernel const bf16 = kernel(NumericTypeID::kBF16, NumericTypeID::kBF16);
  DescribedKernel const fp8 = kernel(NumericTypeID::kFE4M3, NumericTypeID::kBF16);
  std::vector<cutlass::library::Operation const *> const kernels{&bf16, &fp8};
  ParseResult r = parse_options({"--A=*:row", "--B=*:column", "--C=*:column"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(2u, operand_combinations(r.options, kernels).size()) << "unscaled: both kernels' types";
  r = parse_options({"--A=*:row", "--B=*:column", "--C=*:column", "--scale-a=row"});
  ASSERT_TRUE(r.ok()) << r.error;
  auto const combinations = operand_combinations(r.options, kernels);
  ASSERT_EQ(1u, combinations.size());
  EXPECT_EQ(NumericTypeID::kFE4M3, combinations[0][0].element);
  EXPECT_EQ(NumericTypeID::kFE4M3, combinations[0][1].element);
}

TEST(BenchScaling, FlagsApplyToTheFe4m3Rows) {
  using cutlass::benchmark::parse_options;
  auto const ok = parse_options({"--shapes=s.csv", "--dtypes=fe4m3", "--scale-a=block128x128", "--scale-b=block128"});
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_EQ(OperandScaleMode::kBlock128x128, ok.options.fp8_scaling.A.value());
  EXPECT_EQ(OperandScaleMode::kBlock1x128, ok.options.fp8_scaling.B.value());
  EXPECT_TRUE(ok.options.competitor_cublaslt);
  EXPECT_FALSE(parse_options({"--shapes=s.csv", "--scale-a=row"}).ok()) << "bf16,f16 by default: no fp8 row";
  EXPECT_FALSE(parse_options({"--shapes=s.csv", "--dtypes=fe4m3", "--accumulation=slow"}).ok());
  EXPECT_FALSE(parse_options({"--grouped=2,64,64", "--accumulation=precise"}).ok());
  EXPECT_TRUE(parse_options({"--shapes=s.csv", "--dtypes=bf16,fe4m3", "--accumulation=precise"}).ok());
}

TEST(BenchSplitK, SliceCountsOfTheBestKernelSearch) {
  using cutlass::benchmark::parse_options;
  EXPECT_TRUE(parse_options({"--shapes=s.csv"}).options.split_k_slices.empty()) << "off by default";
  auto const ok = parse_options({"--shapes=s.csv", "--split-k=2,4:8:4"});
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_EQ((std::vector<int64_t>{2, 4, 8}), ok.options.split_k_slices);
  EXPECT_FALSE(parse_options({"--shapes=s.csv", "--split-k=1"}).ok()) << "one slice is no split";
  EXPECT_FALSE(parse_options({"--shapes=s.csv", "--split-k=65536"}).ok());
}

}  // namespace
