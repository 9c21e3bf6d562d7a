"""sm80 skinny family: GEMMs whose smaller output side holds at most 8 or 16 entries (LLM
decoding and small-batch tokens, in either orientation), on mma.sync tensor cores streaming the
large operand from global memory (cutlass/gemm/kernel/gemm_skinny_sm80.h). TN only (both operands
K-major: y = x W^T as frameworks call it), 16-bit inputs, f32 accumulate, alignment 8 for A and B
and any for C and D. The tile reads 32 rows of the large side x SmallN x 128 of K (8 warps:
2 x 16 rows, 4 K slices); the kernel splits K over CTAs as the problem needs, so names end in
"_splitk": cutlass_tensorop_bf16_s16816gemm_bf16_32x16_128x1_tn_align8_splitk.
"""
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..datatypes import BF16, COLUMN_MAJOR, F16, F32, ROW_MAJOR, Shape
from ..epilogues import DEFAULT_SET, STANDARD, EpilogueRow

INSTRUCTION = Shape(16, 8, 16)
#: The small-side widths built. The kernel also takes 32 (4 n8 fragments), which measured
#: 0.40-0.60x cuBLAS on the H200 (docs/NOTES.md, 2026-12-01): the tiled sm90 kernels do better there.
SMALL_N = (8, 16)

#: One row per small-side width; the first (8) also gets every fused variant.
TILES = tuple(TileRow(threadblock=Shape(32, n, 128), warp=Shape(16, n, 32), stages=1, instruction=INSTRUCTION,
                      in_default_set=True) for n in SMALL_N)

TN_ONLY = ((ROW_MAJOR, COLUMN_MAJOR),)

ROWS = tuple(
    MathRow(a=a, b=a, c=c, accumulator=F32, compute=F32, instruction=INSTRUCTION, layouts=TN_ONLY,
            alignments=(8,), tiles=TILES,
            epilogues=EpilogueRow(variants=STANDARD, in_default_set=DEFAULT_SET if c == a else ()))
    for a in (BF16, F16) for c in (a, F32)
)


def kernel_rules(cfg: KernelConfig) -> List[str]:
    """GemmSkinnySm80's own rules, as sentences."""
    tb, warp = cfg.tile.threadblock, cfg.tile.warp
    problems = []
    if tb.n not in (8, 16, 32):
        problems.append(f"the small side {tb.n} must be 8, 16 or 32")
    if (tb.m, tb.k, warp.m, warp.n, warp.k, cfg.tile.stages) != (32, 128, 16, tb.n, 32, 1):
        problems.append("the CTA is 2 x 16 rows by 4 K slices of 32 (threadblock 32xNx128, warp 16xNx32, 1 stage)")
    if (cfg.a.layout, cfg.b.layout) != (ROW_MAJOR, COLUMN_MAJOR):
        problems.append("A row-major and B column-major (both K-major)")
    if cfg.a.element.size_bytes != 2 or cfg.a.alignment != 8:
        problems.append("16-bit inputs with alignment 8 (16-byte loads)")
    if cfg.c.alignment != 1:
        problems.append("C and D take any alignment (align1)")
    return problems


FAMILY = Family(
    name="sm80_skinny",
    opcode_class="tensorop",
    api="2x",
    min_cc=80,
    max_cc=1000,
    arch_specific=False,
    kernel_header="cutlass/gemm/kernel/gemm_skinny_sm80.h",
    kernel_template="cutlass::gemm::kernel::GemmSkinnySm80",
    file_prefix="gemm_skinny_sm80",
    template="gemm_skinny.cu.j2",
    sources_bucket=80,
    rows=ROWS,
    kernel_rules=kernel_rules,
    min_stages=1,
    name_suffix="_splitk",
    output_alignment=1,
    # verified on the H200 (docs/NOTES.md, 2026-12-01): every kernel's GPU tests pass
)
