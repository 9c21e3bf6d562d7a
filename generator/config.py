"""Configuration records: the rows of a family table and the kernel configurations they expand to.

A family module (generator/families/) declares one ``Family`` holding ``MathRow``s; each row
expands into one ``KernelConfig`` per layout x tile x alignment (see enumeration.py). Templates
read ``KernelConfig`` fields by name, so this module is the single description of a kernel.
"""
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from .datatypes import COLUMN_MAJOR, E4M3, E5M2, F32, S8, DataType, Layout, Shape
from .epilogues import ACTIVATIONS, NONE, PLAIN, Epilogue, EpilogueRow
from .naming import kernel_name


@dataclass(frozen=True)
class TileRow:
    """One tile choice: threadblock (CTA) tile, warp tile (for sm90: the part one consumer
    warpgroup computes), pipeline stages, and for 3.x-style kernels the cluster shape and the
    kernel schedule (a dispatch_policy.h tag name) and tile scheduler ("" for the family's own,
    "stream_k" for the stream-K scheduler of the 3.x kernels)."""

    threadblock: Shape
    warp: Shape
    stages: int
    cluster: Shape = Shape(1, 1, 1)
    schedule: str = ""
    instruction: Optional[Shape] = None  # overrides MathRow.instruction when it depends on the tile
    in_default_set: bool = False  # also in the default set (the first row always is)
    fused: bool = True  # a default-set row other than the first: also its EpilogueRow.in_default_set variants
    scheduler: str = ""
    output_alignment: Optional[int] = None  # C/D alignment where the tile's kernel differs from its family's


@dataclass(frozen=True)
class MathRow:
    """Element types and MMA instruction, with the layouts, alignments and tiles to build.

    ``alignments`` are in elements of A and B, largest first; ``tiles`` are in preference
    order, the first row being the one for large problems (and the default set's).
    ``compute`` is the epilogue's alpha/beta type (ElementCompute).
    """

    a: DataType
    b: DataType
    c: DataType
    accumulator: DataType
    compute: DataType
    instruction: Optional[Shape]  # None when every tile row names its own
    layouts: Tuple[Tuple[Layout, Layout], ...]
    alignments: Tuple[int, ...]
    tiles: Tuple[TileRow, ...]
    math_operation: str = "multiply_add"
    epilogues: EpilogueRow = NONE  # fused epilogue variants (epilogues.py)
    in_default_set: bool = True  # False: the row's kernels are opt-in by name (not yet verified on a GPU)


@dataclass(frozen=True, eq=False)
class Family:
    """A kernel family: one device kernel template and the table of rows instantiated from it.

    A family is built when some target compute capability lies in [min_cc, max_cc]; an
    ``arch_specific`` family (sm90a features) additionally needs that target to carry the
    ``a`` suffix. ``api`` picks the naming scheme (naming.kernel_name). ``sources_bucket`` names the CUTLASS_LIB_GENERATED_SOURCES_SM<bucket>
    variable of sources.cmake that lists its files. ``kernel_rules`` returns the rules of
    this family's kernel template that a configuration breaks (rules.py adds the common ones).
    """

    name: str
    opcode_class: str
    api: str  # "2x" (CUTLASS 2.x procedural names) or "3x" (cutlass3x_sm90_... names)
    min_cc: int
    max_cc: int
    arch_specific: bool
    kernel_header: str
    kernel_template: str
    file_prefix: str
    template: str
    sources_bucket: int
    rows: Tuple[MathRow, ...]
    kernel_rules: Callable[["KernelConfig"], List[str]]
    operation: str = "gemm"  # "gemv": matrix-vector kernels (M == 1 or N == 1), named "..gemv.."
    default_set: bool = True  # False: every kernel opt-in by name (a family not yet verified on a GPU)
    min_stages: int = 2       # 1 for kernels without a shared-memory pipeline (GEMV, skinny)
    name_suffix: str = ""     # after the alignment in 2.x names, e.g. "_splitk"
    output_alignment: Optional[int] = None  # C/D alignment when the kernel's differs from A's vector


