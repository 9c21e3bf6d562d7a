#!/usr/bin/env python3
"""The k-loops of sm90 kernels in a SASS listing, for reading before timing (docs/NOTES.md s30).

For every function of `cuobjdump -sass` output, every loop (a backward branch) that issues wgmma
(HGMMA, QGMMA, IGMMA): its instruction count and mix, and what sits inside each wgmma group's issue
(between a group's first and last GMMA: anything there that waits on a load or a multiply delays
the rest of the group: s30 found ptxas placing FMULs and register moves of loaded values there).
Also every LDL / STL (spills) per function.

Usage: cuobjdump -sass file.o | scripts/sass_loops.py [--function SUBSTRING] [--windows]
cuobjdump ships with the CUDA toolkit; without one, PyPI's nvidia-cuda-cuobjdump has it
(nvidia/cu13/bin/cuobjdump inside the wheel)."""
import argparse
import re
import signal
import sys

GMMA = re.compile(r"\b[HQI]GMMA\.")
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BRANCH_TARGET = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")
COUNTED = ("GMMA", "FFMA", "FADD", "FMUL", "LDS", "LDG", "LDGSTS", "STS", "STG", "LDL", "STL", "SYNCS", "BAR",
           "MEMBAR", "WARPGROUP.DEPBAR")


def functions(lines):
    """(name, [(address, instruction)]) per function of the listing."""
    name, body = None, []
    for line in lines:
        if "Function :" in line:
            if name:
                yield name, body
            name, body = line.split("Function :", 1)[1].strip(), []
            continue
        m = INSTRUCTION.search(line)
        if m and name:
            body.append((int(m.group(1), 16), m.group(2)))
    if name:
        yield name, body


def opcode(instruction):
    """The opcode without its predicate (@P0, @!UP1)."""
    parts = instruction.split()
    if parts and parts[0].startswith("@"):
        parts = parts[1:]
    return parts[0] if parts else ""


def mix(body):
    counts = {}
    for _, ins in body:
        op = opcode(ins)
        for key in COUNTED:
            if (key == "GMMA" and GMMA.search(op + ".")) or op == key or op.startswith(key + "."):
                counts[key] = counts.get(key, 0) + 1
    return " ".join(f"{k}={v}" for k, v in counts.items())


def issue_windows(body):
    """Instructions between the first and last GMMA of each group (a group ends at its commit:
    the GMMA whose operands name gsb0), uniform-datapath instructions left out."""
    windows, current = [], None
    for _, ins in body:
        if GMMA.search(ins):
            current = [] if current is None else current
            if "gsb0" in ins:
                windows.append(current)
                current = None
            continue
        op = opcode(ins)
        if current is not None and not op.startswith("U") and op not in ("NOP",):
            current.append(ins)
    return windows


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under `| head`
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--function", default="", help="only functions whose mangled name contains this")
    parser.add_argument("--windows", action="store_true", help="print what sits inside each group's issue")
    args = parser.parse_args()
    for name, body in functions(sys.stdin):
        if args.function not in name:
            continue
        index = {address: i for i, (address, _) in enumerate(body)}
        spills = sum(opcode(ins) in ("LDL", "STL") or opcode(ins).startswith(("LDL.", "STL.")) for _, ins in body)
        print(f"{name[:110]}\n  {len(body)} instructions, {spills} LDL/STL")
        for i, (address, ins) in enumerate(body):
            m = BRANCH_TARGET.search(ins)
            if not m or int(m.group(1), 16) >= address or int(m.group(1), 16) not in index:
                continue
            loop = body[index[int(m.group(1), 16)]:i + 1]
            gmmas = sum(bool(GMMA.search(x)) for _, x in loop)
            if not gmmas or len(loop) > 600:   # no wgmma, or an outer (tile) loop around the k-loops
                continue
            print(f"  loop {loop[0][0]:#x}-{address:#x}: {len(loop)} instructions, {mix(loop)}")
            for w, window in enumerate(issue_windows(loop)):
                if args.windows or window:
                    print(f"    group {w}: {len(window)} inside its issue" + ("" if not window else ": " + "; ".join(window)[:300]))


if __name__ == "__main__":
    main()
