/// @file src/library/operation_table.cpp
/// Builds the functional-key index and sorts each key's kernels into preference order.
#include "cutlass/library/operation_table.h"

#include <algorithm>

namespace cutlass {
namespace library {

bool GemmFunctionalKey::operator==(GemmFunctionalKey const &o) const {
  return provider == o.provider && gemm_kind == o.gemm_kind && element_compute == o.element_compute &&
         element_scalar == o.element_scalar && element_A == o.element_A && layout_A == o.layout_A &&
         transform_A == o.transform_A && element_B == o.element_B && layout_B == o.layout_B &&
         transform_B == o.transform_B && element_C == o.element_C && layout_C == o.layout_C &&
         element_D == o.element_D && layout_D == o.layout_D && epilogue == o.epilogue;
}

size_t GemmFunctionalKeyHasher::operator()(GemmFunctionalKey const &k) const {
  int const fields[] = {int(k.provider),    int(k.gemm_kind), int(k.element_compute), int(k.element_scalar),
                        int(k.element_A),   int(k.layout_A),  int(k.transform_A),     int(k.element_B),
                        int(k.layout_B),    int(k.transform_B), int(k.element_C),     int(k.layout_C),
                        int(k.element_D),   int(k.layout_D),  int(k.epilogue.activation),
                        int(k.epilogue.element_bias), int(k.epilogue.alpha_vector), int(k.epilogue.element_aux),
                        int(k.epilogue.scale_amax)};
  size_t hash = 0;
  for (int field : fields) hash = hash * 131 + size_t(field);
  return hash;
}

GemmFunctionalKey make_gemm_functional_key(GemmDescription const &d) {
  GemmFunctionalKey key;
  key.provider = d.provider;
  key.gemm_kind = d.gemm_kind;
  key.element_compute = d.tile_description.math_instruction.element_accumulator;
  key.element_scalar = d.element_epilogue;
  key.element_A = d.A.element;
  key.layout_A = d.A.layout;
  key.transform_A = d.transform_A;
  key.element_B = d.B.element;
  key.layout_B = d.B.layout;
  key.transform_B = d.transform_B;
  key.element_C = d.C.element;
  key.layout_C = d.C.layout;
  key.element_D = d.D.element;
  key.layout_D = d.D.layout;
  key.epilogue = d.epilogue;
  return key;
}

namespace {

int max_alignment(GemmDescription const &d) {
  return std::max(d.A.alignment, std::max(d.B.alignment, d.C.alignment));
}

/// Preference order (handle.h): higher minimum compute capability first, then larger
/// alignment, then registration (generator) order — stable_sort keeps the latter.
bool preferred(Operation const *a, Operation const *b) {
  auto const &da = static_cast<GemmDescription const &>(a->description());
  auto const &db = static_cast<GemmDescription const &>(b->description());
  int cc_a = da.tile_description.minimum_compute_capability;
  int cc_b = db.tile_description.minimum_compute_capability;
  if (cc_a != cc_b) return cc_a > cc_b;
  return max_alignment(da) > max_alignment(db);
}

}  // namespace

void OperationTable::append(Manifest const &manifest) {
  for (auto const &op : manifest) {
    if (op->description().kind != OperationKind::kGemm) continue;
    auto const &desc = static_cast<GemmDescription const &>(op->description());
    gemm_operations[make_gemm_functional_key(desc)].push_back(op.get());
  }
  for (auto &entry : gemm_operations) {
    std::stable_sort(entry.second.begin(), entry.second.end(), preferred);
  }
}

GemmOperationVector const *OperationTable::find_gemm(GemmFunctionalKey const &key) const {
  auto it = gemm_operations.find(key);
  if (it == gemm_operations.end() || it->second.empty()) return nullptr;
  return &it->second;
}

}  // namespace library
}  // namespace cutlass
