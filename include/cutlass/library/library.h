/// @file cutlass/library/library.h
/// Descriptions, arguments and the Operation interface of the instance library.
///
/// Three words, as in CUTLASS: a *description* holds the compile-time facts of a kernel
/// (types, layouts, alignment, tile); a *configuration* holds the run-time facts that are
/// costly to set up (problem size, leading dimensions); *arguments* hold what changes every
/// call (pointers, scalars). Unlike CUTLASS, the structs are typed (no void const* blobs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <cuda_runtime_api.h>

#include "cutlass/cutlass.h"
#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm_coord.h"
#include "cutlass/library/export.h"
#include "cutlass/library/types.h"

namespace cutlass {
namespace library {

/// The MMA instruction a kernel is built from.
struct MathInstructionDescription {
  gemm::GemmCoord instruction_shape;   ///< (M, N, K) of one instruction; 1x1x1 for SIMT
  NumericTypeID element_accumulator = NumericTypeID::kInvalid;
  OpcodeClassID opcode_class = OpcodeClassID::kInvalid;
  MathOperationID math_operation = MathOperationID::kInvalid;
};

/// The tiling of a kernel.
struct TileDescription {
  gemm::GemmCoord threadblock_shape;   ///< CTA tile (M, N, K) in elements
  int threadblock_stages = 0;          ///< shared-memory pipeline stages
  gemm::GemmCoord warp_count;          ///< warps along (M, N, K)
  MathInstructionDescription math_instruction;
  int minimum_compute_capability = 0;  ///< e.g. 80 for sm_80
  int maximum_compute_capability = 0; ///< highest compute capability the kernel runs on
  gemm::GemmCoord cluster_shape{1, 1, 1};
  TileSchedulerType tile_scheduler = TileSchedulerType::kDefault;
};

/// One operand of a kernel.
struct TensorDescription {
  NumericTypeID element = NumericTypeID::kInvalid;
  LayoutTypeID layout = LayoutTypeID::kInvalid;
  int alignment = 1;   ///< elements per vector access; pointers, ld, batch strides and the
                       ///< contiguous extent must be multiples of it
};

/// Facts common to every operation.
struct OperationDescription {
  char const *name = "";               ///< the kernel's procedural name (CUTLASS scheme)
  Provider provider = Provider::kInvalid;
  OperationKind kind = OperationKind::kInvalid;
  TileDescription tile_description;
};

/// The fused pieces of a kernel's epilogue (compile-time facts, part of the functional key):
///     x = alpha [* alpha_vector] * AB + beta * C [+ bias];  [aux = x];  D = activation(x) [* scale_d]
/// and [amax = max |activation(x)|]. The default value is the plain epilogue D = alpha AB + beta C.
/// Formulas and sources: cutlass/epilogue/thread/linear_combination.h and activation.h.
struct EpilogueDescription {
  epilogue::ActivationKind activation = epilogue::ActivationKind::kIdentity;
  NumericTypeID element_bias = NumericTypeID::kInvalid;   ///< kInvalid: no bias
  bool alpha_vector = false;                               ///< per-row / per-column alpha (f32)
  NumericTypeID element_aux = NumericTypeID::kInvalid;    ///< kInvalid: no aux output
  bool scale_amax = false;                                 ///< D scale and amax (fp8 outputs)

