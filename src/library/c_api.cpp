/// @file src/library/c_api.cpp
/// The C API (include/cutlass_lib.h) on top of the library's one GEMM path (gemm_call.h) and its
/// loop over grouped and pointer-array problems (gemm_grouped.h).
#include "cutlass_lib.h"

#include <exception>
#include <new>

#include "cutlass/library/handle.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "gemm_call.h"
#include "gemm_grouped.h"
#include "handle_access.h"

using namespace cutlass::library;

struct cutlassLibContext {
  Handle handle;
  cutlassLibEpilogue_t epilogue = CUTLASS_LIB_EPILOGUE_DEFAULT;
  GemmEpilogueArguments operands;   ///< pointers, strides and types set by the epilogue setters
  NumericTypeID bias_type = NumericTypeID::kInvalid;
  NumericTypeID aux_type = NumericTypeID::kInvalid;
};

namespace {

cutlassLibStatus_t to_c_status(GemmFailure failure) {
  switch (failure) {
    case GemmFailure::kNone: return CUTLASS_LIB_STATUS_SUCCESS;
    case GemmFailure::kInvalidValue: return CUTLASS_LIB_STATUS_INVALID_VALUE;
    case GemmFailure::kNotSupported: return CUTLASS_LIB_STATUS_NOT_SUPPORTED;
    case GemmFailure::kNoDevice: return CUTLASS_LIB_STATUS_NO_DEVICE;
    case GemmFailure::kNoKernel: return CUTLASS_LIB_STATUS_NO_KERNEL;
    case GemmFailure::kArchMismatch: return CUTLASS_LIB_STATUS_ARCH_MISMATCH;
    case GemmFailure::kNoKernelFits: return CUTLASS_LIB_STATUS_NO_KERNEL;
    case GemmFailure::kAllocFailed: return CUTLASS_LIB_STATUS_ALLOC_FAILED;
    case GemmFailure::kWorkspaceTooSmall: return CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL;
    case GemmFailure::kLaunchFailed: return CUTLASS_LIB_STATUS_EXECUTION_FAILED;
  }
  return CUTLASS_LIB_STATUS_INTERNAL_ERROR;
}

/// The library types of one supported (Atype, Btype, Ctype, computeType) row of the header's table.
struct TypeRow {
  cudaDataType_t a, b, c;
  cutlassLibComputeType_t compute;
  NumericTypeID element_A, element_B, element_C, element_compute, element_scalar;
};

constexpr TypeRow kTypeRows[] = {
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF16,
     NumericTypeID::kF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF16,
     NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kBF16,
     NumericTypeID::kBF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kBF16,
     NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF32, NumericTypeID::kF32,
     NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F_FAST_TF32, NumericTypeID::kTF32,
     NumericTypeID::kTF32, NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUTLASS_LIB_COMPUTE_64F, NumericTypeID::kF64, NumericTypeID::kF64,
     NumericTypeID::kF64, NumericTypeID::kF64, NumericTypeID::kF64},
    {CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUTLASS_LIB_COMPUTE_32I, NumericTypeID::kS8, NumericTypeID::kS8,
     NumericTypeID::kS32, NumericTypeID::kS32, NumericTypeID::kS32},
    // int8 dequantization: s32 accumulation, f32 epilogue (sm90 kernels "..._s8_s8_s32_bf16_...", the
    // 128x128 tile of each output in the default set)
    {CUDA_R_8I, CUDA_R_8I, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kS8, NumericTypeID::kS8,
     NumericTypeID::kBF16, NumericTypeID::kS32, NumericTypeID::kF32},
    {CUDA_R_8I, CUDA_R_8I, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kS8, NumericTypeID::kS8,
     NumericTypeID::kF16, NumericTypeID::kS32, NumericTypeID::kF32},
    {CUDA_R_8I, CUDA_R_8I, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kS8, NumericTypeID::kS8,
     NumericTypeID::kF32, NumericTypeID::kS32, NumericTypeID::kF32},
    // int8 requantization: the same f32 epilogue, s8 out (opt-in sm90 kernels "..._s8_s8_s32_s8_s8_...")
    {CUDA_R_8I, CUDA_R_8I, CUDA_R_8I, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kS8, NumericTypeID::kS8,
     NumericTypeID::kS8, NumericTypeID::kS32, NumericTypeID::kF32},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_8F_E4M3, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kBF16,
     NumericTypeID::kFE4M3, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_8F_E5M2, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kBF16,
     NumericTypeID::kFE5M2, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_8F_E4M3, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF16,
     NumericTypeID::kFE4M3, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_8F_E5M2, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF16,
     NumericTypeID::kFE5M2, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE4M3, NumericTypeID::kBF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE4M3, NumericTypeID::kF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE4M3, NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    // fp8 outputs of fp8 operands: with the fp8 epilogue only (opt-in sm90 kernels
    // "..._e4m3_e4m3_f32_e4m3_e4m3_..._amax", "..._e5m2_e5m2_..._amax")
    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE4M3, NumericTypeID::kFE4M3, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE4M3, NumericTypeID::kFE5M2, NumericTypeID::kF32, NumericTypeID::kF32},
    // the mixed fp8 pairings (sm90 kernels, default set)
    {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE5M2, NumericTypeID::kBF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE5M2, NumericTypeID::kF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
     NumericTypeID::kFE5M2, NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE5M2,
     NumericTypeID::kFE4M3, NumericTypeID::kBF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE5M2,
     NumericTypeID::kFE4M3, NumericTypeID::kF16, NumericTypeID::kF32, NumericTypeID::kF32},
    {CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE5M2,
     NumericTypeID::kFE4M3, NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kF32},
};

