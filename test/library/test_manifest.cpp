/// Host test: the runtime manifest holds exactly the kernels of the generator's manifest.json,
/// in the same order, and every description field matches (the C++ side derives them from the
/// kernel types, the Python side from its tables: they must agree).
#include <gtest/gtest.h>

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
  int min_cc;
  int max_cc;
};

#include "manifest_expected.inc"

using namespace cutlass::library;

void expect_tensor(ExpectedTensor const &expected, TensorDescription const &actual, char const *which) {
  EXPECT_STREQ(expected.element, to_string(actual.element)) << which;
  EXPECT_STREQ(expected.layout, to_string(actual.layout)) << which;
  EXPECT_EQ(expected.alignment, actual.alignment) << which;
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
    EXPECT_EQ(GemmKind::kUniversal, d.gemm_kind);
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
    EXPECT_EQ(e.min_cc, tile.minimum_compute_capability);
    EXPECT_EQ(e.max_cc, tile.maximum_compute_capability);
  }
}

/// The name encodes the description: CUTLASS's 2.x scheme (cutlass_<opclass>_..._<M>x<N>_<K>x<stages>_<ab>_align<n>)
/// or its 3.x scheme (cutlass3x_sm<cc>_<opclass>_..._<M>x<N>x<K>_<cM>x<cN>x<cK>_<stages>_<abc>_align<n>...).
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
    if (name.rfind("cutlass3x_", 0) == 0) {
      std::string const prefix = "cutlass3x_sm" + std::to_string(tile.minimum_compute_capability) + "_" + opclass + "_";
      EXPECT_EQ(0u, name.find(prefix)) << name;
      std::string const middle = "_" + std::to_string(tb.m()) + "x" + std::to_string(tb.n()) + "x" +
                                 std::to_string(tb.k()) + "_" + std::to_string(cl.m()) + "x" + std::to_string(cl.n()) +
                                 "x" + std::to_string(cl.k()) + "_" + std::to_string(tile.threadblock_stages) + "_" +
                                 letter(d.A.layout) + letter(d.B.layout) + letter(d.C.layout) + align + "_";
      EXPECT_NE(std::string::npos, name.find(middle)) << name << " lacks " << middle;
      std::string const types = std::string(to_string(d.A.element)) + "_" + to_string(d.B.element) + "_" +
                                to_string(tile.math_instruction.element_accumulator) + "_" + to_string(d.C.element) +
                                "_" + to_string(d.D.element) + "_";
      EXPECT_NE(std::string::npos, name.find("_gemm_" + types)) << name << " lacks " << types;
    } else {
      EXPECT_EQ(0u, name.find("cutlass_" + opclass + "_")) << name;
      std::string const tile_text = "_" + std::to_string(tb.m()) + "x" + std::to_string(tb.n()) + "_" +
                                    std::to_string(tb.k()) + "x" + std::to_string(tile.threadblock_stages) + "_";
      EXPECT_NE(std::string::npos, name.find(tile_text)) << name << " lacks " << tile_text;
      std::string const suffix = "_" + letter(d.A.layout) + letter(d.B.layout) + align;
      ASSERT_GE(name.size(), suffix.size());
      EXPECT_EQ(suffix, name.substr(name.size() - suffix.size())) << name;
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