@dataclass(frozen=True)
class Operand:
    """One GEMM operand as the kernel sees it: element type, layout, alignment in elements."""

    element: DataType
    layout: Layout
    alignment: int


@dataclass(frozen=True)
class KernelConfig:
    """Everything that defines one kernel instance; templates and manifest.json read it."""

    family: Family
    a: Operand
    b: Operand
    c: Operand
    accumulator: DataType
    compute: DataType
    instruction: Shape
    tile: TileRow
    math_operation: str
    in_default_set: bool = field(default=False, compare=False)
    epilogue: Epilogue = PLAIN
    element_bias: Optional[DataType] = None  # set when epilogue.bias
    element_aux: Optional[DataType] = None   # set when epilogue.aux

    @property
    def name(self) -> str:
        """The CUTLASS procedural name (see naming.kernel_name)."""
        return kernel_name(self)

    @property
    def output_op_cpp(self) -> str:
        """The C++ type of the epilogue's output operator (LinearCombination, with its Fusion
        when the epilogue is fused)."""
        args = f"{self.c.element.cpp}, {self.accumulator.cpp}, {self.compute.cpp}"
        e = self.epilogue
        # fp8 operands, and s8 operands with an f32 epilogue (int8 dequantization): alpha also takes
        # their per-tensor scales, the terms their per-row / per-column ones (LinearCombination's OperandScales)
        operand_scales = self.a.element in (E4M3, E5M2) or (self.a.element == S8 and self.compute == F32)
        if e.fused or operand_scales:
            flag = lambda b: "true" if b else "false"  # noqa: E731
            bias = self.element_bias.cpp if self.element_bias else "float"
            aux = self.element_aux.cpp if self.element_aux else "float"
            activation = ACTIVATIONS[e.activation]
            args += (f", cutlass::epilogue::thread::Fusion<cutlass::epilogue::ActivationKind::{activation}, "
                     f"{flag(e.bias)}, {bias}, {flag(e.alpha_vector)}, {flag(e.aux)}, {aux}, {flag(e.scale_amax)}>")
        if operand_scales:
            args += ", true"
        return f"cutlass::epilogue::thread::LinearCombination<{args}>"

    @property
    def tile_scheduler(self) -> str:
        """manifest.json's tile scheduler (library TileSchedulerType): "default" for the 2.x
        kernels (one CTA per tile), "persistent", "stream_k" or "grouped" for the 3.x ones."""
        if self.family.api != "3x":
            return "default"
        return self.tile.scheduler or "persistent"

    @property
    def tile_scheduler_cpp(self) -> str:
        """The dispatch_policy.h tag of tile_scheduler (3.x kernels)."""
        return {"stream_k": "StreamKScheduler", "grouped": "GroupedScheduler"}.get(self.tile_scheduler,
                                                                                  "PersistentScheduler")

    @property
    def d(self) -> Operand:
        """The output operand: identical to C (same type, column-major, same alignment)."""
        return self.c

    @property
    def warp_count(self) -> Shape:
        """Warps per threadblock along M, N and K."""
        tb, warp = self.tile.threadblock, self.tile.warp
        return Shape(m=tb.m // warp.m, n=tb.n // warp.n, k=tb.k // warp.k)


def alignment_c(a: Operand, c_element: DataType) -> int:
    """C's alignment in elements: the bytes of one A vector access (at most 16), in C elements."""
    vector_bytes = min(16, a.alignment * a.element.size_bytes)
    return max(1, vector_bytes // c_element.size_bytes)


def output_operand(a: Operand, c_element: DataType, alignment: Optional[int] = None) -> Operand:
    """The C (and D) operand of a kernel whose A operand is ``a``: column-major, the given alignment
    or one derived from A's vector access."""
    return Operand(element=c_element, layout=COLUMN_MAJOR,
                   alignment=alignment if alignment is not None else alignment_c(a, c_element))
