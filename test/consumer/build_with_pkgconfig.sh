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
# PKG_CONFIG and CXX are split at spaces on purpose, as a shell command line does (either may carry
# arguments).
# shellcheck disable=SC2206
pkg_config=(${PKG_CONFIG:-pkg-config})
[ $# -ge 2 ] && pkg_config+=("--define-variable=prefix=$2")

# pkg-config prints shell words (a space inside a path comes out as '\ '): read them as the shell
# would, through eval, so an install prefix with spaces stays one argument.
pc_words() {   # pc_words <array name> <pkg-config arguments...>
  local printed
  printed=$("${pkg_config[@]}" "${@:2}" cutlass_lib)
  eval "$1=($printed)"
}
pc_words cflags --cflags
pc_words libs --libs
pc_words libdir --variable=libdir
pc_words cuda_libdir --variable=cuda_libdir
# The program's own RUNPATH points at both libraries, so it runs without LD_LIBRARY_PATH.
rpath="-Wl,-rpath,${libdir[0]},-rpath,${cuda_libdir[0]}"

mkdir -p "$out"
# shellcheck disable=SC2206
command=(${CXX:-g++} -O2 -Wall -Wextra -Werror -o "$out/cutlass_lib_consumer" "$here/consumer.cpp" "${cflags[@]}"
         "${libs[@]}" "$rpath")
echo "${command[*]}"
"${command[@]}"
"$out/cutlass_lib_consumer"