/// The pieces of one cutlassLibEpilogue_t enumerator.
struct EpilogueRow {
  cutlassLibEpilogue_t epilogue;
  cutlass::epilogue::ActivationKind activation;
  bool bias, aux;
};

using cutlass::epilogue::ActivationKind;
constexpr EpilogueRow kEpilogueRows[] = {
    {CUTLASS_LIB_EPILOGUE_DEFAULT, ActivationKind::kIdentity, false, false},
    {CUTLASS_LIB_EPILOGUE_RELU, ActivationKind::kReLU, false, false},
    {CUTLASS_LIB_EPILOGUE_BIAS, ActivationKind::kIdentity, true, false},
    {CUTLASS_LIB_EPILOGUE_RELU_BIAS, ActivationKind::kReLU, true, false},
    {CUTLASS_LIB_EPILOGUE_GELU, ActivationKind::kGELU, false, false},
    {CUTLASS_LIB_EPILOGUE_GELU_BIAS, ActivationKind::kGELU, true, false},
    {CUTLASS_LIB_EPILOGUE_GELU_AUX, ActivationKind::kGELU, false, true},
    {CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS, ActivationKind::kGELU, true, true},
    {CUTLASS_LIB_EPILOGUE_GELU_ERF, ActivationKind::kGELUErf, false, false},
    {CUTLASS_LIB_EPILOGUE_GELU_ERF_BIAS, ActivationKind::kGELUErf, true, false},
    {CUTLASS_LIB_EPILOGUE_SILU, ActivationKind::kSiLU, false, false},
    {CUTLASS_LIB_EPILOGUE_SILU_BIAS, ActivationKind::kSiLU, true, false},
    {CUTLASS_LIB_EPILOGUE_SIGMOID, ActivationKind::kSigmoid, false, false},
    {CUTLASS_LIB_EPILOGUE_SIGMOID_BIAS, ActivationKind::kSigmoid, true, false},
    {CUTLASS_LIB_EPILOGUE_CLAMP, ActivationKind::kClamp, false, false},
    {CUTLASS_LIB_EPILOGUE_CLAMP_BIAS, ActivationKind::kClamp, true, false},
};

EpilogueRow const *find_epilogue_row(cutlassLibEpilogue_t epilogue) {
  for (EpilogueRow const &row : kEpilogueRows) {
    if (row.epilogue == epilogue) return &row;
  }
  return nullptr;
}

/// The library's element type of a real cudaDataType_t; kInvalid for the others.
NumericTypeID element_of(cudaDataType_t type) {
  switch (type) {
    case CUDA_R_64F: return NumericTypeID::kF64;
    case CUDA_R_32F: return NumericTypeID::kF32;
    case CUDA_R_16F: return NumericTypeID::kF16;
    case CUDA_R_16BF: return NumericTypeID::kBF16;
    case CUDA_R_32I: return NumericTypeID::kS32;
    case CUDA_R_8I: return NumericTypeID::kS8;
    case CUDA_R_8F_E4M3: return NumericTypeID::kFE4M3;
    case CUDA_R_8F_E5M2: return NumericTypeID::kFE5M2;
    default: return NumericTypeID::kInvalid;
  }
}

/// For a call outside the type table, the element type that sizes an operand's span check
/// (its checks come before the table's NOT_SUPPORTED, as in cuBLAS): the type itself where the
/// library has a name for it, else one of the same storage size (complex integers, two of their
/// parts), else kInvalid, counted as one byte (sub-byte and exponent-only types).
NumericTypeID span_element_of(cudaDataType_t type) {
  switch (type) {
    case CUDA_C_16F: return NumericTypeID::kCF16;
    case CUDA_C_16BF: return NumericTypeID::kCBF16;
    case CUDA_C_32F: return NumericTypeID::kCF32;
    case CUDA_C_64F: return NumericTypeID::kCF64;
    case CUDA_R_8U: return NumericTypeID::kU8;
    case CUDA_R_16I: return NumericTypeID::kS16;
    case CUDA_R_16U: return NumericTypeID::kU16;
    case CUDA_R_32U: return NumericTypeID::kU32;
    case CUDA_R_64I: return NumericTypeID::kS64;
    case CUDA_R_64U: return NumericTypeID::kU64;
    case CUDA_C_8I:
    case CUDA_C_8U: return NumericTypeID::kS16;
    case CUDA_C_16I:
    case CUDA_C_16U: return NumericTypeID::kS32;
    case CUDA_C_32I:
    case CUDA_C_32U: return NumericTypeID::kS64;
    case CUDA_C_64I:
    case CUDA_C_64U: return NumericTypeID::kCF64;
    default: return element_of(type);
  }
}