  bool fused() const {
    return activation != epilogue::ActivationKind::kIdentity || element_bias != NumericTypeID::kInvalid ||
           alpha_vector || element_aux != NumericTypeID::kInvalid || scale_amax;
  }
  bool operator==(EpilogueDescription const &o) const {
    return activation == o.activation && element_bias == o.element_bias && alpha_vector == o.alpha_vector &&
           element_aux == o.element_aux && scale_amax == o.scale_amax;
  }
  bool operator!=(EpilogueDescription const &o) const { return !(*this == o); }
};

/// Facts of a GEMM kernel. Cast an Operation's description() to this when kind == kGemm.
struct GemmDescription : OperationDescription {
  GemmKind gemm_kind = GemmKind::kUniversal;
  TensorDescription A, B, C, D;
  NumericTypeID element_epilogue = NumericTypeID::kInvalid;   ///< type of alpha and beta
  EpilogueDescription epilogue;                               ///< fused pieces (none by default)
  SplitKMode split_k_mode = SplitKMode::kNone;   ///< kSerial: the kernel may split K over CTAs (workspace)
  ComplexTransform transform_A = ComplexTransform::kNone;
  ComplexTransform transform_B = ComplexTransform::kNone;
  /// 0 for kernels that take any problem; otherwise the largest min(M, N) the kernel takes: 1 for
  /// the GEMV family (M == 1 or N == 1), 8 / 16 / 32 for the skinny family (either orientation).
  int max_small_extent = 0;
  /// True for the block-scaled fp8 kernels (names "..._blockscale"): they promote every 128-deep
  /// k-block's partial sum into f32 registers and take exactly the calls that ask for block scales
  /// or precise accumulation (GemmEpilogueArguments); every other kernel refuses those calls.
  bool block_scaled = false;
};

/// Run-time problem facts (column-major C/D; see cutlass/gemm/gemm_arguments.h).
struct GemmUniversalConfiguration {
  gemm::GemmUniversalMode mode = gemm::GemmUniversalMode::kGemm;
  gemm::GemmCoord problem_size;
  int batch_count = 1;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;   ///< elements
};

/// The operands of a fused epilogue, per call. `kind` names the pieces the call asks for; the
/// kernel must have exactly these (selection matches them). All pointers are device pointers;
/// leading dimensions and batch strides are in elements.
///  - bias: `kind.element_bias` values, M of them (kPerRow: bias[m] added to row m) or N
///    (kPerColumn); required when kind has a bias.
///  - alpha_vector: f32, M (kPerRow) or N (kPerColumn) values multiplying alpha; required when
///    kind.alpha_vector.
///  - aux: M x N, `kind.element_aux`, the layout of D, leading dimension ldaux >= the extent of D's
///    leading dimension; receives the pre-activation value. Required when kind has aux.
///  - scale_d: f32 device scalar multiplying D (null = 1); amax: f32 device scalar set to
///    max |activation(x)| over D (before scale_d); both only with kind.scale_amax; amax may be null.
///  - scale_a, scale_b: f32 device scales of fp8 operands (cuBLASLt's A_SCALE_POINTER /
///    B_SCALE_POINTER; null = 1), laid out as scale_a_mode / scale_b_mode say
///    (epilogue::OperandScaleMode, cuBLASLt's cublasLtMatmulMatrixScale_t): kScalar, a per-tensor
///    scalar multiplying alpha; kOuterVector (OUTER_VEC_32F), M values, scale_a[m] multiplying
///    row m of D, and N values, scale_b[n] multiplying column n, the same for every batch entry;
///    kBlock1x128 (VEC128_32F) / kBlock128x128 (BLK128x128_32F), one value per 128-deep k-block
///    of each row (column) or of each 128-row (-column) block, multiplying that k-block's partial
///    sum (layout in epilogue_types.h); a block mode needs a block-scaled kernel (names
///    ..._blockscale), the others refuse it (kErrorNotSupported).
///  - accumulation: kFast, the tensor core's own accumulation across K (every kernel); kPrecise,
///    each 128-deep k-block's partial sum promoted into f32 registers (block-scaled kernels only).
///    fp8 operands only.
///    Not part of `kind` (every fp8-input kernel takes them); set with other operand types:
///    kErrorNotSupported.
///  - clamp_min <= clamp_max: the bounds of ActivationKind::kClamp.
/// The f32 pointers (alpha_vector, scale_d, amax, scale_a, scale_b) must be 4-byte aligned.
/// A missing required pointer, a misaligned f32 pointer, ldaux too small, a negative batch stride, a bias, alpha vector or
/// aux output whose batch stride (with ldaux) would span more than 2^63 - 1 bytes, clamp_min >
/// clamp_max, an activation or a broadcast outside its enumerators is kErrorInvalidProblem.
struct GemmEpilogueArguments {
  EpilogueDescription kind;
  void const *bias = nullptr;
  epilogue::VectorBroadcast bias_broadcast = epilogue::VectorBroadcast::kPerRow;
  int64_t batch_stride_bias = 0;
  float const *alpha_vector = nullptr;
  epilogue::VectorBroadcast alpha_vector_broadcast = epilogue::VectorBroadcast::kPerRow;
  int64_t batch_stride_alpha_vector = 0;
  void *aux = nullptr;
  int64_t ldaux = 0;
  int64_t batch_stride_aux = 0;
  float const *scale_d = nullptr;
  float *amax = nullptr;
  float const *scale_a = nullptr;
  float const *scale_b = nullptr;
  epilogue::OperandScaleMode scale_a_mode = epilogue::OperandScaleMode::kScalar;
  epilogue::OperandScaleMode scale_b_mode = epilogue::OperandScaleMode::kScalar;
  AccumulationMode accumulation = AccumulationMode::kFast;
  float clamp_min = 0.f;
  float clamp_max = 0.f;
  /// Extent of D the vectors, aux and amax cover (column-major); 0 = the problem's M / N. The
  /// library sets them when it runs a kernel on a padded copy of the problem.
  int rows = 0;
  int columns = 0;
};

/// The per-group arrays of a device-sized grouped launch (Operation::run_device_sized).
using GroupedDeviceArrays = gemm::GroupedDeviceArrays;

/// The tile order of the sm90 persistent kernels (CUTLASS's enumerators and values; see
/// cutlass/gemm/gemm_arguments.h, which also states where its meaning differs from CUTLASS's):
/// kAlongN, kAlongM, kHeuristic (the kernel's default), kInvalid.
using RasterOrder = gemm::RasterOrder;

/// Per-call arguments. Pointers are device pointers of the description's element types;
/// alpha/beta point to ElementEpilogue values in host or device memory (pointer_mode).
struct GemmUniversalArguments {
  gemm::GemmCoord problem_size;
  int batch_count = 1;
  void const *A = nullptr;
  void const *B = nullptr;
  void const *C = nullptr;   ///< may be null when beta == 0; may equal D
  void *D = nullptr;
  void const *alpha = nullptr;
  void const *beta = nullptr;
  ScalarPointerMode pointer_mode = ScalarPointerMode::kHost;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;                            ///< elements
  int64_t batch_stride_A = 0, batch_stride_B = 0, batch_stride_C = 0, batch_stride_D = 0;  ///< elements
  GemmEpilogueArguments epilogue;   ///< fused-epilogue operands (kind must match the kernel's)
  /// The sm90 persistent kernels' tile order and its band width in tiles (1, 2, 4, 8; 0: 8), as
  /// CUTLASS's raster_order / swizzle_size (its default width is 1). Other kernels ignore them;
  /// an invalid value is kErrorInvalidProblem from can_implement. The handle leaves both at the
  /// default (src/library/gemm_raster.h says why).
  RasterOrder raster_order = RasterOrder::kHeuristic;
  int swizzle_size = 0;
};

/// One precompiled kernel. Every member is thread-safe and const except initialize().
class CUTLASS_LIB_API Operation {
 public:
  virtual ~Operation() = default;

