"""Kernel selection by CMake-style wildcard patterns (CUTLASS_LIBRARY_KERNELS / _IGNORE_KERNELS).

A pattern is split on "*"; it matches a name when every piece occurs in it, in order, anywhere
(unanchored, case-sensitive). A pattern without "*" is a substring test; "*" alone matches
every name. Two patterns are keywords, recognised in any case after trimming:

- "all" selects every kernel;
- "default" selects the default set (the kernels an empty list selects), so it combines with
  other patterns: "default,*bias_gelu*" is the default set plus every bias+GELU kernel.

A kernel is selected when any pattern (or keyword) selects it; an empty list selects the
default set. The ignore list uses the same rules ("default" there drops the default set) and
always wins. Unlike CUTLASS, patterns are trimmed of whitespace, "all" is recognised in any
case, and the ignore list applies always (also with an empty or "all" include list).

Fused-epilogue kernels carry their variant at the end of the name ("..._align8_epi_bias_gelu",
"..._epi_tma_bias_gelu"), so a pattern naming a plain kernel also selects its fused variants;
"cutlass_*_epi_" matches every fused 2.x kernel and "_epi_tma_" every fused 3.x kernel.
"""
import difflib
import re
from typing import List, Sequence

from .config import KernelConfig


def split_patterns(text: str) -> List[str]:
    """The non-empty, whitespace-trimmed patterns of a comma list (";" also separates, for CMake lists)."""
    return [token.strip() for token in re.split(r"[,;]", text) if token.strip()]


ALL = "all"
DEFAULT = "default"


def is_keyword(pattern: str, keyword: str) -> bool:
    """True when ``pattern`` is ``keyword`` in any case, ignoring surrounding whitespace."""
    return pattern.strip().lower() == keyword


def is_all(patterns: Sequence[str]) -> bool:
    """True when some pattern is "all" in any case: every kernel is selected."""
    return any(is_keyword(pattern, ALL) for pattern in patterns)


def has_default(patterns: Sequence[str]) -> bool:
    """True when some pattern is "default" in any case: the default set is selected."""
    return any(is_keyword(pattern, DEFAULT) for pattern in patterns)


def pattern_matches(pattern: str, name: str) -> bool:
    """True when the "*"-separated pieces of ``pattern`` occur in ``name`` in order."""
    position = 0
    for piece in pattern.split("*"):
        found = name.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def matches_any(patterns: Sequence[str], name: str) -> bool:
    """True when some name pattern matches ``name`` ("all" matches everything; "default" is not
    a name pattern: see ``selects``)."""
    return is_all(patterns) or any(
        pattern_matches(pattern, name) for pattern in patterns if not is_keyword(pattern, DEFAULT))


def selects(patterns: Sequence[str], kernel: KernelConfig) -> bool:
    """True when some pattern selects ``kernel``: by name, "all", or "default" for a default-set kernel."""
    return (kernel.in_default_set and has_default(patterns)) or matches_any(patterns, kernel.name)


def select(kernels: Sequence[KernelConfig], kernel_patterns: Sequence[str],
           ignore_patterns: Sequence[str]) -> List[KernelConfig]:
    """The kernels to build, in the given order.

    No include pattern selects the default set; otherwise a kernel is kept when some pattern
    selects it ("default" selects the default set). A kernel any ignore pattern selects is
    always dropped.
    """
    if kernel_patterns:
        chosen = [k for k in kernels if selects(kernel_patterns, k)]
    else:
        chosen = [k for k in kernels if k.in_default_set]
    return [k for k in chosen if not selects(ignore_patterns, k)]


def nearby_names(patterns: Sequence[str], names: Sequence[str], limit: int = 5) -> List[str]:
    """Up to ``limit`` names most similar (difflib ratio) to any pattern, wildcards removed."""
    probes = [pattern.replace("*", "") for pattern in patterns if not is_keyword(pattern, DEFAULT)] or [""]

    def similarity(name: str) -> float:
        return max(difflib.SequenceMatcher(None, probe, name).ratio() for probe in probes)

    return sorted(names, key=lambda name: (-similarity(name), name))[:limit]
