/// @file cutlass/epilogue/collective/sm90_epilogue_tma.h
/// The sm90 epilogue: each consumer warpgroup turns its accumulators into D through shared
/// memory and TMA stores, one box at a time:
///   [C box --TMA load--> smem, when beta != 0] -> D = op(acc, C) written to the same smem box by
///   the threads that own the elements (16-bit outputs: stmatrix, 8 elements per lane per
///   instruction, C read back with ldmatrix; f32 and fp8: one store per element) ->
///   fence.proxy.async -> TMA store of the box.
/// Boxes are kBoxM x kBoxN of column-major D (kBoxM = one 128-byte swizzle row: 64 16-bit or
/// 32 f32 / s32 elements; kBoxN 32 columns, 16 for a warpgroup N of 208), double-buffered per warpgroup so a store drains while the next box fills.
/// Accumulators are f32, or s32 for the s8 kernels (s32 outputs through the per-element path).
/// TMA clips the stores at the problem's M and N, so partial tiles need no predication, and the
/// stores of the last tile drain while the next tile's mainloop runs.
/// store_transposed writes a part whose accumulators hold D^T (fragment rows are D's columns), through
/// the same boxes: stmatrix without .trans for 16-bit outputs (half the warps own each box's columns).
/// store_transposed_direct writes such a part without shared memory or TMA, each thread its own
/// elements (the swap-AB tiles, whose 16 or 32 rows of D are narrower than a 16-bit box).
/// D may alias C: each box of C is read into shared memory before the same box of D is written.
/// The output operator's fused pieces (thread/linear_combination.h) are applied per element in
/// registers; the tile's slices of the bias / alpha vectors are staged in shared memory once per
/// tile (global loads per box made the consumer spill); the aux output (if any) is written
/// straight to global memory by the element's owner.
#pragma once

#include <cuda.h>

#include <cstring>
#include <type_traits>
#include <utility>

#include "cutlass/arch/memory_sm80.h"
#include "cutlass/arch/memory_sm90.h"
#include "cutlass/arch/tma_sm90.h"
#include "cutlass/cutlass.h"
#include "cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h"

namespace cutlass {
namespace epilogue {
namespace collective {

/// Shared-memory copies of one tile's per-row and per-column vector terms, per consumer
/// (empty unless the output operator has bias or alpha vectors).
template <typename Terms, int WgM, int WgN, int Consumers, bool kEnabled>
struct Sm90EpilogueVectors {};
template <typename Terms, int WgM, int WgN, int Consumers>
struct Sm90EpilogueVectors<Terms, WgM, WgN, Consumers, true> {
  Terms row[Consumers][WgM];
  Terms column[Consumers][WgN];
};

template <typename ElementC, typename EpilogueOutputOp, int WgM, int WgN, int Consumers, typename Accumulator = float>
struct Sm90EpilogueTma {
  static constexpr int kBoxM = 128 / int(sizeof(ElementC));
  /// 32 columns, or 16 where the warpgroup N is not a multiple of 32 (N = 208).
  static constexpr int kBoxN = WgN % 32 == 0 ? 32 : 16;
  static_assert(WgM % kBoxM == 0 && WgN % kBoxN == 0, "sm90 epilogue: the warpgroup tile must be whole boxes");
  static constexpr int kBoxesM = WgM / kBoxM;
  static constexpr int kBoxesN = WgN / kBoxN;
  static constexpr int kBoxBytes = kBoxM * kBoxN * int(sizeof(ElementC));
  static constexpr int kAtomsM = WgM / 64;
  static constexpr int kAccumulatorsPerAtom = WgN / 2;
  /// 16-bit outputs go to shared memory through stmatrix (8 elements per lane per instruction).
  /// Defining CUTLASS_SM90_EPILOGUE_STORE_PER_ELEMENT selects the one-store-per-element path for
  /// every type (kept for A/B measurements, docs/NOTES.md).
#if defined(CUTLASS_SM90_EPILOGUE_STORE_PER_ELEMENT)
  static constexpr bool kStmatrix = false;
#else
  static constexpr bool kStmatrix = sizeof(ElementC) == 2 && kBoxM == 64;
#endif

