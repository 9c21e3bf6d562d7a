"""Kernel selection by CMake-style wildcard patterns (CUTLASS_LIBRARY_KERNELS / _IGNORE_KERNELS).

A pattern is split on "*"; it matches a name when every piece occurs in it, in order, anywhere
(unanchored, case-sensitive). A pattern without "*" is a substring test; "*" alone matches
every name. Unlike CUTLASS, patterns are trimmed of whitespace, "all" is recognised in any
case, and the ignore list applies always (also with an empty or "all" include list).
"""
import difflib
import re
from typing import List, Sequence

from .config import KernelConfig


def split_patterns(text: str) -> List[str]:
    """The non-empty, whitespace-trimmed patterns of a comma list (";" also separates, for CMake lists)."""
    return [token.strip() for token in re.split(r"[,;]", text) if token.strip()]


def is_all(patterns: Sequence[str]) -> bool:
    """True when some pattern is "all" in any case: every kernel is selected."""
    return any(pattern.lower() == "all" for pattern in patterns)


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
    """True when some pattern matches ``name`` ("all" matches everything)."""
    return is_all(patterns) or any(pattern_matches(pattern, name) for pattern in patterns)


def select(kernels: Sequence[KernelConfig], kernel_patterns: Sequence[str],
           ignore_patterns: Sequence[str]) -> List[KernelConfig]:
    """The kernels to build, in the given order.

    No include pattern selects the default set; otherwise a kernel is kept when some pattern
    matches it. A kernel any ignore pattern matches is always dropped.
    """
    if kernel_patterns:
        chosen = [k for k in kernels if matches_any(kernel_patterns, k.name)]
    else:
        chosen = [k for k in kernels if k.in_default_set]
    return [k for k in chosen if not matches_any(ignore_patterns, k.name)]


def nearby_names(patterns: Sequence[str], names: Sequence[str], limit: int = 5) -> List[str]:
    """Up to ``limit`` names most similar (difflib ratio) to any pattern, wildcards removed."""
    probes = [pattern.replace("*", "") for pattern in patterns] or [""]

    def similarity(name: str) -> float:
        return max(difflib.SequenceMatcher(None, probe, name).ratio() for probe in probes)

    return sorted(names, key=lambda name: (-similarity(name), name))[:limit]
