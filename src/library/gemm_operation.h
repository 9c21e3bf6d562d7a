/// @file src/library/gemm_operation.h
/// GemmUniversalOperation<Kernel>: the one adapter between the library's typed Operation
/// interface and any device-level kernel that meets the kernel contract of
/// cutlass/gemm/gemm_arguments.h. Generated instance files include this header and register
/// `new GemmUniversalOperation<Kernel>("<procedural name>")` with the manifest. The
/// description is derived from the kernel's own types, so it cannot disagree with the code.
#pragma once

#include <type_traits>
#include <vector>

#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/library/library.h"
#include "cutlass/library/manifest.h"
#include "device_info.h"
#include "gemm_call.h"
#include "sass_coverage.h"
#include "type_map.h"

namespace cutlass {
namespace library {

#if defined(CUTLASS_LIB_HAS_SASS_ARCHS)
// CUTLASS_LIB_SASS_ARCHS, e.g. "80, -90", from a header CMake writes per kernel family
#include "cutlass_lib_sass_archs.h"
#endif

#if defined(CUTLASS_LIB_SASS_ARCHS)
/// The SASS targets of this translation unit (library/CMakeLists.txt; sass_coverage.h).
inline constexpr int kSassArchs[] = {CUTLASS_LIB_SASS_ARCHS};
inline constexpr int kSassArchCount = int(sizeof(kSassArchs) / sizeof(kSassArchs[0]));
#endif

/// The kernel's cluster shape (Kernel::ClusterShape, a GemmShape) or 1x1x1 for kernels without one.
template <typename Kernel, typename = void>
struct KernelClusterShape {
  static gemm::GemmCoord value() { return gemm::GemmCoord(1, 1, 1); }
};
template <typename Kernel>
struct KernelClusterShape<Kernel, std::void_t<typename Kernel::ClusterShape>> {
  static gemm::GemmCoord value() {
    using C = typename Kernel::ClusterShape;
    return gemm::GemmCoord(C::kM, C::kN, C::kK);
  }
};

/// The kernel's tile scheduler: persistent kernels (those with Kernel::kStreamK) are kStreamK or
/// kPersistent, the others kDefault.
template <typename Kernel, typename = void>
struct KernelTileScheduler {
  static constexpr TileSchedulerType value = TileSchedulerType::kDefault;
};
template <typename Kernel>
struct KernelTileScheduler<Kernel, std::void_t<decltype(Kernel::kStreamK)>> {
  static constexpr TileSchedulerType value =
      Kernel::kStreamK ? TileSchedulerType::kStreamK : TileSchedulerType::kPersistent;
};

/// True for kernels that run many problems in one launch (Kernel::kGrouped: Kernel::Grouped::run_grouped).
template <typename Kernel, typename = void>
struct KernelIsGrouped {
  static constexpr bool value = false;
};
template <typename Kernel>
struct KernelIsGrouped<Kernel, std::void_t<decltype(Kernel::kGrouped)>> {
  static constexpr bool value = Kernel::kGrouped;
};

/// Whether a kernel promotes every k-block's partial sum with its block scales (Kernel::kBlockScaled:
/// the sm90 FP8BlockScaledAccum schedule); such a kernel takes exactly the calls that ask for it.
template <typename Kernel, typename = void>
struct KernelIsBlockScaled {
  static constexpr bool value = false;
};
template <typename Kernel>
struct KernelIsBlockScaled<Kernel, std::void_t<decltype(Kernel::kBlockScaled)>> {
  static constexpr bool value = Kernel::kBlockScaled;
};

/// True when a call needs a block-scaled kernel: block scales on A or B, or precise accumulation.
inline bool wants_block_scaled_kernel(GemmEpilogueArguments const &e) {
  return e.accumulation == AccumulationMode::kPrecise || epilogue::is_block_scale(e.scale_a_mode) ||
         epilogue::is_block_scale(e.scale_b_mode);
}

/// The largest min(M, N) a kernel takes (Kernel::kMaxSmallExtent; 0 = any problem), and whether it
/// splits K over CTAs itself (Kernel::kSerialSplitK).
template <typename Kernel, typename = void>
struct KernelSmallExtent {
  static constexpr int value = 0;
  static constexpr bool split_k = false;
};
template <typename Kernel>
struct KernelSmallExtent<Kernel, std::void_t<decltype(Kernel::kMaxSmallExtent)>> {
  static constexpr int value = Kernel::kMaxSmallExtent;
  static constexpr bool split_k = Kernel::kSerialSplitK;
};

/// The library's description of an output operator's fused pieces (thread/linear_combination.h).
template <typename OutputOp>
EpilogueDescription epilogue_description() {
  using F = typename OutputOp::FusionType;
  EpilogueDescription d;
  d.activation = F::kActivation;
  d.element_bias = F::kBias ? NumericTypeMap<typename F::ElementBias>::kId : NumericTypeID::kInvalid;
  d.alpha_vector = F::kAlphaVector;
  d.element_aux = F::kAux ? NumericTypeMap<typename F::ElementAux>::kId : NumericTypeID::kInvalid;
  d.scale_amax = F::kScaleAmax;
  return d;
}

/// kSuccess when the call asks for exactly the kernel's fused pieces (else kErrorNotSupported)
/// and their operands are usable (epilogue_operands_error; else kErrorInvalidProblem).
inline Status check_epilogue_operands(EpilogueDescription const &kernel, GemmEpilogueArguments const &e, int rows) {
  if (e.kind != kernel) return Status::kErrorNotSupported;
  return epilogue_operands_error(e, rows, true) ? Status::kErrorInvalidProblem : Status::kSuccess;
}

template <typename Kernel>
class GemmUniversalOperation : public Operation {
 public:
  using KernelArguments = typename Kernel::Arguments;
  using ElementCompute = typename Kernel::ElementCompute;

