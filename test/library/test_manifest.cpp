/// Host test: the runtime manifest holds exactly the kernels of the generator's manifest.json,
/// in the same order, and every description field matches (the C++ side derives them from the
/// kernel types, the Python side from its tables: they must agree).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "cutlass_lib.h"

namespace {

struct ExpectedTensor {
  char const *element;
  char const *layout;
  int alignment;
};

/// manifest.json's "epilogue" object; "" = no bias / no aux.
struct ExpectedEpilogue {
  char const *activation;
  char const *bias;
  bool alpha_vector;
  char const *aux;
  bool scale_amax;
};

struct ExpectedKernel {
  char const *name;
  char const *opcode_class;
  char const *math_operation;
  ExpectedTensor A, B, C, D;
  char const *element_accumulator;
  char const *element_epilogue;
  int threadblock_shape[3];
  int warp_count[3];
  int instruction_shape[3];
  int stages;
  int cluster_shape[3];
  char const *tile_scheduler;
  int min_cc;
  int max_cc;
  ExpectedEpilogue epilogue;
};

#include "manifest_expected.inc"

using namespace cutlass::library;

void expect_tensor(ExpectedTensor const &expected, TensorDescription const &actual, char const *which) {
  EXPECT_STREQ(expected.element, to_string(actual.element)) << which;
  EXPECT_STREQ(expected.layout, to_string(actual.layout)) << which;
  EXPECT_EQ(expected.alignment, actual.alignment) << which;
}

/// The name of an optional element type: "" for kInvalid (absent), else to_string().
char const *optional_element(NumericTypeID type) { return type == NumericTypeID::kInvalid ? "" : to_string(type); }

void expect_epilogue(ExpectedEpilogue const &expected, EpilogueDescription const &actual) {
  EXPECT_STREQ(expected.activation, to_string(actual.activation)) << "epilogue.activation";
  EXPECT_STREQ(expected.bias, optional_element(actual.element_bias)) << "epilogue.bias";
  EXPECT_EQ(expected.alpha_vector, actual.alpha_vector) << "epilogue.alpha_vector";
  EXPECT_STREQ(expected.aux, optional_element(actual.element_aux)) << "epilogue.aux";
  EXPECT_EQ(expected.scale_amax, actual.scale_amax) << "epilogue.scale_amax";
  bool const fused = std::string(expected.activation) != "identity" || expected.bias[0] || expected.alpha_vector ||
                     expected.aux[0] || expected.scale_amax;
  EXPECT_EQ(fused, actual.fused()) << "epilogue.fused()";
}

/// A type as kernel names spell it: the runtime's to_string(), except fp8 (CUTLASS's kernel names
/// say e4m3 / e5m2 where NumericTypeID names say fe4m3 / fe5m2).
std::string name_type(NumericTypeID type) {
  switch (type) {
    case NumericTypeID::kFE4M3: return "e4m3";
    case NumericTypeID::kFE5M2: return "e5m2";
    default: return to_string(type);
  }
}

/// The fused-epilogue variant a name ends with (generator/epilogues.py Epilogue.suffix): its pieces
/// joined by '_' in the order alphavec, bias, <activation>, aux, amax; "" for the plain epilogue.
std::string variant_suffix(EpilogueDescription const &e) {
  std::string suffix;
  auto add = [&](std::string const &piece) { suffix += (suffix.empty() ? "" : "_") + piece; };
  if (e.alpha_vector) add("alphavec");
  if (e.element_bias != NumericTypeID::kInvalid) add("bias");
  if (e.activation != cutlass::epilogue::ActivationKind::kIdentity) add(to_string(e.activation));
  if (e.element_aux != NumericTypeID::kInvalid) add("aux");
  if (e.scale_amax) add("amax");
  return suffix;
}

bool ends_with(std::string const &text, std::string const &tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

void expect_coord(int const (&expected)[3], cutlass::gemm::GemmCoord const &actual, char const *which) {
  EXPECT_EQ(expected[0], actual.m()) << which;
  EXPECT_EQ(expected[1], actual.n()) << which;
  EXPECT_EQ(expected[2], actual.k()) << which;
}

TEST(Manifest, MatchesGeneratorManifestJson) {
  auto const &manifest = Singleton::get().manifest;
  size_t const expected_count = sizeof(kExpectedKernels) / sizeof(kExpectedKernels[0]);
  ASSERT_EQ(expected_count, manifest.size());
  for (size_t i = 0; i < expected_count; ++i) {
    ExpectedKernel const &e = kExpectedKernels[i];
    auto const &d = static_cast<GemmDescription const &>(manifest.operations()[i]->description());
    SCOPED_TRACE(e.name);
    EXPECT_STREQ(e.name, d.name);
    EXPECT_EQ(OperationKind::kGemm, d.kind);
    EXPECT_EQ(Provider::kCUTLASS, d.provider);
    // the grouped kernels register under their own kind (one launch over many problems)
    EXPECT_EQ(std::string(e.tile_scheduler) == "grouped" ? GemmKind::kGrouped : GemmKind::kUniversal, d.gemm_kind);
    auto const &tile = d.tile_description;
    EXPECT_STREQ(e.opcode_class, to_string(tile.math_instruction.opcode_class));
    EXPECT_STREQ(e.math_operation, to_string(tile.math_instruction.math_operation));
    expect_tensor(e.A, d.A, "A");
    expect_tensor(e.B, d.B, "B");
    expect_tensor(e.C, d.C, "C");
    expect_tensor(e.D, d.D, "D");
    EXPECT_STREQ(e.element_accumulator, to_string(tile.math_instruction.element_accumulator));
    EXPECT_STREQ(e.element_epilogue, to_string(d.element_epilogue));
    expect_coord(e.threadblock_shape, tile.threadblock_shape, "threadblock_shape");
    expect_coord(e.warp_count, tile.warp_count, "warp_count");
    expect_coord(e.instruction_shape, tile.math_instruction.instruction_shape, "instruction_shape");
    EXPECT_EQ(e.stages, tile.threadblock_stages);
    expect_coord(e.cluster_shape, tile.cluster_shape, "cluster_shape");
    EXPECT_STREQ(e.tile_scheduler, to_string(tile.tile_scheduler));
    EXPECT_EQ(e.min_cc, tile.minimum_compute_capability);
    EXPECT_EQ(e.max_cc, tile.maximum_compute_capability);
    expect_epilogue(e.epilogue, d.epilogue);
  }
}

TEST(Manifest, ActivationNamesRoundTrip) {
  using cutlass::epilogue::ActivationKind;
  struct {
    ActivationKind kind;
    char const *name;
  } const names[] = {{ActivationKind::kIdentity, "identity"}, {ActivationKind::kReLU, "relu"},
                     {ActivationKind::kGELU, "gelu"},         {ActivationKind::kGELUErf, "gelu_erf"},
                     {ActivationKind::kSiLU, "silu"},         {ActivationKind::kSigmoid, "sigmoid"},
                     {ActivationKind::kClamp, "clamp"}};
  for (auto const &n : names) {
    EXPECT_STREQ(n.name, to_string(n.kind));
    ActivationKind parsed = ActivationKind::kInvalid;
    EXPECT_TRUE(from_string(n.name, &parsed)) << n.name;
    EXPECT_EQ(n.kind, parsed) << n.name;
    EXPECT_EQ(n.kind, activation_kind_from_string(n.name)) << n.name;
  }
  EXPECT_STREQ("invalid", to_string(ActivationKind::kInvalid));
  for (char const *bad : {"", "ReLU", "GELU", "gelu-erf", "tanh", "relu ", "none"}) {
    ActivationKind parsed = ActivationKind::kSiLU;
    EXPECT_FALSE(from_string(bad, &parsed)) << bad;
    EXPECT_EQ(ActivationKind::kSiLU, parsed) << "unchanged on failure: " << bad;
    EXPECT_EQ(ActivationKind::kInvalid, activation_kind_from_string(bad)) << bad;
  }
  ActivationKind parsed = ActivationKind::kSiLU;
  EXPECT_FALSE(from_string(nullptr, &parsed));
  EXPECT_EQ(ActivationKind::kSiLU, parsed);
  EXPECT_FALSE(from_string("relu", nullptr));
  EXPECT_EQ(ActivationKind::kInvalid, activation_kind_from_string(nullptr));
}

TEST(Manifest, VariantSuffixSpelling) {
  using cutlass::epilogue::ActivationKind;
  EpilogueDescription e;
  EXPECT_EQ("", variant_suffix(e));
  e.activation = ActivationKind::kGELU;
  e.element_bias = NumericTypeID::kBF16;
  EXPECT_EQ("bias_gelu", variant_suffix(e));
  e.alpha_vector = true;
  e.element_aux = NumericTypeID::kF32;
  e.scale_amax = true;
  e.activation = ActivationKind::kGELUErf;
  EXPECT_EQ("alphavec_bias_gelu_erf_aux_amax", variant_suffix(e));
  EXPECT_EQ("e4m3", name_type(NumericTypeID::kFE4M3));
  EXPECT_EQ("e5m2", name_type(NumericTypeID::kFE5M2));
  EXPECT_EQ("bf16", name_type(NumericTypeID::kBF16));
}

/// The name encodes the description: CUTLASS's 2.x scheme (cutlass_<opclass>_..._<M>x<N>_<K>x<stages>_<ab>_align<n>)
/// or its 3.x scheme (cutlass3x_sm<cc>_<opclass>_..._<M>x<N>x<K>_<cM>x<cN>x<cK>_<stages>_<abc>_align<n>..._epi_tma),
/// fused epilogues followed by their variant: "_epi_<variant>" (2.x) or "_<variant>" (3.x).
TEST(Manifest, NamesMatchDescriptions) {
  std::set<std::string> names;
  auto letter = [](LayoutTypeID layout) { return layout == LayoutTypeID::kColumnMajor ? std::string("n") : std::string("t"); };
  for (auto const &op : Singleton::get().manifest) {
    auto const &d = static_cast<GemmDescription const &>(op->description());
    std::string const name = d.name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate kernel name " << name;
    auto const &tile = d.tile_description;
    auto const &tb = tile.threadblock_shape;
    auto const &cl = tile.cluster_shape;
    std::string const opclass = to_string(tile.math_instruction.opcode_class);
    std::string const align = "_align" + std::to_string(std::max(d.A.alignment, d.B.alignment));
    std::string const variant = variant_suffix(d.epilogue);
    EXPECT_EQ(d.epilogue.fused(), !variant.empty()) << name;
    if (name.rfind("cutlass3x_", 0) == 0) {
      std::string const prefix = "cutlass3x_sm" + std::to_string(tile.minimum_compute_capability) + "_" + opclass + "_";
      EXPECT_EQ(0u, name.find(prefix)) << name;
      std::string const middle = "_" + std::to_string(tb.m()) + "x" + std::to_string(tb.n()) + "x" +
                                 std::to_string(tb.k()) + "_" + std::to_string(cl.m()) + "x" + std::to_string(cl.n()) +
                                 "x" + std::to_string(cl.k()) + "_" + std::to_string(tile.threadblock_stages) + "_" +
                                 letter(d.A.layout) + letter(d.B.layout) + letter(d.C.layout) + align + "_";
      EXPECT_NE(std::string::npos, name.find(middle)) << name << " lacks " << middle;
      std::string const types = name_type(d.A.element) + "_" + name_type(d.B.element) + "_" +
                                name_type(tile.math_instruction.element_accumulator) + "_" + name_type(d.C.element) +
                                "_" + name_type(d.D.element) + "_";
      EXPECT_NE(std::string::npos, name.find("_gemm_" + types)) << name << " lacks " << types;
      std::string const tail = "_epi_tma" + (variant.empty() ? std::string() : "_" + variant);
      EXPECT_TRUE(ends_with(name, tail)) << name << " does not end with " << tail;
    } else {
      EXPECT_EQ(0u, name.find("cutlass_" + opclass + "_")) << name;
      std::string const tile_text = "_" + std::to_string(tb.m()) + "x" + std::to_string(tb.n()) + "_" +
                                    std::to_string(tb.k()) + "x" + std::to_string(tile.threadblock_stages) + "_";
      EXPECT_NE(std::string::npos, name.find(tile_text)) << name << " lacks " << tile_text;
      std::string const split = d.split_k_mode == SplitKMode::kSerial ? "_splitk" : "";
      std::string const suffix = "_" + letter(d.A.layout) + letter(d.B.layout) + align + split +
                                 (variant.empty() ? std::string() : "_epi_" + variant);
      ASSERT_GE(name.size(), suffix.size());
      EXPECT_EQ(suffix, name.substr(name.size() - suffix.size())) << name;
      // C's type opens the extended name when it differs from the accumulator's (fp8 spelled e4m3 / e5m2)
      if (d.C.element != tile.math_instruction.element_accumulator) {
        std::string const c_type = "cutlass_" + opclass + "_" + name_type(d.C.element) + "_";
        EXPECT_EQ(0u, name.find(c_type)) << name << " does not start with " << c_type;
      }
    }
  }
}

TEST(Manifest, CApiListsTheSameKernels) {
  auto const &manifest = Singleton::get().manifest;
  ASSERT_EQ(manifest.size(), cutlassLibGetKernelCount());
  for (size_t i = 0; i < manifest.size(); ++i) {
    EXPECT_STREQ(manifest.operations()[i]->description().name, cutlassLibGetKernelName(i));
  }
  EXPECT_EQ(nullptr, cutlassLibGetKernelName(manifest.size()));
  EXPECT_EQ(nullptr, cutlassLibGetKernelName(size_t(-1)));
}

}  // namespace
