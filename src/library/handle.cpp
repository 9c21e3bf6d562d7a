/// @file src/library/handle.cpp
#include "cutlass/library/handle.h"

#include <exception>

#include <new>
#include <utility>

#include "device_info.h"
#include "gemm_call.h"
#include "handle_access.h"
#include "gemm_route.h"
#include "workspace.h"

namespace cutlass {
namespace library {

namespace {

/// Makes the handle's device current for the duration of a call, restoring the caller's.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    if (device >= 0 && cudaGetDevice(&previous_) == cudaSuccess && previous_ != device) {
      switched_ = cudaSetDevice(device) == cudaSuccess;
    }
  }
  ~DeviceGuard() {
    if (switched_) cudaSetDevice(previous_);
  }
  DeviceGuard(DeviceGuard const &) = delete;
  DeviceGuard &operator=(DeviceGuard const &) = delete;

 private:
  int previous_ = -1;
  bool switched_ = false;
};

}  // namespace

Handle::Handle(cudaStream_t stream, size_t workspace_size)
    : stream_(stream), routes_(new (std::nothrow) RouteCache),   // null on failure: no remembering
      workspace_state_(new (std::nothrow) WorkspaceState) {   // null on failure: always initialize
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return;   // no usable device: compute_capability() stays 0
  }
  device_ = device;
  compute_capability_ = current_device_compute_capability();
  if (compute_capability_ == 0) return;
  if (workspace_size && cudaMalloc(&workspace_, workspace_size) == cudaSuccess) {
    workspace_size_ = workspace_size;
  } else {
    cudaGetLastError();
    workspace_ = nullptr;   // grown on demand by the first kernel that needs it
  }
}

Handle::~Handle() { release_workspace(); }

void Handle::release_workspace() {
  if (workspace_ && workspace_owned_) {
    DeviceGuard guard(device_);
    cudaFree(workspace_);
  }
  workspace_ = nullptr;
  workspace_size_ = 0;
  workspace_owned_ = true;
  if (workspace_state_) *workspace_state_ = WorkspaceState{};
}

Handle::Handle(Handle &&other) noexcept { *this = std::move(other); }

Handle &Handle::operator=(Handle &&other) noexcept {
  if (this != &other) {
    release_workspace();
    device_ = other.device_;
    compute_capability_ = other.compute_capability_;
    stream_ = other.stream_;
    provider_ = other.provider_;
    scalar_pointer_mode_ = other.scalar_pointer_mode_;
    workspace_ = std::exchange(other.workspace_, nullptr);
    workspace_size_ = std::exchange(other.workspace_size_, 0);
    workspace_owned_ = std::exchange(other.workspace_owned_, true);
    last_operation_ = other.last_operation_;
    routes_ = std::move(other.routes_);   // the moved-from handle remembers nothing (ranks every call)
    workspace_state_ = std::move(other.workspace_state_);   // (and knows nothing of its workspace)
  }
  return *this;
}

void Handle::set_stream(cudaStream_t stream) {
  // the handle's own workspace: no kernel on the old stream may still use it; a caller's
  // workspace is the caller's to order (as cublasSetWorkspace's)
  if (stream != stream_ && workspace_ && workspace_owned_ && compute_capability_ != 0) {
    DeviceGuard guard(device_);
    cudaStreamSynchronize(stream_);   // no kernel on the old stream still uses the workspace
    cudaGetLastError();
  }
  if (stream != stream_ && workspace_state_) workspace_state_->zero_bytes = 0;   // known in the old stream's order only
  stream_ = stream;
}

Status Handle::set_workspace_size(size_t bytes) {
  if (compute_capability_ == 0) return Status::kErrorArchMismatch;
  DeviceGuard guard(device_);
  if (workspace_) {
    cudaStreamSynchronize(stream_);
    cudaGetLastError();
  }
  release_workspace();
  if (bytes == 0) return Status::kSuccess;
  if (cudaMalloc(&workspace_, bytes) != cudaSuccess) {
    cudaGetLastError();
    workspace_ = nullptr;
    return Status::kErrorMemoryAllocation;
  }
  workspace_size_ = bytes;
  return Status::kSuccess;
}

