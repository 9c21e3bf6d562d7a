/// @file python/src/module.cpp
/// cutlass_lib._C: the bindings of the C API (include/cutlass_lib.h) that the Python package
/// (python/cutlass_lib/__init__.py) calls. Arrays arrive as DLPack tensors (nanobind's ndarray:
/// PyTorch, CuPy, JAX, NumPy) and are mapped onto the column-major BLAS call without copies:
///   out = a @ b, each operand 2-D (rows x columns) or 3-D (batch x rows x columns), any strides
///   in which one of the last two dimensions is contiguous (stride 1) and the other a leading
///   dimension (>= the contiguous extent); a 2-D operand, or a 3-D one of batch 1, beside 3-D
///   ones is shared by every batch (batch stride 0). A row-major out is computed as
///   out^T = b^T a^T.
/// Workspace: the caller may pass one (pointer and bytes, e.g. from PyTorch's caching allocator);
/// the handle then never allocates, and a call that needs more answers WORKSPACE_TOO_SMALL with
/// the bytes it needs.
/// Handle.describe does the checks and the mapping (a Call), Handle.launch runs a Call on
/// operand addresses; Handle.gemm is both, a Plan keeps one Call for many launches.
/// Handle.grouped_mm is the mixture-of-experts call (cutlassLibGemmGroupedBatchedEx, one group
/// per expert; the row ends of the packed 2-D operand come as host integers).
/// Argument errors raise TypeError / ValueError before anything runs; the C API's statuses come
/// back as integers, which the Python layer turns into CutlassLibError with the status's name.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cutlass_lib.h"

namespace nb = nanobind;

namespace {

using Array = nb::ndarray<>;

/// One operand as the BLAS call sees it.
struct Operand {
  void *data = nullptr;
  cudaDataType_t type = CUDA_R_32F;
  int64_t rows = 0, columns = 0, batch = 1;
  int64_t ld = 1, batch_stride = 0;
  bool column_major = true;   ///< column-major (rows contiguous), else row-major
};

[[noreturn]] void fail_type(std::string const &text) { throw nb::type_error(text.c_str()); }
[[noreturn]] void fail_value(std::string const &text) { throw nb::value_error(text.c_str()); }

cudaDataType_t cuda_type(nb::dlpack::dtype t, char const *name) {
  using code = nb::dlpack::dtype_code;
  if (t.lanes == 1) {
    if (t.code == uint8_t(code::Float) && t.bits == 16) return CUDA_R_16F;
    if (t.code == uint8_t(code::Bfloat) && t.bits == 16) return CUDA_R_16BF;
    if (t.code == uint8_t(code::Float) && t.bits == 32) return CUDA_R_32F;
    if (t.code == uint8_t(code::Float) && t.bits == 64) return CUDA_R_64F;
    if (t.code == uint8_t(code::Int) && t.bits == 8) return CUDA_R_8I;
    if (t.code == uint8_t(code::Float8_E4M3FN) && t.bits == 8) return CUDA_R_8F_E4M3;
    if (t.code == uint8_t(code::Float8_E5M2) && t.bits == 8) return CUDA_R_8F_E5M2;
    if (t.code == uint8_t(code::Int) && t.bits == 32) return CUDA_R_32I;
  }
  fail_type(std::string("cutlass_lib: '") + name +
            "' has a dtype cutlass_lib does not take (float16, bfloat16, float32, float64, int8, float8_e4m3fn, "
            "float8_e5m2; int32 outputs)");
}

/// The operand view of `array` (2-D or 3-D, on a CUDA device).
Operand operand_of(Array const &array, char const *name) {
  if (array.device_type() != nb::device::cuda::value) {
    fail_value(std::string("cutlass_lib: '") + name + "' is not on a CUDA device; cutlass_lib runs on the GPU (move it " +
               "there first, e.g. tensor.cuda())");
  }
  size_t const dims = array.ndim();
  if (dims != 2 && dims != 3) {
    fail_value(std::string("cutlass_lib: '") + name + "' must be 2-D (rows x columns) or 3-D (batch x rows x columns), got " +
               std::to_string(dims) + "-D");
  }
  Operand o;
  o.data = const_cast<void *>(array.data());
  o.type = cuda_type(array.dtype(), name);
  size_t const r = dims - 2, c = dims - 1;
  o.rows = int64_t(array.shape(r));
  o.columns = int64_t(array.shape(c));
  int64_t const sr = array.stride(r), sc = array.stride(c);
  if (dims == 3) {
    o.batch = int64_t(array.shape(0));
    o.batch_stride = array.stride(0);
  }
  // one of the two dimensions contiguous, the other a leading dimension covering it; a dimension
  // of extent 1 takes any stride
  if ((sc == 1 || o.columns == 1) && sr >= std::max<int64_t>(1, o.columns)) {
    o.column_major = false;
    o.ld = sr;
  } else if ((sr == 1 || o.rows == 1) && sc >= std::max<int64_t>(1, o.rows)) {
    o.column_major = true;
    o.ld = sc;
  } else if (o.rows <= 1 && o.columns <= 1) {
    o.ld = 1;
  } else {
    fail_value(std::string("cutlass_lib: '") + name + "' has strides (" + std::to_string(sr) + ", " + std::to_string(sc) +
               ") for shape (" + std::to_string(o.rows) + ", " + std::to_string(o.columns) +
               "): a BLAS call needs one of its last two dimensions contiguous; pass tensor.contiguous()");
  }
  o.ld = std::max<int64_t>(o.ld, std::max<int64_t>(1, o.column_major ? o.rows : o.columns));
  return o;
}

/// ValueError when an output's batches share elements: a batch stride of 0 (an expanded tensor)
/// or one shorter than a matrix, unless the batches interleave inside the leading dimension's
/// padding (a permuted (rows, batch, columns) tensor). The batches run at the same time, so they
/// would race for those elements; torch.matmul refuses such an out too. A negative stride is the
/// C API's to refuse.
void check_batches_apart(Operand const &D, char const *name) {
  if (D.batch <= 1 || D.rows == 0 || D.columns == 0 || D.batch_stride < 0) return;
  using wide = __int128;
  wide const lines = D.column_major ? D.columns : D.rows;     // lines D.ld apart
  wide const leading = D.column_major ? D.rows : D.columns;   // each line's contiguous elements
  wide const stride = D.batch_stride;
  bool const one_after_another = stride >= wide(D.ld) * (lines - 1) + leading;
  bool const interleaved = stride >= leading && wide(D.batch - 1) * stride + leading <= D.ld;
  if (!one_after_another && !interleaved) {
    fail_value(std::string("cutlass_lib: '") + name + "' has a batch stride of " + std::to_string(D.batch_stride) +
               " for " + std::to_string(D.rows) + " x " + std::to_string(D.columns) +
               " matrices: its batches share elements (an expanded tensor?); pass a tensor of its own");
  }
}

cutlassLibComputeType_t compute_of(cudaDataType_t a) {
  if (a == CUDA_R_64F) return CUTLASS_LIB_COMPUTE_64F;
  if (a == CUDA_R_8I) return CUTLASS_LIB_COMPUTE_32I;
  return CUTLASS_LIB_COMPUTE_32F;
}

/// One BLAS call of out = a @ b, everything but the operands' addresses: what the checks and the
/// row-/column-major mapping decide once (a Plan keeps it for many launches).
struct Call {
  cutlassLibOperation_t transa = CUTLASS_LIB_OP_N, transb = CUTLASS_LIB_OP_N;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  cudaDataType_t type_ab = CUDA_R_32F, type_d = CUDA_R_32F;
  int64_t ld_first = 1, ld_second = 1, ld_d = 1;
  int64_t stride_first = 0, stride_second = 0, stride_d = 0;
  cutlassLibComputeType_t compute = CUTLASS_LIB_COMPUTE_32F;
  bool swapped = false;   ///< out row-major: the BLAS call's first operand is b, its second a
  int epilogue = 0;
  bool has_bias = false;
  cudaDataType_t type_bias = CUDA_R_32F;
  /// The scales of a and b (float8 operands; torch._scaled_mm's scale_a / scale_b): -1 none, else
  /// the C API's cutlassLibMatrixScale_t (SCALAR_32F; OUTER_VEC_32F: a's over out's rows, b's
  /// over out's columns; VEC128_32F / BLK128x128_32F: block scales, Handle::scale_mode).
  int scale_a_mode = -1, scale_b_mode = -1;
  float alpha_f = 1, beta_f = 0;
  double alpha_d = 1, beta_d = 0;
  int32_t alpha_i = 1, beta_i = 0;
  void const *alpha() const { return scalar(&alpha_f, &alpha_d, &alpha_i); }
  void const *beta() const { return scalar(&beta_f, &beta_d, &beta_i); }

