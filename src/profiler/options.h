/// @file src/profiler/options.h
/// The profiler's command line (CUTLASS's cutlass_profiler flags, `--flag=value`), parsed
/// without side effects so the host tests can call it. help_text() is the documentation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cutlass/library/types.h"

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
};

/// Which results a kernel's output is compared with (--verification-providers).
struct VerifierSet {
  bool device = true;    ///< the reference GEMM (src/reference)
  bool cublas = true;    ///< cuBLAS's result for the same inputs
};

struct Options {
  bool help = false;

  std::vector<int64_t> m{4096}, n{4096}, k{4096}, batch_count{1};
  std::vector<double> alpha{1}, beta{0};
  TensorSpec A{library::NumericTypeID::kBF16, library::LayoutTypeID::kRowMajor};
  TensorSpec B{library::NumericTypeID::kBF16, library::LayoutTypeID::kColumnMajor};
  TensorSpec C{library::NumericTypeID::kBF16, library::LayoutTypeID::kColumnMajor};

  std::string kernels;          ///< empty: every kernel
  std::string ignore_kernels;
  ProviderSet providers;

  bool verification_enabled = true;
  VerifierSet verifiers;

  int warmup_iterations = 10;
  int profiling_iterations = 50;   ///< 0: verify only, no timing

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

/// Parses "4096", "128,256,512" or "start:end[:step]" (inclusive, step > 0), or a comma list
/// mixing them, into `values`, each in [min_value, max_value]. False with `error` set otherwise.
bool parse_integer_list(std::string const &text, int64_t min_value, int64_t max_value,
                        std::vector<int64_t> *values, std::string *error);

/// Parses "bf16:row", "f32" (layout column), "*:row", "bf16:*" or "*" (any type and layout).
bool parse_tensor_spec(std::string const &text, TensorSpec *spec, std::string *error);

/// True for the element types the profiler can fill, verify and print:
/// f16 bf16 tf32 f32 f64 s8 s32.
bool profiler_supports(library::NumericTypeID type);

/// The --help text.
std::string help_text();

}  // namespace profiler
}  // namespace cutlass
