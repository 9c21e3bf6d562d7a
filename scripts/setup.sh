#!/usr/bin/env bash
# Sets up what the build and the tests need on a fresh machine, or stops at once with the command
# that installs what is missing. Sourced by scripts/configure.sh (from the project root), which the
# README's scripts source in turn; not meant to be sourced by hand (a stop ends the shell).
# Sets `python`, the interpreter CMake, the generator and pytest then use, and puts tools on PATH.
#
#   nvcc           the CUDA toolkit's compiler: PATH, else /usr/local/cuda/bin; else stop
#   C++ compiler   c++ / g++ / clang++ on PATH (or CXX); else stop
#   Python pkgs    requirements.txt (Jinja2, pytest; pinned) into ./.venv, made once and kept (made
#                  again when requirements.txt changes or the project folder moved). Where pip
#                  cannot reach an index (no network) and the base python already has Jinja2
#                  (and pytest, when tests are built), that python is used, with a note saying so
#   cmake, ninja   from PATH when present (cmake 3.24 or newer), else requirements-tools.txt's
#                  pinned PyPI packages into ./.venv
#   GoogleTest     when tests are built: the distribution's package (apt-get install
#                  libgtest-dev, as root or through sudo without a password) where none is found;
#                  else stop
#
# Input: setup_tests (1: the tests are built, the default; 0: the profiler alone).
# Environment: PYTHON (the interpreter to make .venv with; default python3).
setup_venv=$PWD/.venv
setup_tests=${setup_tests:-1}

setup_stop() {
  echo "scripts/setup.sh: $*" >&2
  exit 1
}
setup_quoted() { printf '%q' "$1"; }   # a path as a shell word, for commands printed to copy

# -- nvcc and a host compiler ----------------------------------------------------------------------
if ! command -v nvcc >/dev/null && [ -z "${CUDACXX:-}" ]; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="$PATH:/usr/local/cuda/bin"
  else
    setup_stop "nvcc (the CUDA toolkit, 12.4 or newer) is not on PATH nor in /usr/local/cuda/bin;" \
               "install the toolkit (https://developer.nvidia.com/cuda-downloads) or set CUDACXX to its nvcc"
  fi
fi
if [ -z "${CXX:-}" ] && ! command -v c++ >/dev/null && ! command -v g++ >/dev/null && ! command -v clang++ >/dev/null; then
  setup_stop "no C++17 compiler found (c++, g++, clang++); install one, e.g. apt-get install g++"
fi

# -- Python packages --------------------------------------------------------------------------------
setup_base_python=${PYTHON:-python3}
command -v "$setup_base_python" >/dev/null || setup_stop "no $setup_base_python found; install Python 3.9 or newer"
setup_modules="import jinja2"
[ "$setup_tests" = 1 ] && setup_modules="import jinja2, pytest"
# The stamp: where the venv lives and the requirements it was filled from. A venv's scripts name
# its own path, so a moved project folder needs a new one.
setup_stamp="$setup_venv/.requirements"
setup_stamp_text() { printf '%s\n' "# $setup_venv"; cat requirements.txt; }
setup_fallback="$setup_venv.offline"   # the python used without network, and the requirements then
setup_pip() {
  "$setup_venv/bin/python" -m pip install --quiet --disable-pip-version-check --timeout 20 --retries 1 "$@"
}
python=""
if [ -x "$setup_venv/bin/python" ] && cmp -s <(setup_stamp_text) "$setup_stamp"; then
  python="$setup_venv/bin/python"
elif [ -f "$setup_fallback" ] && cmp -s <(setup_stamp_text) <(tail -n +2 "$setup_fallback") &&
     "$(head -1 "$setup_fallback")" -c "$setup_modules" 2>/dev/null; then
  python=$(head -1 "$setup_fallback")   # no network last time either: don't wait for pip again
