"""sm90 tensor-op family: the Hopper warp-specialized persistent kernel (GemmSm90: TMA loads,
wgmma, TMA-store epilogue), built only for sm_90a.

Operands are 16-bit (f16, bf16) with f32 accumulate and f16/bf16/f32 output, every A/B
layout; tf32 (fp32 in memory) with f32 output; s8 with s32 accumulate and output; e4m3 with f32
accumulate and bf16 / f16 / f32 output. The last three are TN only (wgmma reads 32- and 8-bit
operands K-major only). TMA needs 16-byte aligned
pointers and leading dimensions, so the alignment is 8 16-bit, 4 tf32 or 16 8-bit elements
(other problems fall back to the sm80 and SIMT families). Tile tables list threadblock /
consumer-warpgroup tile / stages in preference order; the first row suits large problems and is
the default set's, with the 64x128 row for small problems. A tile's K is one 128-byte swizzle row
(64 16-bit, 32 tf32 or 128 8-bit elements), each wgmma 32 bytes of it, so a stage has the same
bytes for every type and the tf32 / 8-bit tiles are the 16-bit ones with K halved / doubled.
"""
import dataclasses
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..datatypes import ALL_LAYOUTS, BF16, COLUMN_MAJOR, E4M3, E5M2, F16, F32, ROW_MAJOR, S8, S32, TF32, DataType, Shape
from ..epilogues import DEFAULT_SET, FP8, FP8_DEFAULT_SET, STANDARD, Epilogue, EpilogueRow

COOPERATIVE = "KernelTmaWarpSpecializedCooperative"
PINGPONG = "KernelTmaWarpSpecializedPingpong"
#: fp8, cooperative, every 128-deep k-block's partial sum promoted into f32 registers times its
#: block scales (cuBLASLt's VEC128 / BLK128x128 scales and precise accumulation).
BLOCKSCALED = "KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum"

TILES = (
    # ping-pong: each consumer warpgroup owns whole tiles (warp tile = CTA tile). First: measured
    # best at 8192^3 on the H200 (1.03x cuBLAS vs 1.005x for cooperative 128x256, docs/NOTES.md).
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(128, 128, 64), stages=6, schedule=PINGPONG,
            instruction=Shape(64, 128, 16)),
    TileRow(threadblock=Shape( 64, 256, 64), warp=Shape( 64, 256, 64), stages=5, schedule=PINGPONG,
            instruction=Shape(64, 256, 16)),
    # small problems (few tiles, small M): selection picks it by wave count (src/library/gemm_call.cpp)
    TileRow(threadblock=Shape( 64, 128, 64), warp=Shape( 64, 128, 64), stages=8, schedule=PINGPONG,
            instruction=Shape(64, 128, 16), in_default_set=True),
    # cooperative: the two consumers split each tile
    TileRow(threadblock=Shape(128, 256, 64), warp=Shape( 64, 256, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 256, 16)),
    TileRow(threadblock=Shape(256, 128, 64), warp=Shape(128, 128, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 128, 16)),
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape( 64, 128, 64), stages=6, schedule=COOPERATIVE,
            instruction=Shape(64, 128, 16)),
    TileRow(threadblock=Shape( 64, 256, 64), warp=Shape( 64, 128, 64), stages=5, schedule=COOPERATIVE,
            instruction=Shape(64, 128, 16)),
    # stream-K (data-parallel waves, then the last waves' k-blocks split over all SMs): after the
    # persistent tiles, so equal wave costs keep those; by its measured cost (src/library/
    # gemm_call.cpp wave_cost) selection picks these only for far fewer tiles than SMs with a long K.
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(128, 128, 64), stages=6, schedule=PINGPONG,
            instruction=Shape(64, 128, 16), scheduler="stream_k", in_default_set=True),
    TileRow(threadblock=Shape(128, 256, 64), warp=Shape( 64, 256, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 256, 16), scheduler="stream_k"),
    # 2-CTA clusters with TMA multicast of the shared operand (2x1: B, 1x2: A); last, so the
    # selection's preference among equal tiles keeps the 1x1 kernels; not in the default set
    # (measured in docs/NOTES.md).
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(128, 128, 64), stages=6, schedule=PINGPONG,
            instruction=Shape(64, 128, 16), cluster=Shape(2, 1, 1)),
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(128, 128, 64), stages=6, schedule=PINGPONG,
            instruction=Shape(64, 128, 16), cluster=Shape(1, 2, 1)),
    TileRow(threadblock=Shape(128, 256, 64), warp=Shape( 64, 256, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 256, 16), cluster=Shape(2, 1, 1)),
    TileRow(threadblock=Shape(128, 256, 64), warp=Shape( 64, 256, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 256, 16), cluster=Shape(1, 2, 1)),
)


def tiles_for(element: DataType, tiles=None):
    """`tiles` (default TILES) for operands of `element`: tile K is one 128-byte swizzle row, the
    instruction's K 32 bytes (16-bit: 64 and 16, the rows as written; tf32: 32 and 8; s8: 128 and 32)."""
    k, ik = 128 // element.size_bytes, 32 // element.size_bytes
    return tuple(dataclasses.replace(t, threadblock=Shape(t.threadblock.m, t.threadblock.n, k),
                                     warp=Shape(t.warp.m, t.warp.n, k),
                                     instruction=Shape(t.instruction.m, t.instruction.n, ik))
                 for t in (TILES if tiles is None else tiles))


