#!/usr/bin/env python3
"""DRAM bytes a persistent sm90 tile walk needs if every CTA stays in step: a model of the L2
(one LRU set of 16 KB TMA boxes) fed by the units of Sm90GroupedTileScheduler's order
(sm90_tile_scheduler.h: groups one after another, bands of `band` tile rows, M fastest inside a
band), 132 CTAs taking units c, c + 132, ... and all loading k-block k of their current unit at
the same time. A measured byte count far above the model's says the CTAs drift apart (their
shared panels leave the L2 between uses), not that the order is wrong.

Usage: l2_walk_model.py M K TOKENS [--experts E] [--distribution skewed|sparse|uniform]
       [--bands 1,2,8] [--l2-mb 50,30] [--drift D] [--tile 128x128]
(an MoE layer: E experts of an M x K weight, TOKENS tokens split as cutlass_bench --grouped splits
them; E = 1 is the dense GEMM of the same tokens.) Measured on the H200 (docs/NOTES.md, s20):
dense 14336 x 8192 x 4096 1.10 GB (model 1.06 at band 8, 1.13 with 30 MB); 8 skewed experts
3.3-4.3 GB (model 1.0 with 50 MB, 2.1 with 30 MB, 2.5-2.8 with 30 MB and a drift of one 64-block
tile); 32 sparse experts of 4096 x 7168 3.8 GB (model 1.7-1.9). 30 MB: each of the H200's two L2
halves holds its own copy of a line read from both sides."""
import argparse
import math
import random
from collections import OrderedDict


def token_counts(experts, tokens, distribution):
    """the grouped mode's split (src/profiler/grouped_profiler.cpp expert_token_counts), before its shuffle: shares
    falling geometrically to 1/180, the last quarter of the experts empty when sparse."""
    if experts == 1 or distribution == "uniform":
        share = [1.0] * experts
    else:
        ratio = (1 / 180) ** (1 / (experts - 1))
        share = [ratio ** e for e in range(experts)]
        if distribution == "sparse":
            for e in range(experts - experts // 4, experts):
                share[e] = 0.0
    counts = [math.floor(tokens * s / sum(share)) for s in share]
    counts[0] += tokens - sum(counts)
    return counts


def raster(r, rows, columns, band):
    """Sm90TileScheduler::raster: (row, column) of unit r."""
    band_units = band * columns
    first = (r // band_units) * band
    height = min(rows - first, band)
    r -= (r // band_units) * band_units
    return first + r % height, r // height


def walk(m, counts, band, tile_m=128, tile_n=128):
    """Every unit of the launch as (group, tile row, tile column), in walking order."""
    units = []
    rows = math.ceil(m / tile_m)
    for g, n in enumerate(counts):
        columns = math.ceil(n / tile_n)
        units += [(g,) + raster(u, rows, columns, band) for u in range(rows * columns)]
    return units


def dram_gb(units, k_blocks, sms=132, l2_mb=50, drift=0, seed=1, tile_m=128, tile_n=128):
    """GB missed in an LRU L2 of l2_mb when CTA c runs units c, c + sms, ... one k-block per
    step (a tile_m x 64 box of A, a tile_n x 64 box of B, 2-byte elements), CTA c starting
    `drift`-bounded random steps late (0: all in step)."""
    rng = random.Random(seed)
    late = [rng.randint(0, drift) for _ in range(sms)]
    mine = [units[c::sms] for c in range(sms)]
    size = {"A": tile_m * 64 * 2, "B": tile_n * 64 * 2}
    capacity = l2_mb * 2 ** 20
    l2 = OrderedDict()
    held = missed = 0
    for step in range(max(len(u) for u in mine) * k_blocks + drift):
        for c in range(sms):
            j, k = divmod(step - late[c], k_blocks)
            if step < late[c] or j >= len(mine[c]):
                continue
            g, row, column = mine[c][j]
            for box in (("A", g, row, k), ("B", g, column, k)):
                if box in l2:
                    l2.move_to_end(box)
                else:
                    missed += size[box[0]]
                    held += size[box[0]]
                    l2[box] = True
                    while held > capacity:
                        held -= size[l2.popitem(last=False)[0][0]]
    return missed / 1e9


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("m", type=int, help="weight rows (the tile walk's M)")
    p.add_argument("k", type=int)
    p.add_argument("tokens", type=int)
    p.add_argument("--experts", type=int, default=1)
    p.add_argument("--distribution", default="skewed", choices=("skewed", "sparse", "uniform"))
    p.add_argument("--bands", default="1,2,8")
    p.add_argument("--l2-mb", default="50,30")
    p.add_argument("--drift", type=int, default=0, help="most k-blocks a CTA starts late (0: in step)")
    p.add_argument("--tile", default="128x128", help="CTA tile, M x N (weight rows x tokens)")
    a = p.parse_args()
    counts = token_counts(a.experts, a.tokens, a.distribution)
    print("tokens per expert:", counts)
    tile_m, tile_n = (int(x) for x in a.tile.split("x"))
    for band in (int(b) for b in a.bands.split(",")):
        for l2 in (float(x) for x in a.l2_mb.split(",")):
            units = walk(a.m, counts, band, tile_m, tile_n)
            gb = dram_gb(units, math.ceil(a.k / 64), l2_mb=l2, drift=a.drift, tile_m=tile_m, tile_n=tile_n)
            print(f"tile {a.tile}  band {band:3d}  L2 {l2:4.0f} MB  drift {a.drift} k-blocks  units {len(units)}  "
                  f"DRAM read {gb:.2f} GB")


if __name__ == "__main__":
    main()
