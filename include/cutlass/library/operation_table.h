/// @file cutlass/library/operation_table.h
/// Kernels indexed by functional key: the facts a call must match exactly (types, layouts).
/// Each key maps to its kernels in preference order (see handle.h).
#pragma once

#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

#include "cutlass/library/export.h"
#include "cutlass/library/manifest.h"

namespace cutlass {
namespace library {

/// What a GEMM call must match exactly. C and D layouts are always column-major in the table
/// (row-major calls are transposed by the handle before lookup).
struct GemmFunctionalKey {
  Provider provider = Provider::kCUTLASS;
  GemmKind gemm_kind = GemmKind::kUniversal;
  NumericTypeID element_compute = NumericTypeID::kInvalid;   ///< accumulator type
  NumericTypeID element_scalar = NumericTypeID::kInvalid;    ///< alpha/beta type
  NumericTypeID element_A = NumericTypeID::kInvalid;
  LayoutTypeID layout_A = LayoutTypeID::kInvalid;
  ComplexTransform transform_A = ComplexTransform::kNone;
  NumericTypeID element_B = NumericTypeID::kInvalid;
  LayoutTypeID layout_B = LayoutTypeID::kInvalid;
  ComplexTransform transform_B = ComplexTransform::kNone;
  NumericTypeID element_C = NumericTypeID::kInvalid;
  LayoutTypeID layout_C = LayoutTypeID::kInvalid;
  NumericTypeID element_D = NumericTypeID::kInvalid;
  LayoutTypeID layout_D = LayoutTypeID::kInvalid;
  EpilogueDescription epilogue;   ///< fused pieces; the plain epilogue by default

  CUTLASS_LIB_API bool operator==(GemmFunctionalKey const &o) const;
  bool operator!=(GemmFunctionalKey const &o) const { return !(*this == o); }
};

/// The key of a kernel's description.
CUTLASS_LIB_API GemmFunctionalKey make_gemm_functional_key(GemmDescription const &desc);

struct CUTLASS_LIB_API GemmFunctionalKeyHasher {
  size_t operator()(GemmFunctionalKey const &key) const;
};

using GemmOperationVector = std::vector<Operation const *>;
using GemmOperationFunctionalMap = std::unordered_map<GemmFunctionalKey, GemmOperationVector, GemmFunctionalKeyHasher>;

class CUTLASS_LIB_API OperationTable {
 public:
  /// Indexes every GEMM of the manifest; each key's vector is in preference order.
  void append(Manifest const &manifest);

  /// The kernels under `key` in preference order, or null when there are none.
  GemmOperationVector const *find_gemm(GemmFunctionalKey const &key) const;

  GemmOperationFunctionalMap gemm_operations;
};

}  // namespace library
}  // namespace cutlass
