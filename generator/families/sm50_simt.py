"""SIMT family: FFMA/DFMA (and integer multiply-add) kernels for any GPU from sm_50 on.

These instances take every layout with alignment 1, so selection always finds a kernel
(STYLE.md 7.11). Tiles are a table the lead retunes; the first row of each is the default.
"""
from typing import List

from ..config import Family, KernelConfig, MathRow, TileRow
from ..epilogues import STANDARD, EpilogueRow
from ..datatypes import ALL_LAYOUTS, COLUMN_MAJOR, F32, F64, ROW_MAJOR, S8, S32, Shape

SIMT_INSTRUCTION = Shape(1, 1, 1)

# H200, after the register-bank FMA order (docs/NOTES.md, 2026-11-29 s3), 4096^3 NN/TN/NT/TT and
# 8192^3 NN vs cuBLAS: 128x128x16 0.954/0.944/0.956/0.979/0.967, 128x128x8 0.922/0.905/0.935/0.953/0.929,
# 128x64x8 and 64x64x8 0.73-0.82 (they remain for small problems).
SGEMM_TILES = (
    TileRow(threadblock=Shape(128, 128, 16), warp=Shape(32, 64, 16), stages=2),
    TileRow(threadblock=Shape(128, 128, 8), warp=Shape(32, 64, 8), stages=2),
    TileRow(threadblock=Shape(128,  64, 8), warp=Shape(32, 32, 8), stages=2),
    TileRow(threadblock=Shape( 64,  64, 8), warp=Shape(32, 32, 8), stages=2),
)

DGEMM_TILES = (
    TileRow(threadblock=Shape( 64,  64, 8), warp=Shape(32, 32, 8), stages=2),
    TileRow(threadblock=Shape(128,  64, 8), warp=Shape(64, 32, 8), stages=2),
)

IGEMM_TILES = (
    # s8 goes through registers (converted to s32): an 8x8 thread tile spills at sm_90a, 4x4 does not
    TileRow(threadblock=Shape(64, 64, 16), warp=Shape(32, 32, 16), stages=2),
)

#: s8 layouts the sm80 tensor-op family lacks (it builds tn only).
IGEMM_LAYOUTS = (
    (COLUMN_MAJOR, COLUMN_MAJOR),
    (COLUMN_MAJOR, ROW_MAJOR),
    (ROW_MAJOR, ROW_MAJOR),
)

ROWS = (
    MathRow(a=F32, b=F32, c=F32, accumulator=F32, compute=F32, instruction=SIMT_INSTRUCTION,
            layouts=ALL_LAYOUTS,   alignments=(1,), tiles=SGEMM_TILES,
            epilogues=EpilogueRow(variants=STANDARD)),
    MathRow(a=F64, b=F64, c=F64, accumulator=F64, compute=F64, instruction=SIMT_INSTRUCTION,
            layouts=ALL_LAYOUTS,   alignments=(1,), tiles=DGEMM_TILES),
    MathRow(a=S8,  b=S8,  c=S32, accumulator=S32, compute=S32, instruction=SIMT_INSTRUCTION,
            layouts=IGEMM_LAYOUTS, alignments=(1,), tiles=IGEMM_TILES),
)

def kernel_rules(cfg: KernelConfig) -> List[str]:
    """GemmSimt's own rules (gemm_simt.h, threadblock/simt_policy.h), as sentences."""
    tb, warp = cfg.tile.threadblock, cfg.tile.warp
    problems = []
    if cfg.tile.stages != 2:
        problems.append(f"stages {cfg.tile.stages} must be 2 (double-buffered shared memory)")
    if warp.k != tb.k:
        problems.append(f"warp K {warp.k} must equal threadblock K {tb.k} (warps split only M and N)")
    # A warp is a lanes_m x lanes_n grid of threads; each stores 16-byte accumulator vectors.
    lanes_n = 8 if warp.n >= warp.m else 4
    lanes_m = 32 // lanes_n
    vector = 16 // cfg.accumulator.size_bytes
    if warp.m % (lanes_m * vector) != 0:
        problems.append(f"warp M {warp.m} must be a multiple of {lanes_m} lanes x {vector} accumulators")
    if warp.n % (lanes_n * vector) != 0:
        problems.append(f"warp N {warp.n} must be a multiple of {lanes_n} lanes x {vector} accumulators")
    return problems


FAMILY = Family(
    name="sm50_simt",
    opcode_class="simt",
    api="2x",
    min_cc=50,
    max_cc=1000,
    arch_specific=False,
    kernel_header="cutlass/gemm/kernel/gemm_simt.h",
    kernel_template="cutlass::gemm::kernel::GemmSimt",
    file_prefix="gemm_sm50",
    template="gemm_2x.cu.j2",
    sources_bucket=50,
    rows=ROWS,
    kernel_rules=kernel_rules,
)
