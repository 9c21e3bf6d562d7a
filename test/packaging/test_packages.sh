#!/usr/bin/env bash
# Checks the Debian packages of a built cutlass_lib build folder the way a user gets them:
#  1. cpack -G DEB writes libcutlass-lib0 and libcutlass-lib-dev;
#  2. dpkg -x unpacks both into a scratch root (no root rights, no dependencies needed);
#  3. check_install_tree.sh: no source/build folder named in any file, no RPATH/RUNPATH;
#  4. test/consumer is built against that root with CMake (CMAKE_PREFIX_PATH) and with pkg-config
#     (build_with_pkgconfig.sh, --define-variable=prefix), and both programs are run.
#
# Usage: test_packages.sh <build folder>
# Exit status 0 when both consumers pass, or when both were built and linked and, finding no GPU,
# got the library's documented no-device answers (consumer exit status 77). Set
# CUTLASS_LIB_REQUIRE_GPU=1 on a GPU machine to count "no GPU" as a failure. Without pkg-config the
# pkg-config build is reported as skipped.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
work="$build/packaging-test"
rm -rf "$work"
mkdir -p "$work/root"

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/debs"
for deb in "$work"/debs/*.deb; do
  echo "== $(basename "$deb")"
  dpkg-deb --field "$deb" Package Version Depends
  dpkg -x "$deb" "$work/root"
done
"$source_dir/test/packaging/check_install_tree.sh" "$work/root" "$source_dir" "$build"

prefix="$work/root$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")"
pc_dir=$(dirname "$(find "$work/root" -name cutlass_lib.pc)")

consumer_cmake() {
  cmake -S "$source_dir/test/consumer" -B "$work/consumer_cmake" -DCMAKE_PREFIX_PATH="$prefix" &&
    cmake --build "$work/consumer_cmake" &&
    "$work/consumer_cmake/cutlass_lib_consumer"
}
consumer_pkgconfig() {
  PKG_CONFIG_PATH="$pc_dir" "$source_dir/test/consumer/build_with_pkgconfig.sh" "$work/consumer_pkgconfig" "$prefix"
}

failures=0
for consumer in consumer_cmake consumer_pkgconfig; do
  echo "== $consumer"
  if [ $consumer = consumer_pkgconfig ] && ! command -v "${PKG_CONFIG:-pkg-config}" >/dev/null; then
    echo "$consumer: SKIPPED (no pkg-config on this machine)"
    continue
  fi
  status=0
  $consumer || status=$?
  case $status in
    0) echo "$consumer: PASS" ;;
    77) echo "$consumer: built and linked, not run (no GPU, or no NN sgemm kernel in the build)"
        [ "${CUTLASS_LIB_REQUIRE_GPU:-0}" = 1 ] && failures=$((failures + 1)) ;;
    *) echo "$consumer: FAIL (exit status $status)"
       failures=$((failures + 1)) ;;
  esac
done
exit $((failures > 0))
