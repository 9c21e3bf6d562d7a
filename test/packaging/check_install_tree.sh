#!/usr/bin/env bash
# Checks an installed cutlass_lib tree (cmake --install output, or the .deb packages unpacked with
# dpkg -x): no file mentions the source or build folder, and no ELF file carries an RPATH or
# RUNPATH (the build tree's RUNPATH must be gone; the system's loader configuration finds
# libcutlass_lib and libcudart).
#
# Usage: check_install_tree.sh <installed root> <forbidden folder>...
set -euo pipefail
root=$1
shift
failures=0

for folder in "$@"; do
  spellings=("$folder")
  [ "$(realpath "$folder")" = "$folder" ] || spellings+=("$(realpath "$folder")")
  for spelling in "${spellings[@]}"; do
    if hits=$(grep -rlF -- "$spelling" "$root"); then
      echo "FAIL: installed files mention $spelling:"
      echo "$hits"
      failures=$((failures + 1))
    fi
  done
done

elf_count=0
while IFS= read -r -d '' file; do
  [ "$(head -c 4 "$file" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] || continue
  elf_count=$((elf_count + 1))
  if paths=$(readelf -d "$file" | grep -E '\((RPATH|RUNPATH)\)'); then
    echo "FAIL: $file: $paths"
    failures=$((failures + 1))
  fi
done < <(find "$root" -type f -print0)

file_count=$(find "$root" -type f | wc -l)
echo "$root: $file_count files ($elf_count ELF): $failures problem(s)"
[ "$failures" -eq 0 ]
