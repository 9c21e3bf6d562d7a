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
/// Argument errors raise TypeError / ValueError before anything runs; the C API's statuses come
/// back as integers, which the Python layer turns into CutlassLibError with the status's name.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cuda_runtime_api.h>

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
    if (t.code == uint8_t(code::Int) && t.bits == 32) return CUDA_R_32I;
  }
  fail_type(std::string("cutlass_lib: '") + name +
            "' has a dtype cutlass_lib does not take (float16, bfloat16, float32, float64, int8; int32 outputs)");
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

cutlassLibComputeType_t compute_of(cudaDataType_t a) {
  if (a == CUDA_R_64F) return CUTLASS_LIB_COMPUTE_64F;
  if (a == CUDA_R_8I) return CUTLASS_LIB_COMPUTE_32I;
  return CUTLASS_LIB_COMPUTE_32F;
}

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

  /// out = alpha * (a @ b) + beta * out [+ bias, activation] on `stream`, with the caller's
  /// workspace (workspace_bytes 0: the handle's own); for select_only nothing runs.
  Result gemm(Array a, Array b, Array out, double alpha, double beta, std::optional<Array> bias, int epilogue,
              uintptr_t stream, uintptr_t workspace, size_t workspace_bytes, bool select_only) {
    if (!handle_) return {int(status_), "", 0};
    Operand A = operand_of(a, "a"), B = operand_of(b, "b"), D = operand_of(out, "out");
    for (auto const *array : {&a, &b, &out}) {
      if (array->device_id() != device_) fail_value("cutlass_lib: every tensor must be on the handle's device");
    }
    if (A.columns != B.rows) {
      fail_value("cutlass_lib: a is " + std::to_string(A.rows) + " x " + std::to_string(A.columns) + " and b is " +
                 std::to_string(B.rows) + " x " + std::to_string(B.columns) + ": the inner dimensions differ");
    }
    if (D.rows != A.rows || D.columns != B.columns) {
      fail_value("cutlass_lib: out is " + std::to_string(D.rows) + " x " + std::to_string(D.columns) + ", a @ b is " +
                 std::to_string(A.rows) + " x " + std::to_string(B.columns));
    }
    int64_t batch = D.batch;
    for (Operand const *o : {&A, &B}) {
      if (o->batch != 1 && o->batch != batch) fail_value("cutlass_lib: the batch sizes of a, b and out differ");
    }
    if (A.type != B.type) fail_type("cutlass_lib: a and b must have the same dtype");

    // D = out column-major: D = op(A) op(B); out row-major: D = out^T = op(B^T) op(A^T).
    bool const transposed = !D.column_major;
    Operand const &first = transposed ? B : A;
    Operand const &second = transposed ? A : B;
    // an operand stored in the orientation D is computed in needs no transpose
    auto const op_of = [&](Operand const &o) {
      return (o.column_major != transposed) ? CUTLASS_LIB_OP_N : CUTLASS_LIB_OP_T;
    };
    int64_t const m = transposed ? D.columns : D.rows;
    int64_t const n = transposed ? D.rows : D.columns;
    int64_t const k = A.columns;

    cutlassLibComputeType_t const compute = compute_of(A.type);
    float const alpha_f = float(alpha), beta_f = float(beta);
    double const alpha_d = alpha, beta_d = beta;
    if (compute == CUTLASS_LIB_COMPUTE_32I) {
      for (double v : {alpha, beta}) {
        if (v != std::nearbyint(v) || std::fabs(v) > 2147483647.0) {
          fail_value("cutlass_lib: int8 GEMMs take integer alpha and beta (int32), got " + std::to_string(v));
        }
      }
    }
    int32_t const alpha_i = int32_t(alpha), beta_i = int32_t(beta);
    void const *alpha_p = compute == CUTLASS_LIB_COMPUTE_64F   ? static_cast<void const *>(&alpha_d)
                          : compute == CUTLASS_LIB_COMPUTE_32I ? static_cast<void const *>(&alpha_i)
                                                               : static_cast<void const *>(&alpha_f);
    void const *beta_p = compute == CUTLASS_LIB_COMPUTE_64F   ? static_cast<void const *>(&beta_d)
                         : compute == CUTLASS_LIB_COMPUTE_32I ? static_cast<void const *>(&beta_i)
                                                              : static_cast<void const *>(&beta_f);

    std::optional<Operand> vector;
    if (bias) {
      if (bias->device_type() == nb::device::cuda::value && bias->device_id() != device_) {
        fail_value("cutlass_lib: every tensor must be on the handle's device");
      }
      vector = operand_of_vector(*bias);
      if (vector->rows != D.columns) {
        fail_value("cutlass_lib: bias has " + std::to_string(vector->rows) + " entries; out has " +
                   std::to_string(D.columns) + " columns");
      }
      if (vector->type != D.type) fail_type("cutlass_lib: bias must have out's dtype");
    }

    // every argument checked: now the handle's state for this call
    cutlassLibStatus_t status = cutlassLibSetStream(handle_, reinterpret_cast<cudaStream_t>(stream));
    if (status == CUTLASS_LIB_STATUS_SUCCESS && (workspace != workspace_ || workspace_bytes != workspace_bytes_)) {
      status = cutlassLibSetWorkspace(handle_, reinterpret_cast<void *>(workspace), workspace_bytes);
      if (status == CUTLASS_LIB_STATUS_SUCCESS) workspace_ = workspace, workspace_bytes_ = workspace_bytes;
    }
    if (status == CUTLASS_LIB_STATUS_SUCCESS) status = cutlassLibSetEpilogue(handle_, cutlassLibEpilogue_t(epilogue));
    if (status == CUTLASS_LIB_STATUS_SUCCESS && vector) {
      // the bias follows out's columns: D's columns when out is column-major, its rows otherwise
      status = cutlassLibSetEpilogueBias(handle_, vector->data, vector->type,
                                         transposed ? CUTLASS_LIB_VECTOR_PER_ROW : CUTLASS_LIB_VECTOR_PER_COLUMN, 0);
    }
    if (status != CUTLASS_LIB_STATUS_SUCCESS) return {int(status), "", 0};
    if (select_only) {
      char const *name = nullptr;
      status = cutlassLibGemmExSelect(handle_, op_of(first), op_of(second), m, n, k, alpha_p, first.data, first.type,
                                      first.ld, second.data, second.type, second.ld, beta_p, D.data, D.type, D.ld,
                                      compute, &name);
      return {int(status), name ? name : "", 0};
    }
    int64_t const stride_first = first.batch == 1 ? 0 : first.batch_stride;
    int64_t const stride_second = second.batch == 1 ? 0 : second.batch_stride;
    int64_t const stride_d = batch == 1 ? 0 : D.batch_stride;
    status = cutlassLibGemmStridedBatchedEx(handle_, op_of(first), op_of(second), m, n, k, alpha_p, first.data,
                                            first.type, first.ld, stride_first, second.data, second.type, second.ld,
                                            stride_second, beta_p, D.data, D.type, D.ld, stride_d, batch, compute);
    size_t needed = 0;
    if (status == CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL) {
      cutlassLibGetWorkspaceSize(handle_, op_of(first), op_of(second), m, n, k, alpha_p, first.data, first.type,
                                 first.ld, stride_first, second.data, second.type, second.ld, stride_second, beta_p,
                                 D.data, D.type, D.ld, stride_d, batch, compute, &needed);
    }
    return {int(status), "", needed};
  }

 private:
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
           nb::arg("workspace_bytes"), nb::arg("select_only"));
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