Status Handle::set_workspace(void *workspace, size_t bytes) {
  if (!workspace && bytes > 0) return Status::kErrorInvalidProblem;
  if (reinterpret_cast<uintptr_t>(workspace) % 256 != 0) return Status::kErrorMisalignedOperand;
  if (workspace_ && workspace_owned_ && compute_capability_ != 0) {
    DeviceGuard guard(device_);
    cudaStreamSynchronize(stream_);   // no kernel on the stream still uses the handle's workspace
    cudaGetLastError();
  }
  release_workspace();
  if (workspace) {
    workspace_ = workspace;
    workspace_size_ = bytes;
    workspace_owned_ = false;
  }
  return Status::kSuccess;
}

char const *Handle::last_operation_name() const {
  return last_operation_ ? last_operation_->description().name : "";
}

Status Handle::gemm(int M, int N, int K, NumericTypeID element_compute, NumericTypeID element_scalar,
                    void const *alpha, NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A,
                    void const *ptr_A, int64_t lda, NumericTypeID element_B, LayoutTypeID layout_B,
                    ComplexTransform transform_B, void const *ptr_B, int64_t ldb, void const *beta,
                    NumericTypeID element_C, void const *ptr_C, int64_t ldc, void *ptr_D, int64_t ldd) {
  return gemm_universal(gemm::GemmUniversalMode::kGemm, M, N, K, 1, 1, 1, 1, 1, 1, element_compute, element_scalar,
                        alpha, element_A, layout_A, transform_A, ptr_A, lda, element_B, layout_B, transform_B, ptr_B,
                        ldb, beta, element_C, LayoutTypeID::kColumnMajor, ptr_C, ldc, element_C,
                        LayoutTypeID::kColumnMajor, ptr_D, ldd);
}

Status Handle::gemm_universal(gemm::GemmUniversalMode mode, int M, int N, int K, int, int, int, int, int, int,
                              NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                              NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A,
                              void const *ptr_A, int64_t lda, NumericTypeID element_B, LayoutTypeID layout_B,
                              ComplexTransform transform_B, void const *ptr_B, int64_t ldb, void const *beta,
                              NumericTypeID element_C, LayoutTypeID layout_C, void const *ptr_C, int64_t ldc,
                              NumericTypeID element_D, LayoutTypeID layout_D, void *ptr_D, int64_t ldd,
                              int batch_count, int64_t batch_stride_A, int64_t batch_stride_B,
                              int64_t batch_stride_C, int64_t batch_stride_D) {
  return gemm_universal(mode, M, N, K, 1, 1, 1, 1, 1, 1, element_compute, element_scalar, alpha, element_A, layout_A,
                        transform_A, ptr_A, lda, element_B, layout_B, transform_B, ptr_B, ldb, beta, element_C,
                        layout_C, ptr_C, ldc, element_D, layout_D, ptr_D, ldd, batch_count, batch_stride_A,
                        batch_stride_B, batch_stride_C, batch_stride_D, GemmEpilogueArguments{});
}

Status Handle::gemm_universal(gemm::GemmUniversalMode mode, int M, int N, int K, int, int, int, int, int, int,
                              NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                              NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A,
                              void const *ptr_A, int64_t lda, NumericTypeID element_B, LayoutTypeID layout_B,
                              ComplexTransform transform_B, void const *ptr_B, int64_t ldb, void const *beta,
                              NumericTypeID element_C, LayoutTypeID layout_C, void const *ptr_C, int64_t ldc,
                              NumericTypeID element_D, LayoutTypeID layout_D, void *ptr_D, int64_t ldd,
                              int batch_count, int64_t batch_stride_A, int64_t batch_stride_B,
                              int64_t batch_stride_C, int64_t batch_stride_D, GemmEpilogueArguments const &epilogue) {
  last_operation_ = nullptr;
  if (provider_ != Provider::kCUTLASS) return Status::kErrorNotSupported;
  GemmCall call;
  call.mode = mode;
  call.m = M;
  call.n = N;
  call.k = K;
  call.batch_count = batch_count;
  call.element_compute = element_compute;
  call.element_scalar = element_scalar;
  call.alpha = alpha;
  call.beta = beta;
  call.pointer_mode = scalar_pointer_mode_;
  call.element_A = element_A;
  call.layout_A = layout_A;
  call.transform_A = transform_A;
  call.A = ptr_A;
  call.lda = lda;
  call.batch_stride_A = batch_stride_A;
  call.element_B = element_B;
  call.layout_B = layout_B;
  call.transform_B = transform_B;
  call.B = ptr_B;
  call.ldb = ldb;
  call.batch_stride_B = batch_stride_B;
  call.element_C = element_C;
  call.layout_C = layout_C;
  call.C = ptr_C;
  call.ldc = ldc;
  call.batch_stride_C = batch_stride_C;
  call.element_D = element_D;
  call.layout_D = layout_D;
  call.D = ptr_D;
  call.ldd = ldd;
  call.batch_stride_D = batch_stride_D;
  call.epilogue = epilogue;
  if (mode == gemm::GemmUniversalMode::kGemm && batch_count > 1) {   // CUTLASS's split-K slices
    call.split_k_request = batch_count;
    call.batch_count = 1;
    call.batch_stride_A = call.batch_stride_B = call.batch_stride_C = call.batch_stride_D = 0;   // unused
  }

  GemmOutcome outcome = HandleAccess::call(*this, call, /*execute=*/true);
  return to_status(outcome.failure);
}

