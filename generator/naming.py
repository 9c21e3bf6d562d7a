"""Kernel names in CUTLASS's 2.x procedural scheme, so existing filters keep working.

    cutlass_{opclass}_{extended}_{tbM}x{tbN}_{tbK}x{stages}_{layoutA}{layoutB}_align{max(alignA, alignB)}

``kernel_name`` is the one source of a kernel's name: file names, manifest.json and the
registration code all take it from here.
"""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import KernelConfig

#: Accumulator letter that opens the core name (CUTLASS ShortDataTypeNames).
ACCUMULATOR_LETTERS = {"f16": "h", "f32": "s", "f64": "d", "s32": "i"}


def core_name(cfg: "KernelConfig") -> str:
    """Accumulator letter, instruction shape digits (tensor ops only) and "gemm".

    CUTLASS inserts an intermediate MMA type tag (e.g. "tf32") only when the MMA input type
    differs from both A's type and the accumulator; every family here feeds A's own type to
    the MMA, so no tag appears.
    """
    letter = ACCUMULATOR_LETTERS[cfg.accumulator.name]
    shape = ""
    if cfg.family.opcode_class != "simt":
        inst = cfg.instruction
        shape = f"{inst.m}{inst.n}{inst.k}"
    return f"{letter}{shape}gemm"


def extended_name(cfg: "KernelConfig") -> str:
    """The core name, with "{C}_" prepended when C != accumulator and "_{A}" appended when A != accumulator."""
    name = core_name(cfg)
    if cfg.c.element != cfg.accumulator:
        name = f"{cfg.c.element.name}_{name}"
    if cfg.a.element != cfg.accumulator:
        name = f"{name}_{cfg.a.element.name}"
    return name


def layout_letters(cfg: "KernelConfig") -> str:
    """The layouts of A and B: "n" for column-major, "t" for row-major (e.g. "tn")."""
    return cfg.a.layout.letter + cfg.b.layout.letter


def kernel_name(cfg: "KernelConfig") -> str:
    """The procedural name of a kernel, e.g. cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8."""
    tb = cfg.tile.threadblock
    alignment = max(cfg.a.alignment, cfg.b.alignment)
    return (
        f"cutlass_{cfg.family.opcode_class}_{extended_name(cfg)}"
        f"_{tb.m}x{tb.n}_{tb.k}x{cfg.tile.stages}_{layout_letters(cfg)}_align{alignment}"
    )