 private:
  void const *scalar(float const *f, double const *d, int32_t const *i) const {
    if (compute == CUTLASS_LIB_COMPUTE_64F) return d;
    if (compute == CUTLASS_LIB_COMPUTE_32I) return i;
    return f;
  }
};

/// The operands' device addresses for one launch of a Call.
struct Pointers {
  void const *a = nullptr, *b = nullptr, *bias = nullptr;
  void *out = nullptr;
  float const *scale_a = nullptr, *scale_b = nullptr;
};

/// A C API handle bound to one device (created with that device current).
class Handle {
 public:
  explicit Handle(int device) : device_(device) {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    status_ = cutlassLibCreate(&handle_);
    cudaSetDevice(previous);
    cudaGetLastError();
  }
  ~Handle() {
    if (handle_) cutlassLibDestroy(handle_);
  }
  Handle(Handle const &) = delete;
  Handle &operator=(Handle const &) = delete;
  int device() const { return device_; }
  int create_status() const { return int(status_); }

  /// The outcome of one call: the C API's status, for select_only the kernel that would run, and
  /// for WORKSPACE_TOO_SMALL the bytes the call needs.
  struct Result {
    int status = 0;
    std::string kernel;
    size_t workspace_needed = 0;
  };

  /// Checks a, b, out and bias (TypeError / ValueError) and maps them onto one BLAS call.
  Call describe(Array const &a, Array const &b, Array const &out, double alpha, double beta,
                std::optional<Array> const &bias, int epilogue, Pointers *pointers,
                std::optional<Array> const &scale_a = std::nullopt,
                std::optional<Array> const &scale_b = std::nullopt) const {
    Operand A = operand_of(a, "a"), B = operand_of(b, "b"), D = operand_of(out, "out");
    for (auto const *array : {&a, &b, &out}) {
      if (array->device_id() != device_) fail_value("cutlass_lib: every tensor must be on the handle's device");
    }
    check_batches_apart(D, "out");
    if (A.columns != B.rows) {
      fail_value("cutlass_lib: a is " + std::to_string(A.rows) + " x " + std::to_string(A.columns) + " and b is " +
                 std::to_string(B.rows) + " x " + std::to_string(B.columns) + ": the inner dimensions differ");
    }
    if (D.rows != A.rows || D.columns != B.columns) {
      fail_value("cutlass_lib: out is " + std::to_string(D.rows) + " x " + std::to_string(D.columns) + ", a @ b is " +
                 std::to_string(A.rows) + " x " + std::to_string(B.columns));
    }
    for (Operand const *o : {&A, &B}) {
      if (o->batch != 1 && o->batch != D.batch) fail_value("cutlass_lib: the batch sizes of a, b and out differ");
    }
    if (A.type != B.type) fail_type("cutlass_lib: a and b must have the same dtype");

    Call call;
    call.compute = compute_of(A.type);
    if (call.compute == CUTLASS_LIB_COMPUTE_32I) {
      for (double v : {alpha, beta}) {
        if (v != std::nearbyint(v) || v < -2147483648.0 || v > 2147483647.0) {
          fail_value("cutlass_lib: int8 GEMMs take integer alpha and beta (int32), got " + std::to_string(v));
        }
      }
    }
    call.alpha_f = float(alpha), call.beta_f = float(beta);
    call.alpha_d = alpha, call.beta_d = beta;
    if (call.compute == CUTLASS_LIB_COMPUTE_32I) call.alpha_i = int32_t(alpha), call.beta_i = int32_t(beta);

    // D = out column-major: D = op(A) op(B); out row-major: D = out^T = op(B^T) op(A^T).
    call.swapped = !D.column_major;
    Operand const &first = call.swapped ? B : A;
    Operand const &second = call.swapped ? A : B;
    // an operand stored in the orientation D is computed in needs no transpose
    auto const op_of = [&](Operand const &o) {
      return (o.column_major != call.swapped) ? CUTLASS_LIB_OP_N : CUTLASS_LIB_OP_T;
    };
    call.transa = op_of(first);
    call.transb = op_of(second);
    call.m = call.swapped ? D.columns : D.rows;
    call.n = call.swapped ? D.rows : D.columns;
    call.k = A.columns;
    call.batch = D.batch;
    call.type_ab = A.type;
    call.type_d = D.type;
    call.ld_first = first.ld, call.ld_second = second.ld, call.ld_d = D.ld;
    call.stride_first = first.batch == 1 ? 0 : first.batch_stride;
    call.stride_second = second.batch == 1 ? 0 : second.batch_stride;
    call.stride_d = D.batch == 1 ? 0 : D.batch_stride;
    call.epilogue = epilogue;
    pointers->a = A.data, pointers->b = B.data, pointers->out = D.data;
    if (bias) {
      if (bias->device_type() == nb::device::cuda::value && bias->device_id() != device_) {
        fail_value("cutlass_lib: every tensor must be on the handle's device");
      }
      Operand const v = operand_of_vector(*bias);
      if (v.rows != D.columns) {
        fail_value("cutlass_lib: bias has " + std::to_string(v.rows) + " entries; out has " +
                   std::to_string(D.columns) + " columns");
      }
      if (v.type != D.type) fail_type("cutlass_lib: bias must have out's dtype");
      call.has_bias = true;
      call.type_bias = v.type;
      pointers->bias = v.data;
    }
    if (scale_a || scale_b) {
      if (A.type != CUDA_R_8F_E4M3 && A.type != CUDA_R_8F_E5M2) {
        fail_type("cutlass_lib: scale_a / scale_b are for float8 operands");
      }
      if (A.batch != 1 || B.batch != 1 || D.batch != 1) fail_value("cutlass_lib: scaled calls are 2-D");
      if (scale_a) call.scale_a_mode = scale_mode(*scale_a, "scale_a", D.rows, A.columns, 0, &pointers->scale_a);
      if (scale_b) call.scale_b_mode = scale_mode(*scale_b, "scale_b", D.columns, A.columns, 1, &pointers->scale_b);
    }
    return call;
  }

