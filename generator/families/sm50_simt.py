"""SIMT family: FFMA/DFMA (and integer multiply-add) kernels for any GPU from sm_50 on.

These instances take every layout with alignment 1, so selection always finds a kernel
(STYLE.md 7.11). Tiles are a table the lead retunes; the first row of each is the default.
"""
from ..config import Family, MathRow, TileRow
from ..datatypes import ALL_LAYOUTS, COLUMN_MAJOR, F32, F64, ROW_MAJOR, S8, S32, Shape

SIMT_INSTRUCTION = Shape(1, 1, 1)

SGEMM_TILES = (
    TileRow(threadblock=Shape(128, 128, 8), warp=Shape(32, 64, 8), stages=2),
    TileRow(threadblock=Shape(128,  64, 8), warp=Shape(32, 32, 8), stages=2),
    TileRow(threadblock=Shape( 64,  64, 8), warp=Shape(32, 32, 8), stages=2),
)

DGEMM_TILES = (
    TileRow(threadblock=Shape( 64,  64, 8), warp=Shape(32, 32, 8), stages=2),
    TileRow(threadblock=Shape(128,  64, 8), warp=Shape(64, 32, 8), stages=2),
)

IGEMM_TILES = (
    TileRow(threadblock=Shape(128, 128, 8), warp=Shape(32, 64, 8), stages=2),
)

#: s8 layouts the sm80 tensor-op family lacks (it builds tn only).
IGEMM_LAYOUTS = (
    (COLUMN_MAJOR, COLUMN_MAJOR),
    (COLUMN_MAJOR, ROW_MAJOR),
    (ROW_MAJOR, ROW_MAJOR),
)

ROWS = (
    MathRow(a=F32, b=F32, c=F32, accumulator=F32, compute=F32, instruction=SIMT_INSTRUCTION,
            layouts=ALL_LAYOUTS,   alignments=(1,), tiles=SGEMM_TILES),
    MathRow(a=F64, b=F64, c=F64, accumulator=F64, compute=F64, instruction=SIMT_INSTRUCTION,
            layouts=ALL_LAYOUTS,   alignments=(1,), tiles=DGEMM_TILES),
    MathRow(a=S8,  b=S8,  c=S32, accumulator=S32, compute=S32, instruction=SIMT_INSTRUCTION,
            layouts=IGEMM_LAYOUTS, alignments=(1,), tiles=IGEMM_TILES),
)

FAMILY = Family(
    name="sm50_simt",
    opcode_class="simt",
    min_cc=50,
    max_cc=1000,
    arch_specific=False,
    kernel_header="cutlass/gemm/kernel/gemm_simt.h",
    kernel_template="cutlass::gemm::kernel::GemmSimt",
    file_prefix="gemm_sm50",
    template="gemm_2x.cu.j2",
    sources_bucket=50,
    rows=ROWS,
)
