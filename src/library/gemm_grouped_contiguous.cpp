/// @file src/library/gemm_grouped_contiguous.cpp
/// The grouped GEMMs the host never sizes (gemm_grouped.h): the contiguous layout
/// (GemmContiguousCall: a mixture-of-experts layer whose token counts live on the device) and
/// device-sized pointer arrays (GemmGroupedDeviceCall: every group's sizes, leading dimensions
/// and pointers on the device), each as one grouped-kernel launch. Read top to bottom: check the
/// call, choose the grouped kernel, run it.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime_api.h>

#include "cutlass/library/singleton.h"
#include "gemm_grouped.h"
#include "gemm_selection.h"
#include "workspace.h"

namespace cutlass {
namespace library {

namespace {

GemmGroupedOutcome failed(GemmFailure failure, char const *detail) {
  GemmGroupedOutcome outcome;
  outcome.failure = failure;
  outcome.detail = detail;
  if (selection_log_enabled()) std::fprintf(stderr, "cutlass_lib: device-sized grouped GEMM: %s\n", detail);
  return outcome;
}

/// False for memory the device cannot read: pageable host memory (cudaMemoryTypeUnregistered).
/// Without a device every pointer passes (nothing will launch).
bool device_readable(void const *array) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, array) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return attributes.type != cudaMemoryTypeUnregistered;
}

/// The grouped kernels of `c`'s types and layouts, by estimated time for `count` groups like
/// `typical`, the first that `takes` (the call's can_implement). A kernel's tile must fit the
/// largest group the call may hold (grouped_tile_fits of `largest`): the token tile only serves
/// layers of at most 64 tokens in a group (s19: ranked by the average alone, it took 64 experts
/// of 2048 x 7168 over 4096 skewed tokens at 1.66x the 128x128 tile's time).
template <typename Takes>
Operation const *device_sized_kernel(GemmCall const &c, int64_t count, GemmContext const &context,
                                     GemmUniversalArguments const &typical, GemmUniversalArguments const &largest,
                                     Takes &&takes, GemmFailure *failure) {
  GemmFunctionalKey key = functional_key(c);
  key.gemm_kind = GemmKind::kGrouped;
  GemmOperationVector const *kernels = Singleton::get().operation_table.find_gemm(key);
  if (!kernels) {
    *failure = GemmFailure::kNoKernel;
    return nullptr;
  }
  std::vector<GemmUniversalArguments> const problems(size_t(std::min<int64_t>(count, 4096)), typical);
  std::vector<std::pair<double, Operation const *>> ranked;
  bool any_for_device = false;
  for (Operation const *op : *kernels) {
    GemmDescription const &desc = gemm_description(op);
    TileDescription const &tile = desc.tile_description;
    if (context.compute_capability < tile.minimum_compute_capability ||
        context.compute_capability > tile.maximum_compute_capability) {
      continue;
    }
    any_for_device = true;
    if (!grouped_tile_fits(desc, &largest, 1)) continue;
    ranked.push_back({grouped_rank(desc, problems.data(), int(problems.size()), context.sm_count), op});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](auto const &a, auto const &b) { return a.first < b.first; });
  for (auto const &[time, op] : ranked) {
    Status const status = takes(op);
    if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   device-sized grouped %s: estimated %.1f us%s%s\n", op->description().name,
                   time, status == Status::kSuccess ? "" : ", refused: ",
                   status == Status::kSuccess ? "" : cutlassGetStatusString(status));
    }
    if (status == Status::kSuccess) return op;
  }
  *failure = any_for_device ? GemmFailure::kNoKernelFits : GemmFailure::kArchMismatch;
  return nullptr;
}