  /// Runs `call` on these operands and `stream`, with the caller's workspace (workspace_bytes 0:
  /// the handle's own); for select_only nothing runs and the result names the kernel.
  Result launch(Call const &call, Pointers const &p, uintptr_t stream, uintptr_t workspace, size_t workspace_bytes,
                bool select_only) {
    if (!handle_) return {int(status_), "", 0};
    cutlassLibStatus_t status = set_stream_and_workspace(stream, workspace, workspace_bytes);
    if (status == CUTLASS_LIB_STATUS_SUCCESS) status = cutlassLibSetEpilogue(handle_, cutlassLibEpilogue_t(call.epilogue));
    // a's scale follows out's rows: D's rows, or D's columns (the C API's B) when out is row-major;
    // set (or cleared) on every launch, since the handle serves every call on its device
    for (int operand = 0; operand < 2 && status == CUTLASS_LIB_STATUS_SUCCESS; ++operand) {
      int const mode = operand == 0 ? call.scale_a_mode : call.scale_b_mode;
      float const *scale = operand == 0 ? p.scale_a : p.scale_b;
      cutlassLibMatrix_t const matrix = (operand == 0) != call.swapped ? CUTLASS_LIB_MATRIX_A : CUTLASS_LIB_MATRIX_B;
      status = cutlassLibSetMatrixScale(handle_, matrix,
                                        mode < 0 ? CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F : cutlassLibMatrixScale_t(mode),
                                        mode < 0 ? nullptr : scale);
    }
    if (status == CUTLASS_LIB_STATUS_SUCCESS && call.has_bias) {
      // the bias follows out's columns: D's columns when out is column-major, its rows otherwise
      status = cutlassLibSetEpilogueBias(handle_, p.bias, call.type_bias,
                                         call.swapped ? CUTLASS_LIB_VECTOR_PER_ROW : CUTLASS_LIB_VECTOR_PER_COLUMN, 0);
    }
    if (status != CUTLASS_LIB_STATUS_SUCCESS) return {int(status), "", 0};
    void const *first = call.swapped ? p.b : p.a;
    void const *second = call.swapped ? p.a : p.b;
    if (select_only) {
      char const *name = nullptr;
      status = cutlassLibGemmExSelect(handle_, call.transa, call.transb, call.m, call.n, call.k, call.alpha(), first,
                                      call.type_ab, call.ld_first, second, call.type_ab, call.ld_second, call.beta(),
                                      p.out, call.type_d, call.ld_d, call.compute, &name);
      return {int(status), name ? name : "", 0};
    }
    status = cutlassLibGemmStridedBatchedEx(handle_, call.transa, call.transb, call.m, call.n, call.k, call.alpha(),
                                            first, call.type_ab, call.ld_first, call.stride_first, second,
                                            call.type_ab, call.ld_second, call.stride_second, call.beta(), p.out,
                                            call.type_d, call.ld_d, call.stride_d, call.batch, call.compute);
    size_t needed = 0;
    if (status == CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL) {
      cutlassLibGetWorkspaceSize(handle_, call.transa, call.transb, call.m, call.n, call.k, call.alpha(), first,
                                 call.type_ab, call.ld_first, call.stride_first, second, call.type_ab,
                                 call.ld_second, call.stride_second, call.beta(), p.out, call.type_d, call.ld_d,
                                 call.stride_d, call.batch, call.compute, &needed);
    }
    return {int(status), "", needed};
  }