#: Consumer warpgroup N extents with a wgmma in cutlass/arch/wgmma_sm90.h (the instruction takes
#: 8..256 in steps of 8; the epilogue's TMA box needs multiples of 16 or 32); 16 for 16-bit types
#: only.
WARPGROUP_N = (16, 32, 64, 96, 128, 192, 208, 256)

#: Cluster shapes GemmSm90 implements.
CLUSTERS = (Shape(1, 1, 1), Shape(2, 1, 1), Shape(1, 2, 1))

#: TMA: base addresses and leading dimensions must be multiples of 16 bytes.
ALIGNMENTS = (8,)
ALIGNMENTS_TF32 = (4,)
ALIGNMENTS_S8 = (16,)
TN_ONLY = ((ROW_MAJOR, COLUMN_MAJOR),)


#: fp8 outputs: one 128-row warpgroup tile (the epilogue's TMA box is 128 one-byte rows).
TILES_FP8 = TILES[:1]

#: Few tokens (a small N: y = x W^T called as GemmEx(T, N, m = out, n = tokens, k = in)): a 64x32
#: ping-pong tile, 16 stages of 12 KB (16-bit; 8-bit with K doubled), so the weight side streams
#: through many CTAs with deep pipelines; B (the activations) K-major only (an MN-major operand
#: moves in 64-wide chunks). Selection gives it only calls with N <= 32 (gemm_selection.cpp: it
#: lost to the other tiles above that on the H200, docs/NOTES.md s10).
TILE_SMALL_N = TileRow(threadblock=Shape(64, 32, 64), warp=Shape(64, 32, 64), stages=16, schedule=PINGPONG,
                       instruction=Shape(64, 32, 16))
B_K_MAJOR = ((ROW_MAJOR, COLUMN_MAJOR), (COLUMN_MAJOR, COLUMN_MAJOR))
#: ... and a 64x16 tile (wgmma m64n16, 16-bit types; 20 stages of 10 KB) for 1-16 tokens, as
#: cuBLAS's 64x8 / 128x8 kernels run 8 tokens (s28 ncu): half the 64x32 tile's B bytes per
#: k-block and four more stages. Opt-in ("*_64x16x64_*"): it ran no faster than 64x32 (s28).
TILE_SMALL_N16 = TileRow(threadblock=Shape(64, 16, 64), warp=Shape(64, 16, 64), stages=20, schedule=PINGPONG,
                         instruction=Shape(64, 16, 16), in_default_set=False)
#: Its stream-K twin is in the default set: every CTA streams an equal share of the weights'
#: k-blocks, where the persistent tile leaves the last partial wave of tiles to a few CTAs. H200, s37
#: (no L2 promotion, best-kernel search, two rounds): 13824 x 8 x 5120 0.97x cuBLAS (64x32 0.86-0.88,
#: 64x16 0.92), 5120 x 8 x 13824 1.06 (0.94-0.96, 0.97), 11008 x 1 x 4096 1.00 (the GEMV 0.96).
TILE_SMALL_N16_STREAM_K = dataclasses.replace(TILE_SMALL_N16, scheduler="stream_k", in_default_set=True)

#: Few rows (a small M: tokens in M, GemmEx(T, N, m = tokens, n = out, k = in), a column-major
#: caller's y = x W^T): the swap-AB tile, 32 rows x 64 columns of D. wgmma's M is 64, so the kernel runs D^T =
#: B^T A^T on the transposed 64x32 tile (GemmSm90::kSwapAB: the weights stream through the wgmma's
#: 64-row side, as on TILE_SMALL_N) and writes D from registers (no TMA store, so C and D take any
#: alignment). Shapes are D's: the instruction is the m64n32k16 wgmma transposed. TN only. In the
#: default set (s27, H200: 16 x 8192 x 8192 0.85 -> 0.95-0.96x cuBLAS on the 16x64 tile).
TILE_SMALL_M = TileRow(threadblock=Shape(32, 64, 64), warp=Shape(32, 64, 64), stages=16, schedule=PINGPONG,
                       instruction=Shape(32, 64, 16), output_alignment=1)
#: and 16 rows (wgmma m64n16), 20 stages of 10 KB: the 16-token decode rows without padding
TILE_SMALL_M16 = dataclasses.replace(TILE_SMALL_M, threadblock=Shape(16, 64, 64), warp=Shape(16, 64, 64), stages=20,
                                     instruction=Shape(16, 64, 16), in_default_set=True)
#: Its stream-K twin joined the default set in s37: with no L2 promotion (tma_sm90.h) it ran 16 x
#: 28672 x 4096 at 0.97x cuBLAS (the persistent tile 0.94, the 32x64 twin 0.95) and 1 x 11008 x 4096
#: at 0.97-0.99 (the GEMV 0.94-0.97); with 128 tiles or fewer the persistent tile stays ahead
#: (16 x 8192 x 8192 0.97 against 0.93), as the cost model ranks them (static_wave_factor).
#: ... and 16 x 128 (two m64n16 wgmma atoms per k-step on the weights' side, one warpgroup), 11
#: stages of 18 KB: the tile cuBLAS runs for 16-token decode (nvjet 16x128, 64-deep, 11 stages; s35
#: ncu, where it streams the weights at 4.1 TB/s against the 16x64 tile's 3.7), and its stream-K
#: twin (28672 rows of weights are 224 such tiles, 1.7 waves), and on a 1x2 cluster as cuBLAS runs it
#: (two CTAs along the weights share the 16 token rows, each loading 8 and multicasting them).
#: Opt-in ("*_16x128x64_*"): passed the GPU suite (s36); won 16 x 14336 x 4096 on its 1x2 cluster
#: (1.00x, s37) and 16 x 28672 x 4096 as stream-K (1.04x) but lost 3-4% on the 8192-row decode rows,
#: and the cost model cannot tell it from the 16x64 tile yet.
TILE_SMALL_M16_WIDE = dataclasses.replace(TILE_SMALL_M16, threadblock=Shape(16, 128, 64), warp=Shape(16, 128, 64),
                                          stages=11, in_default_set=False)
