/// @file cutlass/gemm/kernel/gemm_sm90.h
/// GemmSm90: the Hopper (sm_90a) warp-specialized, persistent GEMM. 384 threads per CTA, one CTA
/// per SM, walking output tiles in the Sm90TileScheduler order:
///   warpgroup 0 (producer, 40 registers): one thread issues the TMA loads of A and B into a ring
///     of kStages shared-memory stages, each guarded by a full and an empty mbarrier;
///   warpgroups 1, 2 (consumers, 232 registers): wgmma from the stages into f32 accumulators,
///     then the TMA epilogue (sm90_epilogue_tma.h). Cooperative: the two split every tile.
///     Ping-pong: they take alternate tiles, and an order barrier lets a consumer start a tile's
///     mainloop only when the other has finished the previous tile's, so one consumer's mainloop
///     runs while the other stores its tile. (It also keeps each consumer within one phase of the
///     stage barriers: an mbarrier parity wait cannot tell phase p from phase p - 2.)
/// The producer runs ahead into the next tile while the consumers are in the epilogue.
/// Clusters (ClusterShape 2x1x1 or 1x2x1): the grid is whole clusters, launched with the cluster
/// dimension attribute; the CTAs of a cluster take neighbouring tiles that share B (2x1) or A
/// (1x2) in the same iteration (Sm90TileScheduler), and each loads its slice of the shared tile
/// once, multicast into both CTAs' stages. So a stage may be refilled only when the consumers of
/// every CTA it is written into have released it: consumer warps arrive on the empty barrier of
/// every CTA of the cluster (lane r on rank r's, through the shared::cluster window), and the
/// empty barriers count the arrivals of all of them. Cluster barriers after the barrier set-up
/// (no CTA multicasts into or arrives on a peer's barrier before it is initialized) and before
/// exit (no CTA leaves while a peer may still arrive on its barriers).
/// Requirements (TMA): A, B, C, D 16-byte aligned, leading dimensions and batch strides
/// multiples of 16 bytes; can_implement() checks them (Status::kErrorMisalignedOperand).
/// Any M, N, K >= 1: TMA zero-fills loads outside the problem and clips stores at M and N.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <atomic>
#include <type_traits>

#include "cutlass/arch/arch.h"
#include "cutlass/arch/tma_sm90.h"
#include "cutlass/arch/wgmma_sm90.h"
#include "cutlass/epilogue/collective/sm90_epilogue_tma.h"
#include "cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h"
#include "cutlass/gemm/dispatch_policy.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"

namespace cutlass {
namespace gemm {
namespace kernel {

template <typename Kernel>
__global__ void __launch_bounds__(384, 1) gemm_sm90_kernel(__grid_constant__ typename Kernel::Params const params) {
  Kernel::run_device(params);
}

template <typename ElementA_, typename LayoutA_, typename ElementB_, typename LayoutB_, typename ElementC_,
          typename ElementAccumulator_, typename TileShape, typename ClusterShape_, int Stages,
          typename KernelSchedule, typename EpilogueOutputOp_>
struct GemmSm90 {
  static constexpr bool kCooperative = std::is_same<KernelSchedule, KernelTmaWarpSpecializedCooperative>::value;
  static_assert(kCooperative || std::is_same<KernelSchedule, KernelTmaWarpSpecializedPingpong>::value,
                "GemmSm90: the schedule must be KernelTmaWarpSpecializedCooperative or KernelTmaWarpSpecializedPingpong");
  static_assert(ClusterShape_::kK == 1 && ((ClusterShape_::kM == 1 && ClusterShape_::kN == 1) ||
                                            (ClusterShape_::kM == 2 && ClusterShape_::kN == 1) ||
                                            (ClusterShape_::kM == 1 && ClusterShape_::kN == 2)),
                "GemmSm90: clusters 1x1x1, 2x1x1 and 1x2x1 are implemented");
  static_assert(std::is_same<ElementAccumulator_, float>::value, "GemmSm90: f32 accumulators");

  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB = ElementB_;
  using LayoutB = LayoutB_;
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using OperatorClass = arch::OpClassTensorOp;
  using MathOperator = arch::OpMultiplyAdd;
  using ClusterShape = ClusterShape_;

  static constexpr int kClusterM = ClusterShape_::kM;
  static constexpr int kClusterN = ClusterShape_::kN;
  static constexpr int kClusterSize = kClusterM * kClusterN;