  using Terms = typename EpilogueOutputOp::Terms;
  /// Fused epilogues with bias or alpha vectors stage each tile's slices of them here.
  static constexpr bool kHasVectors = EpilogueOutputOp::kHasVectors;

  struct SharedStorage {
    alignas(1024) ElementC buffer[Consumers][2][kBoxM * kBoxN];
    uint64_t source_full[Consumers];
    Sm90EpilogueVectors<Terms, WgM, WgN, Consumers, kHasVectors> vectors;
  };

  /// D and C as plain column-major M x N matrices (elements), for store_transposed_direct.
  struct DirectOutput {
    ElementC *D;
    ElementC const *C;
    int64_t ldd, ldc, batch_stride_D, batch_stride_C;
    int m, n;
  };

  struct Params {
    CUtensorMap tma_C;
    CUtensorMap tma_D;
    typename EpilogueOutputOp::Params output_op;
    bool has_source_pointer;
    DirectOutput direct;   ///< set by make_direct_params only (the kernels that store without TMA)
  };

  /// Per-warpgroup progress kept across tiles by the consumer.
  struct State {
    int box = 0;              ///< boxes stored so far (selects the buffer)
    uint32_t source_phase = 0;
  };

  // ---- host --------------------------------------------------------------------------------

  using MapShape = gemm::collective::TmaMapShape;
  /// The geometry of D's (or, with a leading dimension ldc and batch stride, C's) tensor map:
  /// column-major M x N (make_params; a grouped launch's prologue writes it on the device).
  template <typename Arguments>
  static MapShape map_shape(Arguments const &args, int64_t ld, int64_t batch_stride) {
    uint64_t const n = args.problem_size.n();
    int const eb = int(sizeof(ElementC));
    return {uint64_t(args.problem_size.m()), n, uint64_t(ld) * eb,
            gemm::collective::tma_batch_stride_bytes(args.batch_count, batch_stride, ld, int64_t(n), eb)};
  }

  /// The output operator's parameters and whether C is read, without the tensor maps: into Params,
  /// or any struct with those two members (GemmSm90Grouped's GroupRecord, which carries them per group).
  template <typename Arguments, typename OperatorParams>
  static void make_operator_params(Arguments const &args, OperatorParams &params) {
    params.output_op = args.epilogue;
    params.has_source_pointer = args.ptr_C != nullptr;
  }

  template <typename Arguments>
  static bool make_params(Arguments const &args, Params &params) {
    auto const type = gemm::collective::TmaDataType<ElementC>::kValue;
    make_operator_params(args, params);
    MapShape const d = map_shape(args, args.ldd, args.batch_stride_D);
    bool ok = arch::make_tensor_map_3d(&params.tma_D, type, args.ptr_D, d.inner, d.outer, args.batch_count, d.stride,
                                       d.batch_stride, kBoxM, kBoxN);
    if (ok && params.has_source_pointer) {
      MapShape const c = map_shape(args, args.ldc, args.batch_stride_C);
      ok = arch::make_tensor_map_3d(&params.tma_C, type, args.ptr_C, c.inner, c.outer, args.batch_count, c.stride,
                                    c.batch_stride, kBoxM, kBoxN);
    }
    return ok;
  }

  /// The output operator and D / C for store_transposed_direct, without tensor maps (so D and C
  /// need no TMA alignment).
  template <typename Arguments>
  static void make_direct_params(Arguments const &args, Params &params) {
    make_operator_params(args, params);
    params.direct = {args.ptr_D, args.ptr_C, args.ldd, args.ldc, args.batch_stride_D, args.batch_stride_C,
                     args.problem_size.m(), args.problem_size.n()};
  }

#if defined(__CUDACC__)
  /// Byte offset of element (r, c) of a box: column c is one 128-byte row; the 16-byte chunk
  /// index is XORed with c mod 8 (the TMA 128B swizzle, Swizzle<3,4,3> on byte offsets).
  CUTLASS_DEVICE static int swizzled_offset(int r, int c) {
    int const byte = r * int(sizeof(ElementC));
    return c * 128 + (((byte >> 4) ^ (c & 7)) << 4) + (byte & 15);
  }