/// The type alpha and beta point to for a compute type (cutlass_lib.h); kInvalid outside the enum.
NumericTypeID scalar_of(cutlassLibComputeType_t compute) {
  switch (compute) {
    case CUTLASS_LIB_COMPUTE_32F:
    case CUTLASS_LIB_COMPUTE_32F_FAST_TF32: return NumericTypeID::kF32;
    case CUTLASS_LIB_COMPUTE_64F: return NumericTypeID::kF64;
    case CUTLASS_LIB_COMPUTE_32I: return NumericTypeID::kS32;
    default: return NumericTypeID::kInvalid;
  }
}

/// Element type of a bias or aux operand; kInvalid for types the epilogues do not take.
NumericTypeID vector_type(cudaDataType_t type) {
  NumericTypeID const element = element_of(type);
  bool const taken = element == NumericTypeID::kF32 || element == NumericTypeID::kF16 || element == NumericTypeID::kBF16;
  return taken ? element : NumericTypeID::kInvalid;
}

bool is_vector_mode(cutlassLibVectorMode_t mode) {
  return mode == CUTLASS_LIB_VECTOR_PER_ROW || mode == CUTLASS_LIB_VECTOR_PER_COLUMN;
}

cutlass::epilogue::VectorBroadcast to_broadcast(cutlassLibVectorMode_t mode) {
  return mode == CUTLASS_LIB_VECTOR_PER_ROW ? cutlass::epilogue::VectorBroadcast::kPerRow
                                            : cutlass::epilogue::VectorBroadcast::kPerColumn;
}

/// The epilogue arguments of the handle's current epilogue; false when a piece the epilogue
/// names has no operand set (bias or aux).
bool epilogue_of(cutlassLibContext const &context, GemmEpilogueArguments *out) {
  EpilogueRow const *row = find_epilogue_row(context.epilogue);
  GemmEpilogueArguments e = context.operands;
  e.kind = EpilogueDescription{};
  e.kind.activation = row->activation;
  if (row->bias) {
    if (context.bias_type == NumericTypeID::kInvalid) return false;
    e.kind.element_bias = context.bias_type;
  }
  if (row->aux) {
    if (context.aux_type == NumericTypeID::kInvalid) return false;
    e.kind.element_aux = context.aux_type;
  }
  e.kind.alpha_vector = e.alpha_vector != nullptr;
  e.kind.scale_amax = e.scale_d != nullptr || e.amax != nullptr;
  *out = e;
  return true;
}

TypeRow const *find_type_row(cudaDataType_t a, cudaDataType_t b, cudaDataType_t c, cutlassLibComputeType_t compute) {
  for (TypeRow const &row : kTypeRows) {
    if (row.a == a && row.b == b && row.c == c && row.compute == compute) return &row;
  }
  return nullptr;
}

bool is_op(cutlassLibOperation_t op) { return op == CUTLASS_LIB_OP_N || op == CUTLASS_LIB_OP_T; }

/// What a call that launches nothing asks for (GemmExSelect, GetWorkspaceSize); both null: run it.
struct Query {
  const char **kernel_name = nullptr;
  size_t *workspace_bytes = nullptr;
  bool runs() const { return !kernel_name && !workspace_bytes; }

  /// A grouped Select's query of both outputs, cleared to NULL and 0; false when either is null.
  static bool of_outputs(const char **kernel_name, size_t *workspace_bytes, Query *query) {
    if (!kernel_name || !workspace_bytes) return false;
    *kernel_name = nullptr;
    *workspace_bytes = 0;
    query->kernel_name = kernel_name;
    query->workspace_bytes = workspace_bytes;
    return true;
  }

  /// The call's status (a GemmOutcome or GemmGroupedOutcome), and on success the plan the query
  /// asks for: the kernel's name (NULL when none would launch), the workspace.
  template <typename Outcome>
  cutlassLibStatus_t answer(Outcome const &outcome) const {
    if (outcome.failure == GemmFailure::kNone) {
      if (kernel_name) *kernel_name = outcome.operation ? outcome.operation->description().name : nullptr;
      if (workspace_bytes) *workspace_bytes = outcome.workspace_bytes;
    }
    return to_c_status(outcome.failure);
  }
};

/// The layout of an operand stored as `op` says (N: column-major); kInvalid for other values,
/// which the argument checks answer with INVALID_VALUE.
LayoutTypeID layout_of(cutlassLibOperation_t op) {
  return op == CUTLASS_LIB_OP_N ? LayoutTypeID::kColumnMajor
                                : op == CUTLASS_LIB_OP_T ? LayoutTypeID::kRowMajor : LayoutTypeID::kInvalid;
}

