/// Host tests of the profiler's command line: the kernel-name matcher (the same rules as the
/// CMake filter, generator/filtering.py), integer lists and ranges, tensor specs, and the
/// usage errors that must stop a run (exit status 2) instead of profiling something else; the
/// fused-epilogue flags (--epilogue, --bias-broadcast, --alpha-vector-broadcast, --clamp) and how
/// an epilogue variant selects kernels.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutlass/library/singleton.h"
#include "epilogue_variant.h"
#include "kernel_filter.h"
#include "kernel_selection.h"
#include "options.h"
#include "problem_space.h"

namespace {

using namespace cutlass::profiler;
using cutlass::library::LayoutTypeID;
using cutlass::library::NumericTypeID;
using cutlass::epilogue::ActivationKind;
using cutlass::epilogue::VectorBroadcast;

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
  ASSERT_TRUE(parse_tensor_spec("fe4m3", &spec, &error)) << error;   // fp8 outputs (the _amax epilogues)
  EXPECT_EQ(NumericTypeID::kFE4M3, *spec.element);
  ASSERT_TRUE(parse_tensor_spec("e5m2:column", &spec, &error)) << error;
  EXPECT_EQ(NumericTypeID::kFE5M2, *spec.element);
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
  EXPECT_FALSE(r.options.providers.cublaslt) << "cuBLASLt races plain problems only when asked";
}