  virtual OperationDescription const &description() const = 0;

  /// kSuccess when this kernel can run the problem: types fit by construction; checks
  /// alignment of every pointer / ld / batch stride / contiguous extent, problem shape,
  /// and the current device's compute capability. Launches nothing.
  virtual Status can_implement(GemmUniversalConfiguration const &configuration,
                               GemmUniversalArguments const &arguments) const = 0;

  /// Bytes of host workspace initialize() and run() need.
  virtual uint64_t get_host_workspace_size(GemmUniversalConfiguration const &configuration) const = 0;

  /// Bytes of device workspace run() needs for these arguments (0 for most kernels).
  virtual uint64_t get_device_workspace_size(GemmUniversalConfiguration const &configuration,
                                             GemmUniversalArguments const &arguments) const = 0;

  /// Bytes at the start of the device workspace that initialize() zeroes and that every completed
  /// run() of the configuration's problem shape leaves zero again (split-K counters, stream-K
  /// flags); 0 when the kernel keeps no such words. A caller that knows those bytes are still zero
  /// in the stream's order (from an earlier run, and nothing wrote them since) may skip
  /// initialize(), which for this library's kernels only zeroes them.
  virtual uint64_t get_device_workspace_sync_bytes(GemmUniversalConfiguration const &) const { return 0; }

  /// Prepares host_workspace from the configuration (may be a no-op).
  virtual Status initialize(GemmUniversalConfiguration const &configuration, void *host_workspace,
                            void *device_workspace, cudaStream_t stream) const = 0;

  /// Launches the kernel on `stream`. Asynchronous; returns kErrorInternal if the launch failed.
  virtual Status run(GemmUniversalArguments const &arguments, void *host_workspace, void *device_workspace,
                     cudaStream_t stream) const = 0;

  /// Grouped kernels (description().gemm_kind == GemmKind::kGrouped) run `count` problems in one
  /// launch: each problem a one-batch GEMM with column-major C / D and the kernel's types and
  /// layouts, each with its own M, N and K >= 1 (a problem with M or N == 0 takes no part). Other
  /// kernels answer kErrorNotSupported and 0 bytes.
  /// can_implement_grouped: kSuccess when the problems can run (alignment, shapes, the device),
  /// launching nothing; kErrorNotSupported for a problem with K == 0 (beta * C: the library runs
  /// it apart), kErrorInvalidProblem for a batched one.
  /// It builds no tensor maps: run_grouped does, and answers kErrorMisalignedOperand, having
  /// launched and copied nothing, when the driver refuses one.
  virtual Status can_implement_grouped(GemmUniversalArguments const *problems, int count) const {
    (void)problems;
    (void)count;
    return Status::kErrorNotSupported;
  }
  /// Bytes of device workspace (256-byte aligned) a grouped launch of `count` problems needs.
  virtual uint64_t get_grouped_workspace_size(int count) const {
    (void)count;
    return 0;
  }
  /// The launch on `stream`: the problems' tensor maps are built on the host and copied into the
  /// workspace with a cudaMemcpyAsync from pageable memory, ordered after the stream's earlier
  /// work (it may block the host until then; a stream being captured into a CUDA graph cannot
  /// take it). The problems run concurrently: no C may overlap another problem's A, B or C.
  virtual Status run_grouped(GemmUniversalArguments const *problems, int count, void *device_workspace,
                             cudaStream_t stream) const {
    (void)problems;
    (void)count;
    (void)device_workspace;
    (void)stream;
    return Status::kErrorNotSupported;
  }

