/// @file cutlass/gemm/threadblock/simt_global_tile_loader.h
/// Predicated scalar loads of one operand's CTA tile (kTileMN x kTileK, MN = M for A, N for B)
/// from global memory into registers, and the store of those registers into the K-major shared
/// tile [kTileK][kSmemStride] (element (mn, k) at k * kSmemStride + mn), converted to SmemElement.
///
/// Global layout: kMNContiguous means MN is the contiguous dimension (A column-major "n",
/// B row-major "t"): element (mn, k) at mn + k * ld. Otherwise K is contiguous (A row-major,
/// B column-major): element (mn, k) at mn * ld + k. ld in elements, any value (alignment 1).
///
/// Thread map: the tile's elements are numbered along the contiguous dimension first
/// (e = contiguous + strided * kContiguous); thread t loads e = t + i * kThreads,
/// i = 0 .. kIterations-1. Consecutive threads read consecutive global addresses (coalesced).
/// When the lines split into 32-element runs that the warps can share evenly (an MN-contiguous
/// operand of a 64-, 128- or 256-wide tile), the warp-run map below is used instead: the same
/// coalescing, but a thread's loads along a line sit at constant offsets (immediates in the
/// address), which saves address registers and 64-bit adds in the mainloop (128x128x8 NN at
/// sm_90a: 601 instead of 606 loop instructions per K tile).
///
/// Two ways into shared memory:
///   load() + store()  through registers, converting to the shared element type (any arch, any type);
///   copy_async()      cp.async straight into the stage (sm_80 on, 4- or 8-byte elements stored
///                     unconverted), which frees the prefetch registers and the shared stores.
///
/// kSwapPairs: element (mn, k) goes to shared column mn ^ 1 instead of mn (adjacent rows or
/// columns swapped; see SimtPolicy::kSwapRowPairsA). A thread's iterations then differ by even
/// MN offsets only (static_assert), so the swap is applied once, to the thread's first column.
///
/// Predication: element (mn, k) is read only when mn < mn_extent and k < k_limit (k_limit is
/// the K residue for the first tile, kTileK for full tiles, 0 when there is no next tile);
/// every other element becomes zero, so the zero-filled rows and columns add nothing to the
/// accumulators. No address outside the operand is ever read.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cutlass/arch/memory_sm80.h"
#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename Element, bool kMNContiguous, int kTileMN, int kTileK, int kThreads, int kSmemStride,
          bool kSwapPairs = false>
class SimtGlobalTileLoader {
 public:
  static constexpr int kContiguous = kMNContiguous ? kTileMN : kTileK;
  static constexpr int kElements = kTileMN * kTileK;

  static_assert(kElements % kThreads == 0,
                "SIMT: each operand tile (tile M or N x tile K elements) must be a multiple of the thread count");
  static_assert(kThreads % kContiguous == 0 || kContiguous % kThreads == 0,
                "SIMT: the operand tile's contiguous extent (tile M/N or tile K) and the thread count must divide "
                "one another");
  static_assert(std::is_trivially_default_constructible<Element>::value,
                "SIMT: operand element types must be trivially default constructible (Element{} is zero)");

  static constexpr int kIterations = kElements / kThreads;

  /// Warp-run map, used when every line of the tile splits into whole 32-element runs and a
  /// warp's iterations cover whole lines: lane l of warp w takes contiguous index l + 32 r of
  /// line w * kLinesPerWarp + s for iteration i = s * kRuns + r. Each iteration is still one
  /// coalesced warp access, and a thread's iterations along a line differ by a constant
  /// (an immediate address offset) instead of a runtime multiple of ld. Otherwise (e.g. a
  /// K-contiguous operand, whose lines are only kTileK long) the element map is e = t + i * kThreads.
  static constexpr int kRuns = kContiguous / 32;
  static constexpr bool kWarpRuns =
      kContiguous % 32 == 0 && kThreads % 32 == 0 && kRuns > 0 && kIterations % (kRuns > 0 ? kRuns : 1) == 0;
  static constexpr int kLinesPerWarp = kWarpRuns ? kIterations / kRuns : 0;

  /// One tile's worth of a thread's elements, in global (storage) type.
  struct Fragment {
    Element data[kIterations];
  };

