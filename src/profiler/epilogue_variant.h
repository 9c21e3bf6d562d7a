/// @file src/profiler/epilogue_variant.h
/// The fused-epilogue variants the profiler can ask for (--epilogue), named as the generator
/// names them (generator/epilogues.py, Epilogue.suffix: "bias_gelu", "alphavec_bias_relu",
/// "bias_gelu_amax", ...), and how a variant maps onto the library's EpilogueDescription.
#pragma once

#include <string>
#include <vector>

#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/library/library.h"
#include "cutlass/library/types.h"

namespace cutlass {
namespace profiler {

/// The pieces of one fused epilogue (linear_combination.h):
///     x = alpha [* alpha_vector] * AB + beta * C [+ bias];  [aux = x];  D = act(x) [* scale_d];  [amax]
/// The default value is the plain epilogue (name "").
struct EpilogueVariant {
  epilogue::ActivationKind activation = epilogue::ActivationKind::kIdentity;
  bool bias = false;
  bool alpha_vector = false;
  bool aux = false;
  bool scale_amax = false;

  bool fused() const { return activation != epilogue::ActivationKind::kIdentity || bias || alpha_vector || aux || scale_amax; }
  /// The generator's suffix: pieces joined by '_' in the order alphavec, bias, <activation>,
  /// aux, amax ("" for the plain epilogue).
  std::string name() const;
  bool operator==(EpilogueVariant const &other) const { return name() == other.name(); }
  bool operator!=(EpilogueVariant const &other) const { return !(*this == other); }
};

/// The activation's name in kernel names and manifest.json ("relu", "gelu_erf", ...);
/// "identity" for kIdentity (library::to_string).
char const *activation_name(epilogue::ActivationKind kind);

/// The variants the generator can build (generator/epilogues.py STANDARD, then FP8), in its order.
std::vector<EpilogueVariant> const &epilogue_variants();

/// "bias relu bias_relu ..." (every variant's name, space-separated).
std::string epilogue_variant_names();

/// Parses a variant name; "none" (or "") is the plain epilogue. False for anything else.
bool parse_epilogue_variant(std::string const &text, EpilogueVariant *variant);

/// The variant of a kernel's epilogue (its pieces, without their element types).
EpilogueVariant variant_of(library::EpilogueDescription const &description);

/// True when the variant has a cuBLASLt fused epilogue (cublasLtEpilogue_t): none, BIAS, RELU,
/// RELU_BIAS, GELU, GELU_BIAS, GELU_AUX, GELU_AUX_BIAS (no alpha vector; the D scale and amax
/// are cuBLASLt descriptor attributes, taken for fp8 outputs of fp8 inputs).
bool cublaslt_has_epilogue(EpilogueVariant const &variant);

/// The cuBLASLt epilogue's name ("CUBLASLT_EPILOGUE_GELU_BIAS"), or "" without one.
char const *cublaslt_epilogue_name(EpilogueVariant const &variant);

}  // namespace profiler
}  // namespace cutlass