  /// Grouped kernels with B K-major (column-major B) also run the contiguous layout of a
  /// mixture-of-experts layer, with the group sizes in DEVICE memory: `shape` is the packed
  /// problem (M, N = all groups' columns, K, one batch; lda, ldb, ldc, ldd; alpha, beta), group g
  /// multiplies A + g * shape.batch_stride_A by the columns [offsets[g - 1], offsets[g]) of B
  /// (offsets[-1] = 0) into the same columns of D (and C). `offsets` is a device array of `count`
  /// ints that stream-ordered work before the launch may write: the host reads no size, so the
  /// launch (two kernels, no copy) can be captured into a CUDA graph. Groups never overlap: a
  /// group whose end lies before an earlier group's end or past N is skipped, its columns
  /// untouched; columns past the last group's end are untouched.
  /// can_implement_contiguous: kSuccess, kErrorMisalignedOperand (the TMA rules of one problem;
  /// batch_stride_A a multiple of 16 bytes), kErrorInvalidProblem (M, K or count < 1, N < 0, a
  /// batched shape, null scalars), kErrorNotSupported (B not K-major, not a grouped kernel, the
  /// tile count bound past 2^31 - 1). run_contiguous launches nothing when it fails (also
  /// kErrorWorkspaceNull; kErrorMisalignedOperand when the driver refuses a tensor map), except
  /// kErrorInternal from a failed GEMM launch after the prologue's (which writes the workspace only).
  virtual Status can_implement_contiguous(GemmUniversalArguments const &shape, int count) const {
    (void)shape;
    (void)count;
    return Status::kErrorNotSupported;
  }
  /// Bytes of device workspace (256-byte aligned) a contiguous launch of `count` groups needs.
  virtual uint64_t get_contiguous_workspace_size(int count) const {
    (void)count;
    return 0;
  }
  virtual Status run_contiguous(GemmUniversalArguments const &shape, int const *offsets, int count,
                                void *device_workspace, cudaStream_t stream) const {
    (void)shape;
    (void)offsets;
    (void)count;
    (void)device_workspace;
    (void)stream;
    return Status::kErrorNotSupported;
  }

  /// Grouped kernels also run `count` groups whose sizes, leading dimensions and pointers live in
  /// DEVICE memory (GroupedDeviceArrays), never read on the host: group g computes the column-major
  /// D_g = alpha * op(A_g) op(B_g) + beta * C_g in place (C_g is D_g), the kernel's types and
  /// layouts, `prototype`'s scalars, pointer mode and (per-tensor fp8) scales for all groups;
  /// `prototype`'s sizes, leading dimensions and pointers only shape the prototype tensor maps
  /// (any problem can_implement takes; its C null when C is never read). A prologue kernel checks
  /// every group and skips (C untouched) one the kernels cannot run: negative sizes, null or
  /// misaligned pointers, leading dimensions below the stored extent or off the 16-byte rule,
  /// contiguous extents (m for C, the K-major extent or m / n for A, B) off it, more than
  /// (2^31 - 1) / count tiles; K == 0 writes beta * C (plain epilogue; fused: the group is skipped).
  /// A fused epilogue's vectors of group g are `prototype`'s batch entry g (vector + g * its batch
  /// stride) over the group's m x n. Two kernels, no copy: capturable into a
  /// CUDA graph. can_implement_device_sized: kSuccess, kErrorNotSupported (not a grouped kernel,
  /// count past 2^30), can_implement's answers for the prototype; run_device_sized launches nothing
  /// when it fails (kErrorWorkspaceNull, kErrorMisalignedOperand for a workspace not 256-byte
  /// aligned or refused prototype maps), except kErrorInternal from a failed GEMM launch.
  virtual Status can_implement_device_sized(GemmUniversalArguments const &prototype, int count) const {
    (void)prototype;
    (void)count;
    return Status::kErrorNotSupported;
  }
  /// Bytes of device workspace (256-byte aligned) a device-sized launch of `count` groups needs.
  virtual uint64_t get_device_sized_workspace_size(int count) const {
    (void)count;
    return 0;
  }
  virtual Status run_device_sized(GemmUniversalArguments const &prototype, GroupedDeviceArrays const &groups,
                                  int count, void *device_workspace, cudaStream_t stream) const {
    (void)prototype;
    (void)groups;
    (void)count;
    (void)device_workspace;
    (void)stream;
    return Status::kErrorNotSupported;
  }
};

}  // namespace library
}  // namespace cutlass