/// The plan of `kernel` needing `bytes` of workspace; with `execute`, the caller's workspace
/// compared, the handle's grown, and `launch(workspace)` (Operation::run_contiguous or
/// run_device_sized: kErrorMisalignedOperand means the driver refused a prototype map).
template <typename Launch>
GemmGroupedOutcome launched(Operation const *kernel, uint64_t bytes, int64_t count, GemmContext const &context,
                            bool execute, Launch &&launch) {
  GemmGroupedOutcome outcome;
  outcome.operation = kernel;
  outcome.workspace_bytes = size_t(bytes);
  if (!execute) return outcome;   // the plan, whatever the caller's workspace holds
  if (context.workspace_fixed && bytes > *context.workspace_size) {
    return failed(GemmFailure::kWorkspaceTooSmall, "the caller's workspace is smaller than the group table");
  }
  if (*context.workspace && reinterpret_cast<uintptr_t>(*context.workspace) % 256 != 0) {
    return failed(GemmFailure::kNoKernelFits, "the caller's workspace is not 256-byte aligned");
  }
  if (!ensure_workspace(context, size_t(bytes))) {
    return failed(GemmFailure::kAllocFailed, "the workspace could not grow (or the stream is being captured)");
  }
  workspace_overwritten(context);
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: device-sized grouped GEMM: %lld groups in one launch of %s\n",
                 (long long)count, kernel->description().name);
  }
  Status const status = launch(*context.workspace);
  if (status == Status::kErrorMisalignedOperand) {
    return failed(GemmFailure::kNoKernelFits, "the driver refused the call's tensor maps");
  }
  if (status != Status::kSuccess) return failed(GemmFailure::kLaunchFailed, "the grouped kernel's launch failed");
  return outcome;
}

/// The problem whose shape the prototype tensor maps of a device-sized call take (the kernels
/// replace every address, extent and stride): 128 x 128 x 128, every leading dimension 128, the
/// operands at a made-up 256-byte aligned address the driver only records; C only when read.
GemmCall device_sized_prototype(GemmCall c) {
  void *const address = reinterpret_cast<void *>(uintptr_t(256));
  c.m = c.n = c.k = 128;
  c.lda = c.ldb = c.ldc = c.ldd = 128;
  c.A = c.B = address;
  c.D = address;
  c.C = gemm_reads_c(c) ? address : nullptr;
  // an aux output is refused after the argument checks (NOT_SUPPORTED): its ldaux against the
  // groups' M is not this prototype's to judge
  if (c.epilogue.kind.element_aux != NumericTypeID::kInvalid && c.epilogue.ldaux >= 0) {
    c.epilogue.ldaux = std::max<int64_t>(c.epilogue.ldaux, 128);
  }
  return c;
}

bool aligned_to(void const *p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

}  // namespace

GemmGroupedOutcome check_device_sized_arguments(GemmGroupedDeviceCall const &call) {
  GemmCall const &c = call.shape;
  if (call.count < 0) return failed(GemmFailure::kInvalidValue, "the group count must be >= 0");
  if (call.max_n < 0) return failed(GemmFailure::kInvalidValue, "max_n must be >= 0 (0: unknown)");
  if (!c.alpha || !c.beta) return failed(GemmFailure::kInvalidValue, "alpha and beta must not be null");
  GroupedDeviceArrays const &a = call.arrays;
  if (call.count > 0) {
    void const *const arrays[] = {a.sizes, a.A, a.B, a.C, a.lda, a.ldb, a.ldc};
    for (void const *array : arrays) {
      if (!array) return failed(GemmFailure::kInvalidValue, "a per-group array is null");
      if (!device_readable(array)) {
        return failed(GemmFailure::kInvalidValue, "the per-group arrays must be in device-readable memory");
      }
    }
    if (!aligned_to(a.sizes, alignof(int)) || !aligned_to(a.A, alignof(void *)) || !aligned_to(a.B, alignof(void *)) ||
        !aligned_to(a.C, alignof(void *)) || !aligned_to(a.lda, alignof(int64_t)) ||
        !aligned_to(a.ldb, alignof(int64_t)) || !aligned_to(a.ldc, alignof(int64_t))) {
      return failed(GemmFailure::kInvalidValue, "a per-group array is not aligned to its element type");
    }
  }
  GemmOutcome const prototype = check_gemm_arguments(device_sized_prototype(c));   // the handle's epilogue and scales
  if (prototype.failure != GemmFailure::kNone) return failed(prototype.failure, prototype.detail);
  // the fused pieces a group takes as batch entry g (bias, alpha vector, activation); an aux
  // matrix's ldaux would have to cover every group's M, which only the device knows
  GemmEpilogueArguments const &e = c.epilogue;
  if (e.kind.element_aux != NumericTypeID::kInvalid || e.kind.scale_amax ||
      e.scale_a_mode != epilogue::OperandScaleMode::kScalar || e.scale_b_mode != epilogue::OperandScaleMode::kScalar ||
      e.accumulation != AccumulationMode::kFast) {
    return failed(GemmFailure::kNotSupported,
                  "no aux output, D scale / amax, vector or block scales, or precise accumulation");
  }
  if (c.layout_C != LayoutTypeID::kColumnMajor || c.layout_D != LayoutTypeID::kColumnMajor) {
    return failed(GemmFailure::kNotSupported, "C must be column-major");
  }
  if (call.count > INT_MAX / 2) return failed(GemmFailure::kNotSupported, "the group count must be <= 2^30 - 1");
  return {};
}