/// The GemmCall of one GemmEx / GemmStridedBatchedEx problem on `context` (its pointer mode; the
/// epilogue is the caller's to add: epilogue_of). `types` is the call's row of the type table,
/// or null outside it. C is updated in place: D is C.
GemmCall make_call(cutlassLibContext const &context, TypeRow const *types, cutlassLibOperation_t transa,
                   cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k, const void *alpha, const void *A,
                   cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B, cudaDataType_t Btype,
                   int64_t ldb, int64_t strideB, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
                   int64_t strideC, int64_t batchCount, bool batched, cutlassLibComputeType_t computeType) {
  GemmCall call;
  call.mode = batched ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;
  call.m = m;
  call.n = n;
  call.k = k;
  call.batch_count = batchCount;
  call.alpha = alpha;
  call.beta = beta;
  call.pointer_mode = context.handle.get_scalar_pointer_mode();
  call.layout_A = layout_of(transa);
  call.layout_B = layout_of(transb);
  call.A = A;
  call.lda = lda;
  call.batch_stride_A = strideA;
  call.B = B;
  call.ldb = ldb;
  call.batch_stride_B = strideB;
  call.C = C;
  call.ldc = ldc;
  call.batch_stride_C = strideC;
  call.D = C;
  call.ldd = ldc;
  call.batch_stride_D = strideC;
  // The argument checks (the epilogue's operands included) come first, as in cuBLAS; then the
  // type combination. Outside the table, each operand's own storage size sizes its span check
  // (span_element_of), and alpha has the compute type's scalar type (alpha == 0 then excuses
  // null A and B there too).
  call.element_A = types ? types->element_A : span_element_of(Atype);
  call.element_B = types ? types->element_B : span_element_of(Btype);
  call.element_C = call.element_D = types ? types->element_C : span_element_of(Ctype);
  call.element_scalar = types ? types->element_scalar : scalar_of(computeType);
  if (types) call.element_compute = types->element_compute;
  return call;
}

/// Builds and runs (or only selects) one GemmEx / GemmStridedBatchedEx call.
cutlassLibStatus_t gemm_ex(cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
                           int64_t m, int64_t n, int64_t k, const void *alpha, const void *A, cudaDataType_t Atype,
                           int64_t lda, int64_t strideA, const void *B, cudaDataType_t Btype, int64_t ldb,
                           int64_t strideB, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
                           int64_t strideC, int64_t batchCount, bool batched, cutlassLibComputeType_t computeType,
                           Query const &query = Query()) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!is_op(transa) || !is_op(transb)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  TypeRow const *types = find_type_row(Atype, Btype, Ctype, computeType);
  GemmCall call = make_call(*handle, types, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb,
                            strideB, beta, C, Ctype, ldc, strideC, batchCount, batched, computeType);
  if (!epilogue_of(*handle, &call.epilogue)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  if (!types) {
    GemmOutcome checked = check_gemm_arguments(call);
    return checked.failure == GemmFailure::kNone ? CUTLASS_LIB_STATUS_NOT_SUPPORTED : to_c_status(checked.failure);
  }

  return query.answer(HandleAccess::call(handle->handle, call, /*execute=*/query.runs()));
}

/// Group g's scalar in an array of per-group scalars of the compute type (host or device memory,
/// as the pointer mode says); the array itself for a compute type outside the enum, whose
/// scalars are never read (such calls answer NOT_SUPPORTED).
void const *group_scalar(void const *array, cutlassLibComputeType_t computeType, int64_t g) {
  NumericTypeID const scalar = scalar_of(computeType);
  if (scalar == NumericTypeID::kInvalid) return array;
  return static_cast<char const *>(array) + g * (sizeof_bits(scalar) / 8);
}

/// Builds and runs (or only plans) one GemmGroupedBatchedEx call.
cutlassLibStatus_t grouped_ex(
    cutlassLibHandle_t handle, const cutlassLibOperation_t transa_array[], const cutlassLibOperation_t transb_array[],
    const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
    const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    cudaDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    cutlassLibComputeType_t computeType, Query const &query = Query()) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (group_count < 0) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  if (group_count == 0) return CUTLASS_LIB_STATUS_SUCCESS;
  if (!transa_array || !transb_array || !m_array || !n_array || !k_array || !alpha_array || !lda_array ||
      !ldb_array || !beta_array || !ldc_array || !group_size) {
    return CUTLASS_LIB_STATUS_INVALID_VALUE;
  }
  TypeRow const *types = find_type_row(Atype, Btype, Ctype, computeType);
  GemmEpilogueArguments epilogue;
  if (!epilogue_of(*handle, &epilogue)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  GemmGroupedCall call;
  try {
    call.groups.resize(size_t(group_count));
  } catch (std::exception const &) {   // bad_alloc, or length_error past the vector's max_size
    return CUTLASS_LIB_STATUS_ALLOC_FAILED;
  }
  for (int64_t g = 0; g < group_count; ++g) {
    GemmGroup &group = call.groups[size_t(g)];
    group.size = group_size[g];
    group.shape = make_call(*handle, types, transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g],
                            group_scalar(alpha_array, computeType, g), nullptr, Atype, lda_array[g], 0, nullptr,
                            Btype, ldb_array[g], 0, group_scalar(beta_array, computeType, g), nullptr, Ctype,
                            ldc_array[g], 0, 1, /*batched=*/false, computeType);
    group.shape.epilogue = epilogue;
  }
  call.A = Aarray;
  call.B = Barray;
  call.C = Carray;
  call.D = Carray;
  PointerArrayCopies copies;   // cuBLAS's device arrays, read on the host
  GemmGroupedOutcome const copied = HandleAccess::copy_pointer_arrays(handle->handle, &call, &copies);
  if (copied.failure != GemmFailure::kNone) return to_c_status(copied.failure);
  // As in a single call: every argument error first (of every problem), then the type combination.
  GemmGroupedOutcome const checked = check_grouped_arguments(call);
  if (checked.failure != GemmFailure::kNone) return to_c_status(checked.failure);
  if (!types) return CUTLASS_LIB_STATUS_NOT_SUPPORTED;
  call.arguments_checked = true;
  return query.answer(HandleAccess::grouped(handle->handle, call, /*execute=*/query.runs()));
}

