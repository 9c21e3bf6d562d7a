/// @file src/benchmark/bench_options.cpp
#include "bench_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "cutlass/library/util.h"
#include "flag_parser.h"
#include "options.h"

namespace cutlass {
namespace benchmark {

namespace {

using library::NumericTypeID;

std::vector<std::string> split(std::string const &text) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    size_t const end = text.find(',', begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

using FlagParser = profiler::FlagParser<BenchOptions>;

FlagParser string_flag(std::string BenchOptions::*member) {
  return [=](std::string const &value, BenchOptions &options, std::string *) {
    options.*member = value;
    return true;
  };
}

bool parse_back_to_back(std::string const &value, BenchOptions &options, std::string *error) {
  int64_t v = 0;
  if (!profiler::parse_integer_in_range(value, 1, 1000, &v, error)) return false;
  options.back_to_back = int(v);
  return true;
}

FlagParser iterations_flag(int BenchOptions::*member) {
  return [=](std::string const &value, BenchOptions &options, std::string *error) {
    int64_t v = 0;
    if (!profiler::parse_integer_in_range(value, 0, 1000000, &v, error)) return false;
    options.*member = int(v);
    return true;
  };
}

bool parse_dtypes(std::string const &value, BenchOptions &options, std::string *error) {
  std::vector<NumericTypeID> dtypes;
  for (std::string const &name : split(value)) {
    NumericTypeID const type = library::numeric_type_from_string(name.c_str());
    if (type != NumericTypeID::kBF16 && type != NumericTypeID::kF16 && type != NumericTypeID::kFE4M3) {
      *error = "unknown dtype '" + name + "' (expected a comma list of bf16, f16, fe4m3)";
      return false;
    }
    for (NumericTypeID seen : dtypes) {
      if (seen == type) {
        *error = "'" + name + "' is listed twice";
        return false;
      }
    }
    dtypes.push_back(type);
  }
  options.dtypes = dtypes;
  return true;
}

bool parse_grouped(std::string const &value, BenchOptions &options, std::string *error) {
  std::vector<std::string> const parts = split(value);
  int64_t experts = 0;
  if (parts.size() != 3 || !profiler::parse_integer_in_range(parts[0], 1, 4096, &experts, error) ||
      !profiler::parse_integer_in_range(parts[1], 1, INT32_MAX, &options.grouped.m, error) ||
      !profiler::parse_integer_in_range(parts[2], 1, INT32_MAX, &options.grouped.k, error)) {
    if (parts.size() != 3) *error = "'" + value + "' is not E,N,K (experts, out features, in features)";
    return false;
  }
  options.grouped.experts = int(experts);
  options.grouped_mode = true;
  return true;
}

/// --tokens, --distribution, --counts, --seed: the grouped mode's own flags (grouped_profiler.h)
FlagParser grouped_flag(std::string const &name) {
  return [name](std::string const &value, BenchOptions &options, std::string *error) {
    return profiler::parse_grouped_flag(name, value, &options.grouped, error);
  };
}

bool parse_competitor(std::string const &value, BenchOptions &options, std::string *error) {
  if (value != "cublas" && value != "cublaslt") {
    *error = "unknown competitor '" + value + "' (expected cublas or cublaslt)";
    return false;
  }
  options.competitor_cublaslt = value == "cublaslt";
  return true;
}

bool parse_split_k(std::string const &value, BenchOptions &options, std::string *error) {
  std::vector<int64_t> slices;
  if (!profiler::parse_integer_list(value, 2, 65535, &slices, error)) return false;
  options.split_k_slices = slices;
  return true;
}

bool parse_groups(std::string const &value, BenchOptions &options, std::string *error) {
  std::vector<std::string> groups = split(value);
  for (std::string const &group : groups) {
    if (group.empty()) {
      *error = "'" + value + "' has an empty group name";
      return false;
    }
  }
  options.groups = groups;
  return true;
}

bool parse_max_seconds(std::string const &value, BenchOptions &options, std::string *error) {
  char *end = nullptr;
  errno = 0;
  double const v = std::strtod(value.c_str(), &end);
  if (value.empty() || errno != 0 || *end != '\0' || !std::isfinite(v) || v < 0) {
    *error = "'" + value + "' is not a number of seconds >= 0";
    return false;
  }
  options.max_kernel_seconds = v;
  return true;
}

bool parse_verify(std::string const &value, BenchOptions &options, std::string *error) {
  if (value == "auto") {
    options.verify = VerifyMode::kAuto;
  } else if (value == "true" || value == "1") {
    options.verify = VerifyMode::kAlways;
  } else if (value == "false" || value == "0") {
    options.verify = VerifyMode::kNever;
  } else {
    *error = "'" + value + "' is not auto, true or false";
    return false;
  }
  return true;
}

bool parse_device(std::string const &value, BenchOptions &options, std::string *error) {
  int64_t v = 0;
  if (!profiler::parse_integer_in_range(value, 0, 1023, &v, error)) return false;
  options.device = int(v);
  return true;
}

bool parse_workspace_mib(std::string const &value, BenchOptions &options, std::string *error) {
  int64_t v = 0;
  if (!profiler::parse_integer_in_range(value, 0, 65536, &v, error)) return false;
  options.workspace_mib = int(v);
  return true;
}

FlagParser scale_flag(std::optional<epilogue::OperandScaleMode> profiler::ScalingSpec::*member) {
  return [=](std::string const &value, BenchOptions &options, std::string *error) {
    return profiler::parse_scale_mode(value, &(options.fp8_scaling.*member), error);
  };
}

bool parse_accumulation(std::string const &value, BenchOptions &options, std::string *error) {
  return profiler::parse_accumulation(value, &options.fp8_scaling.accumulation, error);
}

/// Every flag, by name (without the leading "--").
std::map<std::string, FlagParser> const &flag_table() {
  static std::map<std::string, FlagParser> const table = {
      {"shapes", string_flag(&BenchOptions::shapes)},
      {"dtypes", parse_dtypes},
      {"groups", parse_groups},
      {"kernels", string_flag(&BenchOptions::kernels)},
      {"ignore-kernels", string_flag(&BenchOptions::ignore_kernels)},
      {"warmup-iterations", iterations_flag(&BenchOptions::warmup_iterations)},
      {"profiling-iterations", iterations_flag(&BenchOptions::profiling_iterations)},
      {"back-to-back", parse_back_to_back},
      {"max-kernel-seconds", parse_max_seconds},
      {"workspace-mib", parse_workspace_mib},
      {"verify", parse_verify},
      {"output", string_flag(&BenchOptions::output)},
      {"details", string_flag(&BenchOptions::details)},
      {"device", parse_device},
      {"competitor", parse_competitor},
      {"split-k", parse_split_k},
      {"scale-a", scale_flag(&profiler::ScalingSpec::A)},
      {"scale-b", scale_flag(&profiler::ScalingSpec::B)},
      {"accumulation", parse_accumulation},
      {"grouped", parse_grouped},
      {"tokens", grouped_flag("tokens")},
      {"distribution", grouped_flag("distribution")},
      {"counts", grouped_flag("counts")},
      {"seed", grouped_flag("seed")},
  };
  return table;
}

}  // namespace

ParseResult parse_options(std::vector<std::string> const &arguments) {
  ParseResult result;
  profiler::Options const profiler_defaults;
  result.options.warmup_iterations = profiler_defaults.warmup_iterations;
  result.options.profiling_iterations = profiler_defaults.profiling_iterations;
  // every cutlass_bench flag takes a value
  std::set<std::string> flags;   // the flags on the command line
  result.error = profiler::parse_flags(
      arguments, flag_table(), [](std::string const &) { return false; }, result.options, &result.options.help, &flags);
  BenchOptions &o = result.options;
  std::set<std::string> mode_flags = profiler::grouped_flag_names();
  bool const grouped_flags =
      std::any_of(mode_flags.begin(), mode_flags.end(), [&](std::string const &f) { return flags.count(f) > 0; });
  if (result.error.empty() && !o.help) {
    if (o.grouped_mode && !o.shapes.empty()) {
      result.error = "--grouped runs one layer, not a --shapes suite: give one of them";
    } else if (!o.grouped_mode && o.shapes.empty()) {
      result.error = "--shapes=<path> (or --grouped=E,N,K) is required";
    } else if (!o.grouped_mode && grouped_flags) {
      result.error = "--tokens, --distribution, --counts and --seed need --grouped=E,N,K";
    } else if (o.grouped_mode) {
      mode_flags.insert({"grouped", "warmup-iterations", "profiling-iterations", "device"});
      std::string const other = profiler::first_flag_outside(flags, mode_flags);
      result.error = other.empty() ? profiler::check_grouped_layer(o.grouped, flags)
                                   : "--" + other + " does not apply to --grouped (one bf16 TN layer)";
    } else if (o.fp8_scaling.any() && std::find(o.dtypes.begin(), o.dtypes.end(), NumericTypeID::kFE4M3) == o.dtypes.end()) {
      result.error = "--scale-a, --scale-b and --accumulation=precise apply to --dtypes=fe4m3 (a --shapes suite)";
    }
  }
  o.grouped.warmup = o.warmup_iterations;
  o.grouped.iterations = o.profiling_iterations;
  o.grouped.device = o.device;
  // cublasGemmEx takes no fp8: cuBLASLt is then every dtype's competitor (one baseline per run)
  for (NumericTypeID type : result.options.dtypes) {
    if (type == NumericTypeID::kFE4M3) result.options.competitor_cublaslt = true;
  }
  return result;
}

std::string help_text() {
  return R"(cutlass_bench: races cutlass_lib against cuBLAS over a suite of GEMM shapes.

Usage: cutlass_bench --shapes=<csv> [--flag=value ...]
       cutlass_bench --grouped=E,N,K [--tokens=T] [--distribution=...|--counts=...] [--flag=value ...]

For each shape and dtype d: D = A * B with A, B, C, D all of type d, f32 accumulation, alpha 1,
beta 0, run through the profiler's machinery (cutlass_profiler): the Handle's choice, every
compiled kernel that fits (the "best kernel" search) and cuBLAS; operands rotate across copies
larger than twice the L2, uniform in [-1, 1]; warm-up, then the median of CUDA-event-timed
launches, each of ours interleaved with one of cuBLAS, so every ratio comes from one window.

Input:
  --shapes=<path>            CSV with the header "group,M,N,K,layout"; '#' lines are comments.
                             layout: two letters, A then B, column-major BLAS convention:
                             n = not transposed, t = transposed ("tn": A row-major M x K, B
                             column-major K x N); C and D column-major M x N
  --dtypes=<list>            bf16,f16 (default both); fe4m3: e4m3 x e4m3 -> bf16, which makes
                             cuBLASLt the competitor of the whole run (cublasGemmEx takes no
                             fp8; cuBLASLt in the same scaling and accumulation modes)
  --scale-a=, --scale-b=     the fe4m3 rows' operand scales: none (default), tensor, row,
                             block128, block128x128 (cutlass_profiler --help: the modes)
  --accumulation=fast|precise  the fe4m3 rows' sums over K (default fast); block scales and
                             precise run on the block-scaled kernels (..._blockscale)
  --groups=<list>            groups of the file to run (default all)
  --kernels=<patterns>       limit the best-kernel search (the profiler's --kernels syntax:
  --ignore-kernels=<patterns>  '*'-separated pieces in order, comma lists); the Handle always
                             chooses among every kernel of the build

Timing and verification:
  --warmup-iterations=<n>    launches before timing (default 10, as the profiler)
  --profiling-iterations=<n> timed launches per kernel (default 50, as the profiler)
  --back-to-back=<n>         launches of one provider per event pair, their mean reported (default
                             1; the profiler's flag): n calls back to back, ours x n, cuBLAS x n, ...,
                             as a framework's stream runs them (programmatic dependent launch then
                             overlaps a kernel's start with the previous one's end)
  --max-kernel-seconds=<s>   cap on the warm-up and timed time of one kernel, both launches of
                             each pair (x --back-to-back) counted, estimated at 700 TFLOP/s (default 0.5; 0: no
                             cap). Larger shapes run proportionally fewer launches, at least 10
                             timed and 2 warm-up.
  --verify=auto|true|false   check each result once against the device reference GEMM and cuBLAS
                             (default auto: shapes with M*N*K <= 2^36, i.e. up to 4096^3; the
                             naive reference takes seconds on the largest shapes)
  --workspace-mib=<n>        allocate the library handle's workspace and the kernels' workspace,
                             n MiB each, once per shape before its operands (default 0: the
                             handle starts with 4 MiB and the kernels' workspace grows per
                             kernel, so where they land depends on what ran before; a
                             measurement aid, docs/NOTES.md s26)
  --competitor=cublas|cublaslt  what the ratios are against (default cublas: cublasGemmEx);
                             cublaslt: cublasLtMatmul with its heuristic's first algorithm, as
                             frameworks call it, interleaved with ours the same way
  --split-k=<slices>         e.g. 2,4,8 or 2:16:2 (each >= 2): the best-kernel search also times
                             the handle's split-K route with each slice count (cutlass_profiler
                             --split_k_slices: K in that many slices on the cost model's slice
                             kernel, then the reduction) where the route takes the shape (one
                             batch, plain epilogue, K a multiple of the slices); such a best
                             kernel reads "<slice kernel>+splitk<slices>". Default: none

Grouped mode (one mixture-of-experts layer, bf16, instead of --shapes):
  --grouped=E,N,K            E experts of N x K weights (out x in features); per expert the
                             framework's GemmEx(T, N, m = N, n = its tokens, k = K), tokens packed.
                             Races cutlassLibGemmGroupedBatchedEx (and the same layer through
                             cutlassLibGemmGroupedContiguousEx, its token ends on the device, and
                             cutlassLibGemmGroupedDeviceSizesEx, every expert's sizes and pointers
                             on the device)
                             against cublasGemmGroupedBatchedEx,
                             a loop of cublasGemmEx and the dense GEMM of the same flops (N x T x K)
                             through cuBLAS and the library, interleaved; verifies every expert's
                             output of each against the reference GEMM; prints each median, TFLOP/s
                             over the routed tokens, ratios, and the active experts' weight bytes per
                             second against a device-to-device copy.
)" + profiler::grouped_flags_help() + R"(  (--warmup-iterations, --profiling-iterations and --device apply, the defaults the profiler's;
  other flags are errors)

Output:
  stdout                     one line per shape and dtype, printed as it finishes: the Handle's
                             TFLOP/s and ratio, the best kernel's TFLOP/s and ratio, cuBLAS's
                             TFLOP/s (median of all its launches of that shape), the Handle's GB/s
                             (the fewest bytes: A, B, D once, C when read) and its fraction of the
                             device-to-device copy measured at the start, timed launches per
                             kernel, verification, seconds taken, kernel names (short); then per
                             dtype and group the geometric mean of the ratios, and over the large
                             shapes (M, N, K >= 1024) the geometric mean and the minimum.
                             ratio = competitor time / our time in the same interleaved run (> 1:
                             faster than cuBLAS or cuBLASLt); "best" = the kernel with the highest
                             ratio.
  --output=<path>            CSV: shape,group,dtype,layout,kernel,tflops,cublas_tflops,ratio,
                             best_kernel,best_tflops,best_ratio,verified,gbps,copy_gbps,
                             copy_fraction,cublas_gbps,fp8_scaling (full kernel names; "cublas"
                             columns are the competitor's; fp8_scaling: the fe4m3 rows' scales)
  --details=<path>           the profiler's per-kernel tables for every shape (statuses, errors)
  --device=<index>           CUDA device (default 0)
  --help                     this text

Exit status: 0 everything ran (and what was verified passed); 1 a verification or a run
failed; 2 usage error or unreadable shapes file; 3 nothing ran; 4 no CUDA device.
)";
}

}  // namespace benchmark
}  // namespace cutlass