GemmGroupedOutcome check_contiguous_arguments(GemmContiguousCall const &call) {
  if (call.count < 0) return failed(GemmFailure::kInvalidValue, "the group count must be >= 0");
  if (call.stride_A < 0) return failed(GemmFailure::kInvalidValue, "strideA must be >= 0");
  if (call.shape.batch_count != 1) return failed(GemmFailure::kInvalidValue, "the packed problem has one batch");
  GemmOutcome const arguments = check_gemm_arguments(call.shape);
  if (arguments.failure == GemmFailure::kInvalidValue) return failed(arguments.failure, arguments.detail);
  GemmCall const &c = call.shape;
  if (call.count > 0 && operand_span_overflows(c.layout_A, c.m, c.k, c.lda, call.stride_A, call.count, c.element_A)) {
    return failed(GemmFailure::kInvalidValue, "the groups' A (strideA apart) span more than 2^63 bytes");
  }
  // the fused epilogue's per-row vectors over the groups: batch entries 0 .. count - 1 (per-column
  // vectors and aux follow the packed columns, one span: stride 0 here)
  GemmCall groups = c;
  groups.batch_count = std::max<int64_t>(call.count, 1);
  epilogue::VectorBroadcast const per_column = epilogue::VectorBroadcast::kPerColumn;
  if (groups.epilogue.bias_broadcast == per_column) groups.epilogue.batch_stride_bias = 0;
  if (groups.epilogue.alpha_vector_broadcast == per_column) groups.epilogue.batch_stride_alpha_vector = 0;
  groups.epilogue.batch_stride_aux = 0;
  GemmOutcome const spans = check_epilogue_arguments(groups);
  if (spans.failure == GemmFailure::kInvalidValue) return failed(spans.failure, spans.detail);
  if (call.count > 0) {
    if (call.offsets == nullptr) return failed(GemmFailure::kInvalidValue, "offsets is null");
    if (reinterpret_cast<uintptr_t>(call.offsets) % alignof(int) != 0) {
      return failed(GemmFailure::kInvalidValue, "offsets must be 4-byte aligned");
    }
    if (!device_readable(call.offsets)) {
      return failed(GemmFailure::kInvalidValue, "offsets must be in device-readable memory (not pageable host memory)");
    }
  }
  if (arguments.failure != GemmFailure::kNone) return failed(arguments.failure, arguments.detail);
  return {};
}