/// Builds and runs (or only plans) one GemmGroupedContiguousEx call.
cutlassLibStatus_t contiguous_ex(cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
                                 int64_t m, int64_t n, int64_t k, const void *alpha, const void *A,
                                 cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
                                 cudaDataType_t Btype, int64_t ldb, const void *beta, void *C, cudaDataType_t Ctype,
                                 int64_t ldc, int64_t group_count, const int32_t *offsets,
                                 cutlassLibComputeType_t computeType, Query const &query = Query()) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!is_op(transa) || !is_op(transb)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  TypeRow const *types = find_type_row(Atype, Btype, Ctype, computeType);
  GemmContiguousCall call;
  call.shape = make_call(*handle, types, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C,
                         Ctype, ldc, 0, 1, /*batched=*/false, computeType);
  if (!epilogue_of(*handle, &call.shape.epilogue)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  call.stride_A = strideA;
  call.count = group_count;
  call.offsets = offsets;
  if (!types) {   // every argument error first, then the type combination
    GemmGroupedOutcome const checked = check_contiguous_arguments(call);
    return checked.failure == GemmFailure::kNone ? CUTLASS_LIB_STATUS_NOT_SUPPORTED : to_c_status(checked.failure);
  }
  return query.answer(HandleAccess::contiguous(handle->handle, call, /*execute=*/query.runs()));
}

/// Builds and runs (or only plans) one GemmGroupedDeviceSizesEx call.
cutlassLibStatus_t device_sizes_ex(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                   cutlassLibOperation_t transb, const int32_t *problem_sizes, const void *alpha,
                                   const void *const *Aarray, cudaDataType_t Atype, const int64_t *lda_array,
                                   const void *const *Barray, cudaDataType_t Btype, const int64_t *ldb_array,
                                   const void *beta, void *const *Carray, cudaDataType_t Ctype,
                                   const int64_t *ldc_array, int64_t group_count, int64_t max_n,
                                   cutlassLibComputeType_t computeType, Query const &query = Query()) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!is_op(transa) || !is_op(transb)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  TypeRow const *types = find_type_row(Atype, Btype, Ctype, computeType);
  GemmGroupedDeviceCall call;
  call.shape = make_call(*handle, types, transa, transb, 0, 0, 0, alpha, nullptr, Atype, 0, 0, nullptr, Btype, 0, 0,
                         beta, nullptr, Ctype, 0, 0, 1, /*batched=*/false, computeType);
  if (!epilogue_of(*handle, &call.shape.epilogue)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  call.count = group_count;
  call.max_n = max_n;
  call.arrays = GroupedDeviceArrays{problem_sizes, Aarray, Barray, Carray, lda_array, ldb_array, ldc_array};
  if (!types) {   // every argument error first, then the type combination
    GemmGroupedOutcome const checked = check_device_sized_arguments(call);
    return checked.failure == GemmFailure::kNone ? CUTLASS_LIB_STATUS_NOT_SUPPORTED : to_c_status(checked.failure);
  }
  return query.answer(HandleAccess::device_sized(handle->handle, call, /*execute=*/query.runs()));
}

}  // namespace

extern "C" {

cutlassLibStatus_t cutlassLibCreate(cutlassLibHandle_t *handle) {
  if (!handle) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *handle = new (std::nothrow) cutlassLibContext();
  return *handle ? CUTLASS_LIB_STATUS_SUCCESS : CUTLASS_LIB_STATUS_ALLOC_FAILED;
}

cutlassLibStatus_t cutlassLibDestroy(cutlassLibHandle_t handle) {
  delete handle;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetStream(cutlassLibHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  handle->handle.set_stream(stream);
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibGetStream(cutlassLibHandle_t handle, cudaStream_t *stream) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!stream) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *stream = handle->handle.get_stream();
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibGemmEx(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                    cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k, const void *alpha,
                                    const void *A, cudaDataType_t Atype, int64_t lda, const void *B,
                                    cudaDataType_t Btype, int64_t ldb, const void *beta, void *C,
                                    cudaDataType_t Ctype, int64_t ldc, cutlassLibComputeType_t computeType) {
  return gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C, Ctype, ldc, 0,
                 1, /*batched=*/false, computeType);
}

cutlassLibStatus_t cutlassLibGemmStridedBatchedEx(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                                  cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                                  const void *alpha, const void *A, cudaDataType_t Atype,
                                                  int64_t lda, int64_t strideA, const void *B, cudaDataType_t Btype,
                                                  int64_t ldb, int64_t strideB, const void *beta, void *C,
                                                  cudaDataType_t Ctype, int64_t ldc, int64_t strideC,
                                                  int64_t batchCount, cutlassLibComputeType_t computeType) {
  return gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C,
                 Ctype, ldc, strideC, batchCount, /*batched=*/true, computeType);
}

