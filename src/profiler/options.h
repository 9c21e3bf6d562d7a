/// @file src/profiler/options.h
/// The profiler's command line (CUTLASS's cutlass_profiler flags, `--flag=value`), parsed
/// without side effects so the host tests can call it. help_text() is the documentation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/library/types.h"
#include "epilogue_variant.h"
#include "gemm_spec.h"
#include "grouped_profiler.h"

namespace cutlass {
namespace profiler {

/// A `--A/--B/--C=<type>:<layout>` value. An empty optional is the '*' wildcard ("any").
struct TensorSpec {
  std::optional<library::NumericTypeID> element;
  std::optional<library::LayoutTypeID> layout;
};

/// Which implementations run (--providers).
struct ProviderSet {
  bool cutlass = true;   ///< every compiled kernel that fits the problem
  bool cublas = true;    ///< cublasGemmEx / cublasGemmStridedBatchedEx
  bool handle = true;    ///< the kernel Handle::gemm_universal selects
  /// cublasLtMatmul (the heuristic's first algorithm) for plain problems too, timed interleaved
  /// with ours like cuBLAS (fused problems race it whenever cublas runs); implies cublas.
  bool cublaslt = false;
};

/// Which results a kernel's output is compared with (--verification-providers).
struct VerifierSet {
  bool device = true;    ///< the reference GEMM (src/reference)
  bool cublas = true;    ///< cuBLAS's result for the same inputs
};

struct Options {
  bool help = false;

  /// --operation=grouped_gemm (CUTLASS's name; also GroupedGemm): one mixture-of-experts layer
  /// (grouped_profiler.h) from --experts, --m (out features), --k (in features), --tokens with
  /// --distribution or --counts, and --seed, instead of the GEMM problem space below.
  bool grouped = false;
  GroupedOptions grouped_layer;

  std::vector<int64_t> m{4096}, n{4096}, k{4096}, batch_count{1};
  /// Split-K slices of the handle's call (--split_k_slices, CUTLASS's flag): 1 = the library
  /// decides; > 1 = Handle::gemm_universal in kGemm mode with batch_count = slices (its split-K
  /// route: parallel slices and a deterministic reduction). Not with batch_count > 1.
  std::vector<int64_t> split_k_slices{1};
  std::vector<double> alpha{1}, beta{0};
  TensorSpec A{library::NumericTypeID::kBF16, library::LayoutTypeID::kRowMajor};
  TensorSpec B{library::NumericTypeID::kBF16, library::LayoutTypeID::kColumnMajor};
  TensorSpec C{library::NumericTypeID::kBF16, library::LayoutTypeID::kColumnMajor};

  /// Fused epilogue (--epilogue; plain by default) and its run-time choices. The element types
  /// of bias and aux follow from the kernels (GemmSpec's EpilogueSpec).
  EpilogueVariant epilogue;
  epilogue::VectorBroadcast bias_broadcast = epilogue::VectorBroadcast::kPerRow;
  epilogue::VectorBroadcast alpha_vector_broadcast = epilogue::VectorBroadcast::kPerRow;
  float clamp_min = -8, clamp_max = 8;

  /// fp8 operand scales (--scale-a / --scale-b; none by default) and --accumulation; usage errors
  /// with --A or --B of another type.
  ScalingSpec scaling;

  /// The tile order of the cutlass provider's sm90 persistent kernels (--raster_order,
  /// --swizzle_size, CUTLASS's flags; one value each): kHeuristic and 0 are the kernels' default.
  /// The Handle chooses its own.
  library::RasterOrder raster_order = library::RasterOrder::kHeuristic;
  int swizzle_size = 0;

  std::string kernels;          ///< empty: every kernel
  std::string ignore_kernels;
  ProviderSet providers;

  bool verification_enabled = true;
  VerifierSet verifiers;

  int warmup_iterations = 10;
  int profiling_iterations = 50;   ///< 0: verify only, no timing
  /// Launches of one provider timed together per event pair (--back-to-back; 1: each launch alone);
  /// the sample is their mean per launch (EventTimer::time's calls_per_pair).
  int back_to_back = 1;
  /// > 0: the handle's workspace and the kernels' workspace allocated at this many bytes each when
  /// the profiler is made, before any operand (cutlass_bench --workspace-mib, a measurement aid);
  /// 0: the handle's default (4 MiB, grown when a call needs more) and the kernels' grown per kernel.
  size_t workspace_bytes = 0;

  std::string output;           ///< CSV path; empty: none
  int device = 0;
};

/// Options, or the reason the command line is not valid (a usage error, exit status 2).
struct ParseResult {
  Options options;
  std::string error;   ///< empty when the command line is valid
  bool ok() const { return error.empty(); }
};

/// Parses the arguments after the program name. Every flag is `--name=value` (booleans may
/// omit `=true`); unknown flags, flags given twice and bad values are errors.
ParseResult parse_options(std::vector<std::string> const &arguments);

/// Parses a decimal integer in [min_value, max_value] into *value. False with `error` set
/// ("'<text>' is not an integer in [min, max]") otherwise.
bool parse_integer_in_range(std::string const &text, int64_t min_value, int64_t max_value, int64_t *value,
                            std::string *error);

/// Parses "4096", "128,256,512" or "start:end[:step]" (inclusive, step > 0), or a comma list
/// mixing them, into `values`, each in [min_value, max_value]. False with `error` set otherwise.
bool parse_integer_list(std::string const &text, int64_t min_value, int64_t max_value,
                        std::vector<int64_t> *values, std::string *error);

/// Parses "bf16:row", "f32" (layout column), "*:row", "bf16:*" or "*" (any type and layout);
/// "e4m3" / "e5m2" name fe4m3 / fe5m2.
bool parse_tensor_spec(std::string const &text, TensorSpec *spec, std::string *error);

/// Parses "row" or "column" (a vector's broadcast: row = one entry per row of D, M entries).
bool parse_vector_broadcast(std::string const &text, epilogue::VectorBroadcast *broadcast, std::string *error);

/// Parses an operand scale mode: "none" (empty), "tensor", "row", "block128", "block128x128".
bool parse_scale_mode(std::string const &text, std::optional<epilogue::OperandScaleMode> *mode, std::string *error);

/// Parses "heuristic", "along_m" or "along_n" (--raster_order).
bool parse_raster_order(std::string const &text, library::RasterOrder *order, std::string *error);

/// Parses "fast" or "precise" (--accumulation).
bool parse_accumulation(std::string const &text, library::AccumulationMode *mode, std::string *error);

/// Parses "lo,hi" (finite, lo <= hi) for --clamp.
bool parse_clamp(std::string const &text, float *lo, float *hi, std::string *error);

/// True for the element types the profiler can fill, verify and print:
/// f16 bf16 tf32 f32 f64 s8 s32 fe4m3 fe5m2.
bool profiler_supports(library::NumericTypeID type);

/// The --help text.
std::string help_text();

}  // namespace profiler
}  // namespace cutlass