GemmGroupedOutcome gemm_grouped_contiguous(GemmContiguousCall const &call, GemmContext const &context, bool execute) {
  // 1. The packed problem's arguments as one call (group 0's A), then the grouped ones: every
  //    kInvalidValue first.
  GemmGroupedOutcome const checked = check_contiguous_arguments(call);
  if (checked.failure == GemmFailure::kInvalidValue) return checked;

  // 2. What this version does not offer (also when there is nothing to compute: what a single
  //    call of the packed problem would not take, then the grouped call's own), the quick
  //    returns, then what it does not offer for a non-empty call.
  GemmCall const &c = call.shape;
  GemmEpilogueArguments const &e = c.epilogue;
  if (e.kind.scale_amax || e.scale_a_mode != epilogue::OperandScaleMode::kScalar ||
      e.scale_b_mode != epilogue::OperandScaleMode::kScalar || e.accumulation != AccumulationMode::kFast) {
    return failed(GemmFailure::kNotSupported, "no D scale / amax, vector or block scales, or precise accumulation");
  }
  // what a single call of the packed problem would not take, but its 32-bit size limits: those
  // come after the quick returns (a call with nothing to compute is not refused for its sizes)
  bool const past_32_bits = c.m > INT_MAX || c.n > INT_MAX || c.k > INT_MAX;
  if (checked.failure != GemmFailure::kNone && !past_32_bits) return checked;
  if (call.count == 0 || c.m == 0 || c.n == 0) return {};   // nothing to compute or write
  if (checked.failure != GemmFailure::kNone) return checked;
  if (runs_scale_only(c)) {   // K == 0 or host alpha == 0: beta * C over columns only the device knows
    return failed(GemmFailure::kNotSupported, "K == 0 or alpha == 0 (C = beta * C over the groups' columns) is not offered");
  }
  if (c.layout_B != LayoutTypeID::kColumnMajor) {
    return failed(GemmFailure::kNotSupported, "B must be column-major (transb = N: K-major token columns)");
  }
  if (c.layout_C != LayoutTypeID::kColumnMajor || c.layout_D != LayoutTypeID::kColumnMajor) {
    return failed(GemmFailure::kNotSupported, "C and D must be column-major");
  }
  if (call.count > INT_MAX || c.m > INT_MAX || c.n > INT_MAX || c.k > INT_MAX) {
    return failed(GemmFailure::kNotSupported, "the group count, M, N and K must each fit in 32 bits");
  }

  // 3. The kernel, its workspace, the launch.
  if (context.compute_capability == 0) return failed(GemmFailure::kNoDevice, "no usable CUDA device");
  GemmUniversalArguments shape = arguments_of(c);
  shape.batch_stride_A = call.stride_A;
  if (!gemm_reads_c(c)) shape.C = nullptr;   // beta == 0: C is never read
  GemmFailure failure = GemmFailure::kNone;
  GemmUniversalArguments typical = shape;   // N / count columns per group (the host does not know the split)
  typical.problem_size = gemm::GemmCoord(shape.problem_size.m(), int((c.n + call.count - 1) / call.count),
                                         shape.problem_size.k());
  Operation const *kernel = device_sized_kernel(
      c, call.count, context, typical, shape, [&](Operation const *op) { return op->can_implement_contiguous(shape, int(call.count)); },
      &failure);
  if (!kernel) return failed(failure, "no grouped kernel of this build takes the call");
  return launched(kernel, kernel->get_contiguous_workspace_size(int(call.count)), call.count, context, execute,
                  [&](void *workspace) {
                    return kernel->run_contiguous(shape, call.offsets, int(call.count), workspace, context.stream);
                  });
}

GemmGroupedOutcome gemm_grouped_device(GemmGroupedDeviceCall const &call, GemmContext const &context, bool execute) {
  // 1. Every argument error, then what this version does not offer, then the quick return.
  GemmGroupedOutcome const checked = check_device_sized_arguments(call);
  if (checked.failure != GemmFailure::kNone) return checked;
  GemmCall const &c = call.shape;
  if (call.count == 0) return {};

  // 2. The kernel (ranked for groups of max_n columns, or large ones), its workspace, the launch.
  if (context.compute_capability == 0) return failed(GemmFailure::kNoDevice, "no usable CUDA device");
  GemmUniversalArguments const prototype = arguments_of(device_sized_prototype(c));
  GemmUniversalArguments typical = prototype;
  typical.problem_size = gemm::GemmCoord(4096, int(call.max_n > 0 ? std::min<int64_t>(call.max_n, INT_MAX) : 4096), 4096);
  GemmFailure failure = GemmFailure::kNone;
  Operation const *kernel = device_sized_kernel(
      c, call.count, context, typical, typical,
      [&](Operation const *op) { return op->can_implement_device_sized(prototype, int(call.count)); }, &failure);
  if (!kernel) return failed(failure, "no grouped kernel of this build takes the call");
  return launched(kernel, kernel->get_device_sized_workspace_size(int(call.count)), call.count, context, execute,
                  [&](void *workspace) {
                    return kernel->run_device_sized(prototype, call.arrays, int(call.count), workspace, context.stream);
                  });
}

}  // namespace library
}  // namespace cutlass