Status Handle::gemm_grouped(NumericTypeID element_compute, NumericTypeID element_scalar, NumericTypeID element_A,
                            NumericTypeID element_B, NumericTypeID element_C, GroupedGemmGroup const *groups,
                            int64_t group_count, void const *const *A, void const *const *B, void *const *C,
                            GemmEpilogueArguments const &epilogue) {
  last_operation_ = nullptr;
  if (provider_ != Provider::kCUTLASS) return Status::kErrorNotSupported;
  if (group_count < 0 || (group_count > 0 && groups == nullptr)) return Status::kErrorInvalidProblem;
  GemmGroupedCall call;
  try {
    call.groups.resize(size_t(group_count));
  } catch (std::exception const &) {
    return Status::kErrorMemoryAllocation;
  }
  for (int64_t g = 0; g < group_count; ++g) {
    GroupedGemmGroup const &in = groups[g];
    GemmCall &shape = call.groups[size_t(g)].shape;
    call.groups[size_t(g)].size = in.size;
    shape.m = in.m;
    shape.n = in.n;
    shape.k = in.k;
    shape.element_compute = element_compute;
    shape.element_scalar = element_scalar;
    shape.alpha = in.alpha;
    shape.beta = in.beta;
    shape.pointer_mode = scalar_pointer_mode_;
    shape.element_A = element_A;
    shape.layout_A = in.layout_A;
    shape.lda = in.lda;
    shape.element_B = element_B;
    shape.layout_B = in.layout_B;
    shape.ldb = in.ldb;
    shape.element_C = shape.element_D = element_C;
    shape.ldc = shape.ldd = in.ldc;
    shape.epilogue = epilogue;
  }
  call.A = A;
  call.B = B;
  call.C = C;
  call.D = C;
  PointerArrayCopies copies;   // cuBLAS's device arrays, read on the host
  GemmGroupedOutcome const copied = HandleAccess::copy_pointer_arrays(*this, &call, &copies);
  if (copied.failure != GemmFailure::kNone) return to_status(copied.failure);
  return to_status(HandleAccess::grouped(*this, call).failure);
}

namespace {

/// The part of a grouped call's shape its groups share: types, layouts of A and B (C and D
/// column-major), scalars in `mode`'s memory, the epilogue.
GemmCall grouped_shape(NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                       void const *beta, ScalarPointerMode mode, NumericTypeID element_A, LayoutTypeID layout_A,
                       NumericTypeID element_B, LayoutTypeID layout_B, NumericTypeID element_C,
                       GemmEpilogueArguments const &epilogue) {
  GemmCall shape;
  shape.element_compute = element_compute;
  shape.element_scalar = element_scalar;
  shape.alpha = alpha;
  shape.beta = beta;
  shape.pointer_mode = mode;
  shape.element_A = element_A;
  shape.layout_A = layout_A;
  shape.element_B = element_B;
  shape.layout_B = layout_B;
  shape.element_C = shape.element_D = element_C;
  shape.epilogue = epilogue;
  return shape;
}

}  // namespace

