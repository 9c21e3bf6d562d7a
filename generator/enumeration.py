"""Expand family tables into kernel configurations, in registration (preference) order.

Order: families by descending min_cc (a newer family is preferred where it runs), then each
family's table order: row, layout, tile (first tile first), alignment (largest first).
Every configuration is checked against the kernel rules and names are asserted unique.
"""
from typing import Iterable, Iterator, List, Sequence

from . import rules
from dataclasses import replace

from .config import Family, KernelConfig, MathRow, Operand, output_operand
from .families import FAMILIES, SOURCE_BUCKETS


def expand_row(family: Family, row: MathRow) -> Iterator[KernelConfig]:
    """Every configuration of one table row. The default set of a (types, layout) pair is its
    first tile at the largest and at the smallest alignment, and any tile marked in_default_set at
    the largest (the first tile's smallest-alignment kernel serves every other problem).
    The first tile at the largest alignment also gets every fused epilogue variant of the row
    (right after its plain kernel), the row's other default-set tiles (unless TileRow.fused is
    False) only the variants listed in EpilogueRow.in_default_set; those join the default set."""
    default_alignments = {max(row.alignments), min(row.alignments)}
    fusions = row.epilogues
    for layout_a, layout_b in row.layouts:
        for tile_index, tile in enumerate(row.tiles):
            for alignment in sorted(row.alignments, reverse=True):
                a = Operand(element=row.a, layout=layout_a, alignment=alignment)
                default_tile = tile_index == 0 or (tile.in_default_set and alignment == max(row.alignments))
                plain = KernelConfig(
                    family=family,
                    a=a,
                    b=Operand(element=row.b, layout=layout_b, alignment=alignment),
                    c=output_operand(a, row.c, tile.output_alignment if tile.output_alignment is not None
                                     else family.output_alignment),
                    accumulator=row.accumulator,
                    compute=row.compute,
                    instruction=tile.instruction or row.instruction,
                    tile=tile,
                    math_operation=row.math_operation,
                    in_default_set=family.default_set and row.in_default_set and default_tile
                    and alignment in default_alignments,
                )
                if fusions.plain:
                    yield plain
                if not (default_tile and alignment == max(row.alignments)) or not tile.fused:
                    continue
                for variant in fusions.variants:
                    if tile_index != 0 and variant not in fusions.in_default_set:
                        continue  # the other default-set tiles get only the default-set variants
                    yield replace(
                        plain,
                        epilogue=variant,
                        element_bias=(fusions.bias_type or row.c) if variant.bias else None,
                        element_aux=(fusions.aux_type or row.c) if variant.aux else None,
                        in_default_set=family.default_set and row.in_default_set and variant in fusions.in_default_set,
                    )


def registration_order(families: Iterable[Family]) -> List[Family]:
    """Families by descending min_cc; ties keep the registry's order."""
    return sorted(families, key=lambda family: -family.min_cc)


def enumerate_kernels(families: Sequence[Family] = FAMILIES) -> List[KernelConfig]:
    """All configurations of ``families`` in registration order, validated and uniquely named."""
    kernels = []
    for family in registration_order(families):
        if family.sources_bucket not in SOURCE_BUCKETS:
            raise rules.ConfigError(
                f"family {family.name}: sources_bucket {family.sources_bucket} is not one of {SOURCE_BUCKETS}"
            )
        for row in family.rows:
            kernels.extend(expand_row(family, row))
    seen = set()
    for cfg in kernels:
        rules.check(cfg)
        if cfg.name in seen:
            raise rules.ConfigError(f"kernel name {cfg.name} is enumerated twice")
        seen.add(cfg.name)
    return kernels
