/// @file src/library/gemm_call.cpp
/// Argument checks, quick returns and kernel selection for every GEMM entry point.
/// Read top to bottom: gemm_call() is the whole story.
#include "gemm_call.h"
#include "gemm_selection.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "route_cache.h"
#include "scale.h"
#include "split_k.h"
#include "staging.h"

namespace cutlass {
namespace library {

namespace {

bool is_matrix_layout(LayoutTypeID layout) {
  return layout == LayoutTypeID::kColumnMajor || layout == LayoutTypeID::kRowMajor;
}

/// The extent a leading dimension must cover: rows for column-major, columns for row-major.
int64_t leading_extent(LayoutTypeID layout, int64_t rows, int64_t columns) {
  return layout == LayoutTypeID::kColumnMajor ? rows : columns;
}

/// True when a rows x columns operand stored with leading dimension `ld`, `batch` of them
/// `batch_stride` elements apart, spans more than 2^63 - 1 bytes: no allocation is that large,
/// and the kernels' 64-bit address arithmetic would wrap. An empty operand spans nothing.
bool operand_span_overflows(LayoutTypeID layout, int64_t rows, int64_t columns, int64_t ld, int64_t batch_stride,
                            int64_t batch, NumericTypeID element) {
  if (rows == 0 || columns == 0) return false;
  int64_t const lines = layout == LayoutTypeID::kColumnMajor ? columns : rows;
  int64_t const contiguous = leading_extent(layout, rows, columns);
  int64_t last = 0, term = 0;   // index of the last element: (batch-1)*stride + (lines-1)*ld + contiguous-1
  if (__builtin_mul_overflow(batch - 1, batch_stride, &term) || __builtin_add_overflow(last, term, &last) ||
      __builtin_mul_overflow(lines - 1, ld, &term) || __builtin_add_overflow(last, term, &last) ||
      __builtin_add_overflow(last, contiguous, &last)) {
    return true;
  }
  int64_t const bits = std::max(sizeof_bits(element), 8);
  int64_t bytes = 0;
  return __builtin_mul_overflow(last, bits / 8, &bytes);
}

/// Value of a host scalar compared with `value`; false for scalar types without a fixed meaning.
bool host_scalar_equals(NumericTypeID type, void const *ptr, int value) {
  switch (type) {
    case NumericTypeID::kF32: return *static_cast<float const *>(ptr) == float(value);
    case NumericTypeID::kF64: return *static_cast<double const *>(ptr) == double(value);
    case NumericTypeID::kS32: return *static_cast<int32_t const *>(ptr) == value;
    default: return false;
  }
}

LayoutTypeID transposed(LayoutTypeID layout) {
  return layout == LayoutTypeID::kColumnMajor ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
}

GemmOutcome fail(GemmFailure failure, char const *detail) {
  GemmOutcome outcome;
  outcome.failure = failure;
  outcome.detail = detail;
  return outcome;
}

}  // namespace

bool runs_scale_only(GemmCall const &call) {
  bool const host_scalars = call.pointer_mode == ScalarPointerMode::kHost;
  return !call.epilogue.kind.fused() &&
         (call.k == 0 || (host_scalars && host_scalar_equals(call.element_scalar, call.alpha, 0)));
}

bool gemm_reads_c(GemmCall const &c) {
  return c.pointer_mode == ScalarPointerMode::kDevice || !host_scalar_equals(c.element_scalar, c.beta, 0);
}

/// The argument checks that read no pointer: sizes, layouts, leading dimensions, batch strides.
GemmOutcome check_gemm_shape(GemmCall const &c) {
  if (c.m < 0 || c.n < 0 || c.k < 0) return fail(GemmFailure::kInvalidValue, "M, N and K must be >= 0");
  if (c.batch_count < 1) return fail(GemmFailure::kInvalidValue, "batch_count must be >= 1");
  if (!is_matrix_layout(c.layout_A) || !is_matrix_layout(c.layout_B) || !is_matrix_layout(c.layout_C) ||
      !is_matrix_layout(c.layout_D)) {
    return fail(GemmFailure::kInvalidValue, "layouts must be column- or row-major");
  }
  if (c.lda < std::max<int64_t>(1, leading_extent(c.layout_A, c.m, c.k))) {
    return fail(GemmFailure::kInvalidValue, "lda is smaller than the leading extent of A");
  }
  if (c.ldb < std::max<int64_t>(1, leading_extent(c.layout_B, c.k, c.n))) {
    return fail(GemmFailure::kInvalidValue, "ldb is smaller than the leading extent of B");
  }
  if (c.ldc < std::max<int64_t>(1, leading_extent(c.layout_C, c.m, c.n))) {
    return fail(GemmFailure::kInvalidValue, "ldc is smaller than the leading extent of C");
  }
  if (c.ldd < std::max<int64_t>(1, leading_extent(c.layout_D, c.m, c.n))) {
    return fail(GemmFailure::kInvalidValue, "ldd is smaller than the leading extent of D");
  }
  if (c.batch_stride_A < 0 || c.batch_stride_B < 0 || c.batch_stride_C < 0 || c.batch_stride_D < 0) {
    return fail(GemmFailure::kInvalidValue, "batch strides must be >= 0");
  }
  int64_t const batch = c.batch_count;   // >= 1, checked above
  if (operand_span_overflows(c.layout_A, c.m, c.k, c.lda, c.batch_stride_A, batch, c.element_A) ||
      operand_span_overflows(c.layout_B, c.k, c.n, c.ldb, c.batch_stride_B, batch, c.element_B) ||
      operand_span_overflows(c.layout_C, c.m, c.n, c.ldc, c.batch_stride_C, batch, c.element_C) ||
      operand_span_overflows(c.layout_D, c.m, c.n, c.ldd, c.batch_stride_D, batch, c.element_D)) {
    return fail(GemmFailure::kInvalidValue,
                "an operand's leading dimension and batch stride span more than 2^63 bytes");
  }
  return {};
}

/// BLAS argument checks (reference BLAS xGEMM order, as DESIGN.md states them).
GemmOutcome check_gemm_arguments(GemmCall const &c) {
  using gemm::GemmUniversalMode;
  // INVALID_VALUE first (every check up to the epilogue's), then NOT_SUPPORTED: the order
  // handle.h and cutlass_lib.h document. Kinds of call no kernel offers (C and D differing in
  // layout or type, complex transforms) are the kernels' answer, after the device
  // (unoffered_call_kind, gemm_call).
  GemmOutcome const shape = check_gemm_shape(c);
  if (shape.failure != GemmFailure::kNone) return shape;
  if (!c.alpha || !c.beta) return fail(GemmFailure::kInvalidValue, "alpha and beta must not be null");
  bool const device_scalars = c.pointer_mode == ScalarPointerMode::kDevice;
  bool const output_nonempty = c.m > 0 && c.n > 0;
  bool const reads_ab = output_nonempty && c.k > 0 &&
                        (device_scalars || c.epilogue.kind.fused() || !host_scalar_equals(c.element_scalar, c.alpha, 0));
  if (reads_ab && (!c.A || !c.B)) return fail(GemmFailure::kInvalidValue, "A and B must not be null");
  if (output_nonempty && !c.D) return fail(GemmFailure::kInvalidValue, "D must not be null");
  bool const reads_c = gemm_reads_c(c);
  if (output_nonempty && reads_c && !c.C) return fail(GemmFailure::kInvalidValue, "C must not be null when beta != 0");
  if ((c.epilogue.scale_a_vector && !c.epilogue.scale_a) || (c.epilogue.scale_b_vector && !c.epilogue.scale_b)) {
    return fail(GemmFailure::kInvalidValue, "an outer-vector operand scale needs its vector");
  }
  GemmOutcome const epilogue = check_epilogue_arguments(c);   // its INVALID_VALUEs before any NOT_SUPPORTED below
  if (epilogue.failure != GemmFailure::kNone) return epilogue;
  if (c.mode != GemmUniversalMode::kGemm && c.mode != GemmUniversalMode::kBatched) {
    return fail(GemmFailure::kNotSupported, "only kGemm and kBatched modes are offered");
  }
  if (c.mode == GemmUniversalMode::kGemm && c.batch_count != 1) {
    return fail(GemmFailure::kNotSupported, "kGemm with batch_count > 1 (split-K) is not offered");
  }
  if (c.m > INT_MAX || c.n > INT_MAX || c.k > INT_MAX) {
    return fail(GemmFailure::kNotSupported, "M, N and K must each fit in 32 bits");
  }
  if (c.batch_count > 65535) return fail(GemmFailure::kNotSupported, "batch_count must be <= 65535");
  bool const fp8_operands = c.element_A == NumericTypeID::kFE4M3 || c.element_A == NumericTypeID::kFE5M2;
  if ((c.epilogue.scale_a || c.epilogue.scale_b) && !fp8_operands) {
    return fail(GemmFailure::kNotSupported, "operand scales (scale_a, scale_b) are for fp8 operands");
  }
  if (c.epilogue.kind.fused() && output_nonempty && c.k == 0) {
    return fail(GemmFailure::kNotSupported, "a fused epilogue needs K >= 1 (the kernels do not run empty products)");
  }
  return {};
}

/// The fused-epilogue operands (library.h, GemmEpilogueArguments, states the rules).
char const *epilogue_operands_error(GemmEpilogueArguments const &e, int64_t aux_extent, bool output_nonempty) {
  // NOTE: compared as integers, so a value cast from outside the enumerators is caught too.
  int const activation = int(e.kind.activation);
  if (activation < 0 || activation >= int(epilogue::ActivationKind::kInvalid)) {
    return "the epilogue's activation is invalid";
  }
  auto const broadcast_valid = [](epilogue::VectorBroadcast b) {
    return b == epilogue::VectorBroadcast::kPerRow || b == epilogue::VectorBroadcast::kPerColumn;
  };
  if ((e.kind.element_bias != NumericTypeID::kInvalid && !broadcast_valid(e.bias_broadcast)) ||
      (e.kind.alpha_vector && !broadcast_valid(e.alpha_vector_broadcast))) {
    return "the epilogue's bias or alpha-vector broadcast is neither per row nor per column";
  }
  if (output_nonempty && e.kind.element_bias != NumericTypeID::kInvalid && !e.bias) {
    return "the epilogue has a bias but the bias pointer is null";
  }
  if (output_nonempty && e.kind.alpha_vector && !e.alpha_vector) {
    return "the epilogue has an alpha vector but its pointer is null";
  }
  if (e.kind.element_aux != NumericTypeID::kInvalid) {
    if (output_nonempty && !e.aux) return "the epilogue has an aux output but its pointer is null";
    if (e.ldaux < std::max<int64_t>(1, aux_extent)) return "ldaux is smaller than the leading extent of D";
  }
  if (e.batch_stride_bias < 0 || e.batch_stride_alpha_vector < 0 || e.batch_stride_aux < 0) {
    return "epilogue batch strides must be >= 0";
  }
  if (e.kind.activation == epilogue::ActivationKind::kClamp && !(e.clamp_min <= e.clamp_max)) {
    return "clamp_min must be <= clamp_max";
  }
  return nullptr;
}

GemmOutcome check_epilogue_arguments(GemmCall const &c) {
  GemmEpilogueArguments const &e = c.epilogue;
  if (!e.kind.fused()) return {};
  bool const output_nonempty = c.m > 0 && c.n > 0;
  if (char const *why = epilogue_operands_error(e, leading_extent(c.layout_D, c.m, c.n), output_nonempty)) {
    return fail(GemmFailure::kInvalidValue, why);
  }
  int64_t const batch = c.batch_count > 0 ? c.batch_count : 1;
  if (e.kind.element_aux != NumericTypeID::kInvalid &&
      operand_span_overflows(c.layout_D, c.m, c.n, e.ldaux, e.batch_stride_aux, batch, e.kind.element_aux)) {
    return fail(GemmFailure::kInvalidValue, "the aux output's ldaux and batch stride span more than 2^63 bytes");
  }
  // the bias and alpha vectors: M (per row) or N (per column) values per batch, batch_stride
  // apart; nothing is read when D is empty
  auto const vector_overflows = [&](epilogue::VectorBroadcast broadcast, int64_t batch_stride, NumericTypeID element) {
    int64_t const length = !output_nonempty ? 0 : broadcast == epilogue::VectorBroadcast::kPerRow ? c.m : c.n;
    return operand_span_overflows(LayoutTypeID::kColumnMajor, length, 1, length, batch_stride, batch, element);
  };
  if ((e.kind.element_bias != NumericTypeID::kInvalid &&
       vector_overflows(e.bias_broadcast, e.batch_stride_bias, e.kind.element_bias)) ||
      (e.kind.alpha_vector &&
       vector_overflows(e.alpha_vector_broadcast, e.batch_stride_alpha_vector, NumericTypeID::kF32))) {
    return fail(GemmFailure::kInvalidValue, "the bias or alpha vector's batch stride spans more than 2^63 bytes");
  }
  return {};
}

/// A row-major C/D problem as the column-major one the kernels compute: D^T = B^T * A^T.
GemmCall to_column_major_output(GemmCall c) {
  if (c.layout_C == LayoutTypeID::kColumnMajor) return c;
  GemmCall t = c;
  t.m = c.n;
  t.n = c.m;
  t.element_A = c.element_B;
  t.layout_A = transposed(c.layout_B);
  t.A = c.B;
  t.lda = c.ldb;
  t.batch_stride_A = c.batch_stride_B;
  t.element_B = c.element_A;
  t.layout_B = transposed(c.layout_A);
  t.B = c.A;
  t.ldb = c.lda;
  t.batch_stride_B = c.batch_stride_A;
  t.layout_C = t.layout_D = LayoutTypeID::kColumnMajor;
  // Rows of D^T are columns of D: the vectors change their broadcast; aux (D's layout) transposes with D.
  t.epilogue.bias_broadcast = epilogue::transposed(c.epilogue.bias_broadcast);
  t.epilogue.alpha_vector_broadcast = epilogue::transposed(c.epilogue.alpha_vector_broadcast);
  // A and B trade places, and so do their scales (an outer vector of A follows the rows of D)
  t.epilogue.scale_a = c.epilogue.scale_b;
  t.epilogue.scale_b = c.epilogue.scale_a;
  t.epilogue.scale_a_vector = c.epilogue.scale_b_vector;
  t.epilogue.scale_b_vector = c.epilogue.scale_a_vector;
  t.epilogue.rows = c.epilogue.columns;
  t.epilogue.columns = c.epilogue.rows;
  return t;
}

GemmFunctionalKey functional_key(GemmCall const &c) {
  GemmFunctionalKey key;
  key.element_compute = c.element_compute;
  key.element_scalar = c.element_scalar;
  key.element_A = c.element_A;
  key.layout_A = c.layout_A;
  key.element_B = c.element_B;
  key.layout_B = c.layout_B;
  key.element_C = c.element_C;
  key.layout_C = LayoutTypeID::kColumnMajor;
  key.element_D = c.element_D;
  key.layout_D = LayoutTypeID::kColumnMajor;
  key.epilogue = c.epilogue.kind;
  return key;
}

namespace {

/// D = beta * C for K == 0 or alpha == 0 (column-major call).
GemmOutcome scale_only(GemmCall const &c, GemmContext const &context, bool execute) {
  if (!execute) return {};
  ScaleArguments s;
  s.element = c.element_C;
  s.element_scalar = c.element_scalar;
  s.m = c.m;
  s.n = c.n;
  s.batch_count = c.batch_count;
  s.beta = c.beta;
  s.beta_on_device = c.pointer_mode == ScalarPointerMode::kDevice;
  s.C = c.C;
  s.ldc = c.ldc;
  s.batch_stride_C = c.batch_stride_C;
  s.D = c.D;
  s.ldd = c.ldd;
  s.batch_stride_D = c.batch_stride_D;
  if (!launch_scale(s, context.stream)) return fail(GemmFailure::kLaunchFailed, "the D = beta*C kernel failed to launch");
  return {};
}

/// Kinds of call no kernel offers, answered like a missing kernel (NO_KERNEL, which the handle
/// reports as kErrorNotSupported): C and D of different layouts or types, complex transforms.
GemmOutcome unoffered_call_kind(GemmCall const &c) {
  if (c.layout_C != c.layout_D) return fail(GemmFailure::kNoKernel, "C and D must have the same layout");
  if (c.element_C != c.element_D) return fail(GemmFailure::kNoKernel, "C and D must have the same type");
  if (c.transform_A != ComplexTransform::kNone || c.transform_B != ComplexTransform::kNone) {
    return fail(GemmFailure::kNoKernel, "complex transforms are not offered (real types only)");
  }
  return {};
}

/// A workspace address for planning only (sizes and alignment; nothing is written there).
void *const kNominalWorkspace = reinterpret_cast<void *>(uintptr_t(1) << 24);

size_t round_up_256(size_t bytes) { return (bytes + 255) / 256 * 256; }

/// Steps 4-6 of a call (gemm_call): the kernel for the problem (select_kernel: estimated time,
/// then wave cost, then preference order); the packing route (staging.h) when the most
/// preferred kernel refuses the call's alignment and the best kernel on aligned copies, with the
/// copies' cost, beats the kernel that fits the originals (always when none does); then the
/// split-K route (split_k.h) when the cost model says slices of K and a reduction win. No kernel:
/// route.kernel is null and `any_for_device` tells a misfit from an architecture mismatch.
Route choose_route(GemmCall const &call, GemmOperationVector const &candidates, GemmContext const &context,
                   bool *any_for_device) {
  int const cc = context.compute_capability;
  Route route;
  route.kernel = select_kernel(candidates, call, cc, context.sm_count, true, any_for_device);
  Operation const *preferred = first_for_device(candidates, cc);
  if (preferred && (!route.kernel || (gemm_description(route.kernel).max_small_extent == 0 &&
                                      !same_group(gemm_description(route.kernel), gemm_description(preferred))))) {
    StagingPlan plan;
    bool any = false;
    if (plan_staging(call, gemm_description(preferred), kNominalWorkspace, &plan)) {
      Operation const *on_copies = select_kernel(candidates, plan.staged, cc, context.sm_count, true, &any);
      if (on_copies &&
          (!route.kernel || estimated_time(gemm_description(on_copies), plan.staged, context.sm_count) +
                                    estimated_staging_time(plan.workspace_bytes, staging_copies(plan)) <
                                estimated_time(gemm_description(route.kernel), call, context.sm_count))) {
        route.kernel = on_copies;
        route.preferred = preferred;
        route.staged = true;
      }
    }
  }
  if (!route.kernel || route.staged) return route;
  SplitKPlan split;
  Operation const *sliced_kernel = nullptr;
  if (choose_split_k(call, route.kernel, cc, context.sm_count, true, kNominalWorkspace, &split, &sliced_kernel)) {
    route.kernel = sliced_kernel;
    route.splits = split.splits;
  }
  return route;
}

}  // namespace

bool ensure_workspace(GemmContext const &context, size_t bytes) {
  if (bytes <= *context.workspace_size) return true;
  if (*context.workspace) {
    cudaStreamSynchronize(context.stream);   // in-flight kernels may still use the old workspace
    cudaFree(*context.workspace);
    *context.workspace = nullptr;
    *context.workspace_size = 0;
  }
  if (cudaMalloc(context.workspace, bytes) != cudaSuccess) {
    cudaGetLastError();
    *context.workspace = nullptr;
    return false;
  }
  *context.workspace_size = bytes;
  return true;
}

Status to_status(GemmFailure failure) {
  switch (failure) {
    case GemmFailure::kNone: return Status::kSuccess;
    case GemmFailure::kInvalidValue: return Status::kErrorInvalidProblem;
    case GemmFailure::kNotSupported: return Status::kErrorNotSupported;
    case GemmFailure::kNoDevice: return Status::kErrorArchMismatch;
    case GemmFailure::kNoKernel: return Status::kErrorNotSupported;
    case GemmFailure::kArchMismatch: return Status::kErrorArchMismatch;
    case GemmFailure::kNoKernelFits: return Status::kErrorMisalignedOperand;
    case GemmFailure::kAllocFailed: return Status::kErrorMemoryAllocation;
    case GemmFailure::kWorkspaceTooSmall: return Status::kErrorWorkspaceNull;
    case GemmFailure::kLaunchFailed: return Status::kErrorInternal;
  }
  return Status::kErrorInternal;
}

GemmOutcome gemm_call(GemmCall const &user_call, GemmContext const &context, bool execute) {
  // 1. BLAS argument checks, before anything else.
  GemmOutcome checked = check_gemm_arguments(user_call);
  if (checked.failure != GemmFailure::kNone) return checked;
  if (context.compute_capability == 0) return fail(GemmFailure::kNoDevice, "no usable CUDA device");
  GemmOutcome const unoffered = unoffered_call_kind(user_call);
  if (unoffered.failure != GemmFailure::kNone) return unoffered;

  // 2. Kernels for these types, layouts and epilogue (row-major C/D computed transposed). The
  //    epilogue's extents are the user's, even when the kernel later runs on a padded copy.
  GemmCall call = to_column_major_output(user_call);
  call.epilogue.rows = int(call.m);
  call.epilogue.columns = int(call.n);
  GemmOperationVector const *candidates = Singleton::get().operation_table.find_gemm(functional_key(call));
  if (!candidates) return fail(GemmFailure::kNoKernel, "no kernel in this build for these types and layouts");

  // 3. Quick returns: empty output, or nothing to multiply. D = beta*C runs the library's own
  //    kernel, built for the same architectures as the GEMM kernels: on a device none of the
  //    call's kernels runs on, it is the same arch mismatch a full call gets, not a failed launch.
  //    has_code catches the devices inside a kernel's [minimum, maximum] that no built SASS runs
  //    on (e.g. 9.0 for "80;100"), which selection alone would call misaligned.
  if (call.m == 0 || call.n == 0) return {};
  if (!context.has_code) {
    return fail(GemmFailure::kArchMismatch, "this build has no code for the device (CUTLASS_NVCC_ARCHS leaves it out)");
  }
  int const cc = context.compute_capability;
  if (runs_scale_only(call)) {   // a fused epilogue always runs its kernel (K >= 1 checked)
    if (!first_for_device(*candidates, cc)) {
      return fail(GemmFailure::kArchMismatch, "no kernel for this device's compute capability");
    }
    return scale_only(call, context, execute);
  }

  // 4-6. The kernel and its route (choose_route), remembered per handle (route_cache.h); the
  //      plans are rebuilt on this call's pointers, on a nominal workspace for sizing.
  Route route;
  bool const remember = context.routes && !selection_log_enabled();
  std::string const key = remember ? route_key(call, cc, context.sm_count) : std::string();
  if (!remember || !context.routes->find(key, &route)) {
    bool any_for_device = false;
    route = choose_route(call, *candidates, context, &any_for_device);
    if (!route.kernel) {
      return any_for_device ? fail(GemmFailure::kNoKernelFits, "no kernel accepts this alignment or problem")
                            : fail(GemmFailure::kArchMismatch, "no kernel for this device's compute capability");
    }
    if (remember) context.routes->insert(key, route);
  }
  Operation const *const chosen = route.kernel;
  bool const staged = route.staged, split_k = route.splits > 0;
  StagingPlan plan;
  SplitKPlan split;
  if ((staged && !plan_staging(call, gemm_description(route.preferred), kNominalWorkspace, &plan)) ||
      (split_k && !plan_split_k(call, route.splits, kNominalWorkspace, &split))) {
    return fail(GemmFailure::kLaunchFailed, "a remembered route's plan no longer applies");
  }
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: %lldx%lldx%lld batch %lld -> %s%s\n", (long long)call.m, (long long)call.n,
                 (long long)call.k, (long long)call.batch_count, chosen->description().name,
                 staged ? " (on aligned copies of misaligned operands)" : split_k ? " (split-K)" : "");
  }
  // 7. Workspace (grown on demand: staging copies or split-K partials, then the kernel's own),
  //    then launch.
  GemmOutcome outcome;
  outcome.operation = chosen;
  size_t const route_bytes = staged ? plan.workspace_bytes : split_k ? round_up_256(split.workspace_bytes) : 0;
  // the call the kernel runs: the route's plan (re-planned on the real workspace below) or the call
  GemmCall const &kernel_call = staged ? plan.staged : split_k ? split.sliced : call;
  GemmUniversalConfiguration const configuration = configuration_of(kernel_call);
  size_t const kernel_workspace_bytes = chosen->get_device_workspace_size(configuration, arguments_of(kernel_call));
  outcome.workspace_bytes = route_bytes + kernel_workspace_bytes;
  if (!execute) return outcome;
  if (context.workspace_fixed && outcome.workspace_bytes > *context.workspace_size) {
    GemmOutcome too_small = fail(GemmFailure::kWorkspaceTooSmall, "the caller's workspace is smaller than the call needs");
    too_small.operation = chosen;
    too_small.workspace_bytes = outcome.workspace_bytes;
    return too_small;
  }
  if (!ensure_workspace(context, outcome.workspace_bytes)) {
    return fail(GemmFailure::kAllocFailed, "workspace allocation failed");
  }
  // the same plan on the real workspace: planned for the preferred kernel's alignment, as above
  if (staged && !plan_staging(call, gemm_description(route.preferred), *context.workspace, &plan)) {
    return fail(GemmFailure::kLaunchFailed, "the staging plan changed between sizing and launch");
  }
  if (split_k && !plan_split_k(call, split.splits, *context.workspace, &split)) {
    return fail(GemmFailure::kLaunchFailed, "the split-K plan changed between sizing and launch");
  }
  GemmUniversalArguments const arguments = arguments_of(kernel_call);
  void *const kernel_workspace = static_cast<char *>(*context.workspace) + route_bytes;
  std::vector<uint8_t> host_workspace(chosen->get_host_workspace_size(configuration));
  float *const amax = call.epilogue.kind.fused() && call.epilogue.kind.scale_amax ? call.epilogue.amax : nullptr;
  if ((staged && !stage_in(plan, call, context.stream)) ||
      (amax && cudaMemsetAsync(amax, 0, sizeof(float), context.stream) != cudaSuccess) ||
      chosen->initialize(configuration, host_workspace.data(), kernel_workspace, context.stream) != Status::kSuccess ||
      chosen->run(arguments, host_workspace.data(), kernel_workspace, context.stream) != Status::kSuccess ||
      (staged && !stage_out(plan, call, context.stream)) ||
      (split_k && !reduce_split_k(split, call, context.stream))) {
    outcome.failure = GemmFailure::kLaunchFailed;
    outcome.detail = "the kernel, a staging copy or the split-K reduction failed to launch";
  }
  return outcome;
}

}  // namespace library
}  // namespace cutlass