  /// Grouped GEMM, one problem per expert g (mixture of experts): out_g = a_g @ b[g], b 3-D
  /// (E, K, N), and either
  ///  - a 2-D (T, K) with every expert's rows packed, out 2-D (T, N), `ends` E row ends (the
  ///    cumulative sizes: a_g = a[ends[g-1]:ends[g]], ends[-1] read as 0; a group may be empty; rows past
  ///    ends[E-1] are not written), or
  ///  - a 3-D (E, M, K), out 3-D (E, M, N), `ends` empty (a_g = a[g]).
  /// Each operand row- or column-major in its last two dimensions, as operand_of takes them; out
  /// row-major is computed as out_g^T = b[g]^T a_g^T, like describe's mapping. One call of
  /// cutlassLibGemmGroupedBatchedEx with E groups of one problem each and host pointer arrays
  /// (data + offsets from the strides), alpha 1, beta 0, and `bias` fused when given (set_grouped_bias);
  /// the library checks every
  /// problem before anything runs, then runs them in one launch of a grouped kernel where the
  /// build has one (sm_90, bf16 / f16; the workspace holding its group table), else one after
  /// another on `stream`. Argument errors raise ValueError / TypeError before anything runs;
  /// WORKSPACE_TOO_SMALL answers the bytes the call's plan needs
  /// (cutlassLibGemmGroupedBatchedExSelect); NO_KERNEL with a bias: no kernel fuses it.
  Result grouped_mm(Array a, Array b, Array out, std::vector<int64_t> const &ends, uintptr_t stream,
                    uintptr_t workspace, size_t workspace_bytes, std::optional<Array> bias) {
    if (!handle_) return {int(status_), "", 0};
    GroupedOperands const operands = grouped_operands(a, b, out);
    Operand const &A = operands.A, &B = operands.B, &D = operands.D;
    bool const packed = a.ndim() == 2;
    int64_t const experts = B.batch;
    if (packed) {
      if (int64_t(ends.size()) != experts) {
        fail_value("cutlass_lib: grouped_mm has " + std::to_string(ends.size()) + " row ends for " +
                   std::to_string(experts) + " experts");
      }
    } else {
      if (!ends.empty()) fail_value("cutlass_lib: grouped_mm takes row ends only for a 2-D mat_a");
      if (A.batch != experts || D.batch != experts) {
        fail_value("cutlass_lib: grouped_mm's mat_a, mat_b and out have different expert counts");
      }
    }
    for (size_t g = 0; g < ends.size(); ++g) {
      int64_t const begin = g == 0 ? 0 : ends[g - 1];
      if (ends[g] < begin) {
        fail_value("cutlass_lib: the row ends must not decrease: expert " + std::to_string(g) + "'s is " +
                   std::to_string(ends[g]) + ", after " + std::to_string(begin));
      }
      if (ends[g] > A.rows) {
        fail_value("cutlass_lib: expert " + std::to_string(g) + "'s row end " + std::to_string(ends[g]) +
                   " is past mat_a's " + std::to_string(A.rows) + " rows");
      }
    }

    // D = out_g column-major: D = op(a_g) op(b_g); out row-major: D = out_g^T = op(b_g^T) op(a_g^T)
    bool const swapped = !D.column_major;
    Operand const &first = swapped ? B : A;
    Operand const &second = swapped ? A : B;
    auto const op_of = [&](Operand const &o) { return (o.column_major != swapped) ? CUTLASS_LIB_OP_N : CUTLASS_LIB_OP_T; };
    // an element offset from an array's start, as an address (uintptr_t: no arithmetic on a null
    // pointer, which an empty tensor may have)
    auto const address = [](Array const &x, int64_t elements) {
      return reinterpret_cast<uintptr_t>(x.data()) + uintptr_t(elements * int64_t(x.dtype().bits / 8));
    };
    size_t const count = size_t(experts);
    std::vector<cutlassLibOperation_t> transa(count, op_of(first)), transb(count, op_of(second));
    std::vector<int64_t> m(count), n(count), k(count, A.columns), lda(count, first.ld), ldb(count, second.ld),
        ldc(count, D.ld), sizes(count, 1);
    std::vector<void const *> a_array(count), b_array(count);
    std::vector<void *> c_array(count);
    for (size_t g = 0; g < count; ++g) {
      // a_g and out_g: rows [begin, end) of the packed operands, or batch entry g of the 3-D ones
      int64_t const begin = packed ? (g == 0 ? 0 : ends[g - 1]) : 0;
      int64_t const rows = packed ? ends[g] - begin : A.rows;
      uintptr_t const a_g = packed ? address(a, begin * a.stride(0)) : address(a, int64_t(g) * a.stride(0));
      uintptr_t const d_g = packed ? address(out, begin * out.stride(0)) : address(out, int64_t(g) * out.stride(0));
      uintptr_t const b_g = address(b, int64_t(g) * b.stride(0));
      m[g] = swapped ? D.columns : rows;
      n[g] = swapped ? rows : D.columns;
      a_array[g] = reinterpret_cast<void const *>(swapped ? b_g : a_g);
      b_array[g] = reinterpret_cast<void const *>(swapped ? a_g : b_g);
      c_array[g] = reinterpret_cast<void *>(d_g);
    }
    cutlassLibComputeType_t const compute = compute_of(A.type);
    std::vector<float> alpha_f(count, 1.0f), beta_f(count, 0.0f);
    std::vector<double> alpha_d(count, 1.0), beta_d(count, 0.0);
    std::vector<int32_t> alpha_i(count, 1), beta_i(count, 0);
    void const *alpha = compute == CUTLASS_LIB_COMPUTE_64F   ? static_cast<void const *>(alpha_d.data())
                        : compute == CUTLASS_LIB_COMPUTE_32I ? static_cast<void const *>(alpha_i.data())
                                                             : static_cast<void const *>(alpha_f.data());
    void const *beta = compute == CUTLASS_LIB_COMPUTE_64F   ? static_cast<void const *>(beta_d.data())
                       : compute == CUTLASS_LIB_COMPUTE_32I ? static_cast<void const *>(beta_i.data())
                                                            : static_cast<void const *>(beta_f.data());

    cutlassLibStatus_t status = prepare_plain(stream, workspace, workspace_bytes);
    if (status == CUTLASS_LIB_STATUS_SUCCESS && bias) status = set_grouped_bias(*bias, D, experts, swapped);
    if (status != CUTLASS_LIB_STATUS_SUCCESS) return {int(status), "", 0};
    status = cutlassLibGemmGroupedBatchedEx(handle_, transa.data(), transb.data(), m.data(), n.data(), k.data(), alpha,
                                            a_array.data(), A.type, lda.data(), b_array.data(), B.type, ldb.data(),
                                            beta, c_array.data(), D.type, ldc.data(), experts, sizes.data(), compute);
    size_t needed = 0;
    if (status == CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL) {   // the bytes the call's plan needs
      char const *kernel = nullptr;
      if (cutlassLibGemmGroupedBatchedExSelect(handle_, transa.data(), transb.data(), m.data(), n.data(), k.data(),
                                               alpha, a_array.data(), A.type, lda.data(), b_array.data(), B.type,
                                               ldb.data(), beta, c_array.data(), D.type, ldc.data(), experts,
                                               sizes.data(), compute, &kernel, &needed) != CUTLASS_LIB_STATUS_SUCCESS) {
        needed = 0;
      }
    }
    return {int(status), "", needed};
  }