Status Handle::gemm_grouped_contiguous(int M, int N, int K, NumericTypeID element_compute,
                                       NumericTypeID element_scalar, void const *alpha, NumericTypeID element_A,
                                       LayoutTypeID layout_A, void const *ptr_A, int64_t lda, int64_t stride_A,
                                       NumericTypeID element_B, void const *ptr_B, int64_t ldb, void const *beta,
                                       NumericTypeID element_C, void const *ptr_C, int64_t ldc, void *ptr_D,
                                       int64_t ldd, int64_t group_count, int const *offsets,
                                       GemmEpilogueArguments const &epilogue) {
  last_operation_ = nullptr;
  if (provider_ != Provider::kCUTLASS) return Status::kErrorNotSupported;
  GemmContiguousCall call;
  GemmCall &shape = call.shape;
  shape = grouped_shape(element_compute, element_scalar, alpha, beta, scalar_pointer_mode_, element_A, layout_A,
                        element_B, LayoutTypeID::kColumnMajor, element_C, epilogue);
  shape.m = M;
  shape.n = N;
  shape.k = K;
  shape.A = ptr_A;
  shape.lda = lda;
  shape.B = ptr_B;
  shape.ldb = ldb;
  shape.C = ptr_C;
  shape.ldc = ldc;
  shape.D = ptr_D;
  shape.ldd = ldd;
  call.stride_A = stride_A;
  call.count = group_count;
  call.offsets = offsets;
  return to_status(HandleAccess::contiguous(*this, call).failure);
}

Status Handle::gemm_grouped_device_sizes(NumericTypeID element_compute, NumericTypeID element_scalar,
                                         NumericTypeID element_A, LayoutTypeID layout_A, NumericTypeID element_B,
                                         LayoutTypeID layout_B, NumericTypeID element_C, void const *alpha,
                                         void const *beta, int64_t group_count, GroupedDeviceArrays const &groups,
                                         int64_t max_n, GemmEpilogueArguments const &epilogue) {
  last_operation_ = nullptr;
  if (provider_ != Provider::kCUTLASS) return Status::kErrorNotSupported;
  GemmGroupedDeviceCall call;
  call.shape = grouped_shape(element_compute, element_scalar, alpha, beta, scalar_pointer_mode_, element_A, layout_A,
                             element_B, layout_B, element_C, epilogue);
  call.count = group_count;
  call.max_n = max_n;
  call.arrays = groups;
  return to_status(HandleAccess::device_sized(*this, call).failure);
}

GemmContext HandleAccess::context_of(Handle &h) {
  GemmContext context;
  context.compute_capability = h.compute_capability_;
  context.sm_count = current_device_sm_count();   // the caller's guard made the handle's device current
  context.has_code = current_device_has_library_code();
  context.stream = h.stream_;
  context.workspace = &h.workspace_;
  context.workspace_size = &h.workspace_size_;
  context.workspace_fixed = !h.workspace_owned_;
  // a caller's workspace is the caller's to write between calls: nothing is known of it
  context.workspace_state = h.workspace_owned_ ? h.workspace_state_.get() : nullptr;
  context.routes = h.routes_.get();
  return context;
}

template <typename Outcome, typename Run>
Outcome HandleAccess::on_device(Handle &h, bool execute, Run &&run) {
  DeviceGuard guard(h.device_);
  Outcome outcome = run(context_of(h));
  if (execute) h.last_operation_ = outcome.operation;
  return outcome;
}

GemmOutcome HandleAccess::call(Handle &h, GemmCall const &call, bool execute) {
  return on_device<GemmOutcome>(h, execute, [&](GemmContext const &c) { return gemm_call(call, c, execute); });
}

GemmGroupedOutcome HandleAccess::copy_pointer_arrays(Handle &h, GemmGroupedCall *call, PointerArrayCopies *copies) {
  DeviceGuard guard(h.device_);
  return copy_device_pointer_arrays(call, h.stream_, copies);
}

GemmGroupedOutcome HandleAccess::grouped(Handle &h, GemmGroupedCall const &call, bool execute) {
  return on_device<GemmGroupedOutcome>(h, execute, [&](GemmContext const &c) { return gemm_grouped(call, c, execute); });
}

GemmGroupedOutcome HandleAccess::contiguous(Handle &h, GemmContiguousCall const &call, bool execute) {
  return on_device<GemmGroupedOutcome>(h, execute,
                                       [&](GemmContext const &c) { return gemm_grouped_contiguous(call, c, execute); });
}

GemmGroupedOutcome HandleAccess::device_sized(Handle &h, GemmGroupedDeviceCall const &call, bool execute) {
  return on_device<GemmGroupedOutcome>(h, execute,
                                       [&](GemmContext const &c) { return gemm_grouped_device(call, c, execute); });
}

}  // namespace library
}  // namespace cutlass
