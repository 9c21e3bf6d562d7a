/// @file src/library/type_map.h
/// Compile-time maps from kernel template types to the library's enum IDs (internal).
#pragma once

#include <cstdint>
#include <type_traits>

#include "cutlass/arch/arch.h"
#include "cutlass/layout/matrix.h"
#include "cutlass/library/types.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace library {

template <typename T> struct NumericTypeMap;
template <> struct NumericTypeMap<float> { static constexpr NumericTypeID kId = NumericTypeID::kF32; };
template <> struct NumericTypeMap<double> { static constexpr NumericTypeID kId = NumericTypeID::kF64; };
template <> struct NumericTypeMap<half_t> { static constexpr NumericTypeID kId = NumericTypeID::kF16; };
template <> struct NumericTypeMap<bfloat16_t> { static constexpr NumericTypeID kId = NumericTypeID::kBF16; };
template <> struct NumericTypeMap<tfloat32_t> { static constexpr NumericTypeID kId = NumericTypeID::kTF32; };
template <> struct NumericTypeMap<int8_t> { static constexpr NumericTypeID kId = NumericTypeID::kS8; };
template <> struct NumericTypeMap<int32_t> { static constexpr NumericTypeID kId = NumericTypeID::kS32; };
template <> struct NumericTypeMap<float_e4m3_t> { static constexpr NumericTypeID kId = NumericTypeID::kFE4M3; };
template <> struct NumericTypeMap<float_e5m2_t> { static constexpr NumericTypeID kId = NumericTypeID::kFE5M2; };

template <typename L> struct LayoutMap;
template <> struct LayoutMap<layout::ColumnMajor> { static constexpr LayoutTypeID kId = LayoutTypeID::kColumnMajor; };
template <> struct LayoutMap<layout::RowMajor> { static constexpr LayoutTypeID kId = LayoutTypeID::kRowMajor; };

template <typename C> struct OpcodeClassMap;
template <> struct OpcodeClassMap<arch::OpClassSimt> { static constexpr OpcodeClassID kId = OpcodeClassID::kSimt; };
template <> struct OpcodeClassMap<arch::OpClassTensorOp> { static constexpr OpcodeClassID kId = OpcodeClassID::kTensorOp; };

template <typename M> struct MathOperationMap;
template <> struct MathOperationMap<arch::OpMultiplyAdd> { static constexpr MathOperationID kId = MathOperationID::kMultiplyAdd; };

}  // namespace library
}  // namespace cutlass