#: The 32x64 and 16x64 tiles on a 1x2 cluster too, as cuBLAS runs 8-16 token decode (nvjet
#: 16x64 / 8x64 on 1x2, s28 ncu: 16 x 8192 x 8192 34.0 us against our 16x64 tile's 35.8): the two
#: CTAs take neighbouring weight tiles and multicast half the token rows each, so a stage moves
#: 9 KB instead of 10 through L2. Opt-in ("*_16x64x64_1x2x1_*", "*_32x64x64_1x2x1_*"), NOT yet
#: run on a GPU (added s38, host-compiled): the 16x128 tile gained 5% on its 1x2 cluster (s37).
TILES_FEW_ROWS = (TILE_SMALL_M, dataclasses.replace(TILE_SMALL_M, scheduler="stream_k", in_default_set=True),
                  dataclasses.replace(TILE_SMALL_M, cluster=Shape(1, 2, 1), in_default_set=False),
                  TILE_SMALL_M16, dataclasses.replace(TILE_SMALL_M16, scheduler="stream_k", in_default_set=True),
                  dataclasses.replace(TILE_SMALL_M16, cluster=Shape(1, 2, 1), in_default_set=False),
                  TILE_SMALL_M16_WIDE, dataclasses.replace(TILE_SMALL_M16_WIDE, scheduler="stream_k"),
                  dataclasses.replace(TILE_SMALL_M16_WIDE, cluster=Shape(1, 2, 1)))

#: Token-count tiles: tile N matched to 64-256 tokens (wgmma N 64, 96, 192) so the weight side
#: streams with little padding. Measured on the H200 (s11, docs/NOTES.md): the 64x64 tile ran
#: 64 x 8192 x 8192 at 1.02x cuBLAS and 128 x 4096 x 14336 at 1.00x (the default set's best
#: before: 1.01x, 0.88x), the 64x96 tile 8192 x 96 x 8192 at 0.95-1.00x (0.74x), so both join the
#: default set; the cooperative 128-row and stream-K variants stay opt-in (each won at most one
#: shape, and the cost model cannot yet place them: 128x192 cooperative lost 13% at 8192 x 8192 x
#: 1024 where it ranked first), except the 64x32 stream-K twin, default since s37 (22016 x 32 x
#: 4096: 0.97-0.98x cuBLAS against the persistent tile's 0.93, 344 tiles = 2.6 waves). Stages fill the shared memory (fused and fp8 kernels stage their
#: vector terms too).
TILES_FEW_TOKENS = (TILE_SMALL_N,) + tuple(
    TileRow(threadblock=Shape(m, n, 64), warp=Shape(64 if schedule == COOPERATIVE else m, n, 64), stages=stages,
            schedule=schedule, instruction=Shape(64, n, 16), scheduler=scheduler, in_default_set=default)
    for m, n, stages, schedule, scheduler, default in (
        (64, 64, 12, PINGPONG, "", True),
        (64, 96, 10, PINGPONG, "", True),
        (64, 96, 10, PINGPONG, "stream_k", False),
        (64, 32, 16, PINGPONG, "stream_k", True),
        (64, 64, 12, PINGPONG, "stream_k", False),
        (128, 32, 10, COOPERATIVE, "", False),
        (128, 32, 10, COOPERATIVE, "stream_k", False),
        (128, 96, 7, PINGPONG, "", False),
        (128, 96, 7, COOPERATIVE, "", False),
        (128, 96, 7, COOPERATIVE, "stream_k", False),
        (64, 192, 6, PINGPONG, "", False),
        (128, 192, 5, COOPERATIVE, "", False),
        (128, 192, 5, COOPERATIVE, "stream_k", False),
    ))

#: ... and for e4m3 inputs, ping-pong token-count tiles of 32, 64 and 96 columns whose warpgroups
#: own 128 rows (the fp8 output of a framework's linear at 1-256 tokens; the 128x128 tile alone
#: ran 28672 x 16-64 x 4096 at 0.59-0.64x cuBLASLt's fp8 D, these at 0.93-0.97, s33). Not the
#: stream-K 128x128: with the fp8 epilogue its consumers spill (420 bytes at bias+GELU+amax,
#: ptxas, s33); not the cooperative 256x128: never the fastest of these on the H200 (0.61-0.83x
#: cuBLASLt at 16-256 tokens and 8192^3, s33) and the cost model ranked it first at 128 tokens,
#: where it ran 15% slower than 128x128. Opt-in with the rest of the fp8 outputs.
TILES_FP8_MORE = tuple(
    TileRow(threadblock=Shape(128, n, 64), warp=Shape(128, n, 64), stages=stages, schedule=PINGPONG,
            instruction=Shape(64, n, 16), in_default_set=False)
    for n, stages in ((32, 10), (64, 8), (96, 7)))

