#!/usr/bin/env bash
# Builds consumer.cpp with a plain host compiler and the flags pkg-config gives for cutlass_lib,
# then runs it. Exit status: the program's (0 pass, 1 fail, 77 no GPU: built and linked, not run).
#
# Usage: build_with_pkgconfig.sh <output folder> [<prefix>]
#   <prefix>  passed to pkg-config as --define-variable=prefix=<prefix>, overriding the prefix
#             the .pc file derives from its own folder (not needed for a tree moved as a whole).
# Environment: PKG_CONFIG_PATH (to find cutlass_lib.pc), PKG_CONFIG (default pkg-config),
#              CXX (default g++).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
# Unquoted expansions below split at spaces on purpose, as a shell command line does
# (PKG_CONFIG or CXX may carry arguments; pkg-config's output is a list of flags).
# shellcheck disable=SC2206
pkg_config=(${PKG_CONFIG:-pkg-config})
[ $# -ge 2 ] && pkg_config+=("--define-variable=prefix=$2")

cflags=$("${pkg_config[@]}" --cflags cutlass_lib)
libs=$("${pkg_config[@]}" --libs cutlass_lib)
# The program's own RUNPATH points at both libraries, so it runs without LD_LIBRARY_PATH.
rpath="-Wl,-rpath,$("${pkg_config[@]}" --variable=libdir cutlass_lib)"
rpath+=",-rpath,$("${pkg_config[@]}" --variable=cuda_libdir cutlass_lib)"

mkdir -p "$out"
# shellcheck disable=SC2206
command=(${CXX:-g++} -O2 -Wall -Wextra -Werror -o "$out/cutlass_lib_consumer" "$here/consumer.cpp" $cflags $libs "$rpath")
echo "${command[*]}"
"${command[@]}"
"$out/cutlass_lib_consumer"