  /// @param ptr        the operand's element (0, 0) (batch offset applied)
  /// @param ld         leading dimension, elements
  /// @param mn_begin   first M (A) or N (B) index of this CTA's tile
  /// @param mn_extent  M (A) or N (B) of the problem
  CUTLASS_DEVICE SimtGlobalTileLoader(Element const *ptr, int64_t ld, int mn_begin, int mn_extent, int thread_idx)
      : ld_(ld), strided_step_(kStridedStep * ld) {
    int contiguous = kWarpRuns ? thread_idx % 32 : thread_idx % kContiguous;
    int strided = kWarpRuns ? (thread_idx / 32) * kLinesPerWarp : thread_idx / kContiguous;
    int mn = kMNContiguous ? contiguous : strided;
    k_ = kMNContiguous ? strided : contiguous;
    int64_t const mn_global = int64_t(mn_begin) + mn;
    ptr_ = ptr + (kMNContiguous ? (mn_global + int64_t(k_) * ld) : (mn_global * ld + k_));
    smem_offset_ = k_ * kSmemStride + (kSwapPairs ? mn ^ 1 : mn);
    int const mn_left = mn_extent - mn_begin;  // no overflow for any mn_extent <= INT_MAX
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kIterations; ++i) mn_valid_[i] = mn + mn_delta(i) < mn_left;
  }

  /// Loads the current tile's first k_limit (0 .. kTileK) K indices into registers.
  CUTLASS_DEVICE void load(Fragment &frag, int k_limit) const {
    // NOTE: one running pointer, moved by the single strided step, instead of a 64-bit product
    // per iteration: keeps the loop-invariant offsets out of registers.
    Element const *ptr = ptr_;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kIterations; ++i) {
      if (i > 0 && strided_delta(i) != strided_delta(i - 1)) ptr += strided_step_;
      frag.data[i] = Element{};
      if (valid(i, k_limit)) frag.data[i] = ptr[contiguous_delta(i)];
    }
  }

#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
  /// Copies the current tile's first k_limit (0 .. kTileK) K indices into one stage of the
  /// shared tile with cp.async, unconverted; the rest of the thread's elements become zero.
  /// The caller commits the group and waits for it before the barrier that publishes the stage.
  CUTLASS_DEVICE void copy_async(Element *smem_tile, int k_limit) const {
    static_assert(sizeof(Element) == 4 || sizeof(Element) == 8, "cp.async copies 4- or 8-byte elements");
    uint32_t const smem = arch::shared_address(smem_tile + smem_offset_);
    Element const *ptr = ptr_;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kIterations; ++i) {
      if (i > 0 && strided_delta(i) != strided_delta(i - 1)) ptr += strided_step_;
      arch::cp_async_zfill<int(sizeof(Element))>(
          smem + uint32_t((k_delta(i) * kSmemStride + mn_delta(i)) * int(sizeof(Element))), ptr + contiguous_delta(i),
          valid(i, k_limit));
    }
  }
#endif

  /// Moves the tile by k elements along K.
  CUTLASS_DEVICE void advance(int k) { ptr_ += kMNContiguous ? int64_t(k) * ld_ : int64_t(k); }

  /// Stores a fragment into one stage of the shared tile, [kTileK][kSmemStride] of SmemElement.
  template <typename SmemElement>
  CUTLASS_DEVICE void store(Fragment const &frag, SmemElement *smem_tile) const {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kIterations; ++i) {
      smem_tile[smem_offset_ + k_delta(i) * kSmemStride + mn_delta(i)] =
          NumericConverter<SmemElement, Element>::convert(frag.data[i]);
    }
  }

 private:
  /// Whether iteration i's element lies in the problem and among the first k_limit K indices.
  CUTLASS_DEVICE bool valid(int i, int k_limit) const { return mn_valid_[i] && k_ + k_delta(i) < k_limit; }

  /// Strided distance between iterations whose strided index differs: 1 in the warp-run map;
  /// else kThreads / kContiguous when the threads cover whole contiguous lines, else 1
  /// (ds(i + 1) - ds(i) is 0 or this).
  static constexpr int kStridedStep = (!kWarpRuns && kThreads >= kContiguous) ? kThreads / kContiguous : 1;

  /// Offset of iteration i from iteration 0 along the contiguous and the strided dimension.
  /// Exact because one of kThreads, kContiguous divides the other (static_assert above).
  CUTLASS_HOST_DEVICE static constexpr int contiguous_delta(int i) {
    return kWarpRuns ? (i % (kRuns > 0 ? kRuns : 1)) * 32 : (i * kThreads) % kContiguous;
  }
  CUTLASS_HOST_DEVICE static constexpr int strided_delta(int i) {
    return kWarpRuns ? i / (kRuns > 0 ? kRuns : 1) : (i * kThreads) / kContiguous;
  }
  CUTLASS_HOST_DEVICE static constexpr int mn_delta(int i) { return kMNContiguous ? contiguous_delta(i) : strided_delta(i); }
  CUTLASS_HOST_DEVICE static constexpr int k_delta(int i) { return kMNContiguous ? strided_delta(i) : contiguous_delta(i); }

  CUTLASS_HOST_DEVICE static constexpr bool mn_deltas_even() {
    for (int i = 0; i < kIterations; ++i) {
      if (mn_delta(i) % 2 != 0) return false;
    }
    return true;
  }
  static_assert(!kSwapPairs || (kTileMN % 2 == 0 && mn_deltas_even()),
                "SIMT: swapping adjacent shared columns needs an even tile M/N and even per-iteration M/N steps");

  Element const *ptr_;            ///< this thread's iteration-0 element of the current tile
  int64_t ld_;
  int64_t strided_step_;          ///< kStridedStep * ld: global distance of one strided step
  int k_;                         ///< this thread's iteration-0 K index within the tile
  int smem_offset_;               ///< this thread's iteration-0 element of a shared stage
  bool mn_valid_[kIterations];    ///< iteration i's M/N index lies inside the problem
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