#: 200-208 tokens in one tile (wgmma N = 208, 16-bit types; the epilogue stores 16-column boxes):
#: 4096 x 200 x 11008 pads 200 to 256 on the 128-wide tiles (0.56x cuBLAS, whose 128x104 tiles pad
#: 4%). The stream-K twin spreads that shape's 32 tiles over every SM: 0.89x on the H200 (s13), so
#: it joins the default set once the cost model ranks it there and nowhere else (s15: a 64-row tile
#: alone on its CTA counts at half rate, gemm_selection.cpp). The persistent one stays opt-in: the
#: model ranks it first on two llm shapes where it measured 4-6% slower than 128x128 (s13).
TILES_N208 = tuple(
    TileRow(threadblock=Shape(128, 208, 64), warp=Shape(64, 208, 64), stages=4, schedule=COOPERATIVE,
            instruction=Shape(64, 208, 16), scheduler=scheduler, in_default_set=scheduler == "stream_k")
    for scheduler in ("", "stream_k"))

#: Block-scaled fp8 (BLOCKSCALED; names "..._blockscale"): the large tile and the small-problem
#: tile, each consumer warpgroup inside one 128-wide scale block (64x128 and 64x64 parts); the
#: large tile also on a 2x1 cluster (B multicast: half the L2 reads of B, as cuBLASLt's block-scaled
#: 128x128 kernel runs).
#: Opt-in until they pass the GPU suite.
TILES_BLOCKSCALED = (
    TileRow(threadblock=Shape(128, 128, 128), warp=Shape(64, 128, 128), stages=6, schedule=BLOCKSCALED,
            instruction=Shape(64, 128, 32), in_default_set=False),
    TileRow(threadblock=Shape(128, 128, 128), warp=Shape(64, 128, 128), stages=6, schedule=BLOCKSCALED,
            instruction=Shape(64, 128, 32), cluster=Shape(2, 1, 1), in_default_set=False),
    TileRow(threadblock=Shape(64, 128, 128), warp=Shape(64, 64, 128), stages=8, schedule=BLOCKSCALED,
            instruction=Shape(64, 64, 32), in_default_set=False),
)

#: Grouped GEMM (one persistent launch over many problems: the C API's grouped and pointer-array
#: calls; gemm_sm90_grouped.h run_grouped): ping-pong 128x128, plain epilogue (test/sm90/test_sm90_grouped.cu).
TILE_GROUPED = dataclasses.replace(TILES[0], scheduler="grouped")
#: ... and the 64x32 token tile for decode MoE (a few tokens per expert: the 128x128 tile computes
#: and zero-fills 16x the rows of 8 tokens); selection ranks them (estimated_grouped_time).
TILE_GROUPED_FEW_TOKENS = dataclasses.replace(TILE_SMALL_N, scheduler="grouped")
#: ... and the 64x16 token tile (opt-in, "*64x16x64*_grouped*"; NOT yet run on a GPU): decode MoE
#: at 1-16 tokens per expert, a 2 KB token box (half the 64x32 tile's) beside each 8 KB weight box
#: (the dense 64x16 tile streamed 13824 x 8 x 5120 5% faster than 64x32, s37). The ranking puts it
#: ahead of 64x32 wherever it fits (grouped_tile_fits: experts of at most 32 tokens).
TILE_GROUPED_FEW_TOKENS16 = dataclasses.replace(TILE_SMALL_N16, scheduler="grouped", in_default_set=False)
#: ... and the cooperative 128x256 tile (opt-in, "*128x256x64*_grouped*"): half the readers per
#: weight panel for experts with more than 128 tokens. It passed the grouped GPU tests but ran
#: slower than 128x128 on every MoE layer measured (s21: +2% to +42%; the sparse layers pad more
#: tokens), and the grouped ranking still prefers it when built (docs/NOTES.md).
TILE_GROUPED_WIDE = dataclasses.replace(TILES[3], scheduler="grouped", in_default_set=False)
#: ... and the 128x128 tile on a 2x1 cluster (opt-in, "*128x128x64_2x1x1*_grouped*"): the two CTAs
#: take neighbouring weight tiles of one expert and share its token tile, multicast (a quarter
#: fewer L2 reads per k-block: the sparse MoE layer ran L2-throughput-bound on the 1x1 tile, s23).
#: It passed the grouped kernel tests but ran the sparse 32 x 4096 x 7168 layer 4-6% slower than
#: the 1x1 tile (s23, docs/NOTES.md).
TILE_GROUPED_CLUSTER = dataclasses.replace(TILE_GROUPED, cluster=Shape(2, 1, 1), in_default_set=False)
#: ... and the cooperative 256x128 tile: 256 weight rows per token tile, a quarter fewer L2 bytes
#: per flop than 128x128 with no more token padding. The sparse MoE layer is L2-throughput-bound
#: (s23): 32 x 4096 x 7168 ran 885 us on it against 1021 on 128x128, the other layers alike (s25).
TILE_GROUPED_TALL = dataclasses.replace(TILES[4], scheduler="grouped")
#: ... and the 256x128 tile on a 1x2 cluster (opt-in, "*256x128x64_1x2x1*_grouped*"): the two CTAs
#: take neighbouring token tiles of one expert and share its 256-row weight tile, multicast (a
#: third fewer L2 reads per k-block; the weights are the sparse layer's L2 misses, s23), as the
#: sm90 grouped kernel inside PyTorch's _grouped_mm does. At an expert's odd last token tile one
#: CTA of the pair computes a tile wholly past N (zero-filled, its stores clipped). It passed the
#: grouped kernel and C API GPU tests and memcheck, but ran every MoE layer slower than the 1x1
#: tile (s26: sparse 32 x 4096 x 7168 950-1006 us against 842-846, 64 x 2048 x 7168 549 against
#: 407, prefill 8 x 14336 x 4096 +3-6%; docs/NOTES.md); the ranking ties it with the 1x1 tile,
#: which the build lists first.
TILE_GROUPED_TALL_PAIR = dataclasses.replace(TILE_GROUPED_TALL, cluster=Shape(1, 2, 1), in_default_set=False)