  /// grouped_mm's 2-D case with the row ends in DEVICE memory (`offs`: E int32, contiguous, on the
  /// handle's device; torch._grouped_mm's offs): one call of cutlassLibGemmGroupedContiguousEx,
  /// which reads the ends on the device (no host synchronization; capturable in a CUDA graph).
  /// Shapes as grouped_mm's packed case; out row-major (it is computed as out^T = b[g]^T a_g^T);
  /// the C call takes a with each row's K values contiguous (row-major) and bf16 / f16 operands
  /// on sm_90 (else it answers NOT_SUPPORTED or NO_KERNEL and the caller takes grouped_mm with
  /// the ends read on the host). Rows past the last end are not written, nor are the rows of an
  /// expert whose end is smaller than an earlier one's or past a's rows. `bias` fused when given
  /// (set_grouped_bias; NO_KERNEL: no kernel fuses it).
  Result grouped_mm_device_ends(Array a, Array b, Array out, Array offs, uintptr_t stream, uintptr_t workspace,
                                size_t workspace_bytes, std::optional<Array> bias) {
    if (!handle_) return {int(status_), "", 0};
    GroupedOperands const operands = grouped_operands(a, b, out);
    Operand const &A = operands.A, &B = operands.B, &D = operands.D;
    if (a.ndim() != 2) fail_value("cutlass_lib: grouped_mm with device row ends takes a 2-D mat_a");
    int64_t const experts = B.batch;
    if (offs.device_type() != nb::device::cuda::value || offs.device_id() != device_ || offs.ndim() != 1 ||
        int64_t(offs.shape(0)) != experts || (experts > 1 && offs.stride(0) != 1) ||
        cuda_type(offs.dtype(), "offs") != CUDA_R_32I) {
      fail_value("cutlass_lib: offs must be a contiguous 1-D int32 tensor of one row end per expert on the handle's "
                 "device");
    }
    if (D.column_major && D.columns > 1) fail_value("cutlass_lib: grouped_mm's out must be row-major");
    // out^T (N x T, column-major) = op(b[g]^T) op(a^T): the C call's A is b, its B is a
    cutlassLibOperation_t const transa = B.column_major ? CUTLASS_LIB_OP_T : CUTLASS_LIB_OP_N;
    cutlassLibOperation_t const transb = A.column_major ? CUTLASS_LIB_OP_T : CUTLASS_LIB_OP_N;
    cutlassLibComputeType_t const compute = compute_of(A.type);
    if (compute != CUTLASS_LIB_COMPUTE_32F) return {int(CUTLASS_LIB_STATUS_NOT_SUPPORTED), "", 0};   // (f32 scalars)
    float const alpha = 1.0f, beta = 0.0f;
    cutlassLibStatus_t status = prepare_plain(stream, workspace, workspace_bytes);
    if (status == CUTLASS_LIB_STATUS_SUCCESS && bias) status = set_grouped_bias(*bias, D, experts, /*swapped=*/true);
    if (status != CUTLASS_LIB_STATUS_SUCCESS) return {int(status), "", 0};
    status = cutlassLibGemmGroupedContiguousEx(handle_, transa, transb, D.columns, A.rows, A.columns, &alpha, B.data,
                                               B.type, B.ld, B.batch_stride, A.data, A.type, A.ld, &beta, D.data,
                                               D.type, D.ld, experts, static_cast<int32_t const *>(offs.data()),
                                               compute);
    size_t needed = 0;
    if (status == CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL) {   // the group table's bytes
      char const *kernel = nullptr;
      if (cutlassLibGemmGroupedContiguousExSelect(handle_, transa, transb, D.columns, A.rows, A.columns, &alpha, B.data,
                                                  B.type, B.ld, B.batch_stride, A.data, A.type, A.ld, &beta, D.data,
                                                  D.type, D.ld, experts, static_cast<int32_t const *>(offs.data()),
                                                  compute, &kernel, &needed) != CUTLASS_LIB_STATUS_SUCCESS) {
        needed = 0;
      }
    }
    return {int(status), "", needed};
  }

