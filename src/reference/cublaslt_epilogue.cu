/// @file src/reference/cublaslt_epilogue.cu
#include "cublaslt_epilogue.h"

#include <cstdint>

/// cuBLASLt names the outer-vector and block scale modes from cuBLAS 12.9 (cublasLtMatmulMatrixScale_t);
/// older ones take per-tensor scales only.
#if CUBLAS_VERSION >= 120900
#define CUTLASS_LIB_CUBLASLT_SCALE_MODES 1
static_assert(int(cutlass::epilogue::OperandScaleMode::kScalar) == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F &&
                  int(cutlass::epilogue::OperandScaleMode::kOuterVector) == CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F &&
                  int(cutlass::epilogue::OperandScaleMode::kBlock1x128) == CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F &&
                  int(cutlass::epilogue::OperandScaleMode::kBlock128x128) == CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
              "OperandScaleMode's values are cuBLASLt's cublasLtMatmulMatrixScale_t");
#else
#define CUTLASS_LIB_CUBLASLT_SCALE_MODES 0
#endif

namespace cutlass {
namespace reference {

namespace {

bool lt_type(NumericTypeID type, cudaDataType_t *out) {
  switch (type) {
    case NumericTypeID::kF16: *out = CUDA_R_16F; return true;
    case NumericTypeID::kBF16: *out = CUDA_R_16BF; return true;
    case NumericTypeID::kTF32:
    case NumericTypeID::kF32: *out = CUDA_R_32F; return true;
    case NumericTypeID::kFE4M3: *out = CUDA_R_8F_E4M3; return true;   // inputs (fp8 outputs need scale_d)
    case NumericTypeID::kFE5M2: *out = CUDA_R_8F_E5M2; return true;
    default: return false;
  }
}

std::string status_text(cublasStatus_t status) {
  return status == CUBLAS_STATUS_SUCCESS ? std::string() : std::string(cublasGetStatusName(status));
}

template <typename T>
cublasStatus_t set(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute, T const &value) {
  return cublasLtMatmulDescSetAttribute(desc, attribute, &value, sizeof(value));
}

template <typename T>
cublasStatus_t set(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attribute, T const &value) {
  return cublasLtMatrixLayoutSetAttribute(layout, attribute, &value, sizeof(value));
}

}  // namespace

CublasLtEpilogueGemm::~CublasLtEpilogueGemm() { release(); }

void CublasLtEpilogueGemm::release() {
  if (desc_) cublasLtMatmulDescDestroy(desc_);
  for (cublasLtMatrixLayout_t layout : {a_, b_, c_, d_}) {
    if (layout) cublasLtMatrixLayoutDestroy(layout);
  }
  desc_ = nullptr;
  a_ = b_ = c_ = d_ = nullptr;
}

bool CublasLtEpilogueGemm::supports(EpilogueOperands const &e, LayoutTypeID layout_C, cublasLtEpilogue_t *kind) {
  if (e.alpha_vector) return false;   // (scale_d / amax: fp8 outputs, which prepare takes from fp8 inputs)
  bool const bias = e.bias != nullptr;
  // The bias follows cuBLASLt's rows: the user's rows for column-major C, columns for row-major.
  if (bias && (e.bias_broadcast == VectorBroadcast::kPerRow) != (layout_C == LayoutTypeID::kColumnMajor)) return false;
  cublasLtEpilogue_t k;
  switch (e.activation) {
    case ActivationKind::kIdentity:
      if (e.aux) return false;
      k = bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
      break;
    case ActivationKind::kReLU:
      if (e.aux) return false;   // RELU_AUX stores a bit mask, not x
      k = bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
      break;
    case ActivationKind::kGELU:
      if (e.aux) {
        k = bias ? CUBLASLT_EPILOGUE_GELU_AUX_BIAS : CUBLASLT_EPILOGUE_GELU_AUX;
      } else {
        k = bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
      }
      break;
    default: return false;
  }
  if (kind) *kind = k;
  return true;
}

std::string CublasLtEpilogueGemm::prepare(cublasLtHandle_t handle, GemmProblem const &problem,
                                          EpilogueOperands const &e, void *workspace, size_t workspace_bytes) {
  release();
  cublasLtEpilogue_t kind;
  if (!supports(e, problem.layout_C, &kind)) return "cuBLASLt has no fused epilogue for these pieces";
  GemmProblem const p = column_major(problem);
  cudaDataType_t ta, tb, tc, tbias = CUDA_R_32F, taux = CUDA_R_32F;
  if (!lt_type(p.element_A, &ta) || !lt_type(p.element_B, &tb) || !lt_type(p.element_C, &tc) ||
      (e.bias && !lt_type(e.element_bias, &tbias)) || (e.aux && !lt_type(e.element_aux, &taux))) {
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  bool const fp8 = ta == CUDA_R_8F_E4M3 || ta == CUDA_R_8F_E5M2;
  if (!fp8 && (p.scale_A || p.scale_B)) return "CUBLAS_STATUS_NOT_SUPPORTED";   // operand scales: fp8 inputs only
  // fp8 D (with D scale and amax): cuBLASLt takes it from fp8 A and B only, and its C is then 16-bit
  // (cublasLtMatmul's type table), which our fp8 C is not: beta == 0 only, C's layout bf16, never read.
  bool const fp8_out = tc == CUDA_R_8F_E4M3 || tc == CUDA_R_8F_E5M2;
  if (fp8_out != bool(e.scale_d || e.amax) || (fp8_out && (!fp8 || p.beta != 0))) return "CUBLAS_STATUS_NOT_SUPPORTED";
  cudaDataType_t const tsource = fp8_out ? CUDA_R_16BF : tc;
  bool const vector_scales = (p.scale_A && p.scale_A_mode != epilogue::OperandScaleMode::kScalar) ||
                             (p.scale_B && p.scale_B_mode != epilogue::OperandScaleMode::kScalar);
  // cuBLASLt's batch strides of vector / block scales are not set here: batched scaled problems are ours alone
  if (vector_scales && (!CUTLASS_LIB_CUBLASLT_SCALE_MODES || p.batch_count > 1)) return "CUBLAS_STATUS_NOT_SUPPORTED";
  handle_ = handle;
  transposed_ = problem.layout_C == LayoutTypeID::kRowMajor;
  c_differs_ = tsource != tc;
  workspace_ = workspace;
  workspace_bytes_ = workspace_bytes;
  cublasComputeType_t const compute =
      p.element_A == NumericTypeID::kTF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  cublasStatus_t s = cublasLtMatmulDescCreate(&desc_, compute, CUDA_R_32F);
  if (s != CUBLAS_STATUS_SUCCESS) {
    desc_ = nullptr;
    return status_text(s);
  }
  int32_t const opa = p.layout_A == LayoutTypeID::kColumnMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  int32_t const opb = p.layout_B == LayoutTypeID::kColumnMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  uint32_t const epilogue = kind;
  auto check = [&](cublasStatus_t status) {
    if (s == CUBLAS_STATUS_SUCCESS) s = status;
  };
  check(set(desc_, CUBLASLT_MATMUL_DESC_TRANSA, opa));
  check(set(desc_, CUBLASLT_MATMUL_DESC_TRANSB, opb));
  check(set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue));
  if (fp8) {
    // fp8 inputs: the tensor core's own accumulation ("fast") or promoted partial sums ("precise"),
    // and the operand scales in their modes (cublasLtMatmulMatrixScale_t has our modes' values).
    // Block scales promote every k-block's sum (precise by construction): cuBLASLt refuses them
    // with FAST_ACCUM (NOT_SUPPORTED, s29; torch._scaled_mm refuses the pairing too).
    bool const fast = p.accumulation == library::AccumulationMode::kFast && !p.block_scaled();
    check(set(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t(fast ? 1 : 0)));
    if (p.scale_A) {
#if CUTLASS_LIB_CUBLASLT_SCALE_MODES
      check(set(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, int32_t(p.scale_A_mode)));
#endif
      check(set(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, static_cast<void const *>(p.scale_A)));
    }
    if (p.scale_B) {
#if CUTLASS_LIB_CUBLASLT_SCALE_MODES
      check(set(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, int32_t(p.scale_B_mode)));
#endif
      check(set(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, static_cast<void const *>(p.scale_B)));
    }
  }
  if (e.scale_d) check(set(desc_, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, static_cast<void const *>(e.scale_d)));
  if (e.amax) check(set(desc_, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, static_cast<void *>(e.amax)));
  if (e.bias) {
    check(set(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e.bias));
    if (tbias != tc) check(set(desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, int32_t(tbias)));
    if (p.batch_count > 1) check(set(desc_, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, int64_t(e.batch_stride_bias)));
  }
  if (e.aux) {
    check(set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void *>(e.aux)));
    check(set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, int64_t(e.ldaux)));
    if (taux != tc) check(set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, int32_t(taux)));
    if (p.batch_count > 1) check(set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, int64_t(e.batch_stride_aux)));
  }
  // Matrices as stored (column-major): A is m x k (N) or k x m (T), B is k x n (N) or n x k (T).
  bool const na = opa == CUBLAS_OP_N, nb = opb == CUBLAS_OP_N;
  check(cublasLtMatrixLayoutCreate(&a_, ta, na ? p.m : p.k, na ? p.k : p.m, p.lda));
  check(cublasLtMatrixLayoutCreate(&b_, tb, nb ? p.k : p.n, nb ? p.n : p.k, p.ldb));
  check(cublasLtMatrixLayoutCreate(&c_, tsource, p.m, p.n, p.ldc));
  check(cublasLtMatrixLayoutCreate(&d_, tc, p.m, p.n, p.ldd));
  if (p.batch_count > 1) {
    int32_t const count = int32_t(p.batch_count);
    std::pair<cublasLtMatrixLayout_t, int64_t> const strides[] = {
        {a_, p.batch_stride_A}, {b_, p.batch_stride_B}, {c_, p.batch_stride_C}, {d_, p.batch_stride_D}};
    for (auto const &[layout, stride] : strides) {
      if (!layout) continue;
      check(set(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, count));
      check(set(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride));
    }
  }
  if (s != CUBLAS_STATUS_SUCCESS) {
    release();
    return status_text(s);
  }
  cublasLtMatmulPreference_t preference = nullptr;
  s = cublasLtMatmulPreferenceCreate(&preference);
  if (s != CUBLAS_STATUS_SUCCESS) {
    release();
    return status_text(s);
  }
  uint64_t const bytes = workspace_bytes;
  s = cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof(bytes));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (s == CUBLAS_STATUS_SUCCESS) {
    s = cublasLtMatmulAlgoGetHeuristic(handle, desc_, a_, b_, c_, d_, preference, 1, &result, &found);
  }
  cublasLtMatmulPreferenceDestroy(preference);
  if (s != CUBLAS_STATUS_SUCCESS || found == 0) {
    release();
    return s != CUBLAS_STATUS_SUCCESS ? status_text(s) : std::string("CUBLAS_STATUS_NOT_SUPPORTED");
  }
  algo_ = result.algo;
  return "";
}

std::string CublasLtEpilogueGemm::run(GemmProblem const &problem, EpilogueOperands const &e,
                                      cudaStream_t stream) const {
  if (!desc_) return "cuBLASLt: not prepared";
  GemmProblem const p = column_major(problem);
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  if (e.bias) s = set(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e.bias);
  if (s == CUBLAS_STATUS_SUCCESS && e.aux) {
    s = set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void *>(e.aux));
  }
  if (s != CUBLAS_STATUS_SUCCESS) return status_text(s);
  float const alpha = float(p.alpha), beta = float(p.beta);
  // beta == 0: C is not read (cuBLASLt), so D serves as C and no NaN-poisoned C can leak; except
  // when C's layout type is not D's (fp8 D), where cuBLASLt refuses C == D (INVALID_VALUE, s32):
  // then the problem's own C, unread at beta 0.
  void const *c = p.beta != 0 || c_differs_ ? p.C : p.D;
  return status_text(cublasLtMatmul(handle_, desc_, &alpha, p.A, a_, p.B, b_, &beta, c, c_, p.D, d_, &algo_,
                                    workspace_, workspace_bytes_, stream));
}

}  // namespace reference
}  // namespace cutlass