#: Fused epilogues of the 16-bit grouped kernels (per problem / per expert bias, activations, aux,
#: alpha vector; no D scale / amax: the grouped calls refuse them): every standard variant on the
#: grouped tiles; bias, bias+ReLU and bias+GELU join the default set for TN (the layout of a
#: framework's y = x W^T per expert), the others are opt-in ("*_grouped_*_epi_tma_*").
GROUPED_DEFAULT_EPILOGUES = (Epilogue(bias=True),) + DEFAULT_SET


def grouped_epilogues(layout) -> EpilogueRow:
    default = GROUPED_DEFAULT_EPILOGUES if layout == TN_ONLY[0] else ()
    return EpilogueRow(variants=STANDARD, in_default_set=default)


#: Fused epilogues (epilogues.py): every standard variant on the default-set tiles; bias+ReLU and
#: bias+GELU join the default set for 16-bit outputs. fp8 outputs exist only fused, with the D
#: scale and amax, TN.
ROWS = tuple(
    MathRow(a=a, b=a, c=c, accumulator=F32, compute=F32, instruction=None,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS, tiles=TILES,
            epilogues=EpilogueRow(variants=STANDARD, in_default_set=DEFAULT_SET if c == a else ()))
    for a in (BF16, F16) for c in (a, F32)
) + tuple(
    MathRow(a=a, b=a, c=c, accumulator=F32, compute=F32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS, tiles=TILES_FP8,
            epilogues=EpilogueRow(variants=FP8, plain=False, bias_type=a))
    for a in (BF16, F16) for c in (E4M3, E5M2)
) + (
    # tf32: the 16-bit tiles with K halved; the default-set tiles as for bf16, fused variants opt-in
    MathRow(a=TF32, b=TF32, c=F32, accumulator=F32, compute=F32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS_TF32, tiles=tiles_for(TF32),
            epilogues=EpilogueRow(variants=STANDARD)),
    # s8 x s8 -> s32 (wgmma .s32.s8.s8, K-major operands only): the 16-bit tiles with K doubled;
    # the default-set tiles passed the GPU suite
    MathRow(a=S8, b=S8, c=S32, accumulator=S32, compute=S32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS_S8, tiles=tiles_for(S8)),
) + tuple(
    # int8 inference (dequantized outputs): s8 x s8 accumulated exactly in s32, then in f32
    # D = alpha * scale_a[m] * scale_b[n] * acc + beta * C (per-tensor or per-row / per-column f32
    # operand scales, as the fp8 kernels take them) -> bf16 / f16 / f32. The 128x128 ping-pong tile
    # is in the default set (passed the GPU suite, s16); the other tiles are opt-in
    # ("*s8_s8_s32_bf16*", ...).
    MathRow(a=S8, b=S8, c=c, accumulator=S32, compute=F32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS_S8, tiles=tiles, in_default_set=default)
    for c in (BF16, F16, F32)
    for tiles, default in ((tiles_for(S8, TILES[:1]), True), (tiles_for(S8, TILES[1:]), False))
) + (
    # int8 requantization: the same f32 epilogue, then s8 outputs (round to nearest even,
    # saturated: cvt.rni.sat.s8.f32), on the one 128-row warpgroup tile a 1-byte output's TMA box
    # needs (as TILES_FP8). Opt-in ("*s8_s8_s32_s8_s8*"): written s16 after the device budget, not
    # yet run on a GPU.
    MathRow(a=S8, b=S8, c=S8, accumulator=S32, compute=F32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS_S8, tiles=tiles_for(S8, TILES_FP8), in_default_set=False),
) + tuple(
    # e4m3 x e4m3 -> bf16 / f16 / f32 (wgmma .f32.e4m3.e4m3, K-major operands only, the tensor
    # core's own accumulation): the s8 tiles; the default-set tiles passed the GPU suite. Fused
    # epilogues (every standard variant on the first tile, bias of the output type; the operand
    # scales apply before them; passed the GPU suite, s31): bias+ReLU and bias+GELU on every
    # default-set tile join the default set for 16-bit outputs, the rest is opt-in
    # ("*e4m3_e4m3_f32_*_epi_tma_*")
    MathRow(a=E4M3, b=E4M3, c=c, accumulator=F32, compute=F32, instruction=None,
            layouts=TN_ONLY, alignments=ALIGNMENTS_S8, tiles=tiles_for(E4M3),
            epilogues=EpilogueRow(variants=STANDARD, in_default_set=DEFAULT_SET if c != F32 else ()))
    for c in (BF16, F16, F32)
) + tuple(
    # e4m3 x e4m3 -> e4m3 / e5m2: the fp8 epilogue (D scale and amax; bias in bf16, as cuBLASLt's
    # fp8-output bias) on the tiles whose warpgroups own the 128 rows a 1-byte output's TMA box
    # needs (TILES_FP8 + TILES_FP8_MORE, K doubled). Every kernel passed the GPU suite (s33, s34).
    # Default set: FP8_DEFAULT_SET on the 128x128 tile for both outputs, and for e4m3 outputs (a
    # framework's fp8 linear at 1-256 tokens) also on 128x32 and 128x64 (H200, bias+GELU+amax at
    # 28672 x N x 4096: 0.96 of cuBLASLt at N = 16-32 on 128x32, 0.95 at 64 on 128x64, 0.85 at 256
    # on 128x128, s33 / s34); the rest is opt-in ("*e4m3_e4m3_f32_e4m3_e4m3_*",
    # "*e4m3_e4m3_f32_e5m2_e5m2_*"). One row per tile: a row's fused variants go on its first tile.
    MathRow(a=E4M3, b=E4M3, c=c, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS_S8, tiles=(tile,),
            in_default_set=tile.threadblock.n == 128 or (c == E4M3 and tile.threadblock.n in (32, 64)),
            epilogues=EpilogueRow(variants=FP8, plain=False, bias_type=BF16, in_default_set=FP8_DEFAULT_SET))
    for c in (E4M3, E5M2) for tile in tiles_for(E4M3, TILES_FP8 + TILES_FP8_MORE)
) + tuple(
    # few tokens (TILE_SMALL_N): 16-bit with B K-major, e4m3 TN; passed the GPU suite. Bias + ReLU
    # and bias + GELU (a framework's fused linear at 1-256 tokens; issue 20; passed the GPU suite,
    # s31): on every default-set tile for 16-bit outputs (default set), on the first (64x32) for
    # f32 outputs (opt-in)
    MathRow(a=a, b=a, c=c, accumulator=F32, compute=F32, instruction=None, layouts=B_K_MAJOR,
            alignments=ALIGNMENTS, tiles=TILES_FEW_TOKENS + TILES_N208 + (TILE_SMALL_N16, TILE_SMALL_N16_STREAM_K),
            epilogues=EpilogueRow(variants=DEFAULT_SET, in_default_set=DEFAULT_SET if c == a else ()))
    for a in (BF16, F16) for c in (a, F32)
) + tuple(
    # few rows (TILES_FEW_ROWS, the swap-AB tiles): 16-bit TN; passed the GPU suite (s27). Bias +
    # ReLU and bias + GELU on the default-set tiles (a fused linear at 1-32 tokens from a caller that
    # puts them in M; the epilogue's direct path reads the bias per element; issue 20)
    MathRow(a=a, b=a, c=a, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS, tiles=TILES_FEW_ROWS,
            epilogues=EpilogueRow(variants=DEFAULT_SET, in_default_set=DEFAULT_SET))
    for a in (BF16, F16)
) + tuple(
    # e4m3 on the few-token tiles; the stream-K twins stay opt-in here (measured for 16-bit only)
    MathRow(a=E4M3, b=E4M3, c=c, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS_S8,
            tiles=tiles_for(E4M3, tuple(dataclasses.replace(t, in_default_set=t.in_default_set and not t.scheduler)
                                        for t in TILES_FEW_TOKENS)))
    for c in (BF16, F16, F32)
) + tuple(
    # e4m3 x e5m2 and e5m2 x e4m3 (wgmma .e4m3.e5m2 / .e5m2.e4m3; cuBLASLt's other fp8 pairings) ->
    # bf16 / f16 / f32, TN, on the default e4m3 tiles (128x128, 64x128, stream-K 128x128); passed
    # the GPU suite (1.005x / 1.006x cuBLASLt, docs/NOTES.md)
    MathRow(a=a, b=b, c=c, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS_S8, tiles=tiles_for(E4M3, (TILES[0], TILES[2], TILES[7])))
    for a, b in ((E4M3, E5M2), (E5M2, E4M3)) for c in (BF16, F16, F32)
) + tuple(
    # block-scaled e4m3 x e4m3 -> bf16 / f16 / f32, TN (TILES_BLOCKSCALED), and the mixed pairings
    # e4m3 x e5m2, e5m2 x e4m3 (cuBLASLt's other fp8 pairings; passed the GPU suite, s35)
    MathRow(a=a, b=b, c=c, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS_S8, tiles=TILES_BLOCKSCALED, in_default_set=False)
    for a, b in ((E4M3, E4M3), (E4M3, E5M2), (E5M2, E4M3)) for c in (BF16, F16, F32)
) + tuple(
    # grouped (TILE_GROUPED): 16-bit in, 16-bit out, every layout; passed the GPU suite (the C API's
    # and Python's grouped calls take it for problems of one type and layout, each its own K);
    # fused epilogues as GROUPED_EPILOGUES says
    MathRow(a=a, b=a, c=a, accumulator=F32, compute=F32, instruction=None, layouts=(layout,),
            alignments=ALIGNMENTS, tiles=(TILE_GROUPED, TILE_GROUPED_WIDE), epilogues=grouped_epilogues(layout))
    for a in (BF16, F16) for layout in ALL_LAYOUTS
) + tuple(
    # grouped 64x32 (B K-major, as the 64x32 tile); passed its GPU tests and memcheck (s12)
    MathRow(a=a, b=a, c=a, accumulator=F32, compute=F32, instruction=None, layouts=(layout,),
            alignments=ALIGNMENTS, tiles=(TILE_GROUPED_FEW_TOKENS, TILE_GROUPED_FEW_TOKENS16),
            epilogues=grouped_epilogues(layout))
    for a in (BF16, F16) for layout in B_K_MAJOR
) + tuple(
    # grouped 16-bit in, f32 out, TN (an MoE layer whose outputs are accumulated in f32): the
    # 128x128 and 64x32 grouped tiles, plain epilogue, in the default set (passed the grouped C
    # API's GPU test, s31)
    MathRow(a=a, b=a, c=F32, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS,
            tiles=(TILE_GROUPED, dataclasses.replace(TILE_GROUPED_FEW_TOKENS, in_default_set=True)))
    for a in (BF16, F16)
) + tuple(
    # grouped e4m3 x e4m3 -> bf16 / f16, TN (MoE layers in fp8: per-expert per-tensor scales as
    # each group's alpha, or the handle's scale pointers for every group): the 128x128 and 64x32
    # grouped tiles with K doubled; passed the grouped C API's GPU tests and memcheck (s21)
    MathRow(a=E4M3, b=E4M3, c=c, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS_S8,
            tiles=tiles_for(E4M3, (TILE_GROUPED, dataclasses.replace(TILE_GROUPED_FEW_TOKENS, in_default_set=True))))
    for c in (BF16, F16)
) + tuple(
    # grouped 128x128 on a 2x1 cluster (TILE_GROUPED_CLUSTER), plain epilogue, TN: opt-in (slower)
    MathRow(a=a, b=a, c=a, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS, tiles=(TILE_GROUPED_CLUSTER,), in_default_set=False)
    for a in (BF16, F16)
) + tuple(
    # grouped 256x128 (TILE_GROUPED_TALL), plain epilogue, TN (a framework's y = x W^T per expert),
    # and on a 1x2 cluster (TILE_GROUPED_TALL_PAIR, opt-in: slower)
    MathRow(a=a, b=a, c=a, accumulator=F32, compute=F32, instruction=None, layouts=TN_ONLY,
            alignments=ALIGNMENTS, tiles=(TILE_GROUPED_TALL, TILE_GROUPED_TALL_PAIR))
    for a in (BF16, F16)
)