  /// out = alpha * (a @ b) + beta * out [+ bias, activation] on `stream` (describe, then launch).
  Result gemm(Array a, Array b, Array out, double alpha, double beta, std::optional<Array> bias, int epilogue,
              uintptr_t stream, uintptr_t workspace, size_t workspace_bytes, bool select_only,
              std::optional<Array> scale_a, std::optional<Array> scale_b) {
    if (!handle_) return {int(status_), "", 0};
    Pointers pointers;
    Call const call = describe(a, b, out, alpha, beta, bias, epilogue, &pointers, scale_a, scale_b);
    return launch(call, pointers, stream, workspace, workspace_bytes, select_only);
  }

 private:
  /// grouped_mm's operands, checked (ValueError / TypeError): every array on the handle's device,
  /// b 3-D (E, K, N), out of a's rank and shape (T, N) or (E, M, N), a's K equal to b's, a and b
  /// of one dtype. The expert counts and row ends are the callers'.
  struct GroupedOperands {
    Operand A, B, D;
  };
  GroupedOperands grouped_operands(Array const &a, Array const &b, Array const &out) const {
    GroupedOperands o{operand_of(a, "mat_a"), operand_of(b, "mat_b"), operand_of(out, "out")};
    check_batches_apart(o.D, "out");   // a 3-D out: one matrix per expert
    for (auto const *array : {&a, &b, &out}) {
      if (array->device_id() != device_) fail_value("cutlass_lib: every tensor must be on the handle's device");
    }
    if (b.ndim() != 3) fail_value("cutlass_lib: grouped_mm takes a 3-D mat_b (experts, K, N)");
    if (out.ndim() != a.ndim()) fail_value("cutlass_lib: grouped_mm's out must have mat_a's rank");
    if (o.A.columns != o.B.rows) {
      fail_value("cutlass_lib: mat_a has K = " + std::to_string(o.A.columns) + " and mat_b K = " +
                 std::to_string(o.B.rows) + ": the inner dimensions differ");
    }
    if (o.D.rows != o.A.rows || o.D.columns != o.B.columns) {
      fail_value("cutlass_lib: out is " + std::to_string(o.D.rows) + " x " + std::to_string(o.D.columns) +
                 ", should be " + std::to_string(o.A.rows) + " x " + std::to_string(o.B.columns));
    }
    if (o.A.type != o.B.type) fail_type("cutlass_lib: mat_a and mat_b must have the same dtype");
    return o;
  }

  /// The handle's BIAS epilogue for a grouped call (after prepare_plain): `bias` (E, N) of out's
  /// dtype on the handle's device, each row contiguous, row g expert g's N values (N: out's
  /// columns, D). In the column-major call N is its D's rows when out is row-major (`swapped`:
  /// PER_ROW) and its columns otherwise (PER_COLUMN); batch entry g (expert g: one problem per
  /// group) at row g (batchStride = the row stride).
  cutlassLibStatus_t set_grouped_bias(Array const &bias, Operand const &D, int64_t experts, bool swapped) {
    int64_t const n = D.columns;
    if (bias.device_type() != nb::device::cuda::value || bias.device_id() != device_) {
      fail_value("cutlass_lib: bias must be on the handle's device");
    }
    if (bias.ndim() != 2 || int64_t(bias.shape(0)) != experts || int64_t(bias.shape(1)) != n ||
        (n > 1 && bias.stride(1) != 1) || (experts > 1 && bias.stride(0) < n)) {
      fail_value("cutlass_lib: bias must be (experts, N) with contiguous rows");
    }
    if (cuda_type(bias.dtype(), "bias") != D.type) fail_type("cutlass_lib: bias must have out's dtype");
    cutlassLibStatus_t status = cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_BIAS);
    if (status != CUTLASS_LIB_STATUS_SUCCESS) return status;
    return cutlassLibSetEpilogueBias(handle_, bias.data(), D.type,
                                     swapped ? CUTLASS_LIB_VECTOR_PER_ROW : CUTLASS_LIB_VECTOR_PER_COLUMN,
                                     experts > 1 ? int64_t(bias.stride(0)) : n);
  }

  /// The stream of the next calls and the caller's workspace (set only when it changed).
  cutlassLibStatus_t set_stream_and_workspace(uintptr_t stream, uintptr_t workspace, size_t workspace_bytes) {
    cutlassLibStatus_t status = cutlassLibSetStream(handle_, reinterpret_cast<cudaStream_t>(stream));
    if (status == CUTLASS_LIB_STATUS_SUCCESS && (workspace != workspace_ || workspace_bytes != workspace_bytes_)) {
      status = cutlassLibSetWorkspace(handle_, reinterpret_cast<void *>(workspace), workspace_bytes);
      if (status == CUTLASS_LIB_STATUS_SUCCESS) workspace_ = workspace, workspace_bytes_ = workspace_bytes;
    }
    return status;
  }