  using Mainloop = collective::Sm90MmaTmaGmmaSS<ElementA, LayoutA, ElementB, LayoutB, TileShape, Stages, kCooperative,
                                                kClusterM, kClusterN>;
  using TileScheduler = Sm90TileScheduler<kClusterM, kClusterN>;
  using Epilogue = epilogue::collective::Sm90EpilogueTma<ElementC, EpilogueOutputOp, Mainloop::kWgM, Mainloop::kWgN,
                                                         Mainloop::kConsumers>;

  using ThreadblockShape = TileShape;
  /// The part of a tile one consumer warpgroup computes (cooperative: warp_count = 2 warpgroups).
  using WarpShape = GemmShape<Mainloop::kWgM, Mainloop::kWgN, TileShape::kK>;
  using InstructionShape = GemmShape<64, Mainloop::kWgN, 16>;

  static constexpr int kStages = Stages;
  static constexpr int kAlignmentA = 16 / int(sizeof(ElementA));
  static constexpr int kAlignmentB = 16 / int(sizeof(ElementB));
  static constexpr int kAlignmentC = 16 / int(sizeof(ElementC));
  static constexpr int kMinComputeCapability = 90;
  static constexpr int kMaxComputeCapability = 90;   // sm_90a code runs on sm_90 only

  static constexpr int kThreads = 384;
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;

  struct SharedStorage {
    typename Mainloop::SharedStorage mainloop;
    typename Epilogue::SharedStorage epilogue;
    uint64_t full[Stages];
    uint64_t empty[Stages];
    uint64_t mainloop_done[2];   ///< ping-pong order barrier: consumer c waits on [c]
  };
  static constexpr int kSharedBytes = int(sizeof(SharedStorage)) + 1024;   // + alignment slack

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    TileScheduler scheduler;
    int k_tiles;
  };

  // ---- host --------------------------------------------------------------------------------

  static Status make_params(Arguments const &args, Params &params) {
    auto const &p = args.problem_size;
    params.scheduler.m_tiles = (p.m() + TileShape::kM - 1) / TileShape::kM;
    params.scheduler.n_tiles = (p.n() + TileShape::kN - 1) / TileShape::kN;
    params.scheduler.batch = args.batch_count;
    params.k_tiles = (p.k() + TileShape::kK - 1) / TileShape::kK;
    if (!Mainloop::make_params(args, params.mainloop) || !Epilogue::make_params(args, params.epilogue)) {
      return Status::kErrorMisalignedOperand;
    }
    return Status::kSuccess;
  }

  static int device_shared_memory_limit() {
    int device = 0, bytes = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return bytes;
  }

  static Status can_implement(Arguments const &args) {
    Status status = can_implement_common<GemmSm90>(args);
    if (status != Status::kSuccess) return status;
    if (kSharedBytes > device_shared_memory_limit()) return Status::kErrorNotSupported;
    if (int64_t(args.problem_size.m()) * args.problem_size.n() > (int64_t(1) << 31) * TileShape::kM) {
      return Status::kErrorNotSupported;
    }
    Params params;
    return make_params(args, params);
  }

  static size_t get_workspace_size(Arguments const &) { return 0; }

  static Status run(Arguments const &args, void *, cudaStream_t stream) {
    Params params;
    Status status = make_params(args, params);
    if (status != Status::kSuccess) return status;
    static bool const attribute_set =
        cudaFuncSetAttribute(gemm_sm90_kernel<GemmSm90>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes) ==
        cudaSuccess;
    if (!attribute_set) return Status::kErrorInternal;
    int device = 0, sm_count = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
    int const units = params.scheduler.unit_count();
    if (kClusterSize == 1) {
      int const grid = units < sm_count ? units : sm_count;
      gemm_sm90_kernel<GemmSm90><<<grid, kThreads, kSharedBytes, stream>>>(params);
      return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
    }
    // Whole clusters, as many as can be resident at once (SMs of a GPC pair up; a GPC with an
    // odd number of free SMs leaves one idle), each walking cluster tiles.
    int const resident = max_active_clusters(device, sm_count);
    int const clusters = units < resident ? units : resident;
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t const config = cluster_launch_config(clusters, stream, attribute);
    void *kernel_args[] = {&params};
    if (cudaLaunchKernelExC(&config, reinterpret_cast<void const *>(gemm_sm90_kernel<GemmSm90>), kernel_args) !=
        cudaSuccess) {
      cudaGetLastError();
      return Status::kErrorInternal;
    }
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

  /// The launch of `clusters` clusters of this kernel on `stream`; the configuration points at
  /// `attribute` (the cluster dimension), which must outlive it.
  static cudaLaunchConfig_t cluster_launch_config(int clusters, cudaStream_t stream, cudaLaunchAttribute &attribute) {
    attribute = {};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = kClusterSize;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(clusters * kClusterSize), 1, 1);
    config.blockDim = dim3(kThreads, 1, 1);
    config.dynamicSmemBytes = kSharedBytes;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    return config;
  }