cutlassLibStatus_t cutlassLibGemmExSelect(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                          cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                          const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda,
                                          const void *B, cudaDataType_t Btype, int64_t ldb, const void *beta, void *C,
                                          cudaDataType_t Ctype, int64_t ldc, cutlassLibComputeType_t computeType,
                                          const char **kernel_name) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!kernel_name) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *kernel_name = nullptr;
  Query query;
  query.kernel_name = kernel_name;
  return gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C, Ctype, ldc, 0,
                 1, /*batched=*/false, computeType, query);
}

cutlassLibStatus_t cutlassLibGetWorkspaceSize(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                              cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                              const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda,
                                              int64_t strideA, const void *B, cudaDataType_t Btype, int64_t ldb,
                                              int64_t strideB, const void *beta, void *C, cudaDataType_t Ctype,
                                              int64_t ldc, int64_t strideC, int64_t batchCount,
                                              cutlassLibComputeType_t computeType, size_t *workspaceSizeInBytes) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!workspaceSizeInBytes) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *workspaceSizeInBytes = 0;
  Query query;
  query.workspace_bytes = workspaceSizeInBytes;
  return gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C,
                 Ctype, ldc, strideC, batchCount, /*batched=*/true, computeType, query);
}

cutlassLibStatus_t cutlassLibGemmGroupedBatchedEx(
    cutlassLibHandle_t handle, const cutlassLibOperation_t transa_array[], const cutlassLibOperation_t transb_array[],
    const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
    const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    cudaDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    cutlassLibComputeType_t computeType) {
  return grouped_ex(handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array, Aarray, Atype,
                    lda_array, Barray, Btype, ldb_array, beta_array, Carray, Ctype, ldc_array, group_count, group_size,
                    computeType);
}

cutlassLibStatus_t cutlassLibGemmGroupedBatchedExSelect(
    cutlassLibHandle_t handle, const cutlassLibOperation_t transa_array[], const cutlassLibOperation_t transb_array[],
    const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
    const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    cudaDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    cutlassLibComputeType_t computeType, const char **kernel_name, size_t *workspaceSizeInBytes) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  Query query;
  if (!Query::of_outputs(kernel_name, workspaceSizeInBytes, &query)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  return grouped_ex(handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array, Aarray, Atype,
                    lda_array, Barray, Btype, ldb_array, beta_array, Carray, Ctype, ldc_array, group_count, group_size,
                    computeType, query);
}

cutlassLibStatus_t cutlassLibGemmBatchedEx(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                           cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                           const void *alpha, const void *const Aarray[], cudaDataType_t Atype,
                                           int64_t lda, const void *const Barray[], cudaDataType_t Btype,
                                           int64_t ldb, const void *beta, void *const Carray[],
                                           cudaDataType_t Ctype, int64_t ldc, int64_t batchCount,
                                           cutlassLibComputeType_t computeType) {
  // one group of batchCount problems
  return cutlassLibGemmGroupedBatchedEx(handle, &transa, &transb, &m, &n, &k, alpha, Aarray, Atype, &lda, Barray,
                                        Btype, &ldb, beta, Carray, Ctype, &ldc, 1, &batchCount, computeType);
}

cutlassLibStatus_t cutlassLibGemmGroupedContiguousEx(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                                    cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                                    const void *alpha, const void *A, cudaDataType_t Atype,
                                                    int64_t lda, int64_t strideA, const void *B, cudaDataType_t Btype,
                                                    int64_t ldb, const void *beta, void *C, cudaDataType_t Ctype,
                                                    int64_t ldc, int64_t group_count, const int32_t *offsets,
                                                    cutlassLibComputeType_t computeType) {
  return contiguous_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, beta, C, Ctype,
                       ldc, group_count, offsets, computeType);
}

cutlassLibStatus_t cutlassLibGemmGroupedDeviceSizesEx(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
    const int32_t *problem_sizes, const void *alpha, const void *const *Aarray, cudaDataType_t Atype,
    const int64_t *lda_array, const void *const *Barray, cudaDataType_t Btype, const int64_t *ldb_array,
    const void *beta, void *const *Carray, cudaDataType_t Ctype, const int64_t *ldc_array, int64_t group_count,
    int64_t max_n, cutlassLibComputeType_t computeType) {
  return device_sizes_ex(handle, transa, transb, problem_sizes, alpha, Aarray, Atype, lda_array, Barray, Btype,
                         ldb_array, beta, Carray, Ctype, ldc_array, group_count, max_n, computeType);
}

cutlassLibStatus_t cutlassLibGemmGroupedDeviceSizesExSelect(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
    const int32_t *problem_sizes, const void *alpha, const void *const *Aarray, cudaDataType_t Atype,
    const int64_t *lda_array, const void *const *Barray, cudaDataType_t Btype, const int64_t *ldb_array,
    const void *beta, void *const *Carray, cudaDataType_t Ctype, const int64_t *ldc_array, int64_t group_count,
    int64_t max_n, cutlassLibComputeType_t computeType, const char **kernel_name, size_t *workspaceSizeInBytes) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  Query query;
  if (!Query::of_outputs(kernel_name, workspaceSizeInBytes, &query)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  return device_sizes_ex(handle, transa, transb, problem_sizes, alpha, Aarray, Atype, lda_array, Barray, Btype,
                         ldb_array, beta, Carray, Ctype, ldc_array, group_count, max_n, computeType, query);
}

