#!/usr/bin/env bash
# Follows the README literally: copies this checkout's committed HEAD into a fresh folder (git
# clone) and runs the README's commands there, with nothing in the environment but PATH and HOME,
# and the kernel subset only when given, through CUTLASS_LIBRARY_KERNELS and
# CUTLASS_LIBRARY_IGNORE_KERNELS (the README's own way to pick one). Prints each command's time.
#
# Usage: scripts/fresh_clone_check.sh [test|profiler|both]   (default: test)
#   test      scripts/build_and_test.sh   (builds, then runs every test)
#   profiler  scripts/run_profiler.sh     (builds, then the profiler's default problem)
#   both      the test command, then the profiler command in the same clone
# Environment: FRESH_DIR (the folder to clone into, emptied first; default a new temporary one),
# CUTLASS_LIBRARY_KERNELS, CUTLASS_LIBRARY_IGNORE_KERNELS (passed on when set), FRESH_SOURCE=tree
# to copy the working tree (less build folders, .venv) instead of cloning HEAD, as also happens
# without a git repository.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-test}
case $what in test|profiler|both) ;; *) echo "usage: $0 [test|profiler|both]" >&2; exit 2 ;; esac

fresh=${FRESH_DIR:-$(mktemp -d /tmp/cutlass_lib-fresh.XXXXXX)}
# FRESH_DIR is emptied first: only when it is empty or an earlier check's folder (its marker)
if [ -n "$(ls -A "$fresh" 2>/dev/null)" ] && [ ! -f "$fresh/.fresh_clone_check" ]; then
  echo "fresh_clone_check: FRESH_DIR=$fresh is not empty and not an earlier check's folder; not deleting it" >&2
  exit 2
fi
rm -rf "$fresh"
mkdir -p "$(dirname "$fresh")"
if [ "${FRESH_SOURCE:-clone}" != tree ] && git -C "$source_dir" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git clone --quiet --no-hardlinks "$source_dir" "$fresh"
  echo "fresh_clone_check: clone of $(git -C "$fresh" rev-parse --short HEAD) in $fresh"
else
  mkdir -p "$fresh"
  tar -C "$source_dir" --exclude='./build*' --exclude=./.venv --exclude=./.device --exclude=./.whl -cf - . |
    tar -C "$fresh" -xf -
  echo "fresh_clone_check: copy of the working tree $source_dir in $fresh"
fi

touch "$fresh/.fresh_clone_check"

clean_env=(env -i "PATH=$PATH" "HOME=${HOME:-/root}")
[ -n "${CUTLASS_LIBRARY_KERNELS:-}" ] && clean_env+=("CUTLASS_LIBRARY_KERNELS=$CUTLASS_LIBRARY_KERNELS")
[ -n "${CUTLASS_LIBRARY_IGNORE_KERNELS:-}" ] && clean_env+=("CUTLASS_LIBRARY_IGNORE_KERNELS=$CUTLASS_LIBRARY_IGNORE_KERNELS")

run() {
  local start status=0
  start=$(date +%s)
  echo "fresh_clone_check: \$ $*"
  (cd "$fresh" && "${clean_env[@]}" "$@") || status=$?
  echo "fresh_clone_check: '$*' exited $status after $(( $(date +%s) - start )) s"
  return $status
}
[ "$what" = profiler ] || run scripts/build_and_test.sh
[ "$what" = test ] || run scripts/run_profiler.sh