  /// The handle's state for a call without a fused epilogue (the grouped calls then set their bias): the
  /// stream, the caller's workspace, the DEFAULT epilogue (dropping a bias an earlier call set) and
  /// no operand scales (an earlier scaled_mm's outer vectors would answer NOT_SUPPORTED).
  cutlassLibStatus_t prepare_plain(uintptr_t stream, uintptr_t workspace, size_t workspace_bytes) {
    cutlassLibStatus_t status = set_stream_and_workspace(stream, workspace, workspace_bytes);
    if (status == CUTLASS_LIB_STATUS_SUCCESS) status = cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT);
    for (cutlassLibMatrix_t matrix : {CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_B}) {
      if (status == CUTLASS_LIB_STATUS_SUCCESS) {
        status = cutlassLibSetMatrixScale(handle_, matrix, CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F, nullptr);
      }
    }
    return status;
  }

  /// The layout of a float8 operand's scale (torch._scaled_mm's shapes; the C API's
  /// cutlassLibMatrixScale_t, whose layouts are cuBLASLt's): one f32 element (per tensor); a
  /// row-wise vector of `extent` contiguous elements along out's rows (axis 0, a: shape (M, 1) or
  /// (M,)) or columns (axis 1, b: (1, N) or (N,)); or block scales over K blocks of 128 (KB =
  /// ceil(K / 128)):
  ///   a (M, K): (M, KB) with strides (1, M), one per row and K block ("outer-dim-major", VEC128);
  ///             (ceil(M / 128), KB) with strides (KBp, 1), one per 128 x 128 block (BLK128x128)
  ///   b (K, N): (KB, N) row-major, one per column and K block (VEC128);
  ///             (KB, ceil(N / 128)) with strides (1, KBp), one per 128 x 128 block (BLK128x128)
  /// where KBp = KB rounded up to a multiple of 4: cuBLASLt's 128x128 scales pad each block's row
  /// of k-blocks to 16 bytes (so a (.., KBp) row-major array, sliced to KB columns, or KB % 4 == 0).
  /// Both layouts are independent of out's layout (a's VEC128 scales are MN-fastest whichever BLAS
  /// operand a becomes). Strides of extent-1 dimensions are not checked.
  int scale_mode(Array const &array, char const *name, int64_t extent, int64_t k, int axis,
                 float const **data) const {
    if (array.device_type() != nb::device::cuda::value || array.device_id() != device_) {
      fail_value(std::string("cutlass_lib: '") + name + "' must be on the operands' CUDA device");
    }
    if (array.dtype() != nb::dtype<float>()) fail_type(std::string("cutlass_lib: '") + name + "' must be float32");
    *data = static_cast<float const *>(array.data());
    int64_t count = 1;
    for (size_t d = 0; d < array.ndim(); ++d) count *= int64_t(array.shape(d));
    if (count == 1) return int(CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F);
    bool const row_wise = array.ndim() == 1 || (array.ndim() == 2 && array.shape(size_t(1 - axis)) == 1);
    int64_t const stride = array.ndim() == 1 ? array.stride(0) : array.stride(size_t(axis));
    if (row_wise && count == extent && stride == 1) return int(CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F);
    int64_t const k_blocks = (k + 127) / 128, blocks = (extent + 127) / 128;
    int64_t const ld = (k_blocks + 3) / 4 * 4;   // BLK128x128's leading dimension (cutlass_lib.h: KBp)
    if (array.ndim() == 2) {
      // (rows, columns) of the scale as a and b hold their K: a's K is its second dimension, b's its first
      int64_t const rows = int64_t(array.shape(0)), columns = int64_t(array.shape(1));
      auto const strided = [&](int64_t s0, int64_t s1) {
        return (rows == 1 || array.stride(0) == s0) && (columns == 1 || array.stride(1) == s1);
      };
      if (axis == 0 && rows == extent && columns == k_blocks && strided(1, extent)) {
        return int(CUTLASS_LIB_MATRIX_SCALE_VEC128_32F);
      }
      if (axis == 0 && rows == blocks && columns == k_blocks && strided(ld, 1)) {
        return int(CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F);
      }
      if (axis == 1 && rows == k_blocks && columns == extent && strided(extent, 1)) {
        return int(CUTLASS_LIB_MATRIX_SCALE_VEC128_32F);
      }
      if (axis == 1 && rows == k_blocks && columns == blocks && strided(1, ld)) {
        return int(CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F);
      }
    }
    std::string const e = std::to_string(extent), kb = std::to_string(k_blocks), mb = std::to_string(blocks),
                      kbp = std::to_string(ld);
    fail_value(std::string("cutlass_lib: '") + name + "' must have 1 element (per tensor), " + e +
               " contiguous ones (" + (axis == 0 ? "(M, 1): one per row of a" : "(1, N): one per column of b") +
               "), or block scales over K blocks of 128: " +
               (axis == 0 ? "(" + e + ", " + kb + ") with strides (1, " + e + ") (1x128, e.g. s.t().contiguous().t()) or (" +
                                mb + ", " + kb + ") with strides (" + kbp + ", 1) (128x128: rows padded to " + kbp + ")"
                          : "(" + kb + ", " + e + ") row-major (1x128) or (" + kb + ", " + mb + ") with strides (1, " +
                                kbp + ") (128x128, e.g. the .t() of a weight's (" + mb + ", " + kb + ") scale in rows of " +
                                kbp + ")"));
  }

  /// A 1-D CUDA vector (bias).
  static Operand operand_of_vector(Array const &array) {
    if (array.device_type() != nb::device::cuda::value) fail_value("cutlass_lib: 'bias' is not on a CUDA device");
    if (array.ndim() != 1) fail_value("cutlass_lib: 'bias' must be 1-D");
    if (array.stride(0) != 1 && array.shape(0) > 1) fail_value("cutlass_lib: 'bias' must be contiguous");
    Operand o;
    o.data = const_cast<void *>(array.data());
    o.type = cuda_type(array.dtype(), "bias");
    o.rows = int64_t(array.shape(0));
    return o;
  }

  int device_ = 0;
  uintptr_t workspace_ = 0;      ///< the caller workspace last set on the handle (0: its own)
  size_t workspace_bytes_ = 0;
  cutlassLibHandle_t handle_ = nullptr;
  cutlassLibStatus_t status_ = CUTLASS_LIB_STATUS_SUCCESS;
};