cutlassLibStatus_t cutlassLibGemmGroupedContiguousExSelect(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
    cudaDataType_t Btype, int64_t ldb, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
    int64_t group_count, const int32_t *offsets, cutlassLibComputeType_t computeType, const char **kernel_name,
    size_t *workspaceSizeInBytes) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  Query query;
  if (!Query::of_outputs(kernel_name, workspaceSizeInBytes, &query)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  return contiguous_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, beta, C, Ctype,
                       ldc, group_count, offsets, computeType, query);
}

cutlassLibStatus_t cutlassLibSetPointerMode(cutlassLibHandle_t handle, cutlassLibPointerMode_t mode) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (mode != CUTLASS_LIB_POINTER_MODE_HOST && mode != CUTLASS_LIB_POINTER_MODE_DEVICE) {
    return CUTLASS_LIB_STATUS_INVALID_VALUE;
  }
  handle->handle.set_scalar_pointer_mode(mode == CUTLASS_LIB_POINTER_MODE_DEVICE ? ScalarPointerMode::kDevice
                                                                                  : ScalarPointerMode::kHost);
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibGetPointerMode(cutlassLibHandle_t handle, cutlassLibPointerMode_t *mode) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!mode) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *mode = handle->handle.get_scalar_pointer_mode() == ScalarPointerMode::kDevice ? CUTLASS_LIB_POINTER_MODE_DEVICE
                                                                                 : CUTLASS_LIB_POINTER_MODE_HOST;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetWorkspace(cutlassLibHandle_t handle, void *workspace, size_t workspaceSizeInBytes) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  return handle->handle.set_workspace(workspace, workspaceSizeInBytes) == cutlass::Status::kSuccess
             ? CUTLASS_LIB_STATUS_SUCCESS
             : CUTLASS_LIB_STATUS_INVALID_VALUE;
}

cutlassLibStatus_t cutlassLibSetEpilogue(cutlassLibHandle_t handle, cutlassLibEpilogue_t epilogue) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!find_epilogue_row(epilogue)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  handle->epilogue = epilogue;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibGetEpilogue(cutlassLibHandle_t handle, cutlassLibEpilogue_t *epilogue) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!epilogue) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  *epilogue = handle->epilogue;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetEpilogueBias(cutlassLibHandle_t handle, const void *bias, cudaDataType_t biasType,
                                             cutlassLibVectorMode_t mode, int64_t batchStride) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!is_vector_mode(mode) || batchStride < 0) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  NumericTypeID const type = vector_type(biasType);
  if (type == NumericTypeID::kInvalid) return CUTLASS_LIB_STATUS_NOT_SUPPORTED;
  handle->operands.bias = bias;
  handle->operands.bias_broadcast = to_broadcast(mode);
  handle->operands.batch_stride_bias = batchStride;
  handle->bias_type = type;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetEpilogueAux(cutlassLibHandle_t handle, void *aux, cudaDataType_t auxType,
                                            int64_t ldaux, int64_t batchStride) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (ldaux < 1 || batchStride < 0) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  NumericTypeID const type = vector_type(auxType);
  if (type == NumericTypeID::kInvalid) return CUTLASS_LIB_STATUS_NOT_SUPPORTED;
  handle->operands.aux = aux;
  handle->operands.ldaux = ldaux;
  handle->operands.batch_stride_aux = batchStride;
  handle->aux_type = type;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetEpilogueAlphaVector(cutlassLibHandle_t handle, const float *alphaVector,
                                                    cutlassLibVectorMode_t mode, int64_t batchStride) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!is_vector_mode(mode) || batchStride < 0) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  handle->operands.alpha_vector = alphaVector;
  handle->operands.alpha_vector_broadcast = to_broadcast(mode);
  handle->operands.batch_stride_alpha_vector = batchStride;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetEpilogueScaleAmax(cutlassLibHandle_t handle, const float *scaleD, float *amax) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  handle->operands.scale_d = scaleD;
  handle->operands.amax = amax;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetOperandScales(cutlassLibHandle_t handle, const float *scaleA, const float *scaleB) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  handle->operands.scale_a = scaleA;
  handle->operands.scale_b = scaleB;
  handle->operands.scale_a_mode = handle->operands.scale_b_mode = cutlass::epilogue::OperandScaleMode::kScalar;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetMatrixScale(cutlassLibHandle_t handle, cutlassLibMatrix_t matrix,
                                            cutlassLibMatrixScale_t mode, const float *scale) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (matrix != CUTLASS_LIB_MATRIX_A && matrix != CUTLASS_LIB_MATRIX_B) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  if (mode != CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F && mode != CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F &&
      mode != CUTLASS_LIB_MATRIX_SCALE_VEC128_32F && mode != CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F) {
    return CUTLASS_LIB_STATUS_INVALID_VALUE;
  }
  if (mode != CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F && !scale) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  bool const a = matrix == CUTLASS_LIB_MATRIX_A;
  (a ? handle->operands.scale_a : handle->operands.scale_b) = scale;
  // the C API's values are cuBLASLt's, and so are OperandScaleMode's
  (a ? handle->operands.scale_a_mode : handle->operands.scale_b_mode) = cutlass::epilogue::OperandScaleMode(int(mode));
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetAccumulation(cutlassLibHandle_t handle, cutlassLibAccumulation_t mode) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (mode != CUTLASS_LIB_ACCUMULATION_FAST && mode != CUTLASS_LIB_ACCUMULATION_PRECISE) {
    return CUTLASS_LIB_STATUS_INVALID_VALUE;
  }
  handle->operands.accumulation = mode == CUTLASS_LIB_ACCUMULATION_PRECISE ? cutlass::library::AccumulationMode::kPrecise
                                                                          : cutlass::library::AccumulationMode::kFast;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