#: Shared memory of the sm90 epilogue: two 4 KB boxes per consumer warpgroup (two warpgroups),
#: plus barriers and the 1 KB alignment slack the kernel requests.
EPILOGUE_BYTES = 2 * 2 * 4096
KERNEL_OVERHEAD_BYTES = 1024 + 256 + 2048   # + the 1 KB alignment padding after the epilogue storage (measured: kSharedBytes)

SHARED_MEMORY_LIMIT_BYTES = 227 * 1024


def kernel_rules(cfg: KernelConfig) -> List[str]:
    """GemmSm90's own rules (gemm_sm90.h and its collectives), as sentences."""
    tb, warp = cfg.tile.threadblock, cfg.tile.warp
    problems = []
    if tb.k * cfg.a.element.size_bytes != 128:
        problems.append(f"threadblock K {tb.k} must span one 128-byte swizzle row")
    if cfg.tile.schedule in (COOPERATIVE, BLOCKSCALED):
        expected = Shape(tb.m // 2, tb.n, tb.k) if tb.m >= 128 else Shape(tb.m, tb.n // 2, tb.k)
        why = "two cooperative consumers split the CTA tile"
    else:
        expected, why = tb, "a ping-pong consumer owns whole CTA tiles"
    if warp != expected:
        problems.append(f"consumer warpgroup tile {warp} must be {expected} ({why})")
    if warp.m * warp.n // 128 > 128:
        problems.append(f"consumer warpgroup tile {warp.m}x{warp.n} needs more than 128 f32 accumulators per thread")
    instruction_k = 32 // cfg.a.element.size_bytes
    # a swap-AB tile (M < 64) runs D^T on its transpose: wgmma N is the tile's M
    swap = tb.m < 64
    wgmma_n = warp.m if swap else warp.n
    expected = Shape(wgmma_n, 64, instruction_k) if swap else Shape(64, wgmma_n, instruction_k)
    if cfg.instruction != expected:
        problems.append(f"instruction {cfg.instruction} must be one wgmma of 64 x {wgmma_n} x {instruction_k}"
                        + (", transposed (D's terms)" if swap else ""))
    if swap:
        if (cfg.a.layout, cfg.b.layout) != (ROW_MAJOR, COLUMN_MAJOR) or cfg.a.element != cfg.b.element:
            problems.append(f"a swap-AB tile ({tb.m} rows) takes A row-major and B column-major of one type")
        if cfg.tile.schedule != PINGPONG or warp.n not in (64, 128) or warp.n != tb.n:
            problems.append(f"a swap-AB tile ({tb.m} rows) is one ping-pong warpgroup of 64 or 128 columns")
        if cfg.tile.scheduler == "grouped" or cfg.tile.cluster not in (Shape(1, 1, 1), Shape(1, 2, 1)) or (
                cfg.tile.cluster != Shape(1, 1, 1) and cfg.tile.scheduler):
            problems.append("a swap-AB tile runs the persistent or stream-K scheduler on 1x1x1 clusters, or the "
                            "persistent one on 1x2x1")
    if cfg.a.element.size_bytes != 2 and (cfg.a.layout, cfg.b.layout) != (ROW_MAJOR, COLUMN_MAJOR):
        problems.append(f"{cfg.a.element.name} operands must be A row-major, B column-major "
                        "(wgmma transposes only 16-bit operands)")
    if (cfg.a.element == S8) != (cfg.accumulator == S32):
        problems.append("s8 operands accumulate in s32, the others in f32")
    box_m = 128 // cfg.c.element.size_bytes
    # (a swap-AB tile stores without the box, but its epilogue is built on the transposed part: 64 rows)
    if (warp.n if swap else warp.m) % box_m:
        problems.append(f"consumer warpgroup M {warp.n if swap else warp.m} must be a multiple of the epilogue's "
                        f"TMA box ({box_m} rows of {cfg.c.element.name})")
    if swap and cfg.c.alignment != 1:
        problems.append(f"a swap-AB tile stores C / D without TMA: alignment 1, not {cfg.c.alignment}")
    if wgmma_n not in WARPGROUP_N or (wgmma_n == 16 and cfg.a.element.size_bytes != 2):
        what = "swap-AB tile M (the wgmma N)" if swap else "consumer warpgroup N"
        problems.append(f"{what} {wgmma_n} must be one of {WARPGROUP_N}")
    if warp.n % 64 and cfg.b.layout != COLUMN_MAJOR:
        problems.append(f"consumer warpgroup N {warp.n} (not a multiple of 64) needs B column-major (K-major): "
                        "an MN-major operand moves in 64-wide chunks")
    if tb.n % 64 and cfg.b.layout != COLUMN_MAJOR:
        problems.append(f"threadblock N {tb.n} (not a multiple of 64) needs B column-major (K-major): an "
                        "MN-major operand moves in 64-wide chunks")
    if tb.m > 256 or tb.n > 256:
        problems.append("a TMA box dimension holds at most 256 rows")
    cl = cfg.tile.cluster
    if cfg.tile.scheduler == "stream_k" and cl != Shape(1, 1, 1):
        problems.append(f"stream_k runs 1x1x1 clusters, not {cl.m}x{cl.n}x{cl.k}")
    if cfg.tile.scheduler == "grouped" and cl not in (Shape(1, 1, 1), Shape(2, 1, 1), Shape(1, 2, 1)):
        problems.append(f"grouped runs 1x1x1, 2x1x1 or 1x2x1 clusters, not {cl.m}x{cl.n}x{cl.k}")
    if cfg.tile.scheduler == "grouped" and cfg.epilogue.scale_amax:
        problems.append("the grouped kernels have no D scale / amax (the grouped calls refuse them)")
    if cl not in CLUSTERS:
        problems.append(f"cluster {cl.m}x{cl.n}x{cl.k} is not implemented (1x1x1, 2x1x1, 1x2x1)")
    else:
        # a CTA multicasts its slice of the shared operand (1x2: A, along M; 2x1: B, along N): whole
        # 8-row swizzle atoms of a K-major operand, whole 64-wide chunks of an MN-major one
        slice_a = 8 if cfg.a.layout == ROW_MAJOR else 64
        slice_b = 8 if cfg.b.layout == COLUMN_MAJOR else 64
        if (cl.n > 1 and tb.m % (slice_a * cl.n)) or (cl.m > 1 and tb.n % (slice_b * cl.m)):
            problems.append(f"threadblock {tb.m}x{tb.n} does not split into whole multicast slices for cluster "
                            f"{cl.m}x{cl.n} (64-wide chunks of an MN-major operand, 8 rows of a K-major one)")
    if cfg.tile.schedule not in (COOPERATIVE, PINGPONG, BLOCKSCALED):
        problems.append(f"schedule {cfg.tile.schedule} is not implemented")
    if cfg.tile.schedule == BLOCKSCALED:
        if cfg.a.element not in (E4M3, E5M2):
            problems.append("block-scaled kernels take fp8 operands")
        if warp.m != 64 or 128 % warp.n:
            problems.append(f"consumer warpgroup tile {warp.m}x{warp.n} must be 64 rows by columns inside one "
                            "128-wide scale block")
        if cfg.tile.scheduler:
            problems.append("block-scaled kernels run the persistent scheduler")
        if cfg.epilogue.fused:
            problems.append("block-scaled kernels have the plain epilogue only")
    stage_bytes = (tb.m + tb.n) * tb.k * cfg.a.element.size_bytes
    # Fused epilogues with vectors, and the fp8-input kernels (operand scales may be outer vectors),
    # stage each consumer's row and column terms (at most 3 floats).
    vectors = cfg.epilogue.bias or cfg.epilogue.alpha_vector or cfg.a.element in (E4M3, E5M2)
    vector_bytes = 2 * (warp.m + warp.n) * 12 if vectors else 0
    # block-scaled kernels stage each consumer's row and column scales of four k-blocks (f32, 128
    # slots each: Sm90BlockScales::SharedStorage)
    block_scale_bytes = 2 * 4 * (128 + 128) * 4 if cfg.tile.schedule == BLOCKSCALED else 0
    total = stage_bytes * cfg.tile.stages + EPILOGUE_BYTES + KERNEL_OVERHEAD_BYTES + vector_bytes + block_scale_bytes
    if total > SHARED_MEMORY_LIMIT_BYTES:
        problems.append(f"{cfg.tile.stages} stages and the epilogue need {total} bytes of shared memory; "
                        f"the limit is {SHARED_MEMORY_LIMIT_BYTES}")
    return problems


FAMILY = Family(
    name="sm90_tensorop",
    opcode_class="tensorop",
    api="3x",
    min_cc=90,
    max_cc=90,
    arch_specific=True,
    kernel_header="cutlass/gemm/kernel/gemm_sm90.h",
    kernel_template="cutlass::gemm::kernel::GemmSm90",
    file_prefix="gemm_sm90",
    template="gemm_3x.cu.j2",
    sources_bucket=90,
    rows=ROWS,
    kernel_rules=kernel_rules,
)