  explicit GemmUniversalOperation(char const *name) {
    using TB = typename Kernel::ThreadblockShape;
    using WS = typename Kernel::WarpShape;
    using IS = typename Kernel::InstructionShape;
    desc_.name = name;
    desc_.provider = Provider::kCUTLASS;
    desc_.kind = OperationKind::kGemm;
    desc_.gemm_kind = KernelIsGrouped<Kernel>::value ? GemmKind::kGrouped : GemmKind::kUniversal;
    auto &tile = desc_.tile_description;
    tile.threadblock_shape = gemm::GemmCoord(TB::kM, TB::kN, TB::kK);
    tile.threadblock_stages = Kernel::kStages;
    tile.warp_count = gemm::GemmCoord(TB::kM / WS::kM, TB::kN / WS::kN, TB::kK / WS::kK);
    tile.math_instruction.instruction_shape = gemm::GemmCoord(IS::kM, IS::kN, IS::kK);
    tile.math_instruction.element_accumulator = NumericTypeMap<typename Kernel::ElementAccumulator>::kId;
    tile.math_instruction.opcode_class = OpcodeClassMap<typename Kernel::OperatorClass>::kId;
    tile.math_instruction.math_operation = MathOperationMap<typename Kernel::MathOperator>::kId;
    tile.minimum_compute_capability = Kernel::kMinComputeCapability;
    tile.maximum_compute_capability = Kernel::kMaxComputeCapability;
#if defined(CUTLASS_LIB_SASS_ARCHS)
    // no device above what the built SASS runs on: an sm_80-only build does not claim an sm_90
    // device (the minimum stays the kernel's own: it orders the families in selection, and
    // can_implement checks the devices in between exactly)
    constexpr int kBuiltMaximum = sass_range(kSassArchs, kSassArchCount).maximum;
    if (kBuiltMaximum < tile.maximum_compute_capability) tile.maximum_compute_capability = kBuiltMaximum;
#endif
    tile.cluster_shape = KernelClusterShape<Kernel>::value();
    tile.tile_scheduler =
        KernelIsGrouped<Kernel>::value ? TileSchedulerType::kGrouped : KernelTileScheduler<Kernel>::value;
    desc_.A = {NumericTypeMap<typename Kernel::ElementA>::kId, LayoutMap<typename Kernel::LayoutA>::kId,
               Kernel::kAlignmentA};
    desc_.B = {NumericTypeMap<typename Kernel::ElementB>::kId, LayoutMap<typename Kernel::LayoutB>::kId,
               Kernel::kAlignmentB};
    desc_.C = {NumericTypeMap<typename Kernel::ElementC>::kId, LayoutTypeID::kColumnMajor, Kernel::kAlignmentC};
    desc_.D = desc_.C;
    desc_.element_epilogue = NumericTypeMap<ElementCompute>::kId;
    desc_.epilogue = epilogue_description<typename Kernel::EpilogueOutputOp>();
    desc_.max_small_extent = KernelSmallExtent<Kernel>::value;
    desc_.block_scaled = KernelIsBlockScaled<Kernel>::value;
    desc_.split_k_mode = KernelSmallExtent<Kernel>::split_k ? SplitKMode::kSerial : SplitKMode::kNone;
  }

