/// The grouped mode of cutlass_profiler (--operation=grouped_gemm) and cutlass_bench (--grouped),
/// host side: the token counts per expert and both command lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "bench_options.h"
#include "grouped_profiler.h"
#include "options.h"

namespace {

using cutlass::profiler::expert_token_counts;
using cutlass::profiler::GroupedOptions;

int64_t total(std::vector<int64_t> const &counts) { return std::accumulate(counts.begin(), counts.end(), int64_t(0)); }

TEST(GroupedMode, CountsAddUpToTheTokensInEveryDistribution) {
  GroupedOptions o;
  o.experts = 8;
  o.tokens = 8192;
  for (char const *d : {"uniform", "skewed", "sparse"}) {
    o.distribution = d;
    std::vector<int64_t> const counts = expert_token_counts(o);
    ASSERT_EQ(8u, counts.size()) << d;
    EXPECT_EQ(8192, total(counts)) << d;
    for (int64_t c : counts) EXPECT_GE(c, 0) << d;
  }
  o.distribution = "uniform";
  for (int64_t c : expert_token_counts(o)) EXPECT_EQ(1024, c);
  o.distribution = "skewed";   // the largest share is ~180x the smallest (the 17 .. 3046)
  std::vector<int64_t> skewed = expert_token_counts(o);
  int64_t const largest = *std::max_element(skewed.begin(), skewed.end());
  int64_t const smallest = *std::min_element(skewed.begin(), skewed.end());
  EXPECT_GT(smallest, 0);
  EXPECT_GT(largest, 100 * smallest);
  o.distribution = "sparse";
  std::vector<int64_t> sparse = expert_token_counts(o);
  EXPECT_EQ(2, std::count(sparse.begin(), sparse.end(), int64_t(0))) << "a quarter of 8 experts get none";
  o.counts = {0, 5, 7};
  EXPECT_EQ(o.counts, expert_token_counts(o)) << "explicit counts as given";
}

/// The usage error a parse gives, or "" when it is valid.
template <typename Parse>
std::string error_of(Parse parse, std::vector<std::string> const &args) {
  return parse(args).error;
}

/// Whether `error` contains `part` (the reason the test means, not just any refusal).
::testing::AssertionResult says(std::string const &error, char const *part) {
  if (error.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error '" << error << "' does not say '" << part << "'";
}

TEST(GroupedMode, BenchFlagsNeedEachOther) {
  auto parse = [](std::vector<std::string> const &args) { return cutlass::benchmark::parse_options(args); };
  auto const ok = parse({"--grouped=8,14336,4096", "--tokens=34", "--distribution=sparse", "--seed=3"});
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_TRUE(ok.options.grouped_mode);
  EXPECT_EQ(8, ok.options.grouped.experts);
  EXPECT_EQ(14336, ok.options.grouped.m);
  EXPECT_EQ(4096, ok.options.grouped.k);
  EXPECT_EQ(34, ok.options.grouped.tokens);
  EXPECT_EQ(3u, ok.options.grouped.seed);
  EXPECT_TRUE(parse({"--grouped=3,64,64", "--counts=1,0,3", "--profiling-iterations=0"}).ok());
  EXPECT_TRUE(says(error_of(parse, {"--grouped=8,14336"}), "is not E,N,K"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=0,64,64"}), "not an integer in [1, 4096]"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--counts=1,2,3"}), "--counts lists 3 experts, not 2"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--counts=1,2", "--seed=4"}), "do not apply with it"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--counts=0,0"}), "add up to 0"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--counts=2000000000,2000000000"}), "add up to"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=4096,2000000000,2000000000"}), "2^40 bytes"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--shapes=suite.csv"}), "give one of them"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--dtypes=f16"}), "--dtypes does not apply to --grouped"));
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--scale-a=row"}), "--scale-a does not apply to --grouped"));
  EXPECT_TRUE(says(error_of(parse, {"--shapes=suite.csv", "--tokens=8192"}), "need --grouped=E,N,K"))
      << "a grouped flag at its default value is still refused";
  EXPECT_TRUE(says(error_of(parse, {"--grouped=2,64,64", "--distribution=zipf"}), "unknown distribution 'zipf'"));
  EXPECT_TRUE(says(error_of(parse, {}), "--shapes=<path> (or --grouped=E,N,K) is required"));
}

TEST(GroupedMode, ProfilerOperationGroupedGemm) {
  auto parse = [](std::vector<std::string> const &args) { return cutlass::profiler::parse_options(args); };
  auto const ok = parse({"--operation=grouped_gemm", "--experts=8", "--m=14336", "--k=4096", "--tokens=34",
                         "--distribution=sparse", "--seed=3", "--profiling-iterations=7", "--device=0"});
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_TRUE(ok.options.grouped);
  GroupedOptions const &layer = ok.options.grouped_layer;
  EXPECT_EQ(8, layer.experts);
  EXPECT_EQ(14336, layer.m);
  EXPECT_EQ(4096, layer.k);
  EXPECT_EQ(34, layer.tokens);
  EXPECT_EQ("sparse", layer.distribution);
  EXPECT_EQ(3u, layer.seed);
  EXPECT_EQ(7, layer.iterations);
  std::vector<std::string> const base = {"--operation=grouped_gemm", "--experts=2", "--m=64", "--k=64"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), base.begin(), base.end());
    return error_of(parse, extra);
  };
  EXPECT_TRUE(parse({"--operation=GroupedGemm", "--experts=3", "--m=64", "--k=64", "--counts=1,0,3"}).ok());
  EXPECT_TRUE(says(error_of(parse, {"--operation=grouped_gemm", "--m=64", "--k=64"}), "needs --experts=<E>"));
  EXPECT_TRUE(says(with({"--counts=1,2,3"}), "--counts lists 3 experts, not 2"));
  EXPECT_TRUE(says(with({"--counts=1,2", "--tokens=3"}), "do not apply with it"));
  EXPECT_TRUE(says(error_of(parse, {"--operation=grouped_gemm", "--experts=2", "--m=64,128", "--k=64"}),
                   "takes one --m and one --k"));
  EXPECT_TRUE(says(with({"--n=16"}), "--n does not apply to --operation=grouped_gemm"));
  EXPECT_TRUE(says(with({"--A=f16:row"}), "--A does not apply"));
  EXPECT_TRUE(says(with({"--verification-enabled"}), "--verification-enabled does not apply"));
  EXPECT_TRUE(says(with({"--scale-a=block128"}), "--scale-a does not apply")) << "not the GEMM mode's fp8 message";
  EXPECT_TRUE(says(with({"--bias-broadcast=column"}), "--bias-broadcast does not apply"));
  EXPECT_TRUE(says(with({"--distribution=zipf"}), "unknown distribution 'zipf'"));
  EXPECT_TRUE(says(error_of(parse, {"--experts=2"}), "need --operation=grouped_gemm"));
  EXPECT_TRUE(says(error_of(parse, {"--tokens=5"}), "need --operation=grouped_gemm"));
  EXPECT_TRUE(parse({"--operation=Gemm"}).ok());
  EXPECT_TRUE(says(error_of(parse, {"--operation=GEMM"}), "unknown operation 'GEMM'"));
}

}  // namespace
