"""Compile one generated instance per family with nvcc (STYLE.md 7.6): a plain kernel and a
fused-epilogue kernel (bias + aux) of each.

Skipped when nvcc is not on PATH or the family's kernel header does not exist yet. Compiles
only (no GPU needed), with the project's flags, for max(80, min_cc) (CUDA 13 has no sm_50..72).
"""
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import cli
from generator.enumeration import enumerate_kernels
from generator.families import FAMILIES

REPO = Path(__file__).resolve().parents[2]
NVCC_FLAGS = ["-std=c++17", "--expt-relaxed-constexpr"]


def nvcc_arch(family):
    """The -arch value to compile a family's instances for."""
    cc = max(80, family.min_cc)
    return f"sm_{cc}{'a' if family.arch_specific else ''}"


def compile_instance(nvcc, source, arch, include_dirs):
    """Compile ``source`` to an object file next to it; returns the CompletedProcess."""
    # the -gencode form: the -arch=sm_90a shorthand can add a plain sm_90 pass that rejects wgmma
    number = arch[3:]
    gencode = f"-gencode=arch=compute_{number},code=sm_{number}"
    command = [nvcc, *NVCC_FLAGS, gencode, "-c", str(source), "-o", str(source.with_suffix(".o"))]
    command += [f"-I{directory}" for directory in include_dirs]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def pick(family, kind):
    """The instance to compile: the family's first default-set kernel ("plain"; the first plain
    kernel of an opt-in family), or its first kernel with a bias and an aux output ("fused": the
    Fusion parameters most pieces use)."""
    kernels = enumerate_kernels([family])
    if kind == "plain":
        return next(k for k in kernels if (k.in_default_set or not family.default_set) and not k.epilogue.fused)
    return next(k for k in kernels if k.epilogue.bias and k.epilogue.aux)


@pytest.mark.parametrize("kind", ["plain", "fused"])
@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_one_instance_per_family_compiles(family, kind, tmp_path):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not on PATH")
    if not (REPO / "include" / family.kernel_header).is_file():
        pytest.skip(f"{family.kernel_header} does not exist yet")
    first = pick(family, kind)
    arch = nvcc_arch(family)
    # a kernel's name is a prefix of its fused variants' names: ignore those ("<name>_...")
    argv = ["--architectures", arch[3:], "--kernels", first.name, "--ignore-kernels", first.name + "_",
            "--curr-build-dir", str(tmp_path)]
    assert cli.main(argv) == 0
    (source,) = (tmp_path / "generated").glob("*.cu")
    result = compile_instance(nvcc, source, arch, [REPO / "include", REPO / "src" / "library"])
    assert result.returncode == 0, result.stderr[-4000:]
