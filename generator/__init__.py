"""cutlass_lib kernel generator.

Enumerates GEMM kernel configurations as data (generator/families/), filters them with
CUTLASS-style wildcards, and renders the .cu instance files, the registration function,
manifest.json and sources.cmake that CMake compiles into libcutlass_lib.so.
Run it as ``python3 -m generator --help``; generator/README.md explains how it works.
"""
