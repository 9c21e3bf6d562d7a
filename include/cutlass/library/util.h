/// @file cutlass/library/util.h
/// Text names of the library's enums, as the profiler and CUTLASS print them
/// (f16 bf16 tf32 f32 f64 s8 s32; "column"/"row"; "cutlass", "cublas", ...; activations by the
/// generator's names, as in kernel names and manifest.json), and parsers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cutlass/library/export.h"
#include "cutlass/library/library.h"

namespace cutlass {
namespace library {

CUTLASS_LIB_API char const *to_string(NumericTypeID type);
CUTLASS_LIB_API char const *to_string(LayoutTypeID layout);
CUTLASS_LIB_API char const *to_string(OpcodeClassID opcode_class);
CUTLASS_LIB_API char const *to_string(MathOperationID math_operation);
CUTLASS_LIB_API char const *to_string(TileSchedulerType scheduler);   ///< "default", "persistent", "stream_k", "grouped"
CUTLASS_LIB_API char const *to_string(Provider provider);
CUTLASS_LIB_API char const *to_string(Status status);
/// "identity", "relu", "gelu", "gelu_erf", "silu", "sigmoid", "clamp" (the generator's names:
/// generator/epilogues.py ACTIVATIONS, manifest.json's epilogue.activation); "invalid" otherwise.
CUTLASS_LIB_API char const *to_string(epilogue::ActivationKind activation);

/// Parses "f16", "bf16", "tf32", "f32", "f64", "s8", "s32", ...; kInvalid if unknown.
CUTLASS_LIB_API NumericTypeID numeric_type_from_string(char const *text);
/// Parses "column"/"col"/"n" and "row"/"t"; kInvalid if unknown.
CUTLASS_LIB_API LayoutTypeID layout_type_from_string(char const *text);
/// Parses an activation name of to_string(ActivationKind) (exact, lower case). On success sets
/// *activation and returns true; otherwise returns false and leaves *activation unchanged.
CUTLASS_LIB_API bool from_string(char const *text, epilogue::ActivationKind *activation);
/// The same, returning ActivationKind::kInvalid for an unknown name.
CUTLASS_LIB_API epilogue::ActivationKind activation_kind_from_string(char const *text);

/// Bits of one element (16 for kF16, 32 for kTF32, 0 for kInvalid).
CUTLASS_LIB_API int sizeof_bits(NumericTypeID type);

}  // namespace library
}  // namespace cutlass
