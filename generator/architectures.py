"""Target architectures, as CUTLASS_NVCC_ARCHS spells them ("80;90a"), and which families they build."""
import re
from dataclasses import dataclass
from typing import Iterable, List, Tuple

from .config import Family

# ASCII digits only: \d would also accept e.g. Arabic-Indic digits, which int() converts but nvcc
# and CMake do not understand.
# No leading zero: "080" would reach nvcc as compute_080.
_ARCH = re.compile(r"^([1-9][0-9]*)([af]?)$")

#: Compute capabilities nvcc accepts with each suffix (compute_<cc><suffix>): nvcc 13.0's list
#: (checked with nvcc -gencode arch=compute_Xs,code=sm_Xs), plus 101a/101f, the name nvcc 12.8
#: and 12.9 give sm_110 (README: CUDA 12.4 or newer). A suffix on any other capability (80a,
#: 90f) would pass configuration and stop the build with "Unsupported gpu architecture".
SUFFIXED_CCS = {
    "a": (90, 100, 101, 103, 110, 120, 121),
    "f": (100, 101, 103, 110, 120, 121),
}
_SUFFIX_KIND = {"a": "arch-specific", "f": "family-specific"}


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

    Raises ValueError on an empty list, a token that is not ASCII digits plus an optional a/f, or
    a suffix on a capability nvcc has no such variant of (SUFFIXED_CCS).
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
        if arch.suffix and arch.cc not in SUFFIXED_CCS[arch.suffix]:
            valid = ", ".join(f"{cc}{arch.suffix}" for cc in SUFFIXED_CCS[arch.suffix])
            raise ValueError(
                f"architecture {token!r} has no {_SUFFIX_KIND[arch.suffix]} ({arch.suffix!r}) variant in nvcc; "
                f"valid: {valid} (or {arch.cc} without a suffix)")
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



def max_device_cc(family: Family, archs: Iterable[Arch]) -> int:
    """The highest compute capability this family's kernels run on when built for ``archs`` as
    SASS: library/CMakeLists.txt compiles an arch-specific family for its listed "a" targets and
    the others for every listed target at or above min_cc; a cubin for X.y runs on X.y to X.9, an
    "a" cubin on X.y only (src/library/sass_coverage.h is the C++ twin, which the runtime's
    descriptions use; the host tests compare the two). The family's max_cc when none applies."""
    if family.arch_specific:
        targets = [a for a in archs if a.suffix == "a" and family.min_cc <= a.cc <= family.max_cc]
    else:
        targets = [a for a in archs if a.cc >= family.min_cc]
    if not targets:
        return family.max_cc
    return min(family.max_cc, max(a.cc if a.suffix == "a" else a.cc // 10 * 10 + 9 for a in targets))
