"""Enumeration: counts per family, unique names, kernel rules, registration order, default set."""
import dataclasses

import pytest

from generator import rules
from generator.config import TileRow
from generator.datatypes import ALL_LAYOUTS, Shape
from generator.enumeration import enumerate_kernels
from generator.families import FAMILIES, sm50_simt, sm80_tensorop, sm90_tensorop


@pytest.fixture(scope="module")
def kernels():
    return enumerate_kernels()


def by_family(kernels, family):
    return [k for k in kernels if k.family is family]


def test_counts_per_family(kernels):
    # sgemm 4 layouts x 4 tiles + dgemm 4 x 2 + igemm 3 layouts x 1 tile
    assert len(by_family(kernels, sm50_simt.FAMILY)) == 16 + 8 + 3
    # 16-bit: 4 type rows x 4 layouts x 6 tiles x 4 alignments; tf32: 4 x 3 x 3; s8: 1 x 3 x 5
    assert len(by_family(kernels, sm80_tensorop.FAMILY)) == 384 + 36 + 15
    # 4 type rows (bf16, f16 x bf16/f16 or f32 out) x 4 layouts x 7 tiles x alignment 8
    assert len(by_family(kernels, sm90_tensorop.FAMILY)) == 176
    assert len(kernels) == 638


def test_default_set_counts(kernels):
    default = [k for k in kernels if k.in_default_set]
    assert len(by_family(default, sm50_simt.FAMILY)) == 11
    assert len(by_family(default, sm80_tensorop.FAMILY)) == 42
    assert len(by_family(default, sm90_tensorop.FAMILY)) == 32
    assert len(default) == 85


def test_default_set_is_first_tile_at_largest_and_smallest_alignment(kernels):
    default = [k for k in kernels if k.in_default_set and k.family is sm80_tensorop.FAMILY]
    bf16_tn = [k.name for k in default if k.name.startswith("cutlass_tensorop_s16816gemm_bf16") and "_tn_" in k.name]
    assert bf16_tn == [
        "cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align8",
        "cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align1",
    ]
    s8 = [k.name for k in default if "i16832gemm" in k.name]
    assert s8 == [
        "cutlass_tensorop_i16832gemm_s8_128x256_64x3_tn_align16",
        "cutlass_tensorop_i16832gemm_s8_128x256_64x3_tn_align1",
    ]


def test_names_are_unique(kernels):
    names = [k.name for k in kernels]
    assert len(names) == len(set(names))


def test_every_config_obeys_the_kernel_rules(kernels):
    for k in kernels:
        assert rules.violations(k) == [], k.name
        tb, warp = k.tile.threadblock, k.tile.warp
        assert tb.m % warp.m == 0 and tb.n % warp.n == 0
        assert warp.m % 16 == 0 and warp.n % 8 == 0
        assert tb.k % k.instruction.k == 0
        assert k.warp_count.m * k.warp_count.n * k.warp_count.k <= 8
        assert rules.shared_memory_bytes(k) <= 227 * 1024