TEST(ProfilerOptions, CublasLtProviderImpliesCublas) {
  ParseResult r = parse_options({"--providers=handle,cublaslt"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.options.providers.cublaslt && r.options.providers.cublas && r.options.providers.handle);
  EXPECT_FALSE(r.options.providers.cutlass);
}

TEST(ProfilerOptions, BackToBackLaunchesPerEventPair) {
  EXPECT_EQ(1, parse_options({}).options.back_to_back) << "each launch timed alone by default";
  ParseResult const r = parse_options({"--back-to-back=20"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(20, r.options.back_to_back);
  EXPECT_FALSE(parse_options({"--back-to-back=0"}).ok());
  EXPECT_FALSE(parse_options({"--back-to-back=1001"}).ok());
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

TEST(ProfilerOptions, SplitKSlicesAreAProblemDimensionForBatchCountOne) {
  // CUTLASS's --split_k_slices: one problem per value, the handle's kGemm batch_count
  ParseResult r = parse_options({"--k=4096", "--split_k_slices=1,4"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ((std::vector<int64_t>{1, 4}), r.options.split_k_slices);
  ProblemSpace const space = enumerate_problems(r.options, {});
  ASSERT_TRUE(space.error.empty()) << space.error;
  ASSERT_EQ(2u, space.problems.size());
  EXPECT_EQ(1, space.problems[0].split_k_slices);
  EXPECT_EQ(4, space.problems[1].split_k_slices);
  EXPECT_NE(std::string::npos, describe(space.problems[1]).find(" split_k_slices=4"));
  EXPECT_EQ(std::string::npos, describe(space.problems[0]).find("split_k_slices"));
  r = parse_options({"--split_k_slices=4", "--batch_count=2"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(enumerate_problems(r.options, {}).error.empty()) << "split-K slices of a batched GEMM";
  EXPECT_FALSE(parse_options({"--split_k_slices=0"}).ok());
  EXPECT_FALSE(parse_options({"--split_k_slices=65536"}).ok());
}

// ---- fused epilogues --------------------------------------------------------------------------

/// generator/epilogues.py's STANDARD and FP8 variants, by their suffix.
std::vector<std::string> const kVariantNames = {
    "bias",          "relu",          "bias_relu",     "gelu",          "bias_gelu",      "gelu_aux",
    "bias_gelu_aux", "gelu_erf",      "bias_gelu_erf", "silu",          "bias_silu",      "sigmoid",
    "bias_sigmoid",  "clamp",         "bias_clamp",    "alphavec",      "alphavec_bias_relu",
    "amax",          "bias_amax",     "bias_relu_amax", "bias_gelu_amax"};

TEST(ProfilerEpilogue, EveryGeneratorVariantParsesAndNamesItself) {
  for (std::string const &name : kVariantNames) {
    ParseResult r = parse_options({"--epilogue=" + name});
    ASSERT_TRUE(r.ok()) << name << ": " << r.error;
    EXPECT_TRUE(r.options.epilogue.fused()) << name;
    EXPECT_EQ(name, r.options.epilogue.name());
  }
  EXPECT_EQ(kVariantNames.size(), epilogue_variants().size());
}

TEST(ProfilerEpilogue, PiecesOfAVariant) {
  EpilogueVariant v;
  ASSERT_TRUE(parse_epilogue_variant("alphavec_bias_relu", &v));
  EXPECT_EQ(ActivationKind::kReLU, v.activation);
  EXPECT_TRUE(v.bias && v.alpha_vector && !v.aux && !v.scale_amax);
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu_aux", &v));
  EXPECT_EQ(ActivationKind::kGELU, v.activation);
  EXPECT_TRUE(v.bias && v.aux);
  ASSERT_TRUE(parse_epilogue_variant("gelu_erf", &v));
  EXPECT_EQ(ActivationKind::kGELUErf, v.activation);
  EXPECT_FALSE(v.bias);
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu_amax", &v));
  EXPECT_TRUE(v.scale_amax);
}

TEST(ProfilerEpilogue, DefaultIsThePlainGemmAndNoneNamesIt) {
  ParseResult r = parse_options({});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.options.epilogue.fused());
  EXPECT_EQ(VectorBroadcast::kPerRow, r.options.bias_broadcast) << "cuBLASLt's orientation: bias[m]";
  r = parse_options({"--epilogue=none"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.options.epilogue.fused());
}

TEST(ProfilerEpilogue, UnknownVariantIsAUsageErrorNamingTheValidOnes) {
  for (std::string const &bad : {"bias_gleu", "BIAS_GELU", "gelu_bias", "bias+gelu", "relu_aux", "tma_bias_gelu"}) {
    ParseResult r = parse_options({"--epilogue=" + bad});
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(std::string::npos, r.error.find("unknown epilogue '" + bad + "'")) << r.error;
    for (std::string const &name : kVariantNames) {
      EXPECT_NE(std::string::npos, r.error.find(" " + name)) << name << " missing from: " << r.error;
    }
  }
  EXPECT_FALSE(parse_options({"--epilogue"}).ok()) << "needs a value";
  EXPECT_FALSE(parse_options({"--epilogue=bias", "--epilogue=relu"}).ok()) << "given twice";
}

TEST(ProfilerEpilogue, BiasBroadcastValues) {
  ParseResult r = parse_options({"--epilogue=bias_gelu", "--bias-broadcast=column"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(VectorBroadcast::kPerColumn, r.options.bias_broadcast);
  r = parse_options({"--epilogue=bias_relu", "--bias-broadcast=row"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(VectorBroadcast::kPerRow, r.options.bias_broadcast);
  for (std::string const &bad : {"Row", "col", "columns", "m", ""}) {
    r = parse_options({"--epilogue=bias_gelu", "--bias-broadcast=" + bad});
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(std::string::npos, r.error.find("--bias-broadcast")) << r.error;
  }
  r = parse_options({"--epilogue=alphavec", "--alpha-vector-broadcast=column"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(VectorBroadcast::kPerColumn, r.options.alpha_vector_broadcast);
}

TEST(ProfilerEpilogue, FlagsOfPiecesTheVariantLacksAreUsageErrors) {
  EXPECT_FALSE(parse_options({"--bias-broadcast=row"}).ok()) << "plain epilogue has no bias";
  EXPECT_FALSE(parse_options({"--epilogue=gelu", "--bias-broadcast=column"}).ok());
  EXPECT_FALSE(parse_options({"--epilogue=bias_relu", "--alpha-vector-broadcast=row"}).ok());
  EXPECT_FALSE(parse_options({"--epilogue=bias_gelu", "--clamp=-1,1"}).ok());
  // Order of the flags does not matter.
  EXPECT_TRUE(parse_options({"--bias-broadcast=column", "--epilogue=bias_silu"}).ok());
}

TEST(ProfilerEpilogue, ClampBounds) {
  ParseResult r = parse_options({"--epilogue=bias_clamp", "--clamp=-0.5,2"});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FLOAT_EQ(-0.5f, r.options.clamp_min);
  EXPECT_FLOAT_EQ(2.0f, r.options.clamp_max);
  EXPECT_TRUE(parse_options({"--epilogue=clamp", "--clamp=1,1"}).ok()) << "lo == hi is allowed";
  for (std::string const &bad : {"2,1", "1", "1,2,3", "a,b", "nan,1", ",1"}) {
    EXPECT_FALSE(parse_options({"--epilogue=clamp", "--clamp=" + bad}).ok()) << bad;
  }
}

TEST(ProfilerEpilogue, CublasLtEpilogueNames) {
  EpilogueVariant v;
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu", &v));
  EXPECT_STREQ("CUBLASLT_EPILOGUE_GELU_BIAS", cublaslt_epilogue_name(v));
  ASSERT_TRUE(parse_epilogue_variant("bias_relu", &v));
  EXPECT_STREQ("CUBLASLT_EPILOGUE_RELU_BIAS", cublaslt_epilogue_name(v));
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu_aux", &v));
  EXPECT_STREQ("CUBLASLT_EPILOGUE_GELU_AUX_BIAS", cublaslt_epilogue_name(v));
  ASSERT_TRUE(parse_epilogue_variant("bias", &v));
  EXPECT_STREQ("CUBLASLT_EPILOGUE_BIAS", cublaslt_epilogue_name(v));
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu_amax", &v));
  EXPECT_STREQ("CUBLASLT_EPILOGUE_GELU_BIAS", cublaslt_epilogue_name(v)) << "D scale and amax: descriptor attributes";
  for (std::string const &none : {"gelu_erf", "bias_silu", "clamp", "alphavec_bias_relu"}) {
    ASSERT_TRUE(parse_epilogue_variant(none, &v));
    EXPECT_FALSE(cublaslt_has_epilogue(v)) << none;
  }
}

TEST(ProfilerEpilogue, KernelsFitOnlyTheirOwnVariant) {
  cutlass::library::GemmDescription kernel;
  kernel.A = {NumericTypeID::kBF16, LayoutTypeID::kRowMajor, 8};
  kernel.B = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, 8};
  kernel.C = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, 8};
  kernel.D = kernel.C;
  kernel.epilogue.activation = ActivationKind::kGELU;
  kernel.epilogue.element_bias = NumericTypeID::kBF16;
  GemmSpec spec;
  spec.m = spec.n = spec.k = 256;
  spec.A = {NumericTypeID::kBF16, LayoutTypeID::kRowMajor};
  spec.B = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor};
  spec.C = {NumericTypeID::kBF16, LayoutTypeID::kColumnMajor};
  EXPECT_FALSE(kernel_fits(kernel, spec)) << "a plain problem takes plain kernels only";
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu", &spec.epilogue.variant));
  EXPECT_TRUE(kernel_fits(kernel, spec));
  ASSERT_TRUE(parse_epilogue_variant("gelu", &spec.epilogue.variant));
  EXPECT_FALSE(kernel_fits(kernel, spec));
  ASSERT_TRUE(parse_epilogue_variant("bias_gelu_aux", &spec.epilogue.variant));
  EXPECT_FALSE(kernel_fits(kernel, spec));
}

TEST(ProfilerEpilogue, EveryFusedKernelOfTheBuildEndsInItsVariantName) {
  // The library's EpilogueDescription and the generator's name suffix must agree, or
  // --epilogue=<suffix> would select other kernels than --kernels=*<suffix>.
  int fused = 0;
  for (auto const &operation : cutlass::library::Singleton::get().manifest) {
    if (operation->description().kind != cutlass::library::OperationKind::kGemm) continue;
    auto const &desc = gemm_description(*operation);
    EpilogueVariant const v = variant_of(desc.epilogue);
    std::string const name = desc.name;
    if (!v.fused()) continue;
    ++fused;
    std::string const suffix = "_" + v.name();
    ASSERT_GE(name.size(), suffix.size());
    EXPECT_EQ(suffix, name.substr(name.size() - suffix.size())) << name;
    EpilogueVariant parsed;
    EXPECT_TRUE(parse_epilogue_variant(v.name(), &parsed)) << name;
  }
  if (fused == 0) GTEST_SKIP() << "this build has no fused kernels";
}

}  // namespace
