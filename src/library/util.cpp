/// @file src/library/util.cpp
/// Enum names and parsers (see cutlass/library/util.h).
#include "cutlass/library/util.h"

#include <cstring>

namespace cutlass {
namespace library {

namespace {

struct TypeName {
  NumericTypeID type;
  char const *name;
  int bits;
};

constexpr TypeName kTypeNames[] = {
    {NumericTypeID::kVoid, "void", 0},   {NumericTypeID::kB1, "b1", 1},       {NumericTypeID::kU2, "u2", 2},
    {NumericTypeID::kU4, "u4", 4},       {NumericTypeID::kU8, "u8", 8},       {NumericTypeID::kU16, "u16", 16},
    {NumericTypeID::kU32, "u32", 32},    {NumericTypeID::kU64, "u64", 64},    {NumericTypeID::kS2, "s2", 2},
    {NumericTypeID::kS4, "s4", 4},       {NumericTypeID::kS8, "s8", 8},       {NumericTypeID::kS16, "s16", 16},
    {NumericTypeID::kS32, "s32", 32},    {NumericTypeID::kS64, "s64", 64},    {NumericTypeID::kFE4M3, "fe4m3", 8},
    {NumericTypeID::kFE5M2, "fe5m2", 8}, {NumericTypeID::kF16, "f16", 16},    {NumericTypeID::kBF16, "bf16", 16},
    {NumericTypeID::kTF32, "tf32", 32},  {NumericTypeID::kF32, "f32", 32},    {NumericTypeID::kF64, "f64", 64},
    {NumericTypeID::kCF16, "cf16", 32},  {NumericTypeID::kCBF16, "cbf16", 32}, {NumericTypeID::kCF32, "cf32", 64},
    {NumericTypeID::kCTF32, "ctf32", 64}, {NumericTypeID::kCF64, "cf64", 128},
};

constexpr int kTypeCount = int(sizeof(kTypeNames) / sizeof(kTypeNames[0]));

/// kTypeNames holds NumericTypeID's enumerators in order from kVoid (checked below), so a type's
/// entry is found by its value: sizeof_bits runs several times per problem in the grouped calls'
/// argument checks (a search of the table took a quarter of them, s22).
constexpr bool types_in_enum_order() {
  for (int i = 0; i < kTypeCount; ++i) {
    if (int(kTypeNames[i].type) != int(NumericTypeID::kVoid) + i) return false;
  }
  return kTypeCount == int(NumericTypeID::kInvalid) - int(NumericTypeID::kVoid);
}
static_assert(types_in_enum_order(), "kTypeNames must list every NumericTypeID from kVoid in order");

TypeName const *find_type(NumericTypeID type) {
  int const i = int(type) - int(NumericTypeID::kVoid);
  return i >= 0 && i < kTypeCount ? &kTypeNames[i] : nullptr;
}

}  // namespace

char const *to_string(NumericTypeID type) {
  TypeName const *t = find_type(type);
  return t ? t->name : (type == NumericTypeID::kUnknown ? "unknown" : "invalid");
}

int sizeof_bits(NumericTypeID type) {
  TypeName const *t = find_type(type);
  return t ? t->bits : 0;
}

NumericTypeID numeric_type_from_string(char const *text) {
  if (!text) return NumericTypeID::kInvalid;
  for (auto const &t : kTypeNames) {
    if (std::strcmp(t.name, text) == 0) return t.type;
  }
  return NumericTypeID::kInvalid;
}

char const *to_string(LayoutTypeID layout) {
  switch (layout) {
    case LayoutTypeID::kColumnMajor: return "column";
    case LayoutTypeID::kRowMajor: return "row";
    case LayoutTypeID::kUnknown: return "unknown";
    case LayoutTypeID::kInvalid: break;
  }
  return "invalid";
}

LayoutTypeID layout_type_from_string(char const *text) {
  if (!text) return LayoutTypeID::kInvalid;
  for (char const *name : {"column", "col", "n"}) {
    if (std::strcmp(text, name) == 0) return LayoutTypeID::kColumnMajor;
  }
  for (char const *name : {"row", "t"}) {
    if (std::strcmp(text, name) == 0) return LayoutTypeID::kRowMajor;
  }
  return LayoutTypeID::kInvalid;
}

char const *to_string(OpcodeClassID opcode_class) {
  switch (opcode_class) {
    case OpcodeClassID::kSimt: return "simt";
    case OpcodeClassID::kTensorOp: return "tensorop";
    case OpcodeClassID::kWmmaTensorOp: return "wmma_tensorop";
    case OpcodeClassID::kSparseTensorOp: return "sptensorop";
    case OpcodeClassID::kInvalid: break;
  }
  return "invalid";
}

char const *to_string(TileSchedulerType scheduler) {
  switch (scheduler) {
    case TileSchedulerType::kDefault: return "default";
    case TileSchedulerType::kPersistent: return "persistent";
    case TileSchedulerType::kStreamK: return "stream_k";
    case TileSchedulerType::kGrouped: return "grouped";
    case TileSchedulerType::kInvalid: break;
  }
  return "invalid";
}

char const *to_string(MathOperationID math_operation) {
  switch (math_operation) {
    case MathOperationID::kAdd: return "add";
    case MathOperationID::kMultiplyAdd: return "multiply_add";
    case MathOperationID::kMultiplyAddSaturate: return "multiply_add_saturate";
    case MathOperationID::kMultiplyAddMixedInputUpcast: return "multiply_add_mixed_input_upcast";
    case MathOperationID::kMultiplyAddFastBF16: return "multiply_add_fast_bf16";
    case MathOperationID::kMultiplyAddFastF16: return "multiply_add_fast_f16";
    case MathOperationID::kMultiplyAddFastF32: return "multiply_add_fast_f32";
    case MathOperationID::kMultiplyAddComplex: return "multiply_add_complex";
    case MathOperationID::kMultiplyAddComplexFastF32: return "multiply_add_complex_fast_f32";
    case MathOperationID::kMultiplyAddGaussianComplex: return "multiply_add_gaussian_complex";
    case MathOperationID::kXorPopc: return "xor_popc";
    case MathOperationID::kInvalid: break;
  }
  return "invalid";
}

char const *to_string(Provider provider) {
  switch (provider) {
    case Provider::kNone: return "none";
    case Provider::kCUTLASS: return "cutlass";
    case Provider::kReferenceHost: return "host";
    case Provider::kReferenceDevice: return "device";
    case Provider::kCUBLAS: return "cublas";
    case Provider::kCUDNN: return "cudnn";
    case Provider::kInvalid: break;
  }
  return "invalid";
}

char const *to_string(Status status) { return cutlassGetStatusString(status); }

namespace {

struct ActivationName {
  epilogue::ActivationKind kind;
  char const *name;
};

/// The generator's names (generator/epilogues.py ACTIVATIONS).
constexpr ActivationName kActivationNames[] = {
    {epilogue::ActivationKind::kIdentity, "identity"}, {epilogue::ActivationKind::kReLU, "relu"},
    {epilogue::ActivationKind::kGELU, "gelu"},         {epilogue::ActivationKind::kGELUErf, "gelu_erf"},
    {epilogue::ActivationKind::kSiLU, "silu"},         {epilogue::ActivationKind::kSigmoid, "sigmoid"},
    {epilogue::ActivationKind::kClamp, "clamp"},
};

}  // namespace

char const *to_string(epilogue::ActivationKind activation) {
  for (auto const &a : kActivationNames) {
    if (a.kind == activation) return a.name;
  }
  return "invalid";
}

bool from_string(char const *text, epilogue::ActivationKind *activation) {
  if (!text || !activation) return false;
  for (auto const &a : kActivationNames) {
    if (std::strcmp(a.name, text) == 0) {
      *activation = a.kind;
      return true;
    }
  }
  return false;
}

epilogue::ActivationKind activation_kind_from_string(char const *text) {
  epilogue::ActivationKind kind = epilogue::ActivationKind::kInvalid;
  from_string(text, &kind);
  return kind;
}

}  // namespace library
}  // namespace cutlass