def test_alignment_c_is_derived_from_a(kernels):
    for k in kernels:
        vector_bytes = min(16, k.a.alignment * k.a.element.size_bytes)
        assert k.c.alignment == max(1, vector_bytes // k.c.element.size_bytes), k.name
        assert k.d == k.c and k.c.layout.letter == "n"


def test_registration_order_prefers_newer_families_then_table_order(kernels):
    min_ccs = [k.family.min_cc for k in kernels]
    assert min_ccs == sorted(min_ccs, reverse=True)
    tn_bf16 = [k for k in kernels if k.name.startswith("cutlass_tensorop_s16816gemm_bf16") and "_tn_" in k.name]
    assert tn_bf16[0].tile == sm80_tensorop.TILES_16BIT[0]
    assert [k.a.alignment for k in tn_bf16[:4]] == [8, 4, 2, 1]


def _broken_family(**tile_fields):
    """The SIMT family with its first sgemm tile replaced, to trip a rule."""
    tile = dataclasses.replace(sm50_simt.SGEMM_TILES[0], **tile_fields)
    row = dataclasses.replace(sm50_simt.ROWS[0], tiles=(tile,))
    return dataclasses.replace(sm50_simt.FAMILY, rows=(row,))


@pytest.mark.parametrize("tile_fields, message", [
    ({"warp": Shape(48, 64, 8)}, "threadblock M 128 must be a multiple of warp M 48"),
    ({"threadblock": Shape(256, 256, 8)}, "32 warps per threadblock; at most 8"),
    ({"stages": 1}, "stages 1 must be at least 2"),
    ({"threadblock": Shape(128, 128, 512), "warp": Shape(32, 64, 512), "stages": 8}, "bytes of shared memory"),
])
def test_rule_violations_are_rejected_with_clear_messages(tile_fields, message):
    with pytest.raises(rules.ConfigError, match=message):
        enumerate_kernels([_broken_family(**tile_fields)])


@pytest.mark.parametrize("tile_fields, message", [
    ({"stages": 3}, "stages 3 must be 2"),
    ({"threadblock": Shape(64, 64, 8), "warp": Shape(32, 32, 4)}, "warp K 4 must equal threadblock K 8"),
    ({"threadblock": Shape(64, 64, 8), "warp": Shape(8, 64, 8)}, "warp M 8 must be a multiple of 4 lanes x 4"),
])
def test_simt_kernel_rules(tile_fields, message):
    with pytest.raises(rules.ConfigError, match=message):
        enumerate_kernels([_broken_family(**tile_fields)])


def _broken_sm80_family(row_index=0, **row_fields):
    """The sm80 family with one row, changed by ``row_fields``, to trip a rule."""
    row = dataclasses.replace(sm80_tensorop.ROWS[row_index], **row_fields)
    return dataclasses.replace(sm80_tensorop.FAMILY, rows=(row,))


def _tile(threadblock, warp, stages):
    return (TileRow(threadblock=Shape(*threadblock), warp=Shape(*warp), stages=stages),)


@pytest.mark.parametrize("tile, message", [
    (_tile((120, 256, 32), (40, 64, 32), 3), "warp M 40 must be a multiple of the instruction M 16"),
    (_tile((128, 256, 32), (64, 64, 32), 2), "stages 2 must be at least 3"),
    (_tile((64, 128, 32), (64, 64, 16), 3), "warp K 16 must equal threadblock K 32"),
    (_tile((64, 32, 32), (64, 8, 32), 3), "warp M 64 and N 8 must be multiples of 16"),
    (_tile((128, 256, 16), (64, 64, 16), 3), "threadblock K 16 must be a multiple of twice the instruction K 16"),
    (_tile((48, 64, 32), (16, 32, 32), 3), "threadblock M 48 must be a multiple of 32"),
])
def test_sm80_kernel_rules(tile, message):
    with pytest.raises(rules.ConfigError, match=message):
        enumerate_kernels([_broken_sm80_family(tiles=tile)])


def test_sm80_8bit_operands_must_be_k_major():
    family = _broken_sm80_family(row_index=-1, layouts=ALL_LAYOUTS)
    with pytest.raises(rules.ConfigError, match="_nn_align16 .*8-bit operands must be K-major"):
        enumerate_kernels([family])


def test_duplicate_names_are_rejected():
    family = dataclasses.replace(sm50_simt.FAMILY, rows=sm50_simt.ROWS + sm50_simt.ROWS[:1])
    with pytest.raises(rules.ConfigError, match="enumerated twice"):
        enumerate_kernels([family])


def test_registry_lists_each_family_once():
    assert len({f.name for f in FAMILIES}) == len(FAMILIES)


def _sm90_family_with_tile(**tile_fields):
    """The sm90 family with one row and its first tile changed by ``tile_fields``."""
    tile = dataclasses.replace(sm90_tensorop.TILES[0], **tile_fields)
    row = dataclasses.replace(sm90_tensorop.ROWS[0], tiles=(tile,))
    return dataclasses.replace(sm90_tensorop.FAMILY, rows=(row,))


@pytest.mark.parametrize("tile_fields, message", [
    ({"cluster": Shape(2, 2, 1)}, "cluster 2x2x1 is not implemented"),
    ({"cluster": Shape(4, 1, 1)}, "cluster 4x1x1 is not implemented"),
    ({"threadblock": Shape(64, 128, 64), "warp": Shape(64, 128, 64), "cluster": Shape(1, 2, 1)},
     "threadblock 64x128 does not split into whole 64-wide multicast slices for cluster 1x2"),
])
def test_sm90_cluster_rules(tile_fields, message):
    with pytest.raises(rules.ConfigError, match=message):
        enumerate_kernels([_sm90_family_with_tile(**tile_fields)])


def test_sm90_cluster_kernels_are_not_in_the_default_set(kernels):
    clustered = [k for k in kernels if k.family is sm90_tensorop.FAMILY and k.tile.cluster != Shape(1, 1, 1)]
    assert len(clustered) == 64
    assert not any(k.in_default_set for k in clustered)
    assert {(k.tile.cluster.m, k.tile.cluster.n) for k in clustered} == {(2, 1), (1, 2)}
