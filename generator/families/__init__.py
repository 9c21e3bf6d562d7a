"""The registry of kernel families. A new family adds its module and one entry in FAMILIES."""
from . import gemv, sm50_simt, sm80_skinny, sm80_tensorop, sm90_tensorop

#: Every family the generator knows. Registration order sorts them by descending min_cc.
FAMILIES = (
    gemv.FAMILY,   # before SIMT: among equal minimum capabilities the registry order is the preference
    sm50_simt.FAMILY,
    sm80_tensorop.FAMILY,
    sm80_skinny.FAMILY,
    sm90_tensorop.FAMILY,
)

#: The CUTLASS_LIB_GENERATED_SOURCES_SM<bucket> variables sources.cmake always sets
#: (CMake compiles a bucket's files for each listed arch >= the bucket).
SOURCE_BUCKETS = (50, 80, 90)
