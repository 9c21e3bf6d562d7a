/// @file src/profiler/grouped_profiler.h
/// The grouped mode of cutlass_profiler (--operation=grouped_gemm) and of cutlass_bench
/// (--grouped=E,N,K): one mixture-of-experts layer, E experts of bf16 weights M x K (out x in
/// features), T routed tokens split over the experts, as frameworks call it: per expert GemmEx(T,
/// N, m = M, n = tokens of the expert, k = K) with the experts' weights [E][M][K] and the tokens
/// packed [T][K] (row-major; column-major K x n_e per expert), outputs packed [T][M]. In one run,
/// interleaved: the library's grouped calls (cutlassLibGemmGroupedBatchedEx, the contiguous and
/// the device-sized ones), cuBLAS's cublasGemmGroupedBatchedEx, a loop of cublasGemmEx over the
/// experts, and the dense GEMM of the same flops (M x T x K, one weight) through cuBLAS and the
/// library. Every expert's output of the library's three grouped calls is verified against the
/// reference GEMM (src/reference, f64 sums; cuBLAS's grouped and loop outputs are compared and
/// reported, not judged; the dense GEMMs are timed only). Reports each median time, TFLOP/s over
/// the routed tokens, the ratios, and the active experts' weights read rate against a
/// device-to-device copy (no timing with iterations == 0).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cutlass {
namespace profiler {

struct GroupedOptions {
  int experts = 0;
  int64_t m = 0, k = 0;                  ///< each group's m (the experts' out features) and k (in features)
  int64_t tokens = 8192;                 ///< routed tokens in all (--tokens)
  std::string distribution = "skewed";   ///< uniform | skewed | sparse (--distribution)
  std::vector<int64_t> counts;           ///< explicit per-expert tokens (--counts); overrides the above
  uint64_t seed = 1;
  int warmup = 5, iterations = 20;
  int device = 0;
};

/// The per-expert token counts of `options`: --counts as given; uniform: equal shares; skewed:
/// shares falling geometrically from the largest to ~1/180 of it (issue 17's 17 to 3046 over 8
/// experts), shuffled by the seed; sparse: skewed with a quarter of the experts (the smallest)
/// given none. They add up to --tokens (--counts: to their sum).
std::vector<int64_t> expert_token_counts(GroupedOptions const &options);

/// The grouped flags both command lines take (grouped_flag_names), each parsed into `options`:
/// "tokens" (1 .. 2^31 - 1), "distribution" (uniform, skewed, sparse), "counts" (a comma list of
/// counts >= 0), "seed" (>= 0). False with `error` set for a bad value or another flag name.
bool parse_grouped_flag(std::string const &name, std::string const &value, GroupedOptions *options,
                        std::string *error);

/// Their names, and their --help lines as both tools print them.
std::set<std::string> const &grouped_flag_names();
std::string grouped_flags_help();

/// The layer `options` describes, checked once its experts, m and k are set (`given`: the flags on
/// the command line, parse_flags): "" or the usage error. --counts with --tokens, --distribution
/// or --seed (which it overrides), a --counts list whose length is not the experts', counts that
/// add up to 0 or past 2^31 - 1 tokens, and a weight, token or output tensor of more than 2^40
/// bytes are errors.
std::string check_grouped_layer(GroupedOptions const &options, std::set<std::string> const &given);

/// Runs the grouped mode, printing as `tool` (e.g. "cutlass_profiler"); the process exit status:
/// 0 ran and verified, 1 a launch failed or a result was wrong, 2 a build without cuBLAS, 3 a
/// build without a grouped bf16 TN kernel (nothing ran), or open_device's status (4: no device).
int run_grouped(GroupedOptions const &options, char const *tool);

}   // namespace profiler
}   // namespace cutlass