  /// Clusters of this kernel that fit on the device at once (cudaOccupancyMaxActiveClusters),
  /// queried once per device; sm_count / cluster size when the query fails.
  static int max_active_clusters(int device, int sm_count) {
    constexpr int kDevices = 64;
    static std::atomic<int> cached[kDevices] = {};
    if (device >= 0 && device < kDevices) {
      int const known = cached[device].load(std::memory_order_relaxed);
      if (known > 0) return known;
    }
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t const config = cluster_launch_config(sm_count / kClusterSize, nullptr, attribute);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<void const *>(gemm_sm90_kernel<GemmSm90>),
                                       &config) != cudaSuccess ||
        clusters < 1) {
      cudaGetLastError();
      clusters = sm_count / kClusterSize > 0 ? sm_count / kClusterSize : 1;
    }
    if (device >= 0 && device < kDevices) cached[device].store(clusters, std::memory_order_relaxed);
    return clusters;
  }

#if defined(__CUDACC__)
  // ---- device ------------------------------------------------------------------------------

  CUTLASS_DEVICE static void run_device(Params const &params) {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
    extern __shared__ char shared_raw[];
    uintptr_t const aligned = (reinterpret_cast<uintptr_t>(shared_raw) + 1023) & ~uintptr_t(1023);
    SharedStorage &smem = *reinterpret_cast<SharedStorage *>(aligned);

    int const warpgroup = threadIdx.x / 128;
    int const thread_in_wg = threadIdx.x % 128;
    if (threadIdx.x == 0) {
      arch::prefetch_tensor_map(&params.mainloop.tma_A);
      arch::prefetch_tensor_map(&params.mainloop.tma_B);
      arch::prefetch_tensor_map(&params.epilogue.tma_D);
      CUTLASS_PRAGMA_UNROLL
      for (int s = 0; s < Stages; ++s) {
        arch::mbarrier_init(&smem.full[s], 1);                          // the producer's arrive + tx bytes
        // one arrive per consumer warp of every CTA of the cluster (the stage's slices land in all)
        arch::mbarrier_init(&smem.empty[s], Mainloop::kConsumersPerStage * 4 * kClusterSize);
      }
      CUTLASS_PRAGMA_UNROLL
      for (int c = 0; c < Mainloop::kConsumers; ++c) {
        arch::mbarrier_init(&smem.epilogue.source_full[c], 1);
        arch::mbarrier_init(&smem.mainloop_done[c], 4);   // the other consumer's four warps
      }
      arch::mbarrier_init_fence();
    }
    if (kClusterSize > 1) {
      // the peers' barriers are initialized before anyone multicasts into or arrives on them
      arch::cluster_arrive_relaxed();
      arch::cluster_wait();
    } else {
      __syncthreads();
    }

    if (warpgroup == 0) {
      arch::warpgroup_reg_dealloc<kProducerRegisters>();
      if (thread_in_wg == 0) producer(params, smem);
    } else {
      arch::warpgroup_reg_alloc<kConsumerRegisters>();
      consumer(params, smem, warpgroup - 1, thread_in_wg);
    }
    if (kClusterSize > 1) {
      // no CTA exits while a peer may still arrive on its barriers
      arch::cluster_arrive();
      arch::cluster_wait();
    }
#endif
  }

  /// This CTA's cluster (the scheduler's walker) and the number of clusters launched.
  CUTLASS_DEVICE static int cluster_index() { return kClusterSize == 1 ? int(blockIdx.x) : int(blockIdx.x) / kClusterSize; }
  CUTLASS_DEVICE static int cluster_stride() { return kClusterSize == 1 ? int(gridDim.x) : int(gridDim.x) / kClusterSize; }

  /// This CTA's (rank_m, rank_n) in its cluster; rank = rank_m + rank_n * kClusterM.
  CUTLASS_DEVICE static void cluster_position(int &rank_m, int &rank_n) {
    int const rank = kClusterSize == 1 ? 0 : int(arch::cluster_cta_rank());
    rank_m = rank % kClusterM;
    rank_n = rank / kClusterM;
  }

