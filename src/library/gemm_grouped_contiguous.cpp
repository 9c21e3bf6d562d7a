/// @file src/library/gemm_grouped_contiguous.cpp
/// The contiguous grouped GEMM (gemm_grouped.h, GemmContiguousCall): a mixture-of-experts layer
/// whose token counts live on the device, as one grouped-kernel launch the host never sizes.
/// Read top to bottom: check the packed problem, choose the grouped kernel, run it.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime_api.h>

#include "cutlass/library/singleton.h"
#include "gemm_grouped.h"
#include "gemm_selection.h"

namespace cutlass {
namespace library {

namespace {

GemmGroupedOutcome failed(GemmFailure failure, char const *detail) {
  GemmGroupedOutcome outcome;
  outcome.failure = failure;
  outcome.detail = detail;
  if (selection_log_enabled()) std::fprintf(stderr, "cutlass_lib: contiguous grouped GEMM: %s\n", detail);
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

/// The grouped kernels of the call's types and layouts, by estimated time for `count` groups of
/// N / count columns each (the host does not know the split), the first that takes the shape. A
/// kernel's tile must fit any split (grouped_tile_fits of one group owning all N columns): the
/// token tile only serves layers of at most 64 tokens in all (s19: ranked by the average alone,
/// it took 64 experts of 2048 x 7168 over 4096 skewed tokens at 1.66x the 128x128 tile's time).
Operation const *contiguous_kernel(GemmContiguousCall const &call, GemmContext const &context,
                                   GemmUniversalArguments const &shape, GemmFailure *failure) {
  GemmFunctionalKey key = functional_key(call.shape);
  key.gemm_kind = GemmKind::kGrouped;
  GemmOperationVector const *kernels = Singleton::get().operation_table.find_gemm(key);
  if (!kernels) {
    *failure = GemmFailure::kNoKernel;
    return nullptr;
  }
  GemmUniversalArguments typical = shape;
  typical.problem_size = gemm::GemmCoord(shape.problem_size.m(),
                                         int((call.shape.n + call.count - 1) / call.count), shape.problem_size.k());
  std::vector<GemmUniversalArguments> const problems(size_t(std::min<int64_t>(call.count, 4096)), typical);
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
    if (!grouped_tile_fits(desc, &shape, 1)) continue;
    ranked.push_back({grouped_rank(desc, problems.data(), int(problems.size()), context.sm_count), op});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](auto const &a, auto const &b) { return a.first < b.first; });
  for (auto const &[time, op] : ranked) {
    Status const status = op->can_implement_contiguous(shape, int(call.count));
    if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   contiguous grouped %s: estimated %.1f us%s%s\n", op->description().name,
                   time, status == Status::kSuccess ? "" : ", refused: ",
                   status == Status::kSuccess ? "" : cutlassGetStatusString(status));
    }
    if (status == Status::kSuccess) return op;
  }
  *failure = any_for_device ? GemmFailure::kNoKernelFits : GemmFailure::kArchMismatch;
  return nullptr;
}

}  // namespace

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
  //    kInvalidValue now, its sizes past 32 bits after the quick returns below.
  GemmGroupedOutcome const checked = check_contiguous_arguments(call);
  if (checked.failure == GemmFailure::kInvalidValue) return checked;

  // 2. What this version does not offer (also when there is nothing to compute), the quick
  //    returns, then what it does not offer for a non-empty call.
  GemmCall const &c = call.shape;
  GemmEpilogueArguments const &e = c.epilogue;
  if (e.kind.scale_amax || e.scale_a_mode != epilogue::OperandScaleMode::kScalar ||
      e.scale_b_mode != epilogue::OperandScaleMode::kScalar || e.accumulation != AccumulationMode::kFast) {
    return failed(GemmFailure::kNotSupported, "no D scale / amax, vector or block scales, or precise accumulation");
  }
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
  Operation const *kernel = contiguous_kernel(call, context, shape, &failure);
  if (!kernel) return failed(failure, "no grouped kernel of this build takes the call");
  size_t const bytes = size_t(kernel->get_contiguous_workspace_size(int(call.count)));
  GemmGroupedOutcome outcome;
  outcome.operation = kernel;
  outcome.workspace_bytes = bytes;
  if (!execute) return outcome;   // the plan, whatever the caller's workspace holds
  if (context.workspace_fixed && bytes > *context.workspace_size) {
    return failed(GemmFailure::kWorkspaceTooSmall, "the caller's workspace is smaller than the group table");
  }
  if (*context.workspace && reinterpret_cast<uintptr_t>(*context.workspace) % 256 != 0) {
    return failed(GemmFailure::kNoKernelFits, "the caller's workspace is not 256-byte aligned");
  }
  if (!ensure_workspace(context, bytes)) {
    return failed(GemmFailure::kAllocFailed, "the workspace could not grow (or the stream is being captured)");
  }
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: contiguous grouped GEMM: %lld groups in one launch of %s\n",
                 (long long)call.count, kernel->description().name);
  }
  Status const launched = kernel->run_contiguous(shape, call.offsets, int(call.count), *context.workspace, context.stream);
  if (launched == Status::kErrorMisalignedOperand) {
    return failed(GemmFailure::kNoKernelFits, "the driver refused the packed problem's tensor maps");
  }
  if (launched != Status::kSuccess) return failed(GemmFailure::kLaunchFailed, "the grouped kernel's launch failed");
  return outcome;
}

}  // namespace library
}  // namespace cutlass