  /// Writes warpgroup `consumer`'s accumulators (rows [row0, row0 + WgM), columns
  /// [col0, col0 + WgN) of D in batch l) through the box buffers. Called by all 128 threads.
  CUTLASS_DEVICE static void store(SharedStorage &smem, Params const &params, int consumer, int thread_in_wg,
                                   Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], int row0, int col0, int l,
                                   State &state) {
    store_boxes<false>(smem, params, consumer, thread_in_wg, acc, row0, col0, l, state);
  }

  /// As store, for accumulators that hold the transposed part (a kernel that ran D^T = B^T A^T on
  /// its tile, the block-scaled kernels' swapped promotion): fragment row r is column col0 + r of D,
  /// fragment column c is row row0 + c, so the part is WgN rows x WgM columns of D (its vector
  /// terms staged in each other's arrays, which then fit exactly); one 64-row atom (WgM == 64).
  CUTLASS_DEVICE static void store_transposed(SharedStorage &smem, Params const &params, int consumer,
                                              int thread_in_wg, Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom],
                                              int row0, int col0, int l, State &state) {
    static_assert(kAtomsM == 1 && WgN % kBoxM == 0 && WgM % kBoxN == 0 && kBoxN % 16 == 0,
                  "sm90 epilogue: a transposed part is one atom of whole boxes");
    store_boxes<true>(smem, params, consumer, thread_in_wg, acc, row0, col0, l, state);
  }

