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
/// Requirements (TMA): A, B, C, D 16-byte aligned, leading dimensions and batch strides
/// multiples of 16 bytes; can_implement() checks them (Status::kErrorMisalignedOperand).
/// Any M, N, K >= 1: TMA zero-fills loads outside the problem and clips stores at M and N.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>
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
  static_assert(ClusterShape_::kM == 1 && ClusterShape_::kN == 1 && ClusterShape_::kK == 1,
                "GemmSm90: only 1x1x1 clusters are implemented");
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

  using Mainloop = collective::Sm90MmaTmaGmmaSS<ElementA, LayoutA, ElementB, LayoutB, TileShape, Stages, kCooperative>;
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
    Sm90TileScheduler scheduler;
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
    int const tiles = params.scheduler.tile_count();
    int const grid = tiles < sm_count ? tiles : sm_count;
    gemm_sm90_kernel<GemmSm90><<<grid, kThreads, kSharedBytes, stream>>>(params);
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
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
        arch::mbarrier_init(&smem.empty[s], Mainloop::kConsumersPerStage * 4);  // one arrive per consumer warp
      }
      CUTLASS_PRAGMA_UNROLL
      for (int c = 0; c < Mainloop::kConsumers; ++c) {
        arch::mbarrier_init(&smem.epilogue.source_full[c], 1);
        arch::mbarrier_init(&smem.mainloop_done[c], 4);   // the other consumer's four warps
      }
      arch::mbarrier_init_fence();
    }
    __syncthreads();

    if (warpgroup == 0) {
      arch::warpgroup_reg_dealloc<kProducerRegisters>();
      if (thread_in_wg == 0) producer(params, smem);
    } else {
      arch::warpgroup_reg_alloc<kConsumerRegisters>();
      consumer(params, smem, warpgroup - 1, thread_in_wg);
    }
#endif
  }

  /// One thread: for every k-block of every tile of this CTA, wait for a free stage, arm its
  /// full barrier with the stage's bytes and issue the TMA loads.
  CUTLASS_DEVICE static void producer(Params const &params, SharedStorage &smem) {
    int stage = 0;
    uint32_t phase = 0;
    int const tiles = params.scheduler.tile_count();
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int m_block, n_block, l;
      params.scheduler.coordinates(tile, m_block, n_block, l);
      for (int k_block = 0; k_block < params.k_tiles; ++k_block) {
        arch::mbarrier_wait(&smem.empty[stage], phase ^ 1);   // a fresh barrier passes parity 1
        arch::mbarrier_arrive_expect_tx(&smem.full[stage], Mainloop::kStageBytes);
        Mainloop::load(smem.mainloop, params.mainloop, stage, &smem.full[stage], m_block, n_block, k_block, l);
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
    bool const warp_leader = thread_in_wg % 32 == 0;
    int const tiles = params.scheduler.tile_count();
    int const first = kCooperative ? 0 : consumer;
    int const step = kCooperative ? 1 : 2;
    uint32_t order_phase = 0;
    for (int j = first; int64_t(blockIdx.x) + int64_t(j) * gridDim.x < tiles; j += step) {
      int const tile = blockIdx.x + j * gridDim.x;
      int m_block, n_block, l;
      params.scheduler.coordinates(tile, m_block, n_block, l);
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
        if (previous >= 0 && warp_leader) arch::mbarrier_arrive(&smem.empty[previous]);
        previous = stage;
        if (++stage == Stages) {
          stage = 0;
          phase ^= 1;
        }
      }
      arch::wgmma_wait_group<0>();
      fence_accumulators(acc);
      if (warp_leader) {
        arch::mbarrier_arrive(&smem.empty[previous]);
        if (!kCooperative) arch::mbarrier_arrive(&smem.mainloop_done[1 - consumer]);
      }

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
