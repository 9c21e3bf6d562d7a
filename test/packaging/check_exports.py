"""Checks the dynamic symbol table of libcutlass_lib.so: it defines exactly the C API functions
declared in cutlass_lib.h, plus C++ symbols of namespace cutlass::library (functions and data, and
the type info and vtables of its classes), and nothing else. The linker adds no symbol of its own
(GNU ld 2.40 puts no _init, _fini, _edata or _end in the table), so the allow-list has no
toolchain entries.

Usage: check_exports.py <libcutlass_lib.so> <cutlass_lib.h>"""
import re
import subprocess
import sys

CXX_API_PREFIXES = ("cutlass::library::", "typeinfo for cutlass::library::",
                    "typeinfo name for cutlass::library::", "vtable for cutlass::library::")


def defined_dynamic_symbols(library):
    listing = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                             text=True).stdout
    return [line.split()[-1] for line in listing.splitlines() if line.strip()]


def demangle(names):
    if not names:
        return []
    result = subprocess.run(["c++filt"], input="\n".join(names) + "\n", check=True, capture_output=True, text=True)
    return result.stdout.splitlines()


def main(library, header):
    declared = set(re.findall(r"^CUTLASS_LIB_C_API\b[^;]*?\b(cutlassLib\w+)\s*\(", open(header).read(), re.M))
    symbols = defined_dynamic_symbols(library)
    c_symbols = {name for name in symbols if not name.startswith("_Z")}
    cxx_symbols = demangle([name for name in symbols if name.startswith("_Z")])

    cxx_api = [name for name in cxx_symbols if name.startswith(CXX_API_PREFIXES)]
    unexpected = sorted(c_symbols - declared) + sorted(set(cxx_symbols) - set(cxx_api))
    missing = sorted(declared - c_symbols)
    for name in unexpected:
        print("unexpected export:", name)
    for name in missing:
        print("C API function not exported:", name)
    print("%s: %d exports: %d of the %d C API functions, %d cutlass::library, %d unexpected" %
          (library, len(symbols), len(c_symbols & declared), len(declared), len(cxx_api), len(unexpected)))
    return 1 if unexpected or missing or not declared else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
