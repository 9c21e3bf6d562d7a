/// Host tests of the profiler's command line: the kernel-name matcher (the same rules as the
/// CMake filter, generator/filtering.py), integer lists and ranges, tensor specs, and the
/// usage errors that must stop a run (exit status 2) instead of profiling something else.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_filter.h"
#include "options.h"

namespace {

using namespace cutlass::profiler;
using cutlass::library::LayoutTypeID;
using cutlass::library::NumericTypeID;

std::string const kName = "cutlass_tensorop_bf16_s16816gemm_bf16_128x256_32x3_tn_align8";

TEST(KernelFilter, PiecesInOrderUnanchoredCaseSensitive) {
  EXPECT_TRUE(pattern_matches(kName, "bf16*tn"));
  EXPECT_TRUE(pattern_matches(kName, "s16816gemm"));
  EXPECT_TRUE(pattern_matches(kName, "*"));
  EXPECT_FALSE(pattern_matches(kName, "tn*bf16"));     // out of order
  EXPECT_FALSE(pattern_matches(kName, "BF16"));        // case-sensitive
  EXPECT_FALSE(pattern_matches(kName, "128x256*128x256"));   // pieces may not overlap
  EXPECT_TRUE(pattern_matches(kName, kName + "*"));
}

TEST(KernelFilter, ListsTrimWhitespaceAndAllMatchesEverything) {
  EXPECT_EQ((std::vector<std::string>{"sgemm", "dgemm"}), split_pattern_list(" sgemm, ,dgemm "));
  EXPECT_TRUE(kernel_name_matches(kName, "sgemm, bf16*tn"));
  EXPECT_TRUE(kernel_name_matches(kName, "ALL"));
  EXPECT_TRUE(kernel_name_matches(kName, "all"));
  EXPECT_FALSE(kernel_name_matches(kName, "sgemm,dgemm"));
  EXPECT_FALSE(kernel_name_matches(kName, ""));
  EXPECT_FALSE(kernel_name_matches(kName, " , "));
}

TEST(ProfilerOptions, IntegerListsAndRanges) {
  std::vector<int64_t> values;
  std::string error;
  ASSERT_TRUE(parse_integer_list("4096", 0, 1 << 30, &values, &error)) << error;
  EXPECT_EQ((std::vector<int64_t>{4096}), values);
  values.clear();
  ASSERT_TRUE(parse_integer_list("128,256:1024:256", 0, 1 << 30, &values, &error)) << error;
  EXPECT_EQ((std::vector<int64_t>{128, 256, 512, 768, 1024}), values);
  values.clear();
  EXPECT_FALSE(parse_integer_list("1024:128", 0, 1 << 30, &values, &error));   // end before start
  EXPECT_FALSE(parse_integer_list("8:64:0", 0, 1 << 30, &values, &error));     // step 0
  EXPECT_FALSE(parse_integer_list("-1", 0, 1 << 30, &values, &error));
  EXPECT_FALSE(parse_integer_list("12x", 0, 1 << 30, &values, &error));
}

TEST(ProfilerOptions, TensorSpecs) {
  TensorSpec spec;
  std::string error;
  ASSERT_TRUE(parse_tensor_spec("bf16:row", &spec, &error)) << error;
  EXPECT_EQ(NumericTypeID::kBF16, *spec.element);
  EXPECT_EQ(LayoutTypeID::kRowMajor, *spec.layout);
  ASSERT_TRUE(parse_tensor_spec("f32", &spec, &error)) << error;
  EXPECT_EQ(NumericTypeID::kF32, *spec.element);
  EXPECT_EQ(LayoutTypeID::kColumnMajor, *spec.layout) << "a type alone keeps the layout column";
  ASSERT_TRUE(parse_tensor_spec("*", &spec, &error)) << error;
  EXPECT_FALSE(spec.element.has_value());
  EXPECT_FALSE(spec.layout.has_value());
  EXPECT_FALSE(parse_tensor_spec("bf17:row", &spec, &error));
  EXPECT_FALSE(parse_tensor_spec("bf16:diagonal", &spec, &error));
}

TEST(ProfilerOptions, DefaultsAreTheDocumentedProblem) {
  ParseResult r = parse_options({});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ((std::vector<int64_t>{4096}), r.options.m);
  EXPECT_EQ(NumericTypeID::kBF16, *r.options.A.element);
  EXPECT_EQ(LayoutTypeID::kRowMajor, *r.options.A.layout);
  EXPECT_EQ(LayoutTypeID::kColumnMajor, *r.options.B.layout);
  EXPECT_TRUE(r.options.providers.cutlass && r.options.providers.cublas && r.options.providers.handle);
}

TEST(ProfilerOptions, UsageErrorsStopTheRun) {
  for (std::vector<std::string> const &args : std::vector<std::vector<std::string>>{
           {"--operation=GEMM"},            // CUTLASS would silently profile every kind
           {"--operation=gemmm"},
           {"--no-such-flag=1"},
           {"--m=128", "--m=256"},          // given twice
           {"--m"},                         // missing value
           {"--A=bf17"},
           {"--providers=cutlass,nvblas"},
       }) {
    ParseResult r = parse_options(args);
    EXPECT_FALSE(r.ok()) << args.front();
    EXPECT_FALSE(r.error.empty());
  }
  EXPECT_TRUE(parse_options({"--operation=gemm", "--m=1:3", "--kernels=sgemm"}).ok());
}

}  // namespace