  /// As store_transposed, for a part too narrow for a 16-bit box (a swap-AB tile's WgN = 16 or 32
  /// rows of D, under kBoxM = 64): no shared memory, no TMA; each thread computes its own elements and
  /// writes them to D (params.direct), reading C's the same way, clipped at M and N. Fragment
  /// element 4i + 2h + e of atom a of a thread is fragment row 64a + 16 warp + lane / 4 + 8h
  /// (thread_row; column col0 + that of D) and fragment column 8i + 2 (lane % 4) + e (row row0 +
  /// that of D; PTX ISA, wgmma m64nNk16 D fragment), so a quad of lanes writes 8 consecutive
  /// elements of a column. Called by all 128 threads; D may alias C (each element is read, then
  /// written, by one thread).
  CUTLASS_DEVICE static void store_transposed_direct(Params const &params, int thread_in_wg,
                                                     Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], int row0,
                                                     int col0, int l) {
    EpilogueOutputOp output_op(params.output_op);
    output_op.set_batch(l);
    DirectOutput const &out = params.direct;
    bool const source = params.has_source_pointer && output_op.is_source_needed();
    int const warp = thread_in_wg / 32, lane = thread_in_wg % 32;
    ElementC *const d = out.D + int64_t(l) * out.batch_stride_D;
    ElementC const *const c = source ? out.C + int64_t(l) * out.batch_stride_C : nullptr;
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        int const n = col0 + thread_row(warp, lane, a, h);
        if (n >= out.n) continue;
        Terms const ct = output_op.column_terms(n);
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < WgN / 8; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int e = 0; e < 2; ++e) {
            int const m = row0 + 8 * i + 2 * (lane % 4) + e;
            if (m >= out.m) continue;
            Terms const rt = output_op.row_terms(m);
            Accumulator const value = acc[a][4 * i + 2 * h + e];
            ElementC &target = d[int64_t(n) * out.ldd + m];
            target = output_op(value, source, source ? c[int64_t(n) * out.ldc + m] : ElementC(), rt, ct, m, n);
          }
        }
      }
    }
    output_op.end_tile();
  }

  /// f(std::integral_constant<int, i>) for each i of the sequence, in order.
  template <typename F, int... I>
  CUTLASS_DEVICE static void each_index(std::integer_sequence<int, I...>, F &&f) {
    (f(std::integral_constant<int, I>{}), ...);
  }

  /// The box loop of store (kTransposed false) and store_transposed (true).
  template <bool kTransposed>
  CUTLASS_DEVICE static void store_boxes(SharedStorage &smem, Params const &params, int consumer, int thread_in_wg,
                                         Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], int row0, int col0,
                                         int l, State &state) {
    // boxes along D's rows and columns: the part is WgM x WgN of D, or WgN x WgM transposed
    constexpr int kAlongM = (kTransposed ? WgN : WgM) / kBoxM, kAlongN = (kTransposed ? WgM : WgN) / kBoxN;
    EpilogueOutputOp output_op(params.output_op);
    output_op.set_batch(l);
    bool const source = params.has_source_pointer && output_op.is_source_needed();
    int const warp = thread_in_wg / 32, lane = thread_in_wg % 32;
    int const barrier_id = 1 + consumer;
    bool const leader = thread_in_wg == 0;

    stage_vectors<kTransposed>(smem, output_op, consumer, thread_in_wg, row0, col0);   // read after the first box's barrier

    // bm as a compile-time index (each_index), not a pragma'd loop: store_box_stmatrix indexes the
    // accumulators by it, and a loop the compiler leaves rolled (it did in the grouped 256x128
    // kernel, s24) puts all of them in local memory.
    each_index(std::make_integer_sequence<int, kAlongM>{}, [&](auto bm_index) {
      constexpr int bm = decltype(bm_index)::value;
      CUTLASS_PRAGMA_UNROLL
      for (int bn = 0; bn < kAlongN; ++bn) {
        ElementC *buffer = smem.buffer[consumer][state.box & 1];
        if (leader) arch::tma_store_wait_read<1>();   // the store that last used this buffer is done reading
        arch::named_barrier_sync(barrier_id, 128);
        if (source) {
          if (leader) {
            arch::mbarrier_arrive_expect_tx(&smem.source_full[consumer], kBoxBytes);
            arch::tma_load_3d(buffer, &params.tma_C, row0 + bm * kBoxM, col0 + bn * kBoxN, l,
                              &smem.source_full[consumer]);
          }
          arch::mbarrier_wait(&smem.source_full[consumer], state.source_phase);
          state.source_phase ^= 1;
        }
        if constexpr (kStmatrix) {
          store_box_stmatrix<kTransposed>(smem, output_op, source, consumer, warp, lane, acc, row0, col0, bm, bn,
                                          buffer);
        } else {
          store_box_per_element<kTransposed>(smem, output_op, source, consumer, warp, lane, acc, row0, col0, bm, bn,
                                             buffer);
        }
        arch::fence_view_async_shared();
        arch::named_barrier_sync(barrier_id, 128);
        if (leader) {
          arch::tma_store_3d(&params.tma_D, row0 + bm * kBoxM, col0 + bn * kBoxN, l, buffer);
          arch::tma_store_commit();
        }
        ++state.box;
      }
    });
    output_op.end_tile();
  }

  /// One box, one shared-memory store per element (f32 and fp8 outputs): atom a, 8-column group
  /// i, row half h, column c of this thread's accumulators, at their swizzled places; for a
  /// transposed part (kTransposed) the fragment's row is D's column and its column D's row.
  /// A fragment row's staged vector terms are read once, ahead of its elements' stores: the stores
  /// go through a generic pointer the compiler cannot tell apart from the staged terms, so a term
  /// read between two stores is read again for every element (5 generic loads per element in the
  /// fp8-output consumers' SASS, s33). The column's terms are still read per element.
  template <bool kTransposed>
  CUTLASS_DEVICE static void store_box_per_element(SharedStorage &smem, EpilogueOutputOp &output_op, bool source,
                                                   int consumer, int warp, int lane,
                                                   Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], int row0, int col0,
                                                   int bm, int bn, ElementC *buffer) {
    char *bytes = reinterpret_cast<char *>(buffer);
    // the box's 8-column groups of the fragment: along D's columns, or its rows when transposed
    constexpr int kGroups = (kTransposed ? kBoxM : kBoxN) / 8;
    int const box = kTransposed ? bm : bn;
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        int const row = thread_row(warp, lane, a, h);   // in the warpgroup tile
        if (kTransposed ? row / kBoxN != bn : row / kBoxM != bm) continue;
        int const r = kTransposed ? row % kBoxN : row % kBoxM;
        // the fragment row's terms: D's row's, or D's column's for a transposed part
        Terms const row_side = kTransposed ? column_terms<kTransposed>(smem, consumer, bn * kBoxN + r)
                                           : row_terms<kTransposed>(smem, consumer, row);
        CUTLASS_PRAGMA_UNROLL
        for (int i = box * kGroups; i < (box + 1) * kGroups; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int c = 0; c < 2; ++c) {
            int const column = 8 * i + 2 * (lane % 4) + c - box * (kTransposed ? kBoxM : kBoxN);   // in the box
            ElementC *out =
                reinterpret_cast<ElementC *>(bytes + (kTransposed ? swizzled_offset(column, r) : swizzled_offset(r, column)));
            Accumulator const value = acc[a][4 * i + 2 * h + c];
            // of D in the part: (row, bn kBoxN + column), or (bm kBoxM + column, bn kBoxN + r) transposed
            int const d_row = kTransposed ? bm * kBoxM + column : row;
            int const d_column = bn * kBoxN + (kTransposed ? r : column);
            Terms const rt = kTransposed ? row_terms<kTransposed>(smem, consumer, d_row) : row_side;
            Terms const ct = kTransposed ? row_side : column_terms<kTransposed>(smem, consumer, d_column);
            int const m = row0 + d_row, n = col0 + d_column;
            ElementC const c_value = source ? *out : ElementC();
            *out = output_op(value, source, c_value, rt, ct, m, n);
          }
        }
      }
    }
  }

  /// One box of a 16-bit output through stmatrix: per pair of 8-column groups, the thread's
  /// eight elements (row halves h, groups i, i+1, columns c) are computed, packed in pairs and
  /// stored as four 8x8 matrices: transposed (memory row = one column of D, 8 rows of M = 16
  /// bytes, at its swizzled place), or, for a transposed part (kTransposed), as they are (a
  /// fragment row is a column of D already); C, when read, comes back the same way through
  /// ldmatrix. Matrix s of an instruction is (h = s % 2, group i0 + s / 2); lane 8s + j addresses
  /// row j of it in memory. The box's rows are wgmma atom bm (kBoxM == 64); a transposed part's
  /// box holds the fragment rows of warps 2 bn and 2 bn + 1 (kBoxN == 32), the others skip it.
  template <bool kTransposed>
  CUTLASS_DEVICE static void store_box_stmatrix(SharedStorage &smem, EpilogueOutputOp &output_op, bool source,
                                                int consumer, int warp, int lane,
                                                Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], int row0, int col0,
                                                int bm, int bn, ElementC *buffer) {
    if (kTransposed && (16 * warp) / kBoxN != bn) return;
    uint32_t const base = arch::shared_address(buffer);
    int const q = lane / 8, j = lane % 8;
    int const a = kTransposed ? 0 : bm;
    CUTLASS_PRAGMA_UNROLL
    for (int g = 0; g < (kTransposed ? kBoxM : kBoxN) / 16; ++g) {
      int const address_column = 16 * g + 8 * (q / 2) + j;   // in the box (transposed: the row, + j)
      uint32_t const address =
          base + uint32_t(kTransposed ? swizzled_offset(16 * g + 8 * (q / 2), 16 * warp + 8 * (q % 2) + j - bn * kBoxN)
                                      : swizzled_offset(16 * warp + 8 * (q % 2), address_column));
      uint32_t source_words[4] = {0u, 0u, 0u, 0u};
      if (source) {
        if constexpr (kTransposed) {
          arch::ldsm_x4(source_words, address);
        } else {
          arch::ldsm_x4_trans(source_words, address);
        }
      }
      uint32_t words[4];
      CUTLASS_PRAGMA_UNROLL
      for (int s = 0; s < 4; ++s) {
        // i: 8-column group of the fragment in the tile
        int const h = s % 2, i = (kTransposed ? bm * (kBoxM / 8) : bn * (kBoxN / 8)) + 2 * g + s / 2;
        int const row = thread_row(warp, lane, a, h);
        ElementC out[2];
        CUTLASS_PRAGMA_UNROLL
        for (int c = 0; c < 2; ++c) {
          int const column = 8 * i + 2 * (lane % 4) + c;   // in the warpgroup tile (of the fragment)
          Accumulator const value = acc[a][4 * i + 2 * h + c];
          // of D: (row, column), or (column, row) for a transposed part
          Terms const rt = row_terms<kTransposed>(smem, consumer, kTransposed ? column : row);
          Terms const ct = column_terms<kTransposed>(smem, consumer, kTransposed ? row : column);
          int const m = row0 + (kTransposed ? column : row), n = col0 + (kTransposed ? row : column);
          ElementC c_value;
          uint16_t const half = uint16_t(source_words[s] >> (16 * c));
          memcpy(&c_value, &half, 2);
          out[c] = output_op(value, source, c_value, rt, ct, m, n);
        }
        memcpy(&words[s], out, 4);
      }
      if constexpr (kTransposed) {
        arch::stsm_x4(address, words);
      } else {
        arch::stsm_x4_trans(address, words);
      }
    }
  }

  /// Loads this tile's vector terms (rows [row0, row0 + WgM), columns [col0, col0 + WgN); a
  /// transposed part's WgN rows into the column array and WgM columns into the row array) into
  /// shared memory; the named barrier at the start of the first box publishes them, and every
  /// read of the previous tile's terms precedes the previous tile's last barrier.
  template <bool kTransposed>
  CUTLASS_DEVICE static void stage_vectors(SharedStorage &smem, EpilogueOutputOp const &op, int consumer,
                                           int thread_in_wg, int row0, int col0) {
    if constexpr (kHasVectors) {
      Terms *const rows = kTransposed ? &smem.vectors.column[consumer][0] : &smem.vectors.row[consumer][0];
      Terms *const columns = kTransposed ? &smem.vectors.row[consumer][0] : &smem.vectors.column[consumer][0];
      constexpr int kRows = kTransposed ? WgN : WgM, kColumns = kTransposed ? WgM : WgN;
      for (int r = thread_in_wg; r < kRows; r += 128) rows[r] = op.row_terms(row0 + r);
      for (int c = thread_in_wg; c < kColumns; c += 128) columns[c] = op.column_terms(col0 + c);
    }
  }
  template <bool kTransposed>
  CUTLASS_DEVICE static Terms row_terms(SharedStorage &smem, int consumer, int row) {
    if constexpr (kHasVectors && kTransposed) return smem.vectors.column[consumer][row];
    if constexpr (kHasVectors && !kTransposed) return smem.vectors.row[consumer][row];
    return EpilogueOutputOp::neutral_terms();
  }
  template <bool kTransposed>
  CUTLASS_DEVICE static Terms column_terms(SharedStorage &smem, int consumer, int column) {
    if constexpr (kHasVectors && kTransposed) return smem.vectors.row[consumer][column];
    if constexpr (kHasVectors && !kTransposed) return smem.vectors.column[consumer][column];
    return EpilogueOutputOp::neutral_terms();
  }

  /// Row, in the warpgroup tile, of accumulator row-half h of atom a (wgmma m64 D fragment:
  /// PTX ISA "Matrix fragments for wgmma.mma_async", 16 rows per warp, lane / 4, +8 for h).
  CUTLASS_DEVICE static int thread_row(int warp, int lane, int a, int h) { return 64 * a + 16 * warp + lane / 4 + 8 * h; }

  /// Called once by each consumer's leader before the kernel exits: stores must complete.
  CUTLASS_DEVICE static void drain() { arch::tma_store_wait<0>(); }
#endif
};

}  // namespace collective
}  // namespace epilogue
}  // namespace cutlass
