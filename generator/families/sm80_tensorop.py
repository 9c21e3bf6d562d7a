"""sm80 tensor-op family: cp.async multistage mainloop + mma.sync, for sm_80 and later GPUs.

One row per (A, B, C, accumulator) combination. Tile tables list threadblock / warp / stages
in preference order; the first row suits large problems and is the default set's.
"""
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..datatypes import ALL_LAYOUTS, BF16, COLUMN_MAJOR, E4M3, E5M2, F16, F32, ROW_MAJOR, S8, S32, TF32, Shape
from ..epilogues import DEFAULT_SET, FP8, STANDARD, EpilogueRow

TILES_16BIT = (
    TileRow(threadblock=Shape(128, 256, 32), warp=Shape(64, 64, 32), stages=3),
    TileRow(threadblock=Shape(256, 128, 32), warp=Shape(64, 64, 32), stages=3),
    TileRow(threadblock=Shape(128, 128, 32), warp=Shape(64, 64, 32), stages=4),
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(64, 64, 64), stages=3),
    # default set too (plain kernels at the largest alignment; the GPU suite ran them in s8's
    # 393-kernel list): few-token GEMMs (22016 x 32 x 4096 ran at 0.84x cuBLAS on it, 0.47x on
    # the best default-set kernel before; docs/NOTES.md, s9), where the cost model picks it
    TileRow(threadblock=Shape( 64,  64, 32), warp=Shape(32, 32, 32), stages=5, in_default_set=True, fused=False),
    TileRow(threadblock=Shape(128, 256, 32), warp=Shape(64, 64, 32), stages=4),
)

TILES_TF32 = (
    TileRow(threadblock=Shape(128, 128, 16), warp=Shape(64, 64, 16), stages=4),
    TileRow(threadblock=Shape(128, 256, 16), warp=Shape(64, 64, 16), stages=3),
    TileRow(threadblock=Shape( 64,  64, 16), warp=Shape(32, 32, 16), stages=5),
)

TILES_S8 = (
    TileRow(threadblock=Shape(128, 256, 64), warp=Shape(64, 64, 64), stages=3),
    TileRow(threadblock=Shape(128, 128, 64), warp=Shape(64, 64, 64), stages=4),
    TileRow(threadblock=Shape( 64,  64, 64), warp=Shape(32, 32, 64), stages=5),
)

MMA_16816 = Shape(16, 8, 16)
MMA_1688 = Shape(16, 8, 8)
MMA_16832 = Shape(16, 8, 32)

ALIGNMENTS_16BIT = (8, 4, 2, 1)
ALIGNMENTS_TF32 = (4, 2, 1)
ALIGNMENTS_S8 = (16, 8, 4, 2, 1)

TN_ONLY = ((ROW_MAJOR, COLUMN_MAJOR),)

#: Fused epilogues of the 16-bit rows: every standard variant (full set); bias+ReLU and bias+GELU
#: join the default set for 16-bit outputs. fp8 outputs (only fused, with scale and amax) on the
#: first tile, TN.
FUSED_16BIT_OUT = EpilogueRow(variants=STANDARD, in_default_set=DEFAULT_SET)
FUSED_F32_OUT = EpilogueRow(variants=STANDARD)

ROWS = (
    MathRow(a=F16,  b=F16,  c=F16, accumulator=F32, compute=F32, instruction=MMA_16816,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS_16BIT, tiles=TILES_16BIT, epilogues=FUSED_16BIT_OUT),
    MathRow(a=F16,  b=F16,  c=F32, accumulator=F32, compute=F32, instruction=MMA_16816,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS_16BIT, tiles=TILES_16BIT, epilogues=FUSED_F32_OUT),
    MathRow(a=BF16, b=BF16, c=BF16, accumulator=F32, compute=F32, instruction=MMA_16816,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS_16BIT, tiles=TILES_16BIT, epilogues=FUSED_16BIT_OUT),
    MathRow(a=BF16, b=BF16, c=F32, accumulator=F32, compute=F32, instruction=MMA_16816,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS_16BIT, tiles=TILES_16BIT, epilogues=FUSED_F32_OUT),
) + tuple(
    MathRow(a=a, b=a, c=c, accumulator=F32, compute=F32, instruction=MMA_16816,
            layouts=TN_ONLY, alignments=(8,), tiles=TILES_16BIT[:1],
            epilogues=EpilogueRow(variants=FP8, plain=False, bias_type=a))
    for a in (BF16, F16) for c in (E4M3, E5M2)
) + (
    MathRow(a=TF32, b=TF32, c=F32, accumulator=F32, compute=F32, instruction=MMA_1688,
            layouts=ALL_LAYOUTS, alignments=ALIGNMENTS_TF32,  tiles=TILES_TF32),
    MathRow(a=S8,   b=S8,   c=S32, accumulator=S32, compute=S32, instruction=MMA_16832,
            layouts=TN_ONLY,     alignments=ALIGNMENTS_S8,    tiles=TILES_S8),
)

def kernel_rules(cfg: KernelConfig) -> List[str]:
    """GemmSm80's own rules (gemm_sm80.h, threadblock/sm80_mma_multistage.h, the epilogue), as sentences."""
    tb, warp = cfg.tile.threadblock, cfg.tile.warp
    problems = []
    if cfg.tile.stages < 3:
        problems.append(f"stages {cfg.tile.stages} must be at least 3 (Stages-1 tiles stay in flight)")
    if warp.k != tb.k:
        problems.append(f"warp K {warp.k} must equal threadblock K {tb.k}")
    if warp.m % 16 != 0 or warp.n % 16 != 0:
        problems.append(f"warp M {warp.m} and N {warp.n} must be multiples of 16")
    if tb.k % (2 * cfg.instruction.k) != 0:
        problems.append(f"threadblock K {tb.k} must be a multiple of twice the instruction K {cfg.instruction.k}")
    if tb.m % 32 != 0:
        problems.append(f"threadblock M {tb.m} must be a multiple of 32 (epilogue)")
    if cfg.a.element.size_bytes == 1 and (cfg.a.layout, cfg.b.layout) != (ROW_MAJOR, COLUMN_MAJOR):
        problems.append("8-bit operands must be K-major: A row-major and B column-major (tn)")
    return problems


FAMILY = Family(
    name="sm80_tensorop",
    opcode_class="tensorop",
    api="2x",
    min_cc=80,
    max_cc=1000,
    arch_specific=False,
    kernel_header="cutlass/gemm/kernel/gemm_sm80.h",
    kernel_template="cutlass::gemm::kernel::GemmSm80",
    file_prefix="gemm_sm80",
    template="gemm_2x.cu.j2",
    sources_bucket=80,
    rows=ROWS,
    kernel_rules=kernel_rules,
)