  OperationDescription const &description() const override { return desc_; }

  Status can_implement(GemmUniversalConfiguration const &configuration,
                       GemmUniversalArguments const &arguments) const override {
    bool const batched = configuration.mode == gemm::GemmUniversalMode::kBatched;
    if (!(batched || (configuration.mode == gemm::GemmUniversalMode::kGemm && configuration.batch_count == 1))) {
      return Status::kErrorNotSupported;   // split-K, array and grouped modes are not offered
    }
    int cc = current_device_compute_capability();
    if (cc < Kernel::kMinComputeCapability || cc > Kernel::kMaxComputeCapability) {
      return Status::kErrorArchMismatch;
    }
#if defined(CUTLASS_LIB_SASS_ARCHS)
    if (!any_sass_runs_on(kSassArchs, kSassArchCount, cc)) return Status::kErrorArchMismatch;
#endif
    if (arguments.alpha == nullptr || arguments.beta == nullptr) return Status::kErrorInvalidProblem;
    if (!gemm::raster_is_valid(arguments.raster_order, arguments.swizzle_size)) return Status::kErrorInvalidProblem;
    int const rows = arguments.epilogue.rows > 0 ? arguments.epilogue.rows : arguments.problem_size.m();
    Status const fusion = check_epilogue_operands(desc_.epilogue, arguments.epilogue, rows);
    if (fusion != Status::kSuccess) return fusion;
    if (wants_block_scaled_kernel(arguments.epilogue) != KernelIsBlockScaled<Kernel>::value) {
      return Status::kErrorNotSupported;   // block scales / precise sums <-> the block-scaled kernels
    }
    return Kernel::can_implement(to_kernel_arguments(arguments));
  }

  uint64_t get_host_workspace_size(GemmUniversalConfiguration const &) const override { return 0; }

  uint64_t get_device_workspace_size(GemmUniversalConfiguration const &,
                                     GemmUniversalArguments const &arguments) const override {
    return Kernel::get_workspace_size(to_kernel_arguments(arguments));
  }

  uint64_t get_device_workspace_sync_bytes(GemmUniversalConfiguration const &configuration) const override {
    KernelArguments shape;
    shape.problem_size = configuration.problem_size;
    shape.batch_count = configuration.batch_count;
    return Kernel::get_workspace_sync_bytes(shape);
  }

  /// Prepares the device workspace for runs of the configuration's problem shape
  /// (Kernel::initialize_workspace: stream-K clears its flags).
  Status initialize(GemmUniversalConfiguration const &configuration, void *, void *device_workspace,
                    cudaStream_t stream) const override {
    KernelArguments shape;
    shape.problem_size = configuration.problem_size;
    shape.batch_count = configuration.batch_count;
    return Kernel::initialize_workspace(shape, device_workspace, stream);
  }

  Status run(GemmUniversalArguments const &arguments, void *, void *device_workspace,
             cudaStream_t stream) const override {
    return Kernel::run(to_kernel_arguments(arguments), device_workspace, stream);
  }

  Status can_implement_grouped(GemmUniversalArguments const *problems, int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      std::vector<KernelArguments> kernel_problems;
      Status const status = grouped_arguments(problems, count, kernel_problems);
      return status != Status::kSuccess ? status : Kernel::Grouped::can_implement_grouped(kernel_problems.data(), count);
    } else {
      return Status::kErrorNotSupported;
    }
  }

