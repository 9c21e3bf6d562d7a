"""GEMV family: matrix-vector products (M == 1 or N == 1) on CUDA cores, every type the C API
takes (e4m3 opt-in), every layout, any alignment (cutlass/gemm/kernel/gemv.h).

A GEMV reads its matrix once and does 2 flops per element, so it runs at memory bandwidth: one
instance per (types, layouts), alignment 1 (16-byte loads where the matrix allows them, decided at
run time), splitting K over CTAs when the outputs alone cannot fill the GPU. The "tile" in the name
is the CTA's 256 threads (1x1 K, 1 stage: no shared-memory pipeline), e.g.
cutlass_simt_bf16_sgemv_bf16_256x1_1x1_tn_align1_splitk (it splits K over CTAs as
the problem needs). Selection sends it only M == 1 or N == 1 calls
(its can_implement refuses the rest), where its cost (bytes / bandwidth) beats the tiled kernels'.
"""
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..datatypes import ALL_LAYOUTS, BF16, E4M3, F16, F32, F64, S8, S32, TF32, Shape
from ..epilogues import DEFAULT_SET, STANDARD, EpilogueRow

TILES = (TileRow(threadblock=Shape(256, 1, 1), warp=Shape(32, 1, 1), stages=1),)
INSTRUCTION = Shape(1, 1, 1)


def _row(a, c, accumulator, epilogues=EpilogueRow(), in_default_set=True):
    return MathRow(a=a, b=a, c=c, accumulator=accumulator, compute=accumulator, instruction=INSTRUCTION,
                   layouts=ALL_LAYOUTS, alignments=(1,), tiles=TILES, epilogues=epilogues,
                   in_default_set=in_default_set)


ROWS = tuple(
    _row(a, c, F32, EpilogueRow(variants=STANDARD, in_default_set=DEFAULT_SET if c == a else ()))
    for a in (BF16, F16) for c in (a, F32)
) + (
    _row(F32, F32, F32, EpilogueRow(variants=STANDARD)),
    _row(TF32, F32, F32),   # read as f32 and multiplied in f32: more precise than tf32 asks
    _row(F64, F64, F64),
    _row(S8, S32, S32),
) + tuple(
    # e4m3 x e4m3 -> bf16 / f16 / f32 (fp8 decode at 1 token; per-tensor and outer-vector operand
    # scales through the epilogue's terms): opt-in until run on a GPU (docs/NOTES.md, s10)
    _row(E4M3, c, F32, in_default_set=False) for c in (BF16, F16, F32)
)


def kernel_rules(cfg: KernelConfig) -> List[str]:
    """Gemv's own rules (gemv.h), as sentences."""
    problems = []
    if cfg.tile.threadblock != Shape(256, 1, 1) or cfg.tile.warp != Shape(32, 1, 1) or cfg.tile.stages != 1:
        problems.append("a GEMV CTA is 256 threads of 32-thread warps, one stage (threadblock 256x1x1, warp 32x1x1)")
    if cfg.a.alignment != 1 or cfg.b.alignment != 1:
        problems.append("GEMV kernels take any alignment (align1); they vectorize at run time")
    if cfg.a.element != cfg.b.element:
        problems.append("A and B have the same type")
    return problems


FAMILY = Family(
    name="gemv",
    opcode_class="simt",
    api="2x",
    min_cc=50,
    max_cc=1000,
    arch_specific=False,
    kernel_header="cutlass/gemm/kernel/gemv.h",
    kernel_template="cutlass::gemm::kernel::Gemv",
    file_prefix="gemv_sm50",
    template="gemv.cu.j2",
    sources_bucket=50,
    rows=ROWS,
    kernel_rules=kernel_rules,
    operation="gemv",
    min_stages=1,
    name_suffix="_splitk",   # it splits K over CTAs when the outputs cannot fill the GPU
    # verified on the H200 (docs/NOTES.md, 2026-12-01): every kernel's GPU tests pass
)
