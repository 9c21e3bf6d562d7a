"""Command line: python3 -m generator --architectures "80;90a" --kernels "<patterns>" ...

Exit status: 0 on success, 2 on a usage error (unknown operation, bad architecture, a
--curr-build-dir whose generated/ folder cannot be created or written: the OS error is named on
one line), 3 when the filters select no kernel (CMake turns the message into a configure error),
141 (128 + SIGPIPE, what a shell reports for a command killed by SIGPIPE) when standard output
closes before everything is printed, e.g. under "--list | head": the rest is dropped silently.
"""
import argparse
import os
import re
import shlex
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from . import filtering
from .architectures import family_enabled, parse_architectures
from .config import Family, KernelConfig
from .emit import write_outputs
from .enumeration import enumerate_kernels
from .families import FAMILIES

PROG = "cutlass_lib generator"

#: Operation kinds the generator can build ("all" selects every one).
OPERATIONS = ("gemm",)

EXIT_USAGE = 2
EXIT_NO_KERNEL = 3
EXIT_BROKEN_PIPE = 141


class UsageError(Exception):
    """An argument the generator cannot honour (exit status 2)."""


def parse_arguments(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """Parse the command line (CUTLASS generator.py option names)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m generator",
        description="Generate the GEMM kernel instances, registration code and manifest of cutlass_lib.",
        epilog="Exit status: 0 success; 2 usage error (bad --architectures or --operations, or a "
               "--curr-build-dir or standard output that cannot be written); 3 no kernel selected; "
               "141 standard output closed early (e.g. --list | head).")
    parser.add_argument("--architectures", default="80;90a",
                        help='target compute capabilities, semicolon (or comma) separated '
                             '(default "80;90a", as CUTLASS_NVCC_ARCHS)')
    parser.add_argument("--operations", default="all",
                        help=f"comma list of operation kinds ({', '.join(OPERATIONS)}) or \"all\"")
    parser.add_argument("--kernels", default="",
                        help='comma list of name patterns ("*" wildcard); empty or "default": the default set; "all": every kernel')
    parser.add_argument("--ignore-kernels", default="",
                        help="comma list of name patterns to drop; always applied, wins over --kernels")
    parser.add_argument("--curr-build-dir", default=".",
                        help="output root; files are written to <dir>/generated/")
    parser.add_argument("--list", action="store_true",
                        help="print the selected kernel names in registration order and write nothing")
    return parser.parse_args(argv)


def parse_operations(text: str) -> List[str]:
    """The operation kinds requested; "all" (any case) or an empty list means every kind."""
    tokens = [token.strip().lower() for token in re.split(r"[,;]", text) if token.strip()]
    unknown = [token for token in tokens if token not in OPERATIONS and token != "all"]
    if unknown:   # also next to "all": a misspelt name is an error, whatever else the list holds
        raise UsageError(
            f"unknown operation {', '.join(repr(t) for t in unknown)}; valid operations: {', '.join(OPERATIONS)}, all"
        )
    if not tokens or "all" in tokens:
        return list(OPERATIONS)
    return tokens


def command_line(args: argparse.Namespace) -> str:
    """The canonical command that reproduces this run, for the headers of generated files."""
    parts = [
        "python3", "-m", "generator",
        "--architectures", args.architectures,
        "--operations", args.operations,
        "--kernels", args.kernels,
        "--ignore-kernels", args.ignore_kernels,
        "--curr-build-dir", Path(args.curr_build_dir).resolve().as_posix(),
    ]
    # One line whatever the arguments hold: the command sits in // and # comments, where a
    # newline or carriage return in a pattern would end the comment and inject code.
    return " ".join(shlex.quote(part) for part in parts).encode("unicode_escape").decode("ascii")


def no_kernel_message(args: argparse.Namespace, kernels: Sequence[KernelConfig],
                      disabled_matches: Sequence[Tuple[Family, int]] = ()) -> str:
    """The error for an empty selection of the enumerated ``kernels``: the patterns, why nothing
    is left (the ignore list dropped every match, the case differs, or the matches belong to
    families the architectures leave out: ``disabled_matches``), up to five nearby names."""
    enumerated = [cfg.name for cfg in kernels]
    lines = [
        f"{PROG}: no kernel matched --kernels {args.kernels!r} (CUTLASS_LIBRARY_KERNELS) with "
        f"--ignore-kernels {args.ignore_kernels!r} (CUTLASS_LIBRARY_IGNORE_KERNELS) among the "
        f"{len(enumerated)} kernels enumerated for architectures {args.architectures!r}."
    ]
    patterns = filtering.split_patterns(args.kernels)
    included = filtering.select(kernels, patterns, [])
    folded = [name for name in enumerated if filtering.matches_any([p.lower() for p in patterns], name.lower())]
    if included:
        lines.append(f"--kernels selects {len(included)} kernel(s), e.g. {included[0].name}, and "
                     f"--ignore-kernels drops every one of them.")
    elif folded:
        lines.append(f"Matching is case-sensitive; ignoring case, these patterns match {len(folded)} "
                     f"kernel(s), e.g. {folded[0]}")
    for family, count in disabled_matches:
        needed = (f"{family.min_cc}a" if family.arch_specific else
                  f"{family.min_cc} or above" if family.max_cc >= 1000 else f"{family.min_cc} to {family.max_cc}")
        lines.append(f"These patterns select {count} kernel(s) of the {family.name} family, which the listed "
                     f"architectures do not build: it needs {needed} in --architectures (CUTLASS_NVCC_ARCHS).")
    if enumerated:
        lines.append("Nearby kernel names:")
        nearby = filtering.nearby_names(patterns, enumerated)
        lines.extend(f"  {name}" for name in nearby)
    else:
        lines.append("No kernel family supports these architectures.")
    return "\n".join(lines)


def matches_in_disabled_families(args: argparse.Namespace, archs) -> List[Tuple[Family, int]]:
    """(family, kernels the filters select in it) for each family the architectures do not build."""
    include = filtering.split_patterns(args.kernels)
    ignore = filtering.split_patterns(args.ignore_kernels)
    matches = []
    for family in FAMILIES:
        if not family_enabled(family, archs):
            count = len(filtering.select(enumerate_kernels([family]), include, ignore))
            if count:
                matches.append((family, count))
    return matches


def os_error_text(error: OSError) -> str:
    """An OSError on one line: "<reason>: '<path>'" (no "[Errno N]" prefix, no traceback)."""
    reason = error.strerror or str(error) or type(error).__name__
    text = f"{reason}: {error.filename!r}" if error.filename is not None else reason
    return " ".join(text.split())


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of a stdout that failed
    does not fail again (and print "Exception ignored ... BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (replaced or closed)
        pass


def print_lines(lines: Sequence[str]) -> int:
    """Print lines to stdout; 0, EXIT_BROKEN_PIPE when the reader went away (e.g. | head), or
    EXIT_USAGE (with a message) when stdout cannot be written (e.g. a full disk)."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        silence_stdout()
        print(f"{PROG}: error: cannot write to standard output: {os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the generator; returns the exit status."""
    args = parse_arguments(argv)
    try:
        archs = parse_architectures(args.architectures)
        operations = parse_operations(args.operations)
    except (UsageError, ValueError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    families = [family for family in FAMILIES if family_enabled(family, archs)] if "gemm" in operations else []
    enumerated = enumerate_kernels(families)
    selected = filtering.select(
        enumerated, filtering.split_patterns(args.kernels), filtering.split_patterns(args.ignore_kernels))
    if not selected:
        print(no_kernel_message(args, enumerated, matches_in_disabled_families(args, archs)), file=sys.stderr)
        return EXIT_NO_KERNEL
    if args.list:
        return print_lines([cfg.name for cfg in selected])
    try:
        write_outputs(selected, archs, Path(args.curr_build_dir), command_line(args))
    except OSError as error:
        print(f"{PROG}: error: cannot write the generated files under --curr-build-dir "
              f"{args.curr_build_dir!r}: {os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE
    return print_lines([f"{PROG}: {len(selected)} kernels selected (of {len(enumerated)} enumerated)"])
