"""Render and write the generated files under <curr-build-dir>/generated/.

Kernels are grouped by family, types (the extended name) and layout, at most
KERNELS_PER_FILE per .cu file, in registration order. Output is deterministic; a file is
rewritten only when its content changes (so a reconfigure recompiles nothing), and .cu
files left from an earlier run are deleted.
"""
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import jinja2

from .architectures import Arch
from .config import Family, KernelConfig
from .families import SOURCE_BUCKETS
from .manifest import manifest_text
from .naming import file_stem

KERNELS_PER_FILE = 4
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class SourceFile:
    """One generated .cu file: its name inside generated/, its family and its kernels."""

    file_name: str
    family: Family
    kernels: Tuple[KernelConfig, ...]


@dataclass(frozen=True)
class SourceBucket:
    """The absolute .cu paths of one CUTLASS_LIB_GENERATED_SOURCES_SM<cc> variable."""

    cc: int
    paths: Tuple[str, ...]


@dataclass(frozen=True)
class WriteReport:
    """What a write pass did: files written (new or changed), unchanged, and deleted as stale."""

    written: Tuple[str, ...]
    unchanged: Tuple[str, ...]
    removed: Tuple[str, ...]


def environment() -> jinja2.Environment:
    """The Jinja2 environment: StrictUndefined, so a missing field fails the render."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def plan_sources(kernels: Sequence[KernelConfig]) -> List[SourceFile]:
    """Group kernels into .cu files: <naming.file_stem>_<index>.cu."""
    groups: Dict[str, List[KernelConfig]] = {}
    families: Dict[str, Family] = {}
    for cfg in kernels:
        stem = file_stem(cfg)
        if families.setdefault(stem, cfg.family) is not cfg.family:
            raise ValueError(f"families {families[stem].name} and {cfg.family.name} both write {stem}_*.cu")
        groups.setdefault(stem, []).append(cfg)
    sources = []
    for stem, members in groups.items():
        for index, start in enumerate(range(0, len(members), KERNELS_PER_FILE)):
            chunk = tuple(members[start:start + KERNELS_PER_FILE])
            sources.append(SourceFile(file_name=f"{stem}_{index}.cu", family=families[stem], kernels=chunk))
    return sources


def source_buckets(sources: Sequence[SourceFile], out_dir: Path) -> List[SourceBucket]:
    """Every bucket of SOURCE_BUCKETS with its files' absolute paths, sorted by name."""
    return [
        SourceBucket(
            cc=cc,
            paths=tuple(sorted((out_dir / s.file_name).as_posix() for s in sources if s.family.sources_bucket == cc)),
        )
        for cc in SOURCE_BUCKETS
    ]


def render_all(kernels: Sequence[KernelConfig], archs: Sequence[Arch], out_dir: Path,
               command: str) -> Dict[str, str]:
    """File name (inside generated/) -> content, for every generated file."""
    env = environment()
    sources = plan_sources(kernels)
    files = {
        source.file_name: env.get_template(source.family.template).render(source=source, command=command)
        for source in sources
    }
    source_of = {cfg.name: source.file_name for source in sources for cfg in source.kernels}
    files["initialize_all.cpp"] = env.get_template("initialize_all.cpp.j2").render(
        kernels=kernels, command=command)
    files["manifest.json"] = manifest_text(kernels, archs, source_of)
    files["sources.cmake"] = env.get_template("sources.cmake.j2").render(
        buckets=source_buckets(sources, out_dir),
        initialize=(out_dir / "initialize_all.cpp").as_posix(),
        kernel_count=len(kernels),
        command=command,
    )
    return files


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` (atomically) unless it already holds exactly that; True if written."""
    data = text.encode("utf-8")
    if path.is_file() and path.read_bytes() == data:
        return False
    handle, temp_name = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
        os.replace(temp_name, str(path))
    except BaseException:
        os.unlink(temp_name)
        raise
    return True


def write_outputs(kernels: Sequence[KernelConfig], archs: Sequence[Arch], build_dir: Path,
                  command: str) -> WriteReport:
    """Render everything into <build_dir>/generated/, touching only files whose content changed."""
    out_dir = build_dir.resolve() / "generated"
    out_dir.mkdir(parents=True, exist_ok=True)
    files = render_all(kernels, archs, out_dir, command)
    written, unchanged = [], []
    for name in sorted(files):
        (written if write_if_changed(out_dir / name, files[name]) else unchanged).append(name)
    removed = sorted(p.name for p in out_dir.glob("*.cu") if p.name not in files)
    for name in removed:
        (out_dir / name).unlink()
    return WriteReport(written=tuple(written), unchanged=tuple(unchanged), removed=tuple(removed))
