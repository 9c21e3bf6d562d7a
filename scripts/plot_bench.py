#!/usr/bin/env python3
"""Bar chart of a cutlass_bench --output CSV: the Handle's ratio to cuBLAS per shape, one bar per
dtype, with a line at 1.0 (above it: faster than cuBLAS).

Usage: scripts/plot_bench.py bench.csv [-o bench.png]

matplotlib is optional: without it the script says so and exits 0.
"""
import argparse
import csv
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="the CSV that cutlass_bench --output wrote")
    parser.add_argument("-o", "--output", help="PNG path (default: the CSV's path with .png)")
    args = parser.parse_args()
    try:
        with open(args.csv, newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            missing = {"group", "shape", "layout", "dtype", "ratio"} - set(reader.fieldnames or ())
    except OSError as error:
        print(f"plot_bench.py: cannot read {args.csv}: {error.strerror}", file=sys.stderr)
        return 2
    if missing:
        print(f"plot_bench.py: {args.csv} is not a cutlass_bench --output CSV (no column {', '.join(sorted(missing))})",
              file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_bench.py: matplotlib is not installed (pip install matplotlib); no chart drawn")
        return 0

    shapes = list(dict.fromkeys(f"{r['group']} {r['shape']} {r['layout']}" for r in rows))
    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    ratio = {(f"{r['group']} {r['shape']} {r['layout']}", r["dtype"]): float(r["ratio"] or "nan") for r in rows}

    width = 0.8 / max(len(dtypes), 1)
    fig, ax = plt.subplots(figsize=(max(8, 0.6 * len(shapes)), 5))
    for i, dtype in enumerate(dtypes):
        xs = [s + (i - (len(dtypes) - 1) / 2) * width for s in range(len(shapes))]
        ax.bar(xs, [ratio.get((shape, dtype), float("nan")) for shape in shapes], width, label=dtype)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(shapes, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("cuBLAS time / cutlass_lib Handle time")
    ax.set_title("cutlass_lib Handle vs cuBLAS (> 1: faster than cuBLAS)")
    ax.legend()
    fig.tight_layout()
    output = args.output or (args.csv[:-4] if args.csv.endswith(".csv") else args.csv) + ".png"
    fig.savefig(output, dpi=120)
    print(f"plot_bench.py: wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