else
  setup_why=""
  # a venv without pip (Debian's python3 without python3-venv leaves one behind), or one made
  # for another folder or other requirements, is made again
  if ! "$setup_venv/bin/python" -m pip --version >/dev/null 2>&1 || ! head -1 "$setup_stamp" 2>/dev/null |
       grep -qxF "# $setup_venv"; then
    rm -rf "$setup_venv"
    "$setup_base_python" -m venv "$setup_venv" >/dev/null 2>&1 || { rm -rf "$setup_venv"; setup_why=venv; }
  fi
  if [ -x "$setup_venv/bin/python" ]; then
    echo "scripts/setup.sh: installing requirements.txt into $setup_venv"
    if setup_pip -r requirements.txt; then
      setup_stamp_text > "$setup_stamp"
      python="$setup_venv/bin/python"
    else
      setup_why=pip
    fi
  fi
  if [ -z "$python" ] && [ "$setup_why" = pip ] && "$setup_base_python" -c "$setup_modules" 2>/dev/null; then
    python=$(command -v "$setup_base_python")
    { echo "$python"; setup_stamp_text; } > "$setup_fallback"
    echo "scripts/setup.sh: pip could not install requirements.txt into $setup_venv (no network?); using" \
         "$python as it is, with Jinja2 $("$python" -c 'import jinja2; print(jinja2.__version__)')" \
         "(not the pinned versions)"
  elif [ -z "$python" ] && [ "$setup_why" = venv ]; then
    setup_stop "could not make a virtual environment with '$setup_base_python -m venv';" \
               "on Debian or Ubuntu: apt-get install python3-venv, then run this again"
  elif [ -z "$python" ]; then
    setup_stop "could not install requirements.txt into $setup_venv; run:" \
               "$(setup_quoted "$setup_venv/bin/python") -m pip install -r requirements.txt"
  fi
fi

# -- cmake and ninja --------------------------------------------------------------------------------
setup_tool_version() {   # the pinned requirement of tool $1
  grep -E "^$1==" requirements-tools.txt
}
setup_cmake_ok() {
  command -v cmake >/dev/null &&
    [ "$(printf '%s\n' 3.24 "$(cmake --version | head -1 | awk '{print $3}')" | sort -V | head -1)" = 3.24 ]
}
[ -x "$setup_venv/bin/cmake" ] || [ -x "$setup_venv/bin/ninja" ] && export PATH="$setup_venv/bin:$PATH"
for setup_tool in cmake ninja; do
  if { [ $setup_tool = cmake ] && ! setup_cmake_ok; } || { [ $setup_tool = ninja ] && ! command -v ninja >/dev/null; }; then
    [ -x "$setup_venv/bin/python" ] || setup_stop "$setup_tool is missing and there is no $setup_venv to install it into;" \
                                                  "apt-get install cmake ninja-build"
    echo "scripts/setup.sh: installing $(setup_tool_version $setup_tool) into $setup_venv"
    setup_pip "$(setup_tool_version $setup_tool)" ||
      setup_stop "$setup_tool is missing (cmake needs 3.24 or newer); install it:" \
                 "$(setup_quoted "$setup_venv/bin/python") -m pip install $(setup_tool_version $setup_tool)," \
                 "or apt-get install cmake ninja-build"
    export PATH="$setup_venv/bin:$PATH"
  fi
done

# -- GoogleTest ------------------------------------------------------------------------------------
setup_have_gtest() {
  local dir
  [ -n "${GTest_ROOT:-}${GTEST_ROOT:-}" ] && return 0   # CMake's find_package(GTest) looks there
  for dir in /usr/include /usr/local/include ${CONDA_PREFIX:+"$CONDA_PREFIX/include"}; do
    [ -f "$dir/gtest/gtest.h" ] && return 0
  done
  compgen -G "/usr/lib/*/cmake/GTest/GTestConfig.cmake" >/dev/null ||
    compgen -G "/usr/local/lib*/cmake/GTest/GTestConfig.cmake" >/dev/null
}
if [ "$setup_tests" = 1 ] && ! setup_have_gtest; then
  setup_apt=()
  if [ "$(id -u)" = 0 ]; then setup_apt=(apt-get); elif sudo -n true 2>/dev/null; then setup_apt=(sudo -n apt-get); fi
  if [ ${#setup_apt[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    echo "scripts/setup.sh: installing GoogleTest (libgtest-dev)"
    { "${setup_apt[@]}" update -qq && DEBIAN_FRONTEND=noninteractive "${setup_apt[@]}" install -y -qq libgtest-dev >/dev/null; } ||
      setup_stop "installing GoogleTest failed; install it: sudo apt-get install libgtest-dev"
  else
    setup_stop "GoogleTest is missing; install it: sudo apt-get install libgtest-dev" \
               "(or another distribution's googletest package, or CMake's GTest_ROOT pointing at one)"
  fi
fi