cutlassLibStatus_t cutlassLibSetEpilogueClamp(cutlassLibHandle_t handle, float lo, float hi) {
  if (!handle) return CUTLASS_LIB_STATUS_NOT_INITIALIZED;
  if (!(lo <= hi)) return CUTLASS_LIB_STATUS_INVALID_VALUE;
  handle->operands.clamp_min = lo;
  handle->operands.clamp_max = hi;
  return CUTLASS_LIB_STATUS_SUCCESS;
}

const char *cutlassLibGetStatusName(cutlassLibStatus_t status) {
  switch (status) {
    case CUTLASS_LIB_STATUS_SUCCESS: return "CUTLASS_LIB_STATUS_SUCCESS";
    case CUTLASS_LIB_STATUS_NOT_INITIALIZED: return "CUTLASS_LIB_STATUS_NOT_INITIALIZED";
    case CUTLASS_LIB_STATUS_ALLOC_FAILED: return "CUTLASS_LIB_STATUS_ALLOC_FAILED";
    case CUTLASS_LIB_STATUS_INVALID_VALUE: return "CUTLASS_LIB_STATUS_INVALID_VALUE";
    case CUTLASS_LIB_STATUS_ARCH_MISMATCH: return "CUTLASS_LIB_STATUS_ARCH_MISMATCH";
    case CUTLASS_LIB_STATUS_EXECUTION_FAILED: return "CUTLASS_LIB_STATUS_EXECUTION_FAILED";
    case CUTLASS_LIB_STATUS_INTERNAL_ERROR: return "CUTLASS_LIB_STATUS_INTERNAL_ERROR";
    case CUTLASS_LIB_STATUS_NOT_SUPPORTED: return "CUTLASS_LIB_STATUS_NOT_SUPPORTED";
    case CUTLASS_LIB_STATUS_NO_KERNEL: return "CUTLASS_LIB_STATUS_NO_KERNEL";
    case CUTLASS_LIB_STATUS_NO_DEVICE: return "CUTLASS_LIB_STATUS_NO_DEVICE";
    case CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL: return "CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL";
    case CUTLASS_LIB_STATUS_ENUM_RANGE_: break;
  }
  return "CUTLASS_LIB_STATUS_UNKNOWN";
}

const char *cutlassLibGetStatusString(cutlassLibStatus_t status) {
  switch (status) {
    case CUTLASS_LIB_STATUS_SUCCESS: return "the operation completed successfully";
    case CUTLASS_LIB_STATUS_NOT_INITIALIZED: return "the handle is null or was not created";
    case CUTLASS_LIB_STATUS_ALLOC_FAILED: return "a host or device allocation failed";
    case CUTLASS_LIB_STATUS_INVALID_VALUE: return "an argument is out of range (size, leading dimension, pointer)";
    case CUTLASS_LIB_STATUS_ARCH_MISMATCH: return "no kernel for this device's compute capability";
    case CUTLASS_LIB_STATUS_EXECUTION_FAILED: return "the GPU kernel failed to launch";
    case CUTLASS_LIB_STATUS_INTERNAL_ERROR: return "an internal library operation failed";
    case CUTLASS_LIB_STATUS_NOT_SUPPORTED: return "the type combination or size is not supported";
    case CUTLASS_LIB_STATUS_NO_KERNEL: return "no kernel in this build fits the types, layouts and alignment";
    case CUTLASS_LIB_STATUS_NO_DEVICE: return "no usable CUDA device";
    case CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL:
      return "the workspace set with cutlassLibSetWorkspace is smaller than the call needs (cutlassLibGetWorkspaceSize)";
    case CUTLASS_LIB_STATUS_ENUM_RANGE_: break;
  }
  return "unknown status";
}

int cutlassLibGetVersion(void) {
  return CUTLASS_LIB_VERSION_MAJOR * 10000 + CUTLASS_LIB_VERSION_MINOR * 100 + CUTLASS_LIB_VERSION_PATCH;
}

size_t cutlassLibGetKernelCount(void) { return Singleton::get().manifest.size(); }

const char *cutlassLibGetKernelName(size_t index) {
  auto const &manifest = Singleton::get().manifest;
  return index < manifest.size() ? manifest.operations()[index]->description().name : nullptr;
}

}  // extern "C"
