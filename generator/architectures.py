"""Target architectures, as CUTLASS_NVCC_ARCHS spells them ("80;90a"), and which families they build."""
import re
from dataclasses import dataclass
from typing import Iterable, List, Tuple

from .config import Family

_ARCH = re.compile(r"^(\d+)([af]?)$")


@dataclass(frozen=True)
class Arch:
    """One target: numeric compute capability and its suffix ("a" arch-specific, "f" family, or "")."""

    cc: int
    suffix: str

    @property
    def text(self) -> str:
        """The target as listed, e.g. "90a"."""
        return f"{self.cc}{self.suffix}"


def parse_architectures(text: str) -> Tuple[Arch, ...]:
    """Parse a semicolon (or comma) separated list; duplicates dropped, order kept.

    Raises ValueError on an empty list or a token that is not digits plus an optional a/f.
    """
    archs: List[Arch] = []
    for token in re.split(r"[;,]", text):
        token = token.strip()
        if not token:
            continue
        match = _ARCH.match(token)
        if not match:
            raise ValueError(f"architecture {token!r} is not a compute capability like 80, 90a or 100f")
        arch = Arch(cc=int(match.group(1)), suffix=match.group(2))
        if arch not in archs:
            archs.append(arch)
    if not archs:
        raise ValueError("no architecture listed (expected e.g. --architectures \"80;90a\")")
    return tuple(archs)


def family_enabled(family: Family, archs: Iterable[Arch]) -> bool:
    """True when some target lies in [min_cc, max_cc] (with the "a" suffix for arch-specific families)."""
    return any(
        family.min_cc <= arch.cc <= family.max_cc and (arch.suffix == "a" or not family.arch_specific)
        for arch in archs
    )
