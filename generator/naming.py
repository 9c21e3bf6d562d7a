"""Kernel names in CUTLASS's procedural schemes, so existing filters keep working.

2.x families (SIMT, sm80):
    cutlass_{opclass}_{extended}_{tbM}x{tbN}_{tbK}x{stages}_{layoutA}{layoutB}_align{max(alignA, alignB)}[_splitk]
    (the skinny family splits K over CTAs and says so; the GEMV family's core name ends in "gemv")
3.x families (sm90):
    cutlass3x_sm{cc}_{opclass}_gemm_{A}_{B}_{acc}_{C}_{D}_{M}x{N}x{K}_{cM}x{cN}x{cK}_{stages}
        _{layoutA}{layoutB}{layoutC}_align{max(alignA, alignB)}{tile scheduler suffix}{schedule suffix}
        {epilogue suffix}
Fused epilogues append their variant (epilogues.py): "_epi_bias_gelu" to 2.x names, "_bias_gelu"
to 3.x names (which end in "_epi_tma" already).

``kernel_name`` is the one source of a kernel's name: file names, manifest.json and the
registration code all take it from here.
"""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import KernelConfig

#: Accumulator letter that opens the core name (CUTLASS ShortDataTypeNames).
ACCUMULATOR_LETTERS = {"f16": "h", "f32": "s", "f64": "d", "s32": "i"}


def core_name(cfg: "KernelConfig") -> str:
    """Accumulator letter, instruction shape digits (tensor ops only) and "gemm" (the GEMV family:
    "gemv", as cuBLAS's sgemv).

    CUTLASS inserts an intermediate MMA type tag (e.g. "tf32") only when the MMA input type
    differs from both A's type and the accumulator; every family here feeds A's own type to
    the MMA, so no tag appears.
    """
    letter = ACCUMULATOR_LETTERS[cfg.accumulator.name]
    shape = ""
    if cfg.family.opcode_class != "simt":
        inst = cfg.instruction
        shape = f"{inst.m}{inst.n}{inst.k}"
    return f"{letter}{shape}{cfg.family.operation}"


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


#: Name suffixes of the sm90 kernel schedules (CUTLASS KernelScheduleSuffixes) and epilogues.
SCHEDULE_SUFFIXES = {
    "KernelTmaWarpSpecializedCooperative": "_warpspecialized_cooperative",
    "KernelTmaWarpSpecializedPingpong": "_warpspecialized_pingpong",
    "KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum": "_warpspecialized_cooperative_blockscale",
}
EPILOGUE_SUFFIX = "_epi_tma"

#: Name suffixes of the tile schedulers (CUTLASS TileSchedulerSuffixes for stream-K; ours for grouped).
SCHEDULER_SUFFIXES = {"persistent": "", "stream_k": "_stream_k", "grouped": "_grouped"}


def kernel_name_3x(cfg: "KernelConfig") -> str:
    """e.g. cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_4_tnn_align8_warpspecialized_cooperative_epi_tma."""
    tb, cl = cfg.tile.threadblock, cfg.tile.cluster
    types = "_".join(e.name for e in (cfg.a.element, cfg.b.element, cfg.accumulator, cfg.c.element, cfg.d.element))
    layouts = layout_letters(cfg) + cfg.c.layout.letter
    alignment = max(cfg.a.alignment, cfg.b.alignment)
    return (
        f"cutlass3x_sm{cfg.family.min_cc}_{cfg.family.opcode_class}_gemm_{types}"
        f"_{tb.m}x{tb.n}x{tb.k}_{cl.m}x{cl.n}x{cl.k}_{cfg.tile.stages}_{layouts}_align{alignment}"
        f"{SCHEDULER_SUFFIXES[cfg.tile_scheduler]}{SCHEDULE_SUFFIXES[cfg.tile.schedule]}{EPILOGUE_SUFFIX}"
        f"{fusion_suffix(cfg)}"
    )


def fusion_suffix(cfg: "KernelConfig") -> str:
    """"" for the plain epilogue; else "_<variant>" for 3.x names (after "_epi_tma") and
    "_epi_<variant>" for 2.x names (epilogues.py)."""
    if not cfg.epilogue.fused:
        return ""
    return f"_{cfg.epilogue.suffix}" if cfg.family.api == "3x" else f"_epi_{cfg.epilogue.suffix}"


def kernel_name(cfg: "KernelConfig") -> str:
    """The procedural name of a kernel, e.g. cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8."""
    if cfg.family.api == "3x":
        return kernel_name_3x(cfg)
    tb = cfg.tile.threadblock
    alignment = max(cfg.a.alignment, cfg.b.alignment)
    return (
        f"cutlass_{cfg.family.opcode_class}_{extended_name(cfg)}"
        f"_{tb.m}x{tb.n}_{tb.k}x{cfg.tile.stages}_{layout_letters(cfg)}_align{alignment}{cfg.family.name_suffix}"
        f"{fusion_suffix(cfg)}"
    )


def file_stem(cfg: "KernelConfig") -> str:
    """The stem of the .cu files that hold a kernel: kernels of one family, type combination and
    layout share files (gemm_sm80_bf16_s16816gemm_bf16_tn_0.cu, gemm_sm90_bf16_bf16_tnn_0.cu)."""
    if cfg.family.api == "3x":
        return f"{cfg.family.file_prefix}_{cfg.a.element.name}_{cfg.c.element.name}_{layout_letters(cfg)}{cfg.c.layout.letter}"
    return f"{cfg.family.file_prefix}_{extended_name(cfg)}_{layout_letters(cfg)}"
