"""GEMV family: matrix-vector products (M == 1 or N == 1) on CUDA cores, every type the C API
takes (e4m3 opt-in), every layout, any alignment (cutlass/gemm/kernel/gemv.h).

A GEMV reads its matrix once and does 2 flops per element, so it runs at memory bandwidth: one
instance per (types, layouts), alignment 1 (16-byte loads where the matrix allows them, decided at
run time), splitting K over CTAs when the outputs alone cannot fill the GPU. The "tile" in the name
is the CTA's 256 threads (1x1 K, 1 stage: no shared-memory pipeline), e.g.
cutlass_simt_bf16_sgemv_bf16_256x1_1x1_tn_align1_splitk (it splits K over CTAs as
the problem needs). Selection sends it only M == 1 or N == 1 calls
(its can_implement refuses the rest), where its cost (bytes / bandwidth) beats the tiled kernels'.

FAMILY_BULK (sm90_gemv, opt-in): the same kernel template with Stages > 1, the dot form's rows
streamed through shared memory by bulk copies (sm_90), e.g.
cutlass_simt_bf16_sgemv_bf16_256x1_1x4_tn_align1_splitk.
"""
import dataclasses
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..datatypes import ALL_LAYOUTS, BF16, COLUMN_MAJOR, E4M3, F16, F32, F64, ROW_MAJOR, S8, S32, TF32, Shape
from ..epilogues import DEFAULT_SET, STANDARD, EpilogueRow

TILES = (TileRow(threadblock=Shape(256, 1, 1), warp=Shape(32, 1, 1), stages=1),)
#: The bulk-copy dot form (gemv.h, Stages > 1; sm_90): each CTA's 8 rows stream through 4 shared
#: memory buffers of 1 KB per row, filled by cp.async.bulk (32 KB in flight per CTA without
#: registers). The "stages" of the name (..._256x1_1x4_...) is the ring's depth.
TILES_BULK = (TileRow(threadblock=Shape(256, 1, 1), warp=Shape(32, 1, 1), stages=4),)
INSTRUCTION = Shape(1, 1, 1)


def _row(a, c, accumulator, epilogues=EpilogueRow(), in_default_set=True, layouts=ALL_LAYOUTS, tiles=TILES):
    return MathRow(a=a, b=a, c=c, accumulator=accumulator, compute=accumulator, instruction=INSTRUCTION,
                   layouts=layouts, alignments=(1,), tiles=tiles, epilogues=epilogues,
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

#: The bulk-copy dot form, 16-bit TN (the dot form of both N == 1, A row-major, and M == 1, B
#: column-major), its own family (sm_90 and later): written s34 after the device budget, compiled
#: on the host, NOT yet run on a GPU; opt-in ("*sgemv*_1x4_*") until its tests pass and it is
#: measured against the register form.
ROWS_BULK = tuple(
    _row(a, a, F32, layouts=((ROW_MAJOR, COLUMN_MAJOR),), tiles=TILES_BULK) for a in (BF16, F16)
)


def kernel_rules(cfg: KernelConfig) -> List[str]:
    """Gemv's own rules (gemv.h), as sentences."""
    problems = []
    if cfg.tile.threadblock != Shape(256, 1, 1) or cfg.tile.warp != Shape(32, 1, 1) or not 1 <= cfg.tile.stages <= 5:
        problems.append("a GEMV CTA is 256 threads of 32-thread warps (threadblock 256x1x1, warp 32x1x1), one stage "
                        "or a bulk ring of 2-5 (gemv.h: 8 rows x 1 KB per buffer in static shared memory)")
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

FAMILY_BULK = dataclasses.replace(FAMILY, name="sm90_gemv", min_cc=90, file_prefix="gemv_sm90", sources_bucket=90,
                                  rows=ROWS_BULK, default_set=False)
