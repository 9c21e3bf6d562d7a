/// @file src/profiler/options.cpp
#include "options.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "cutlass/library/util.h"
#include "flag_parser.h"

namespace cutlass {
namespace profiler {

namespace {

using library::LayoutTypeID;
using library::NumericTypeID;

/// Element types the profiler can fill, run through the reference and compare.
/// fe4m3 / fe5m2: fp8 inputs (A and B) and the fp8 outputs of the _amax epilogues (C / D).
constexpr NumericTypeID kSupportedTypes[] = {NumericTypeID::kF16, NumericTypeID::kBF16,  NumericTypeID::kTF32,
                                             NumericTypeID::kF32, NumericTypeID::kF64,   NumericTypeID::kS8,
                                             NumericTypeID::kS32, NumericTypeID::kFE4M3, NumericTypeID::kFE5M2};

/// Longest value list one flag may produce (a guard against typos like --m=1:2000000000).
constexpr size_t kMaxListLength = 100000;

std::vector<std::string> split(std::string const &text, char separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    size_t end = text.find(separator, begin);
    if (end == std::string::npos) {
      parts.push_back(text.substr(begin));
      return parts;
    }
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
}

bool parse_integer(std::string const &text, int64_t *value) {
  if (text.empty()) return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *value = v;
  return true;
}

bool parse_double(std::string const &text, double *value) {
  if (text.empty()) return false;
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  *value = v;
  return true;
}

bool parse_bool(std::string const &text, bool *value) {
  if (text == "true" || text == "1") {
    *value = true;
    return true;
  }
  if (text == "false" || text == "0") {
    *value = false;
    return true;
  }
  return false;
}

std::string supported_type_names() {
  std::string names;
  for (NumericTypeID type : kSupportedTypes) names += std::string(names.empty() ? "" : " ") + library::to_string(type);
  return names;
}

using FlagParser = profiler::FlagParser<Options>;

FlagParser integer_list_flag(std::vector<int64_t> Options::*member, int64_t min_value, int64_t max_value) {
  return [=](std::string const &value, Options &options, std::string *error) {
    return parse_integer_list(value, min_value, max_value, &(options.*member), error);
  };
}

FlagParser integer_flag(int Options::*member, int64_t min_value, int64_t max_value) {
  return [=](std::string const &value, Options &options, std::string *error) {
    int64_t v = 0;
    if (!parse_integer_in_range(value, min_value, max_value, &v, error)) return false;
    options.*member = int(v);
    return true;
  };
}

FlagParser scalar_list_flag(std::vector<double> Options::*member) {
  return [=](std::string const &value, Options &options, std::string *error) {
    std::vector<double> values;
    for (std::string const &item : split(value, ',')) {
      double v = 0;
      if (!parse_double(item, &v)) {
        *error = "'" + item + "' is not a finite number";
        return false;
      }
      values.push_back(v);
    }
    options.*member = values;
    return true;
  };
}

FlagParser tensor_flag(TensorSpec Options::*member) {
  return [=](std::string const &value, Options &options, std::string *error) {
    return parse_tensor_spec(value, &(options.*member), error);
  };
}

FlagParser string_flag(std::string Options::*member) {
  return [=](std::string const &value, Options &options, std::string *) {
    options.*member = value;
    return true;
  };
}

bool parse_providers(std::string const &value, Options &options, std::string *error) {
  ProviderSet set{false, false, false};
  for (std::string const &name : split(value, ',')) {
    if (name == "cutlass") {
      set.cutlass = true;
    } else if (name == "cublas") {
      set.cublas = true;
    } else if (name == "handle") {
      set.handle = true;
    } else if (name == "cublaslt") {
      set.cublaslt = set.cublas = true;
    } else {
      *error = "unknown provider '" + name + "' (expected a comma list of cutlass, cublas, cublaslt, handle)";
      return false;
    }
  }
  options.providers = set;
  return true;
}

bool parse_verifiers(std::string const &value, Options &options, std::string *error) {
  VerifierSet set{false, false};
  for (std::string const &name : split(value, ',')) {
    if (name == "device") {
      set.device = true;
    } else if (name == "cublas") {
      set.cublas = true;
    } else {
      *error = "unknown verification provider '" + name + "' (expected a comma list of device, cublas)";
      return false;
    }
  }
  options.verifiers = set;
  return true;
}

bool parse_operation(std::string const &value, Options &options, std::string *error) {
  if (value == "gemm" || value == "Gemm" || value == "grouped_gemm" || value == "GroupedGemm") {
    options.grouped = value == "grouped_gemm" || value == "GroupedGemm";
    return true;
  }
  *error = "unknown operation '" + value + "' (expected gemm or grouped_gemm, CUTLASS's names: Gemm, GroupedGemm)";
  return false;
}

bool parse_experts(std::string const &value, Options &options, std::string *error) {
  int64_t experts = 0;
  if (!parse_integer_in_range(value, 1, 4096, &experts, error)) return false;
  options.grouped_layer.experts = int(experts);
  return true;
}

/// --tokens, --distribution, --counts, --seed (grouped_profiler.h)
FlagParser grouped_flag(std::string const &name) {
  return [name](std::string const &value, Options &options, std::string *error) {
    return parse_grouped_flag(name, value, &options.grouped_layer, error);
  };
}

bool parse_verification_enabled(std::string const &value, Options &options, std::string *error) {
  if (parse_bool(value, &options.verification_enabled)) return true;
  *error = "'" + value + "' is not a boolean (true, false, 1, 0)";
  return false;
}

bool parse_epilogue(std::string const &value, Options &options, std::string *error) {
  if (parse_epilogue_variant(value, &options.epilogue)) return true;
  *error = "unknown epilogue '" + value + "' (expected none or one of: " + epilogue_variant_names() + ")";
  return false;
}

FlagParser broadcast_flag(epilogue::VectorBroadcast Options::*member) {
  return [=](std::string const &value, Options &options, std::string *error) {
    return parse_vector_broadcast(value, &(options.*member), error);
  };
}

FlagParser scale_mode_flag(std::optional<epilogue::OperandScaleMode> ScalingSpec::*member) {
  return [=](std::string const &value, Options &options, std::string *error) {
    return parse_scale_mode(value, &(options.scaling.*member), error);
  };
}

bool accumulation_flag(std::string const &value, Options &options, std::string *error) {
  return parse_accumulation(value, &options.scaling.accumulation, error);
}

bool raster_order_flag(std::string const &value, Options &options, std::string *error) {
  return parse_raster_order(value, &options.raster_order, error);
}

bool swizzle_size_flag(std::string const &value, Options &options, std::string *error) {
  int64_t v = 0;
  if (parse_integer(value, &v) && (v == 1 || v == 2 || v == 4 || v == 8)) {
    options.swizzle_size = int(v);
    return true;
  }
  *error = "'" + value + "' is not a swizzle size (expected 1, 2, 4 or 8)";
  return false;
}

bool parse_clamp_flag(std::string const &value, Options &options, std::string *error) {
  return parse_clamp(value, &options.clamp_min, &options.clamp_max, error);
}

/// Every flag, by name (without the leading "--").
std::map<std::string, FlagParser> const &flag_table() {
  static std::map<std::string, FlagParser> const table = {
      {"operation", parse_operation},
      {"m", integer_list_flag(&Options::m, 1, INT_MAX)},
      {"n", integer_list_flag(&Options::n, 1, INT_MAX)},
      {"k", integer_list_flag(&Options::k, 1, INT_MAX)},
      {"batch_count", integer_list_flag(&Options::batch_count, 1, 65535)},
      {"split_k_slices", integer_list_flag(&Options::split_k_slices, 1, 65535)},
      {"A", tensor_flag(&Options::A)},
      {"B", tensor_flag(&Options::B)},
      {"C", tensor_flag(&Options::C)},
      {"alpha", scalar_list_flag(&Options::alpha)},
      {"beta", scalar_list_flag(&Options::beta)},
      {"epilogue", parse_epilogue},
      {"bias-broadcast", broadcast_flag(&Options::bias_broadcast)},
      {"alpha-vector-broadcast", broadcast_flag(&Options::alpha_vector_broadcast)},
      {"clamp", parse_clamp_flag},
      {"scale-a", scale_mode_flag(&ScalingSpec::A)},
      {"scale-b", scale_mode_flag(&ScalingSpec::B)},
      {"accumulation", accumulation_flag},
      {"raster_order", raster_order_flag},
      {"swizzle_size", swizzle_size_flag},
      {"kernels", string_flag(&Options::kernels)},
      {"ignore-kernels", string_flag(&Options::ignore_kernels)},
      {"providers", parse_providers},
      {"verification-providers", parse_verifiers},
      {"verification-enabled", parse_verification_enabled},
      {"warmup-iterations", integer_flag(&Options::warmup_iterations, 0, 1000000)},
      {"profiling-iterations", integer_flag(&Options::profiling_iterations, 0, 1000000)},
      {"back-to-back", integer_flag(&Options::back_to_back, 1, 1000)},
      {"output", string_flag(&Options::output)},
      {"device", integer_flag(&Options::device, 0, 1023)},
      {"experts", parse_experts},
      {"tokens", grouped_flag("tokens")},
      {"distribution", grouped_flag("distribution")},
      {"counts", grouped_flag("counts")},
      {"seed", grouped_flag("seed")},
  };
  return table;
}

/// Flags that mean "true" when given without a value.
bool is_boolean_flag(std::string const &name) { return name == "verification-enabled"; }

}  // namespace

bool profiler_supports(NumericTypeID type) {
  for (NumericTypeID t : kSupportedTypes) {
    if (t == type) return true;
  }
  return false;
}

bool parse_integer_in_range(std::string const &text, int64_t min_value, int64_t max_value, int64_t *value,
                            std::string *error) {
  int64_t v = 0;
  if (!parse_integer(text, &v) || v < min_value || v > max_value) {
    *error = "'" + text + "' is not an integer in [" + std::to_string(min_value) + ", " + std::to_string(max_value) +
             "]";
    return false;
  }
  *value = v;
  return true;
}

bool parse_integer_list(std::string const &text, int64_t min_value, int64_t max_value, std::vector<int64_t> *values,
                        std::string *error) {
  std::vector<int64_t> result;
  std::string const range = "[" + std::to_string(min_value) + ", " + std::to_string(max_value) + "]";
  for (std::string const &item : split(text, ',')) {
    std::vector<std::string> parts = split(item, ':');
    int64_t start = 0, end = 0, step = 1;
    bool ok = parts.size() <= 3 && parse_integer(parts[0], &start);
    ok = ok && (parts.size() < 2 || parse_integer(parts[1], &end));
    ok = ok && (parts.size() < 3 || parse_integer(parts[2], &step));
    if (!ok) {
      *error = "'" + item + "' is not an integer or a range start:end[:step]";
      return false;
    }
    if (parts.size() == 1) end = start;
    if (step < 1) {
      *error = "range '" + item + "' needs a step >= 1";
      return false;
    }
    if (end < start) {
      *error = "range '" + item + "' ends before it starts";
      return false;
    }
    if (start < min_value || end > max_value) {
      *error = "'" + item + "' is outside " + range;
      return false;
    }
    for (int64_t v = start; v <= end; v += step) {
      if (result.size() == kMaxListLength) {
        *error = "'" + text + "' has more than " + std::to_string(kMaxListLength) + " values";
        return false;
      }
      result.push_back(v);
      if (v > end - step) break;   // the next step would pass `end` (or overflow)
    }
  }
  *values = result;
  return true;
}

bool parse_scale_mode(std::string const &text, std::optional<epilogue::OperandScaleMode> *mode, std::string *error) {
  using epilogue::OperandScaleMode;
  static std::pair<char const *, std::optional<OperandScaleMode>> const names[] = {
      {"none", std::nullopt},
      {"tensor", OperandScaleMode::kScalar},
      {"row", OperandScaleMode::kOuterVector},
      {"block128", OperandScaleMode::kBlock1x128},
      {"block128x128", OperandScaleMode::kBlock128x128}};
  for (auto const &[name, value] : names) {
    if (text == name) {
      *mode = value;
      return true;
    }
  }
  *error = "unknown scale mode '" + text + "' (expected none, tensor, row, block128 or block128x128)";
  return false;
}

bool parse_raster_order(std::string const &text, library::RasterOrder *order, std::string *error) {
  static std::pair<char const *, library::RasterOrder> const names[] = {{"heuristic", library::RasterOrder::kHeuristic},
                                                                         {"along_m", library::RasterOrder::kAlongM},
                                                                         {"along_n", library::RasterOrder::kAlongN}};
  for (auto const &[name, value] : names) {
    if (text == name) {
      *order = value;
      return true;
    }
  }
  *error = "unknown raster order '" + text + "' (expected heuristic, along_m or along_n)";
  return false;
}

bool parse_accumulation(std::string const &text, library::AccumulationMode *mode, std::string *error) {
  if (text == "fast" || text == "precise") {
    *mode = text == "fast" ? library::AccumulationMode::kFast : library::AccumulationMode::kPrecise;
    return true;
  }
  *error = "unknown accumulation '" + text + "' (expected fast or precise)";
  return false;
}

bool parse_tensor_spec(std::string const &text, TensorSpec *spec, std::string *error) {
  std::vector<std::string> parts = split(text, ':');
  if (parts.size() > 2) {
    *error = "'" + text + "' is not <type>[:<layout>]";
    return false;
  }
  TensorSpec result;
  if (parts[0] != "*") {
    // "e4m3" / "e5m2" (DESIGN.md's names) are accepted beside the library's "fe4m3" / "fe5m2".
    std::string const name = parts[0] == "e4m3" || parts[0] == "e5m2" ? "f" + parts[0] : parts[0];
    NumericTypeID type = library::numeric_type_from_string(name.c_str());
    if (!profiler_supports(type)) {
      *error = "unknown or unsupported type '" + parts[0] + "' (expected one of " + supported_type_names() + " or *)";
      return false;
    }
    result.element = type;
  }
  if (parts.size() == 1) {
    // "*" alone means any type and any layout; a type alone keeps CUTLASS's default layout, column.
    if (parts[0] != "*") result.layout = LayoutTypeID::kColumnMajor;
  } else if (parts[1] != "*") {
    LayoutTypeID layout = library::layout_type_from_string(parts[1].c_str());
    if (layout != LayoutTypeID::kColumnMajor && layout != LayoutTypeID::kRowMajor) {
      *error = "unknown layout '" + parts[1] + "' (expected column, row, n, t or *)";
      return false;
    }
    result.layout = layout;
  }
  *spec = result;
  return true;
}

bool parse_vector_broadcast(std::string const &text, epilogue::VectorBroadcast *broadcast, std::string *error) {
  if (text == "row") {
    *broadcast = epilogue::VectorBroadcast::kPerRow;
    return true;
  }
  if (text == "column") {
    *broadcast = epilogue::VectorBroadcast::kPerColumn;
    return true;
  }
  *error = "unknown broadcast '" + text + "' (expected row: one entry per row of D, M entries; or column: N entries)";
  return false;
}

bool parse_clamp(std::string const &text, float *lo, float *hi, std::string *error) {
  std::vector<std::string> const parts = split(text, ',');
  double a = 0, b = 0;
  if (parts.size() != 2 || !parse_double(parts[0], &a) || !parse_double(parts[1], &b)) {
    *error = "'" + text + "' is not lo,hi (two finite numbers)";
    return false;
  }
  if (!(a <= b)) {
    *error = "'" + text + "': lo must be <= hi";
    return false;
  }
  *lo = float(a);
  *hi = float(b);
  return true;
}

namespace {

/// The grouped mode's flags against the rest (`given`: the flags on the command line), and its
/// layer filled from them; "" or the usage error.
std::string check_grouped(Options &o, std::set<std::string> const &given) {
  GroupedOptions &layer = o.grouped_layer;
  std::set<std::string> mode_flags = grouped_flag_names();
  mode_flags.insert("experts");
  if (!o.grouped) {
    for (std::string const &name : mode_flags) {
      if (given.count(name)) return "--experts, --tokens, --distribution, --counts and --seed need --operation=grouped_gemm";
    }
    return "";
  }
  mode_flags.insert({"operation", "m", "k", "warmup-iterations", "profiling-iterations", "device"});
  std::string const other = first_flag_outside(given, mode_flags);
  if (!other.empty()) {
    return "--" + other + " does not apply to --operation=grouped_gemm (bf16 TN layers of --experts, --m, --k)";
  }
  if (layer.experts == 0) return "--operation=grouped_gemm needs --experts=<E>";
  if (o.m.size() != 1 || o.k.size() != 1) return "--operation=grouped_gemm takes one --m and one --k";
  layer.m = o.m[0], layer.k = o.k[0];
  layer.warmup = o.warmup_iterations, layer.iterations = o.profiling_iterations, layer.device = o.device;
  return check_grouped_layer(layer, given);
}

}  // namespace

ParseResult parse_options(std::vector<std::string> const &arguments) {
  ParseResult result;
  std::set<std::string> flags;   // the flags on the command line
  result.error = parse_flags(arguments, flag_table(), is_boolean_flag, result.options, &result.options.help, &flags);
  if (!result.ok() || result.options.help) return result;
  auto given = [&](char const *name) { return flags.count(name) > 0; };
  // the grouped mode's flags first: the GEMM checks below would name flags it refuses anyway
  result.error = check_grouped(result.options, flags);
  if (!result.ok() || result.options.grouped) return result;
  // Flags of epilogue pieces the chosen variant lacks would silently do nothing: usage errors.
  EpilogueVariant const &e = result.options.epilogue;
  std::string const variant = e.fused() ? "--epilogue=" + e.name() : std::string("the plain epilogue");
  if (given("bias-broadcast") && !e.bias) {
    result.error = "--bias-broadcast: " + variant + " has no bias";
  } else if (given("alpha-vector-broadcast") && !e.alpha_vector) {
    result.error = "--alpha-vector-broadcast: " + variant + " has no alpha vector";
  } else if (given("clamp") && e.activation != epilogue::ActivationKind::kClamp) {
    result.error = "--clamp: " + variant + " does not clamp";
  }
  // Scales and precise sums are for fp8 inputs (wildcard types: the fp8 combinations only).
  Options const &o = result.options;
  bool const not_fp8 = (o.A.element && !is_fp8(*o.A.element)) || (o.B.element && !is_fp8(*o.B.element));
  if (result.ok() && o.scaling.any() && not_fp8) {
    result.error = "--scale-a, --scale-b and --accumulation=precise are for fp8 inputs (--A and --B fe4m3 or fe5m2)";
  }
  return result;
}

std::string help_text() {
  return R"(cutlass_profiler: runs GEMMs through cutlass_lib's kernels, its Handle and cuBLAS; verifies and times them.

Usage: cutlass_profiler [--flag=value ...]
With no flags: bf16 4096x4096x4096, A row-major, B and C column-major ("tn"), alpha 1, beta 0;
every fitting kernel, the Handle's choice and cuBLAS, each verified and timed.

Problem (every combination of the values forms the problem space):
  --operation=gemm           the GEMMs below (default; also Gemm); grouped_gemm (or GroupedGemm):
                             one mixture-of-experts layer, "Grouped GEMM" below (any other name,
                             e.g. GEMM, is an error)
  --m=, --n=, --k=           sizes: 4096 | 128,256,512 | start:end[:step] (inclusive) | mixed lists
                             (default 4096 each)
  --batch_count=             1 (default) | >1: strided batched GEMM; lists and ranges as for m
  --split_k_slices=          1 (default: the library decides) | >1: the handle runs K in that many
                             slices (in parallel, f32 partials in the workspace, then a reduction
                             in a fixed order: Handle::gemm_universal, kGemm, batch_count = slices)
                             on the slice kernel its cost model ranks first; the kernels' own rows
                             are not run for it (their slices are the f32-output kernels' problem).
                             Lists and ranges as for m; not with --batch_count > 1
  --A=, --B=, --C=           <type>:<layout>, type one of f16 bf16 tf32 f32 f64 s8 s32 fe4m3
                             (or e4m3) fe5m2 (or e5m2) (fp8: inputs, and C / D of the _amax
                             epilogues), layout column (n) or row (t). A type alone means layout
                             column; '*' for either part means "any": "*" alone = any type and
                             layout. Wildcards expand to the type/layout combinations of the
                             matching kernels. C's type is the output type (D has C's type and
                             layout). Row-major C is supported by every provider: the kernels
                             (all column-major C) run it as D^T = B^T A^T, as the Handle does, so
                             a kernel with A=a:la, B=b:lb serves A=b:(lb flipped), B=a:(la flipped).
                             Defaults: --A=bf16:row --B=bf16:column --C=bf16:column
  --alpha=, --beta=          scalars, comma lists allowed (default 1 and 0). With beta 0, C is
                             filled with NaN (integers: 0x5A bytes): a kernel that reads it fails.

fp8 inputs (--A and --B fe4m3 / fe5m2; cutlass_lib.h cutlassLibSetMatrixScale / SetAccumulation):
    D = alpha * sum_kb sa(i, kb) * sb(j, kb) * sum_{k in k-block kb} A(i, k) B(k, j) + beta * C
  --scale-a=, --scale-b=     the scale of A / B (f32, uniform [0.5, 1.5], in cuBLASLt's layouts,
                             cutlass_lib.h cutlassLibMatrixScale_t; 128x128 rows padded to 4 K blocks):
                               none (default) | tensor (one scalar, SCALAR_32F) | row (one per row
                               of A / column of B, OUTER_VEC_32F) | block128 (one per row / column
                               per 128 of K, VEC128_32F) | block128x128 (one per 128 x 128 block,
                               BLK128x128_32F)
  --accumulation=fast|precise  fast (default): the tensor core's own sums over K; precise: every
                             128-deep k-block's sum promoted to f32 (cuBLASLt's FAST_ACCUM 0).
                             Block scales and precise run on the block-scaled kernels (names
                             ..._blockscale) only, the others on the rest. cuBLASLt (the
                             competitor: cublasGemmEx has no fp8) runs the same modes; the
                             reference dequantizes every element with its scales first.

Fused epilogue (per element of D, f32 math; include/cutlass/epilogue/thread/linear_combination.h):
    x = alpha [* alpha_vector] * A B + beta * C [+ bias];  [aux = x];  D = act(x) [* scale_d];  [amax]
  --epilogue=<variant>       none (default: the plain GEMM) or one of the generator's variants,
                             named as the suffix of their kernels (generator/epilogues.py):
                               bias relu bias_relu gelu bias_gelu gelu_aux bias_gelu_aux gelu_erf
                               bias_gelu_erf silu bias_silu sigmoid bias_sigmoid clamp bias_clamp
                               alphavec alphavec_bias_relu; fp8 outputs (--C=fe4m3 or fe5m2,
                               bf16/f16 or fe4m3 inputs, TN; bias bf16 for fe4m3 inputs): amax
                               bias_amax bias_relu_amax bias_gelu_amax
                             gelu = tanh approximation (cuBLASLt's), gelu_erf = the erf form.
                             Only kernels with exactly these pieces run; the Handle is asked for
                             them. Bias and aux have the kernels' types (the output type, f32 for
                             f32 outputs); bias is uniform [-1, 1], the alpha vector uniform
                             [0.5, 1.5], scale_d 0.5 (the _amax variants).
  --bias-broadcast=row|column  bias[m] (M entries, cuBLASLt's orientation; default) or bias[n]
  --alpha-vector-broadcast=row|column  the same for the alpha vector (default row)
  --clamp=lo,hi              bounds of the clamp variants (default -8,8)
                             A broadcast or clamp flag for a variant without that piece is a
                             usage error.
  With a fused epilogue, "cublas" runs two rows: cublas = cublasGemmEx followed by a separate
  16-byte-vectorized kernel for the epilogue (unfused_epilogue in src/reference), and cublaslt =
  cublasLtMatmul with the fused CUBLASLT_EPILOGUE_* where cuBLASLt has one (bias, relu,
  bias_relu, gelu, bias_gelu, gelu_aux, bias_gelu_aux; its bias is per row of its column-major D,
  so per-row bias with column-major C, per-column with row-major C; the _amax variants with its
  D scale and amax for fp8 outputs of fp8 inputs at beta 0, its C then bf16). Each of our rows is timed
  interleaved with both; ratio = (cuBLAS GEMM + separate kernel) time / ours and
  lt_ratio = cuBLASLt fused time / ours. The reference is the reference GEMM followed by an
  elementwise epilogue reference (f32 math, precise tanh/erf/exp); aux and amax are verified too.

Tile order of the cutlass provider's sm90 persistent and stream-K kernels (CUTLASS's flags; one
value each; library.h GemmUniversalArguments; the Handle chooses its own per call):
  --raster_order=heuristic|along_m|along_n  along_n: bands of tile rows, M fastest inside a band,
                             walked along N; along_m: bands of tile columns walked along M;
                             heuristic (default): the kernels' default, along_n (swap-AB
                             kernels: along_m)
  --swizzle_size=1|2|4|8     tiles per band (default: the kernels' 8; tiles, not CUTLASS's clusters)

Kernels and providers:
  --kernels=<patterns>       comma list; a pattern's '*'-separated pieces must occur in the kernel
                             name in order (unanchored); "all" (any case) or empty = every kernel
  --ignore-kernels=<patterns>  same syntax; always applied. Both filter the cutlass provider
                             only: the Handle chooses among every kernel of the build.
  --providers=<list>         cutlass,cublas,handle (default all three):
                               cutlass: every compiled kernel whose types and layouts fit
                               handle:  what Handle::gemm_universal selects (named in the output)
                               cublas:  cublasGemmEx / cublasGemmStridedBatchedEx
                               cublaslt (not by default; implies cublas): cublasLtMatmul with
                                        the heuristic's first algorithm for plain problems too
                                        (lt_ratio = its time / ours, interleaved)

Verification (once per kernel, on outputs poisoned with NaN / 0x5A bytes first):
  --verification-enabled=<bool>        true (default) | false
  --verification-providers=<list>      device,cublas (default both): the reference GEMM and
                                       cuBLAS. Passes when the relative error (Frobenius) is within
                                       the bound for the types and K, integers exactly, and no
                                       output element was left unwritten.

Timing:
  --warmup-iterations=<n>    launches before timing (default 10)
  --profiling-iterations=<n> timed launches (default 50; 0 = verify only). Each kernel is timed
                             interleaved with cuBLAS (ours, cuBLAS, ours, ...), one event pair per
                             launch; the runtime is the median. Every launch reads the next copy of
                             the operands, with enough copies to exceed twice the L2 cache.
                             ratio = cuBLAS time / our time (> 1: faster than cuBLAS).
  --back-to-back=<n>         launches of one provider per event pair (default 1): n > 1 times n
                             consecutive calls together (ours x n, cuBLAS x n, ...) and reports their
                             mean, as a framework's stream runs them: a kernel's start may then
                             overlap the previous one's end (programmatic dependent launch).

Grouped GEMM (--operation=grouped_gemm; one mixture-of-experts layer, bf16, TN):
  --experts=<E>              experts (1..4096), each with weights of --m x --k (out x in features,
                             one value each); per expert the framework's GemmEx(T, N, m, n = its
                             tokens, k), the tokens packed [T][k]. Runs, interleaved:
                             cutlassLibGemmGroupedBatchedEx, the same layer through
                             cutlassLibGemmGroupedContiguousEx (token ends on the device) and
                             cutlassLibGemmGroupedDeviceSizesEx (sizes and pointers on the device),
                             cublasGemmGroupedBatchedEx, a loop of cublasGemmEx, and the dense GEMM
                             of the same flops (m x T x k) through cuBLAS and the library. Every
                             expert's output of each is verified against the reference GEMM;
                             prints each median, TFLOP/s over the routed tokens, the ratios, and the
                             active experts' weights read rate against a device-to-device copy.
)" + grouped_flags_help() + R"(  (--warmup-iterations, --profiling-iterations and --device apply; other flags are errors.
  cutlass_bench --grouped=E,N,K runs the same.)

Output:
  --output=<path>            also write a CSV (one row per problem, provider and kernel) to <path>
  --device=<index>           CUDA device (default 0)
  --help                     this text

Exit status: 0 everything that ran verified (or verification was off); 1 a verification or a
run failed; 2 usage error; 3 nothing ran (no kernel matched and no other provider ran);
4 no CUDA device (or none this build has code for: CUTLASS_NVCC_ARCHS).
)";
}

}  // namespace profiler
}  // namespace cutlass
