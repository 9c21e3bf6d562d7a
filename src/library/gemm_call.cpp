/// @file src/library/gemm_call.cpp
/// Argument checks, quick returns and kernel selection for every GEMM entry point.
/// Read top to bottom: gemm_call() is the whole story.
#include "gemm_call.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "scale.h"
#include "staging.h"

namespace cutlass {
namespace library {

namespace {

bool log_enabled() {
  static bool const enabled = [] {
    char const *v = std::getenv("CUTLASS_LIB_LOG");
    return v && v[0] && v[0] != '0';
  }();
  return enabled;
}

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

int max_alignment(GemmDescription const &d) { return std::max(d.A.alignment, std::max(d.B.alignment, d.C.alignment)); }

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

bool gemm_reads_c(GemmCall const &c) {
  return c.pointer_mode == ScalarPointerMode::kDevice || !host_scalar_equals(c.element_scalar, c.beta, 0);
}

/// BLAS argument checks (reference BLAS xGEMM order, as DESIGN.md states them).
GemmOutcome check_gemm_arguments(GemmCall const &c) {
  using gemm::GemmUniversalMode;
  // INVALID_VALUE first (every check up to the epilogue's), then NOT_SUPPORTED: the order
  // handle.h and cutlass_lib.h document. Kinds of call no kernel offers (C and D differing in
  // layout or type, complex transforms) are the kernels' answer, after the device
  // (unoffered_call_kind, gemm_call).
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
  if (!c.alpha || !c.beta) return fail(GemmFailure::kInvalidValue, "alpha and beta must not be null");
  bool const device_scalars = c.pointer_mode == ScalarPointerMode::kDevice;
  bool const output_nonempty = c.m > 0 && c.n > 0;
  bool const reads_ab = output_nonempty && c.k > 0 &&
                        (device_scalars || c.epilogue.kind.fused() || !host_scalar_equals(c.element_scalar, c.alpha, 0));
  if (reads_ab && (!c.A || !c.B)) return fail(GemmFailure::kInvalidValue, "A and B must not be null");
  if (output_nonempty && !c.D) return fail(GemmFailure::kInvalidValue, "D must not be null");
  bool const reads_c = gemm_reads_c(c);
  if (output_nonempty && reads_c && !c.C) return fail(GemmFailure::kInvalidValue, "C must not be null when beta != 0");
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
  t.epilogue.rows = c.epilogue.columns;
  t.epilogue.columns = c.epilogue.rows;
  return t;
}

int operand_alignment(NumericTypeID element, void const *ptr, int64_t ld, int64_t batch_stride, int64_t batch_count,
                      int64_t contiguous_extent) {
  int const bits = sizeof_bits(element);
  if (bits < 8) return 1;
  int const bytes = bits / 8;
  int alignment = 16 / bytes;   // 16-byte vector accesses at most
  if (alignment < 1) return 1;
  auto const address = reinterpret_cast<uintptr_t>(ptr);
  while (alignment > 1) {
    bool const fits = address % (uintptr_t(alignment) * bytes) == 0 && ld % alignment == 0 &&
                      (batch_count <= 1 || batch_stride % alignment == 0) && contiguous_extent % alignment == 0;
    if (fits) break;
    alignment /= 2;
  }
  return alignment;
}

bool description_fits(GemmDescription const &d, GemmCall const &c, int cc, char const **why) {
  TileDescription const &tile = d.tile_description;
  if (cc < tile.minimum_compute_capability || cc > tile.maximum_compute_capability) {
    *why = "compute capability";
    return false;
  }
  int64_t const extent_A = leading_extent(c.layout_A, c.m, c.k);
  int64_t const extent_B = leading_extent(c.layout_B, c.k, c.n);
  if (operand_alignment(c.element_A, c.A, c.lda, c.batch_stride_A, c.batch_count, extent_A) < d.A.alignment) {
    *why = "alignment of A";
    return false;
  }
  if (operand_alignment(c.element_B, c.B, c.ldb, c.batch_stride_B, c.batch_count, extent_B) < d.B.alignment) {
    *why = "alignment of B";
    return false;
  }
  if (operand_alignment(c.element_C, c.C, c.ldc, c.batch_stride_C, c.batch_count, c.m) < d.C.alignment ||
      operand_alignment(c.element_D, c.D, c.ldd, c.batch_stride_D, c.batch_count, c.m) < d.D.alignment) {
    *why = "alignment of C/D";
    return false;
  }
  return true;
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

GemmUniversalConfiguration configuration_of(GemmCall const &c) {
  GemmUniversalConfiguration cfg;
  cfg.mode = c.mode;
  cfg.problem_size = gemm::GemmCoord(int(c.m), int(c.n), int(c.k));
  cfg.batch_count = int(c.batch_count);
  cfg.lda = c.lda;
  cfg.ldb = c.ldb;
  cfg.ldc = c.ldc;
  cfg.ldd = c.ldd;
  return cfg;
}

GemmUniversalArguments arguments_of(GemmCall const &c) {
  GemmUniversalArguments args;
  args.problem_size = gemm::GemmCoord(int(c.m), int(c.n), int(c.k));
  args.batch_count = int(c.batch_count);
  args.A = c.A;
  args.B = c.B;
  args.C = c.C;
  args.D = c.D;
  args.alpha = c.alpha;
  args.beta = c.beta;
  args.pointer_mode = c.pointer_mode;
  args.lda = c.lda;
  args.ldb = c.ldb;
  args.ldc = c.ldc;
  args.ldd = c.ldd;
  args.batch_stride_A = c.batch_stride_A;
  args.batch_stride_B = c.batch_stride_B;
  args.batch_stride_C = c.batch_stride_C;
  args.batch_stride_D = c.batch_stride_D;
  args.epilogue = c.epilogue;
  return args;
}

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

/// The most preferred kernel that runs on this compute capability, whatever the alignment.
Operation const *first_for_device(GemmOperationVector const &candidates, int cc) {
  for (Operation const *op : candidates) {
    TileDescription const &tile = op->description().tile_description;
    if (cc >= tile.minimum_compute_capability && cc <= tile.maximum_compute_capability) return op;
  }
  return nullptr;
}

/// Staging copies cost a few microseconds of launches and one pass over the operands; below
/// about 2^27 multiply-adds (512^3) the slower kernel on the original operands wins.
bool worth_staging(GemmCall const &c) { return double(c.m) * double(c.n) * double(c.k) * double(c.batch_count) >= double(1 << 27); }

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

}  // namespace

/// Time of a stream-K tile's share relative to the same share of a whole tile. From the H200
/// (docs/NOTES.md, 2026-11-29 s4), bf16 TN 128x128 ping-pong stream-K vs persistent, each
/// interleaved with cuBLAS: the split share cost 1.0-1.9x (two runs of 4096x14336x4096 and
/// 8192^3 disagreed by 3-6%), 1.4x at 4096^3 and 2048^3, and at 8192^3 in four layouts and at
/// 16384^3 stream-K measured 1-6% slower; it won only with few tiles and a long K (128 x 4096 x
/// 14336: 32 tiles, +2.5%). ncu at 2048^3: the consumers wait for TMA data (L2 throughput 67%
/// vs 56%), not for the partial sums. 2.0 keeps the persistent kernels for every large shape
/// measured and leaves stream-K the problems with far fewer tiles than SMs. Re-measured with the
/// 32-bit walker (s6, 15 shapes, 3 passes): stream-K won 1.5% at 8192^3 and 4096x14336x4096 but
/// lost 1.6% at 8192x8192x28672, 1.0% at 8192x28672x8192 and 0.5% at 16384^3; no constant factor
/// (nor one per K) picks all of them right, and 2.0 is wrong only by the 1.5% wins, so it stays.
constexpr double kStreamKOverhead = 2.0;

/// And a fixed cost per split run, in k-blocks of the kernel's tile: the partial store, the flag
/// hand-off, the sum and the pipeline fill of a short run (1024^3, 16 k-blocks split into runs
/// of 8: stream-K took 1.25x the persistent kernel's time, where the per-share factor alone
/// predicts 1.0x).
constexpr double kStreamKFixedBlocks = 8.0;

double wave_cost(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  auto const &tile = desc.tile_description.threadblock_shape;
  double const m_tiles = std::ceil(double(call.m) / tile.m());
  double const n_tiles = std::ceil(double(call.n) / tile.n());
  double const tiles = m_tiles * n_tiles * double(call.batch_count);
  double waves = sm_count > 0 ? std::ceil(tiles / sm_count) : 1.0;
  if (desc.tile_description.tile_scheduler == TileSchedulerType::kStreamK && sm_count > 0 && tiles < double(1 << 30)) {
    // The kernel's own split (Sm90StreamKScheduler): whole waves, then the split tiles' share
    // per CTA, which costs kStreamKOverhead for the partial sums' round trip through memory.
    auto const split = cutlass::gemm::kernel::Sm90StreamKScheduler::make(
        int(m_tiles), int(n_tiles), int(call.batch_count), int(std::ceil(double(call.k) / tile.k())), sm_count);
    if (split.sk_tiles > 0) {
      waves = double(split.dp_tiles()) / split.grid + kStreamKOverhead * double(split.sk_tiles) / split.grid +
              kStreamKFixedBlocks / split.tiles.k_tiles;
    }
  }
  double const area = double(tile.m()) * tile.n();
  // NOTE: a tile smaller than 128x128 feeds the tensor cores less well per unit of area: on the
  // H200 the 64x128 sm90 tile ran at 0.73-0.88 of the 128x128 tile's speed on large problems
  // (docs/NOTES.md), so its time per tile counts as area / 0.8.
  double const efficiency = area >= 128.0 * 128.0 ? 1.0 : 0.8;
  return waves * area / efficiency;
}

namespace {

/// Kernels of one group share the minimum compute capability and the alignment.
bool same_group(GemmDescription const &a, GemmDescription const &b) {
  return a.tile_description.minimum_compute_capability == b.tile_description.minimum_compute_capability &&
         max_alignment(a) == max_alignment(b);
}

GemmDescription const &gemm_description(Operation const *op) {
  return static_cast<GemmDescription const &>(op->description());
}

}  // namespace

Operation const *select_kernel(GemmOperationVector const &candidates, GemmCall const &call, int cc, int sm_count,
                               bool ask_kernel, bool *any_for_device) {
  *any_for_device = false;
  std::vector<Operation const *> fits;
  for (Operation const *op : candidates) {
    char const *why = "";
    if (description_fits(gemm_description(op), call, cc, &why)) {
      fits.push_back(op);
    } else if (log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   skip %s: %s\n", op->description().name, why);
    }
    *any_for_device = *any_for_device || std::strcmp(why, "compute capability") != 0;
  }
  if (fits.empty()) return nullptr;
  // The first fit's group, cheapest first (stable: ties keep preference order), then the rest.
  GemmDescription const &lead = gemm_description(fits.front());
  auto const group_end = std::stable_partition(
      fits.begin(), fits.end(), [&](Operation const *op) { return same_group(gemm_description(op), lead); });
  std::stable_sort(fits.begin(), group_end, [&](Operation const *a, Operation const *b) {
    return wave_cost(gemm_description(a), call, sm_count) < wave_cost(gemm_description(b), call, sm_count);
  });
  if (!ask_kernel) return fits.front();
  GemmUniversalConfiguration const configuration = configuration_of(call);
  GemmUniversalArguments const arguments = arguments_of(call);
  for (Operation const *op : fits) {
    Status status = op->can_implement(configuration, arguments);
    if (status == Status::kSuccess) return op;
    if (log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   skip %s: %s\n", op->description().name, cutlassGetStatusString(status));
    }
  }
  return nullptr;
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
  bool const host_scalars = call.pointer_mode == ScalarPointerMode::kHost;
  bool const fused = call.epilogue.kind.fused();   // a fused epilogue always runs its kernel (K >= 1 checked)
  if (!fused && (call.k == 0 || (host_scalars && host_scalar_equals(call.element_scalar, call.alpha, 0)))) {
    if (!first_for_device(*candidates, cc)) {
      return fail(GemmFailure::kArchMismatch, "no kernel for this device's compute capability");
    }
    return scale_only(call, context, execute);
  }

  // 4. The kernel for the problem (select_kernel: preference order, wave cost inside a group).
  bool any_for_device = false;
  Operation const *chosen = select_kernel(*candidates, call, cc, context.sm_count, true, &any_for_device);

  // 5. The packing route (staging.h): when the most preferred group refused the problem for
  //    alignment, run it on aligned copies in the workspace: always when nothing else fits,
  //    otherwise when the problem is large enough for the copies to pay.
  StagingPlan plan;
  bool staged = false;
  Operation const *preferred = first_for_device(*candidates, cc);
  if (preferred &&
      (!chosen || (!same_group(gemm_description(chosen), gemm_description(preferred)) && worth_staging(call)))) {
    void *const nominal_workspace = reinterpret_cast<void *>(uintptr_t(1) << 24);   // planning only
    bool any = false;
    if (plan_staging(call, gemm_description(preferred), nominal_workspace, &plan)) {
      Operation const *on_copies = select_kernel(*candidates, plan.staged, cc, context.sm_count, true, &any);
      if (on_copies && same_group(gemm_description(on_copies), gemm_description(preferred))) {
        chosen = on_copies;
        staged = true;
      }
    }
  }
  if (!chosen) {
    return any_for_device ? fail(GemmFailure::kNoKernelFits, "no kernel accepts this alignment or problem")
                          : fail(GemmFailure::kArchMismatch, "no kernel for this device's compute capability");
  }
  if (log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: %lldx%lldx%lld batch %lld -> %s%s\n", (long long)call.m, (long long)call.n,
                 (long long)call.k, (long long)call.batch_count, chosen->description().name,
                 staged ? " (on aligned copies of misaligned operands)" : "");
  }
  GemmOutcome outcome;
  outcome.operation = chosen;
  if (!execute) return outcome;

