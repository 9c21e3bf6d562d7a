"""Resolves sampler.c's output with addr2line and prints the leaf functions (self time) and the
functions on the stack (inclusive time), as percentages of the samples.

Usage: python3 resolve.py <samples file> [top]"""
import collections
import subprocess
import sys


def main():
    rows = [line.split() for line in open(sys.argv[1])]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    offsets = collections.defaultdict(set)
    for row in rows:
        for frame in row:
            if "+0x" in frame:
                obj, offset = frame.rsplit("+", 1)
                offsets[obj].add(offset)
    names = {}
    for obj, found in offsets.items():
        found = sorted(found)
        lines = subprocess.run(["addr2line", "-f", "-C", "-e", obj] + found, capture_output=True,
                               text=True).stdout.split("\n")
        for i, offset in enumerate(found):
            function = lines[2 * i] if 2 * i < len(lines) else "?"
            names[obj + "+" + offset] = (obj.split("/")[-1] + ": " + function)[:160]
    total = len(rows)
    print(f"{total} samples")
    leaf = collections.Counter(names.get(row[0], row[0]) for row in rows if row)
    inclusive = collections.Counter()
    for row in rows:
        for name in {names.get(frame, frame) for frame in row}:
            inclusive[name] += 1
    for title, counter in (("self (leaf frame)", leaf), ("inclusive (anywhere on the stack)", inclusive)):
        print(f"--- {title}")
        for name, n in counter.most_common(top):
            print(f"{100.0 * n / total:6.1f}% {name}")


if __name__ == "__main__":
    main()