  /// A consumer warp gives stage `stage` back: one arrive on the empty barrier of every CTA of the
  /// cluster (lane r arrives on rank r's), as every CTA's producer writes into this CTA's stage.
  CUTLASS_DEVICE static void release_stage(SharedStorage &smem, int stage, int lane) {
    if (kClusterSize == 1) {
      if (lane == 0) arch::mbarrier_arrive(&smem.empty[stage]);
    } else {
      if (lane < kClusterSize) arch::mbarrier_arrive_cluster(&smem.empty[stage], uint32_t(lane));
    }
  }

  /// One thread: for every k-block of every tile of this CTA, wait for a free stage, arm its
  /// full barrier with the stage's bytes and issue the TMA loads.
  CUTLASS_DEVICE static void producer(Params const &params, SharedStorage &smem) {
    int stage = 0;
    uint32_t phase = 0;
    int rank_m, rank_n;
    cluster_position(rank_m, rank_n);
    int const units = params.scheduler.unit_count();
    for (int unit = cluster_index(); unit < units; unit += cluster_stride()) {
      int m_block, n_block, l;
      params.scheduler.coordinates(unit, rank_m, rank_n, m_block, n_block, l);
      for (int k_block = 0; k_block < params.k_tiles; ++k_block) {
        arch::mbarrier_wait(&smem.empty[stage], phase ^ 1);   // a fresh barrier passes parity 1
        arch::mbarrier_arrive_expect_tx(&smem.full[stage], Mainloop::kStageBytes);   // all slices, all sources
        Mainloop::load(smem.mainloop, params.mainloop, stage, &smem.full[stage], m_block, n_block, k_block, l,
                       rank_m, rank_n);
        if (++stage == Stages) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  }

  /// One consumer warpgroup: for each of its tiles, the mainloop over the stages (one
  /// wgmma-group in flight; a stage is released once the group after it is issued and it has
  /// completed), then the epilogue. Cooperative consumers take every tile of the CTA; ping-pong
  /// consumer c takes the CTA's tiles j = c, c + 2, ..., whose k-blocks start at ring position
  /// j * k_tiles, after the other consumer's mainloop of tile j - 1 is done.
  CUTLASS_DEVICE static void consumer(Params const &params, SharedStorage &smem, int consumer, int thread_in_wg) {
    float acc[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom];
    typename Epilogue::State epilogue_state;
    int const lane = thread_in_wg % 32;
    bool const warp_leader = lane == 0;
    int rank_m, rank_n;
    cluster_position(rank_m, rank_n);
    int const units = params.scheduler.unit_count();
    int const first_unit = cluster_index();
    int const unit_stride = cluster_stride();
    int const first = kCooperative ? 0 : consumer;
    int const step = kCooperative ? 1 : 2;
    uint32_t order_phase = 0;
    for (int j = first; int64_t(first_unit) + int64_t(j) * unit_stride < units; j += step) {
      int const unit = first_unit + j * unit_stride;
      int m_block, n_block, l;
      params.scheduler.coordinates(unit, rank_m, rank_n, m_block, n_block, l);
      int64_t const position = int64_t(j) * params.k_tiles;
      int stage = int(position % Stages);
      uint32_t phase = uint32_t(position / Stages) & 1;
      if (!kCooperative && j > 0) {
        arch::mbarrier_wait(&smem.mainloop_done[consumer], order_phase);
        order_phase ^= 1;
      }
      int previous = -1;
      for (int k_block = 0; k_block < params.k_tiles; ++k_block) {
        arch::mbarrier_wait(&smem.full[stage], phase);
        fence_accumulators(acc);
        Mainloop::mma(smem.mainloop, stage, consumer, acc, k_block > 0);
        fence_accumulators(acc);
        arch::wgmma_wait_group<1>();
        if (previous >= 0) release_stage(smem, previous, lane);
        previous = stage;
        if (++stage == Stages) {
          stage = 0;
          phase ^= 1;
        }
      }
      arch::wgmma_wait_group<0>();
      fence_accumulators(acc);
      release_stage(smem, previous, lane);
      if (warp_leader && !kCooperative) arch::mbarrier_arrive(&smem.mainloop_done[1 - consumer]);

      int const row0 = m_block * TileShape::kM + Mainloop::consumer_row(consumer);
      int const col0 = n_block * TileShape::kN + Mainloop::consumer_column(consumer);
      Epilogue::store(smem.epilogue, params.epilogue, consumer, thread_in_wg, acc, row0, col0, l, epilogue_state);
    }
    if (thread_in_wg == 0) Epilogue::drain();
  }

  CUTLASS_DEVICE static void fence_accumulators(float (&acc)[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom]) {
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < Mainloop::kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < Mainloop::kAccumulatorsPerAtom; ++i) arch::wgmma_fence_operand(acc[a][i]);
    }
  }
#endif
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