  uint64_t get_grouped_workspace_size(int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      return Kernel::Grouped::get_grouped_workspace_size(count);
    } else {
      return 0;
    }
  }

  Status run_grouped(GemmUniversalArguments const *problems, int count, void *device_workspace,
                     cudaStream_t stream) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      std::vector<KernelArguments> kernel_problems;
      Status const status = grouped_arguments(problems, count, kernel_problems);
      return status != Status::kSuccess ? status
                                        : Kernel::Grouped::run_grouped(kernel_problems.data(), count, device_workspace, stream);
    } else {
      return Status::kErrorNotSupported;
    }
  }

  Status can_implement_contiguous(GemmUniversalArguments const &shape, int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      KernelArguments kernel_shape;
      Status const status = grouped_argument(shape, kernel_shape);
      return status != Status::kSuccess ? status : Kernel::Grouped::can_implement_contiguous(kernel_shape, count);
    } else {
      return Status::kErrorNotSupported;
    }
  }

  uint64_t get_contiguous_workspace_size(int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      return Kernel::Grouped::get_contiguous_workspace_size(count);
    } else {
      return 0;
    }
  }

  Status run_contiguous(GemmUniversalArguments const &shape, int const *offsets, int count, void *device_workspace,
                        cudaStream_t stream) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      KernelArguments kernel_shape;
      Status status = grouped_argument(shape, kernel_shape);
      if (status == Status::kSuccess) status = Kernel::Grouped::can_implement_contiguous(kernel_shape, count);
      return status != Status::kSuccess ? status
                                        : Kernel::Grouped::run_contiguous(kernel_shape, offsets, count, device_workspace, stream);
    } else {
      return Status::kErrorNotSupported;
    }
  }

  Status can_implement_device_sized(GemmUniversalArguments const &prototype, int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      KernelArguments kernel_prototype;
      Status const status = grouped_argument(prototype, kernel_prototype);
      return status != Status::kSuccess ? status : Kernel::Grouped::can_implement_device_sized(kernel_prototype, count);
    } else {
      return Status::kErrorNotSupported;
    }
  }

  uint64_t get_device_sized_workspace_size(int count) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      return Kernel::Grouped::get_device_sized_workspace_size(count);
    } else {
      return 0;
    }
  }

  Status run_device_sized(GemmUniversalArguments const &prototype, GroupedDeviceArrays const &groups, int count,
                          void *device_workspace, cudaStream_t stream) const override {
    if constexpr (KernelIsGrouped<Kernel>::value) {
      KernelArguments kernel_prototype;
      Status status = grouped_argument(prototype, kernel_prototype);
      if (status == Status::kSuccess) status = Kernel::Grouped::can_implement_device_sized(kernel_prototype, count);
      return status != Status::kSuccess
                 ? status
                 : Kernel::Grouped::run_device_sized(kernel_prototype, groups, count, device_workspace, stream);
    } else {
      return Status::kErrorNotSupported;
    }
  }

 private:
  /// The kernel's arguments of `count` grouped problems, after the checks can_implement makes of
  /// one (device, scalars, epilogue operands).
  Status grouped_arguments(GemmUniversalArguments const *problems, int count,
                           std::vector<KernelArguments> &kernel_problems) const {
    if (count < 0 || (count > 0 && problems == nullptr)) return Status::kErrorInvalidProblem;
    int const cc = current_device_compute_capability();
    if (cc < Kernel::kMinComputeCapability || cc > Kernel::kMaxComputeCapability) return Status::kErrorArchMismatch;
#if defined(CUTLASS_LIB_SASS_ARCHS)
    if (!any_sass_runs_on(kSassArchs, kSassArchCount, cc)) return Status::kErrorArchMismatch;
#endif
    kernel_problems.reserve(size_t(count));
    for (int g = 0; g < count; ++g) {
      GemmUniversalArguments const &a = problems[g];
      if (a.alpha == nullptr || a.beta == nullptr) return Status::kErrorInvalidProblem;
      int const rows = a.epilogue.rows > 0 ? a.epilogue.rows : a.problem_size.m();
      Status const fusion = check_epilogue_operands(desc_.epilogue, a.epilogue, rows);
      if (fusion != Status::kSuccess) return fusion;
      kernel_problems.push_back(to_kernel_arguments(a));
    }
    return Status::kSuccess;
  }

  /// grouped_arguments of the one problem that stands for every group (the contiguous call's
  /// packed shape, the device-sized call's prototype).
  Status grouped_argument(GemmUniversalArguments const &problem, KernelArguments &kernel_problem) const {
    std::vector<KernelArguments> one;
    Status const status = grouped_arguments(&problem, 1, one);
    if (status == Status::kSuccess) kernel_problem = one.front();
    return status;
  }

  KernelArguments to_kernel_arguments(GemmUniversalArguments const &a) const {
    KernelArguments k;
    k.problem_size = a.problem_size;
    k.batch_count = a.batch_count;
    if (a.pointer_mode == ScalarPointerMode::kDevice) {
      k.epilogue.alpha_ptr = static_cast<ElementCompute const *>(a.alpha);
      k.epilogue.beta_ptr = static_cast<ElementCompute const *>(a.beta);
    } else {
      if (a.alpha) k.epilogue.alpha = *static_cast<ElementCompute const *>(a.alpha);
      if (a.beta) k.epilogue.beta = *static_cast<ElementCompute const *>(a.beta);
    }
    k.ptr_A = static_cast<typename Kernel::ElementA const *>(a.A);
    k.ptr_B = static_cast<typename Kernel::ElementB const *>(a.B);
    k.ptr_C = static_cast<typename Kernel::ElementC const *>(a.C);
    k.ptr_D = static_cast<typename Kernel::ElementC *>(a.D);
    k.lda = a.lda;
    k.ldb = a.ldb;
    k.ldc = a.ldc;
    k.ldd = a.ldd;
    k.batch_stride_A = a.batch_stride_A;
    k.batch_stride_B = a.batch_stride_B;
    k.batch_stride_C = a.batch_stride_C;
    k.batch_stride_D = a.batch_stride_D;
    k.raster_order = a.raster_order;
    k.swizzle_size = a.swizzle_size;
    set_fusion_operands(a, k.epilogue);
    return k;
  }

  /// The fusion operands of the output operator's Params (read only by the pieces it has).
  static void set_fusion_operands(GemmUniversalArguments const &a, typename Kernel::EpilogueOutputOp::Params &p) {
    using Op = typename Kernel::EpilogueOutputOp;
    GemmEpilogueArguments const &e = a.epilogue;
    p.bias = static_cast<typename Op::ElementBias const *>(e.bias);
    p.bias_broadcast = e.bias_broadcast;
    p.batch_stride_bias = e.batch_stride_bias;
    p.alpha_vector = reinterpret_cast<typename Op::ElementCompute const *>(e.alpha_vector);
    p.alpha_vector_broadcast = e.alpha_vector_broadcast;
    p.batch_stride_alpha_vector = e.batch_stride_alpha_vector;
    p.aux = static_cast<typename Op::ElementAux *>(e.aux);
    p.ldaux = e.ldaux;
    p.batch_stride_aux = e.batch_stride_aux;
    p.scale_d = reinterpret_cast<typename Op::ElementCompute const *>(e.scale_d);
    p.amax = e.amax;
    if constexpr (Op::kOperandScales) {
      p.scale_a = reinterpret_cast<typename Op::ElementCompute const *>(e.scale_a);
      p.scale_b = reinterpret_cast<typename Op::ElementCompute const *>(e.scale_b);
      p.scale_a_mode = e.scale_a_mode;
      p.scale_b_mode = e.scale_b_mode;
    }
    p.clamp_min = typename Op::ElementCompute(e.clamp_min);
    p.clamp_max = typename Op::ElementCompute(e.clamp_max);
    p.rows = e.rows > 0 ? e.rows : a.problem_size.m();
    p.columns = e.columns > 0 ? e.columns : a.problem_size.n();
  }

  GemmDescription desc_;
};

}  // namespace library
}  // namespace cutlass
