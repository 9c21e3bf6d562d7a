/// @file src/profiler/epilogue_variant.cpp
#include "epilogue_variant.h"

#include "cutlass/library/util.h"

namespace cutlass {
namespace profiler {

using epilogue::ActivationKind;

namespace {

EpilogueVariant make(ActivationKind activation, bool bias, bool alpha_vector = false, bool aux = false,
                     bool scale_amax = false) {
  EpilogueVariant v;
  v.activation = activation;
  v.bias = bias;
  v.alpha_vector = alpha_vector;
  v.aux = aux;
  v.scale_amax = scale_amax;
  return v;
}

}  // namespace

char const *activation_name(ActivationKind kind) { return library::to_string(kind); }

std::string EpilogueVariant::name() const {
  std::string text;
  auto add = [&](char const *piece) { text += (text.empty() ? "" : "_") + std::string(piece); };
  if (alpha_vector) add("alphavec");
  if (bias) add("bias");
  if (activation != ActivationKind::kIdentity) add(activation_name(activation));
  if (aux) add("aux");
  if (scale_amax) add("amax");
  return text;
}

std::vector<EpilogueVariant> const &epilogue_variants() {
  // generator/epilogues.py: STANDARD, then FP8 (keep in step with it).
  static std::vector<EpilogueVariant> const variants = {
      make(ActivationKind::kIdentity, true),
      make(ActivationKind::kReLU, false),
      make(ActivationKind::kReLU, true),
      make(ActivationKind::kGELU, false),
      make(ActivationKind::kGELU, true),
      make(ActivationKind::kGELU, false, false, true),
      make(ActivationKind::kGELU, true, false, true),
      make(ActivationKind::kGELUErf, false),
      make(ActivationKind::kGELUErf, true),
      make(ActivationKind::kSiLU, false),
      make(ActivationKind::kSiLU, true),
      make(ActivationKind::kSigmoid, false),
      make(ActivationKind::kSigmoid, true),
      make(ActivationKind::kClamp, false),
      make(ActivationKind::kClamp, true),
      make(ActivationKind::kIdentity, false, true),
      make(ActivationKind::kReLU, true, true),
      make(ActivationKind::kIdentity, false, false, false, true),
      make(ActivationKind::kIdentity, true, false, false, true),
      make(ActivationKind::kReLU, true, false, false, true),
      make(ActivationKind::kGELU, true, false, false, true),
  };
  return variants;
}

std::string epilogue_variant_names() {
  std::string names;
  for (EpilogueVariant const &v : epilogue_variants()) names += (names.empty() ? "" : " ") + v.name();
  return names;
}

bool parse_epilogue_variant(std::string const &text, EpilogueVariant *variant) {
  if (text.empty() || text == "none") {
    *variant = EpilogueVariant();
    return true;
  }
  for (EpilogueVariant const &v : epilogue_variants()) {
    if (v.name() == text) {
      *variant = v;
      return true;
    }
  }
  return false;
}

EpilogueVariant variant_of(library::EpilogueDescription const &d) {
  return make(d.activation, d.element_bias != library::NumericTypeID::kInvalid, d.alpha_vector,
              d.element_aux != library::NumericTypeID::kInvalid, d.scale_amax);
}

char const *cublaslt_epilogue_name(EpilogueVariant const &v) {
  if (v.alpha_vector) return "";   // (the D scale / amax: descriptor attributes beside the epilogue)
  switch (v.activation) {
    case ActivationKind::kIdentity:
      if (v.aux) return "";
      return v.bias ? "CUBLASLT_EPILOGUE_BIAS" : "CUBLASLT_EPILOGUE_DEFAULT";
    case ActivationKind::kReLU:
      if (v.aux) return "";   // cuBLASLt's RELU_AUX is a bit mask, not x
      return v.bias ? "CUBLASLT_EPILOGUE_RELU_BIAS" : "CUBLASLT_EPILOGUE_RELU";
    case ActivationKind::kGELU:
      if (v.aux) return v.bias ? "CUBLASLT_EPILOGUE_GELU_AUX_BIAS" : "CUBLASLT_EPILOGUE_GELU_AUX";
      return v.bias ? "CUBLASLT_EPILOGUE_GELU_BIAS" : "CUBLASLT_EPILOGUE_GELU";
    default: return "";
  }
}

bool cublaslt_has_epilogue(EpilogueVariant const &v) { return *cublaslt_epilogue_name(v) != '\0'; }

}  // namespace profiler
}  // namespace cutlass