  // 6. Workspace (grown on demand: staging copies, then the kernel's own), then launch.
  size_t const staging_bytes = staged ? plan.workspace_bytes : 0;
  GemmUniversalConfiguration const configuration = configuration_of(staged ? plan.staged : call);
  size_t const kernel_workspace_bytes = chosen->get_device_workspace_size(configuration, arguments_of(staged ? plan.staged : call));
  if (!ensure_workspace(context, staging_bytes + kernel_workspace_bytes)) {
    return fail(GemmFailure::kAllocFailed, "workspace allocation failed");
  }
  if (staged) plan_staging(call, static_cast<GemmDescription const &>(chosen->description()), *context.workspace, &plan);
  GemmUniversalArguments const arguments = arguments_of(staged ? plan.staged : call);
  void *const kernel_workspace = static_cast<char *>(*context.workspace) + staging_bytes;
  std::vector<uint8_t> host_workspace(chosen->get_host_workspace_size(configuration));
  float *const amax = fused && call.epilogue.kind.scale_amax ? call.epilogue.amax : nullptr;
  if ((staged && !stage_in(plan, call, context.stream)) ||
      (amax && cudaMemsetAsync(amax, 0, sizeof(float), context.stream) != cudaSuccess) ||
      chosen->initialize(configuration, host_workspace.data(), kernel_workspace, context.stream) != Status::kSuccess ||
      chosen->run(arguments, host_workspace.data(), kernel_workspace, context.stream) != Status::kSuccess ||
      (staged && !stage_out(plan, call, context.stream))) {
    outcome.failure = GemmFailure::kLaunchFailed;
    outcome.detail = "the kernel or a staging copy failed to launch";
  }
  return outcome;
}

}  // namespace library
}  // namespace cutlass
