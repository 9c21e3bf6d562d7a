"""The kernel templates' rules, held in Python so the generator never emits an instance that
trips a static_assert (CUTLASS #3211). Each rule's message names the parameter and the limit.

This module holds the rules every family shares; a family's own static_asserts are mirrored
by its ``kernel_rules`` function, next to its table in generator/families/.
"""
from typing import List

from .config import KernelConfig

#: Shared memory a threadblock may use (the sm90 opt-in limit, 227 KB).
SHARED_MEMORY_LIMIT_BYTES = 227 * 1024

#: Widest vector access of one thread (cp.async and LDG.128 move 16 bytes).
MAX_VECTOR_BYTES = 16

MAX_WARPS = 8


class ConfigError(ValueError):
    """A kernel configuration breaks a rule of its kernel template."""


def shared_memory_bytes(cfg: KernelConfig) -> int:
    """Bytes of the A and B tiles for all pipeline stages."""
    tb = cfg.tile.threadblock
    per_stage = tb.m * tb.k * cfg.a.element.size_bytes + tb.n * tb.k * cfg.b.element.size_bytes
    return per_stage * cfg.tile.stages


def violations(cfg: KernelConfig) -> List[str]:
    """Every rule the configuration breaks, as sentences (empty when it is valid)."""
    tb, warp, inst = cfg.tile.threadblock, cfg.tile.warp, cfg.instruction
    problems = []
    for dim in ("m", "n", "k"):
        if getattr(tb, dim) % getattr(warp, dim) != 0:
            problems.append(
                f"threadblock {dim.upper()} {getattr(tb, dim)} must be a multiple of warp {dim.upper()} {getattr(warp, dim)}"
            )
    if warp.m % inst.m != 0:
        problems.append(f"warp M {warp.m} must be a multiple of the instruction M {inst.m}")
    if warp.n % inst.n != 0:
        problems.append(f"warp N {warp.n} must be a multiple of the instruction N {inst.n}")
    if tb.k % inst.k != 0:
        problems.append(f"threadblock K {tb.k} must be a multiple of the instruction K {inst.k}")
    if not problems:
        warps = cfg.warp_count
        count = warps.m * warps.n * warps.k
        if count > MAX_WARPS:
            problems.append(f"{count} warps per threadblock; at most {MAX_WARPS} are allowed")
    if cfg.tile.stages < cfg.family.min_stages:
        problems.append(f"stages {cfg.tile.stages} must be at least {cfg.family.min_stages}")
    smem = shared_memory_bytes(cfg)
    if smem > SHARED_MEMORY_LIMIT_BYTES:
        problems.append(
            f"{cfg.tile.stages} stages need {smem} bytes of shared memory; the limit is {SHARED_MEMORY_LIMIT_BYTES}"
        )
    for operand_name in ("a", "b", "c"):
        operand = getattr(cfg, operand_name)
        alignment = operand.alignment
        if alignment < 1 or alignment & (alignment - 1):
            problems.append(f"alignment{operand_name.upper()} {alignment} must be a power of two")
        elif alignment * operand.element.size_bytes > MAX_VECTOR_BYTES:
            problems.append(
                f"alignment{operand_name.upper()} {alignment} x {operand.element.size_bytes} bytes exceeds the "
                f"{MAX_VECTOR_BYTES}-byte vector access"
            )
    if cfg.tile.scheduler not in ("", "stream_k", "grouped"):
        problems.append(f"tile scheduler {cfg.tile.scheduler!r} is not implemented (\"\", \"stream_k\" or \"grouped\")")
    elif cfg.tile.scheduler and cfg.family.api != "3x":
        problems.append(f"tile scheduler {cfg.tile.scheduler} needs a 3.x (persistent) kernel")
    if not problems:
        problems.extend(cfg.family.kernel_rules(cfg))
    return problems


def check(cfg: KernelConfig) -> None:
    """Raise ConfigError naming the kernel and every broken rule."""
    problems = violations(cfg)
    if problems:
        raise ConfigError(f"{cfg.name} ({cfg.family.name}): " + "; ".join(problems))
