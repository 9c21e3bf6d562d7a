"""The vocabulary of kernel configurations: element types, layouts and GEMM shapes."""
from dataclasses import dataclass
from typing import List


@dataclass(frozen=True)
class DataType:
    """An element type: its CUTLASS NumericTypeID short name, its C++ spelling and its size."""

    name: str
    cpp: str
    size_bytes: int
    library_name: str = ""  # the runtime's to_string() name when it differs (fe4m3 vs e4m3 in kernel names)

    @property
    def manifest_name(self) -> str:
        """The name manifest.json and the runtime's to_string() use."""
        return self.library_name or self.name


F16 = DataType(name="f16", cpp="cutlass::half_t", size_bytes=2)
BF16 = DataType(name="bf16", cpp="cutlass::bfloat16_t", size_bytes=2)
TF32 = DataType(name="tf32", cpp="cutlass::tfloat32_t", size_bytes=4)
F32 = DataType(name="f32", cpp="float", size_bytes=4)
F64 = DataType(name="f64", cpp="double", size_bytes=8)
S8 = DataType(name="s8", cpp="int8_t", size_bytes=1)
S32 = DataType(name="s32", cpp="int32_t", size_bytes=4)
E4M3 = DataType(name="e4m3", cpp="cutlass::float_e4m3_t", size_bytes=1, library_name="fe4m3")
E5M2 = DataType(name="e5m2", cpp="cutlass::float_e5m2_t", size_bytes=1, library_name="fe5m2")


@dataclass(frozen=True)
class Layout:
    """A matrix layout: its letter in kernel names, its C++ tag and its manifest.json name."""

    letter: str
    cpp: str
    manifest_name: str


COLUMN_MAJOR = Layout(letter="n", cpp="cutlass::layout::ColumnMajor", manifest_name="column")
ROW_MAJOR = Layout(letter="t", cpp="cutlass::layout::RowMajor", manifest_name="row")

#: (layout of A, layout of B) in the order nn, nt, tn, tt.
ALL_LAYOUTS = (
    (COLUMN_MAJOR, COLUMN_MAJOR),
    (COLUMN_MAJOR, ROW_MAJOR),
    (ROW_MAJOR, COLUMN_MAJOR),
    (ROW_MAJOR, ROW_MAJOR),
)


@dataclass(frozen=True)
class Shape:
    """An M x N x K extent (threadblock tile, warp tile, instruction or warp count)."""

    m: int
    n: int
    k: int

    def as_list(self) -> List[int]:
        """[m, n, k], as manifest.json writes shapes."""
        return [self.m, self.n, self.k]