/// A call described once (shapes, strides, dtypes, scalars, epilogue) and launched many times
/// on operands of the same description, given by their device addresses: the least host work
/// per call (no DLPack import, no checks beyond the caller's).
class Plan {
 public:
  Plan(Handle &handle, Array a, Array b, Array out, double alpha, double beta, std::optional<Array> bias, int epilogue,
       std::optional<Array> scale_a, std::optional<Array> scale_b)
      : handle_(&handle) {
    Pointers unused;
    call_ = handle.describe(a, b, out, alpha, beta, bias, epilogue, &unused, scale_a, scale_b);
  }
  Handle::Result run(uintptr_t a, uintptr_t b, uintptr_t out, uintptr_t bias, uintptr_t stream, uintptr_t workspace,
                     size_t workspace_bytes, bool select_only, uintptr_t scale_a, uintptr_t scale_b) {
    if (call_.has_bias && bias == 0) fail_value("cutlass_lib: the plan has a bias; pass its address");
    if ((call_.scale_a_mode >= 0 && scale_a == 0) || (call_.scale_b_mode >= 0 && scale_b == 0)) {
      fail_value("cutlass_lib: the plan has operand scales; pass their addresses");
    }
    Pointers const p{reinterpret_cast<void const *>(a), reinterpret_cast<void const *>(b),
                     reinterpret_cast<void const *>(bias), reinterpret_cast<void *>(out),
                     reinterpret_cast<float const *>(scale_a), reinterpret_cast<float const *>(scale_b)};
    return handle_->launch(call_, p, stream, workspace, workspace_bytes, select_only);
  }

 private:
  Handle *handle_;
  Call call_;
};

std::vector<std::string> kernels() {
  std::vector<std::string> names;
  for (size_t i = 0; char const *name = cutlassLibGetKernelName(i); ++i) names.emplace_back(name);
  return names;
}

}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "cutlass_lib's C API for the Python package (internal; use the cutlass_lib module)";
  nb::class_<Handle::Result>(m, "Result")
      .def_ro("status", &Handle::Result::status)
      .def_ro("kernel", &Handle::Result::kernel)
      .def_ro("workspace_needed", &Handle::Result::workspace_needed);
  nb::class_<Handle>(m, "Handle")
      .def(nb::init<int>(), nb::arg("device"))
      .def_prop_ro("device", &Handle::device)
      .def_prop_ro("create_status", &Handle::create_status)
      .def("gemm", &Handle::gemm, nb::arg("a"), nb::arg("b"), nb::arg("out"), nb::arg("alpha"), nb::arg("beta"),
           nb::arg("bias").none(), nb::arg("epilogue"), nb::arg("stream"), nb::arg("workspace"),
           nb::arg("workspace_bytes"), nb::arg("select_only"), nb::arg("scale_a").none() = nb::none(),
           nb::arg("scale_b").none() = nb::none())
      .def("grouped_mm", &Handle::grouped_mm, nb::arg("a"), nb::arg("b"), nb::arg("out"), nb::arg("ends"),
           nb::arg("stream"), nb::arg("workspace"), nb::arg("workspace_bytes"), nb::arg("bias").none() = nb::none())
      .def("grouped_mm_device_ends", &Handle::grouped_mm_device_ends, nb::arg("a"), nb::arg("b"), nb::arg("out"),
           nb::arg("offs"), nb::arg("stream"), nb::arg("workspace"), nb::arg("workspace_bytes"),
           nb::arg("bias").none() = nb::none());
  // a Plan keeps its Handle alive (keep_alive<1, 2>: the plan holds argument 2, the handle)
  nb::class_<Plan>(m, "Plan")
      .def(nb::init<Handle &, Array, Array, Array, double, double, std::optional<Array>, int, std::optional<Array>,
                    std::optional<Array>>(),
           nb::arg("handle"), nb::arg("a"), nb::arg("b"), nb::arg("out"), nb::arg("alpha"), nb::arg("beta"),
           nb::arg("bias").none(), nb::arg("epilogue"), nb::arg("scale_a").none() = nb::none(),
           nb::arg("scale_b").none() = nb::none(), nb::keep_alive<1, 2>())
      .def("run", &Plan::run, nb::arg("a"), nb::arg("b"), nb::arg("out"), nb::arg("bias"), nb::arg("stream"),
           nb::arg("workspace"), nb::arg("workspace_bytes"), nb::arg("select_only"), nb::arg("scale_a") = 0,
           nb::arg("scale_b") = 0);
  m.def("kernels", &kernels, "Names of the kernels the loaded libcutlass_lib holds, in registration order.");
  m.def("version", &cutlassLibGetVersion, "major * 10000 + minor * 100 + patch of the loaded libcutlass_lib");
  m.def("status_name", [](int s) { return std::string(cutlassLibGetStatusName(cutlassLibStatus_t(s))); });
  m.def("status_string", [](int s) { return std::string(cutlassLibGetStatusString(cutlassLibStatus_t(s))); });
  m.attr("EPILOGUE_DEFAULT") = int(CUTLASS_LIB_EPILOGUE_DEFAULT);
  m.attr("EPILOGUE_BIAS") = int(CUTLASS_LIB_EPILOGUE_BIAS);
  m.attr("EPILOGUE_RELU") = int(CUTLASS_LIB_EPILOGUE_RELU);
  m.attr("EPILOGUE_RELU_BIAS") = int(CUTLASS_LIB_EPILOGUE_RELU_BIAS);
  m.attr("EPILOGUE_GELU") = int(CUTLASS_LIB_EPILOGUE_GELU);
  m.attr("EPILOGUE_GELU_BIAS") = int(CUTLASS_LIB_EPILOGUE_GELU_BIAS);
  m.attr("EPILOGUE_GELU_ERF") = int(CUTLASS_LIB_EPILOGUE_GELU_ERF);
  m.attr("EPILOGUE_GELU_ERF_BIAS") = int(CUTLASS_LIB_EPILOGUE_GELU_ERF_BIAS);
  m.attr("EPILOGUE_SILU") = int(CUTLASS_LIB_EPILOGUE_SILU);
  m.attr("EPILOGUE_SILU_BIAS") = int(CUTLASS_LIB_EPILOGUE_SILU_BIAS);
  m.attr("EPILOGUE_SIGMOID") = int(CUTLASS_LIB_EPILOGUE_SIGMOID);
  m.attr("EPILOGUE_SIGMOID_BIAS") = int(CUTLASS_LIB_EPILOGUE_SIGMOID_BIAS);
}
