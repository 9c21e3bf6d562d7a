"""Enumeration: counts per family, unique names, kernel rules, registration order, default set."""
import dataclasses

import pytest

from generator import rules
from generator.config import TileRow
from generator.datatypes import ALL_LAYOUTS, BF16, E4M3, E5M2, F16, F32, Shape
from generator.enumeration import enumerate_kernels
from generator.epilogues import DEFAULT_SET, FP8, FP8_DEFAULT_SET, PLAIN, STANDARD, Epilogue
from generator.families import FAMILIES, gemv, sm50_simt, sm80_skinny, sm80_tensorop, sm90_tensorop

#: Fused variants (epilogues.py): every float row with fusions offers the 17 STANDARD variants on
#: its first tile at its largest alignment; fp8-output rows only the 4 FP8 variants (no plain
#: kernel); bias+ReLU and bias+GELU (DEFAULT_SET, 2) are also built on the other default-set tiles
#: of the 16-bit-output rows and join the default set.
N_STANDARD, N_FP8, N_DEFAULT_VARIANTS = 17, 4, 2

#: The sgemm tile rows: sm50_simt's table (its plain count scales with it; its fused count does not).
N_SGEMM_TILES = len(sm50_simt.SGEMM_TILES)


@pytest.fixture(scope="module")
def kernels():
    return enumerate_kernels()


def by_family(kernels, family):
    return [k for k in kernels if k.family is family]


def test_variant_tables():
    assert (len(STANDARD), len(FP8), len(DEFAULT_SET)) == (N_STANDARD, N_FP8, N_DEFAULT_VARIANTS)
    assert set(DEFAULT_SET) == {Epilogue(activation="relu", bias=True), Epilogue(activation="gelu", bias=True)}
    assert set(DEFAULT_SET) <= set(STANDARD)
    assert all(e.scale_amax for e in FP8) and not any(e.scale_amax for e in STANDARD)


def test_counts_per_family(kernels):
    simt, sm80, sm90 = (by_family(kernels, f) for f in (sm50_simt.FAMILY, sm80_tensorop.FAMILY, sm90_tensorop.FAMILY))
    # plain: sgemm 4 layouts x N_SGEMM_TILES tiles (4 at the time of writing) + dgemm 4 x 2 + igemm 3 layouts x 1;
    # fused: sgemm only (f32 row), 4 layouts x 17 on its first tile (align1 is its largest)
    assert len([k for k in simt if not k.epilogue.fused]) == 4 * N_SGEMM_TILES + 8 + 3
    assert len([k for k in simt if k.epilogue.fused]) == 4 * N_STANDARD
    # plain: 16-bit 4 type rows x 4 layouts x 6 tiles x 4 alignments; tf32 4 x 3 x 3; s8 1 x 3 x 5 (fp8 rows: none)
    assert len([k for k in sm80 if not k.epilogue.fused]) == 384 + 36 + 15
    # fused: the 4 16-bit rows x 4 layouts x 17 (first tile, align8); fp8 (bf16, f16) x (e4m3, e5m2) x tn x 4
    assert len([k for k in sm80 if k.epilogue.fused]) == 4 * 4 * N_STANDARD + 4 * N_FP8 == 272 + 16
    # plain: 4 type rows (bf16, f16 x bf16/f16 or f32 out) x 4 layouts x 13 tiles x alignment 8;
    # tf32 (f32 out) tn x 13 tiles x alignment 4; s8 (s32 out) tn x 13 tiles x alignment 16;
    # e4m3 (bf16, f16, f32 out) tn x 13 tiles x alignment 16; the 14 token-count tiles (64x32 and
    # TILES_FEW_TOKENS): 16-bit 4 rows x (tn, nn), e4m3 3 outputs x tn; the grouped 128x128 and
    # 128x256 (opt-in) tiles: (bf16, f16) x 4 layouts each, and the grouped 64x32: (bf16, f16) x
    # (tn, nn); the mixed fp8
    # pairings: 2 x 3 outputs x 3 tiles, tn; the 128x208 tiles (persistent, stream-K): 16-bit 4 rows x (tn, nn);
    # the block-scaled tiles: 3 pairings (e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3) x 3 outputs x 3 tiles
    # (128x128 on 1x1 and 2x1 clusters, 64x128), tn;
    # s8 dequantization (bf16, f16, f32 out) tn x 13 tiles x alignment 16; s8 requantization (s8 out)
    # tn x the one 128-row warpgroup tile; grouped e4m3 (bf16, f16 out) tn x 2 tiles (opt-in); the
    # grouped 128x128 on a 2x1 cluster (bf16, f16) tn (opt-in); the grouped 256x128 (bf16, f16) tn;
    # the grouped 256x128 on a 1x2 cluster (bf16, f16) tn (opt-in); the swap-AB tiles, 32x64 and
    # 16x64 and 16x128, each persistent and stream-K, and all three on 1x2 (bf16, f16) tn; the 64x16 few-token tile and
    # its stream-K twin: 16-bit 4 rows x (tn, nn) each;
    # the grouped 128x128 and 64x32 tiles with f32 out (bf16, f16) tn; the grouped 64x16 token tile
    # (bf16, f16) x (tn, nn) (opt-in)
    assert len([k for k in sm90 if not k.epilogue.fused]) == \
        208 + 13 + 13 + 3 * 13 + (4 * 2 + 3) * 14 + 2 * 2 * 4 + 2 * 2 + 2 * 3 * 3 + 4 * 2 * 2 + 3 * 3 * 3 + 3 * 13 + 1 + 2 * 2 + 2 * 2 + 2 \
        + 2 * 9 + 4 * 2 * 2 + 2 * 2 + 2 * 2
    # fused: 4 rows x 4 layouts x 17 on the first tile; the 16-bit-output rows' other two
    # default-set tiles (64x128, stream-K 128x128) x 4 layouts x bias_relu, bias_gelu; fp8 4 rows x tn x 4;
    # tf32 tn x 17 on the first tile; the grouped 128x128 (bf16, f16) x 4 layouts and 64x32 (bf16,
    # f16) x (tn, nn) x 17; e4m3 x e4m3 (bf16, f16, f32 out) tn x 17 on the first tile (opt-in);
    # e4m3 x e4m3 -> (e4m3, e5m2) tn x 4 tiles x 4 (12 in the default set); bias_relu and bias_gelu on the few-token row's
    # default-set tiles (64x32, 64x64, 64x96, stream-K 128x208, 64x32, 64x16) for its 2 16-bit-output rows x (tn,
    # nn), and on its first tile (64x32) for the 2 f32-output rows (opt-in); bias_relu and bias_gelu
    # on e4m3 x e4m3 -> (bf16, f16)'s other two default-set tiles (64x128, stream-K 128x128), tn;
    # bias_relu and bias_gelu on the swap-AB row's default-set tiles (32x64, 16x64 and their stream-K
    # twins) for bf16 and f16, tn
    assert len([k for k in sm90 if k.epilogue.fused]) == \
        4 * 4 * N_STANDARD + 2 * 2 * 4 * N_DEFAULT_VARIANTS + 4 * N_FP8 + N_STANDARD + (2 * 4 + 2 * 2) * N_STANDARD \
        + 3 * N_STANDARD + 2 * 4 * N_FP8 + (2 * 2 * 6 + 2 * 2) * N_DEFAULT_VARIANTS + 2 * 2 * N_DEFAULT_VARIANTS \
        + 2 * 4 * N_DEFAULT_VARIANTS
    assert len([k for k in sm90 if k.epilogue.fused]) == 272 + 32 + 16 + 17 + 204 + 51 + 32 + 56 + 8 + 16
    # GEMV: plain 8 type rows + 3 e4m3 rows (opt-in) x 4 layouts; fused: the 4 16-bit rows and f32 x 4 layouts x 17
    gemvs = by_family(kernels, gemv.FAMILY)
    assert len([k for k in gemvs if not k.epilogue.fused]) == (8 + 3) * 4
    assert len([k for k in gemvs if k.epilogue.fused]) == 5 * 4 * N_STANDARD == 340
    # skinny: plain 4 type rows x 2 widths (tn); fused: 4 rows x 17 on the first width, and the 2
    # 16-bit-output rows x the other width x (bias_relu, bias_gelu)
    skinny = by_family(kernels, sm80_skinny.FAMILY)
    assert len([k for k in skinny if not k.epilogue.fused]) == 4 * 2
    assert len([k for k in skinny if k.epilogue.fused]) == 4 * N_STANDARD + 2 * 1 * N_DEFAULT_VARIANTS == 72
    # plain 27 (+4 per extra sgemm tile) + 435 + 600 + 44 + 8 = 1114; fused 68 + 288 + 704 + 340 + 72 = 1472
    assert len(kernels) == (1114 + 4 * (N_SGEMM_TILES - 4)) + 1472


def test_default_set_counts(kernels):
    default = [k for k in kernels if k.in_default_set]
    # plain: sgemm 4 layouts + dgemm 4 + igemm 3 (first tile, align1); no fused SIMT kernel in the set
    assert len(by_family(default, sm50_simt.FAMILY)) == 11
    # plain: 16-bit 4 rows x 4 layouts x {align8, align1} + tf32 4 x 2 + s8 1 x 2 = 42, and the 16-bit
    # rows' 64x64 tile (in_default_set, fused=False) at align8: 4 x 4 = 16;
    # fused: the 2 16-bit-output rows x 4 layouts x (bias_relu, bias_gelu) on the first tile at align8 = 16
    assert len(by_family(default, sm80_tensorop.FAMILY)) == 42 + 16 + 2 * 4 * N_DEFAULT_VARIANTS == 74
    # plain: 4 rows x 4 layouts x 3 default-set tiles (align8 only) = 48, tf32 tn x 3 tiles (align4) = 3,
    # s8 tn x 3 tiles = 3, e4m3 -> (bf16, f16, f32) tn x 3 tiles = 9, the token-count tiles 64x32,
    # 64x64 and 64x96 (16-bit 4 rows x (tn, nn) + e4m3 3 outputs x tn) = 3 x 11, the mixed fp8
    # pairings (e4m3 x e5m2, e5m2 x e4m3) -> 3 outputs tn x 3 tiles = 18, the grouped 128x128
    # (bf16, f16) x 4 layouts = 8 and grouped 64x32 (bf16, f16) x (tn, nn) = 4, the stream-K 128x208
    # tile (16-bit 4 rows x (tn, nn)) = 8, the int8-dequantizing 128x128 tile (s8 -> bf16, f16, f32) = 3,
    # the grouped e4m3 tiles 128x128 and 64x32 (bf16, f16 out) tn = 4, the grouped 256x128 (bf16, f16) tn = 2,
    # the swap-AB tiles 32x64, 16x64 and their stream-K twins (bf16, f16) tn = 8, the stream-K twins of
    # the few-token tiles 64x32 and 64x16 (16-bit 4 rows x (tn, nn)) = 16;
    # fused: the 2 16-bit-output rows x 4 layouts x 3 tiles x (bias_relu, bias_gelu) = 48, the
    # grouped 128x128 and 64x32 (bf16, f16) tn x (bias, bias_relu, bias_gelu) = 12, the few-token
    # tiles 64x32, 64x64, 64x96, stream-K 128x208, 64x32 and 64x16 (bf16, f16 out) x (tn, nn) x (bias_relu,
    # bias_gelu) = 48,
    # e4m3 x e4m3 -> (bf16, f16) tn x 3 tiles x (bias_relu, bias_gelu) = 12, e4m3 x e4m3 -> fp8
    # (e4m3 out on 128x128, 128x64, 128x32; e5m2 out on 128x128) x (amax, bias_relu_amax, bias_gelu_amax) = 12,
    # the grouped 128x128 and 64x32 (bf16, f16) -> f32 tn = 4, the swap-AB tiles 32x64, 16x64 and
    # their stream-K twins (bf16, f16) tn x (bias_relu, bias_gelu) = 16
    assert len(by_family(default, sm90_tensorop.FAMILY)) == \
        96 + 18 + 8 + 4 + 8 + 3 + 2 * 4 * 3 * N_DEFAULT_VARIANTS + 2 * 2 + 2 * 2 * 3 + 2 + 8 + 16 \
        + 2 * 2 * 6 * N_DEFAULT_VARIANTS + 2 * 3 * N_DEFAULT_VARIANTS + 4 * 3 + 4 + 4 * 2 * N_DEFAULT_VARIANTS == 319
    # GEMV: 8 rows x 4 layouts + the 2 16-bit-output rows x 4 x (bias_relu, bias_gelu)
    assert len(by_family(default, gemv.FAMILY)) == 32 + 2 * 4 * N_DEFAULT_VARIANTS == 48
    # skinny: 4 rows x 2 widths + the 2 16-bit-output rows x 2 widths x (bias_relu, bias_gelu)
    assert len(by_family(default, sm80_skinny.FAMILY)) == 8 + 2 * 2 * N_DEFAULT_VARIANTS == 16
    assert len(default) == 11 + 74 + 319 + 48 + 16 == 468


def test_default_set_is_first_tile_at_largest_and_smallest_alignment(kernels):
    default = [k for k in kernels if k.in_default_set and k.family is sm80_tensorop.FAMILY]
    bf16_tn = [k.name for k in default if k.name.startswith("cutlass_tensorop_s16816gemm_bf16") and "_tn_" in k.name]
    assert bf16_tn == [
        "cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align8",
        "cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align1",
        "cutlass_tensorop_s16816gemm_bf16_64x64_32x5_tn_align8",   # marked in_default_set: largest alignment only
    ]
    # a marked tile with fused=False has no fused kernel at all
    assert not any("64x64_32x5" in k.name and k.epilogue.fused for k in kernels)
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
        if k.family.operation == "gemv":
            continue   # one output column, one stage (gemv.kernel_rules)
        assert warp.m % 16 == 0 and warp.n % 8 == 0
        assert tb.k % k.instruction.k == 0
        assert k.warp_count.m * k.warp_count.n * k.warp_count.k <= 8
        assert rules.shared_memory_bytes(k) <= 227 * 1024


def test_alignment_c_is_derived_from_a(kernels):
    for k in kernels:
        vector_bytes = min(16, k.a.alignment * k.a.element.size_bytes)
        derived = max(1, vector_bytes // k.c.element.size_bytes)
        given = k.tile.output_alignment if k.tile.output_alignment is not None else k.family.output_alignment
        assert k.c.alignment == (given or derived), k.name
        assert k.d == k.c and k.c.layout.letter == "n"


def test_registration_order_prefers_newer_families_then_table_order(kernels):
    min_ccs = [k.family.min_cc for k in kernels]
    assert min_ccs == sorted(min_ccs, reverse=True)
    tn_bf16 = [k for k in kernels if k.name.startswith("cutlass_tensorop_s16816gemm_bf16") and "_tn_" in k.name]
    assert tn_bf16[0].tile == sm80_tensorop.TILES_16BIT[0]
    plain = [k for k in tn_bf16 if not k.epilogue.fused]
    assert [k.a.alignment for k in plain[:4]] == [8, 4, 2, 1]
    # the fused variants follow their plain kernel, in the table's order, before the next alignment
    assert [k.epilogue for k in tn_bf16[:1 + N_STANDARD]] == [PLAIN, *STANDARD]
    assert {(k.tile, k.a.alignment) for k in tn_bf16[:1 + N_STANDARD]} == {(sm80_tensorop.TILES_16BIT[0], 8)}
    assert tn_bf16[1 + N_STANDARD].a.alignment == 4 and not tn_bf16[1 + N_STANDARD].epilogue.fused


def _default_tiles(row):
    return [t for i, t in enumerate(row.tiles) if i == 0 or t.in_default_set]


def test_fused_variants_only_on_default_set_tiles_at_the_largest_alignment(kernels):
    checked = 0
    for family in (sm50_simt.FAMILY, sm80_tensorop.FAMILY, sm90_tensorop.FAMILY):
        for row in family.rows:
            fusions = row.epilogues
            # the row's own kernels (two rows may share types: the few-token tile's rows)
            row_kernels = [k for k in by_family(kernels, family)
                           if (k.a.element, k.b.element, k.c.element, k.accumulator) ==
                           (row.a, row.b, row.c, row.accumulator)
                           and k.tile in row.tiles and (k.a.layout, k.b.layout) in row.layouts]
            for k in row_kernels:
                if not k.epilogue.fused:
                    continue
                checked += 1
                assert k.a.alignment == max(row.alignments), k.name
                assert k.tile in _default_tiles(row), k.name
                if k.tile != row.tiles[0]:
                    # other default-set tiles: only the row's default-set variants
                    assert k.epilogue in fusions.in_default_set, k.name
            for layouts in row.layouts:
                for index, tile in enumerate(_default_tiles(row)):
                    got = [k.epilogue for k in row_kernels if k.epilogue.fused and k.tile == tile
                           and (k.a.layout, k.b.layout) == layouts]
                    wanted = list(fusions.variants) if index == 0 else \
                        [v for v in fusions.variants if v in fusions.in_default_set and tile.fused]
                    assert got == wanted, (family.name, row.a.name, row.c.name, tile.threadblock)
    assert checked == 68 + 288 + 337 + 204 + 3 * 17 + 2 * 4 * 4 + 56 + 8 + 16


def test_sm90_second_default_tile_gets_only_the_default_variants(kernels):
    small = [k for k in by_family(kernels, sm90_tensorop.FAMILY)
             if k.tile.threadblock in (Shape(64, 128, 64), Shape(128, 128, 64)) and k.tile.scheduler != "grouped"
             and k.tile.threadblock != next(r for r in sm90_tensorop.FAMILY.rows if r.a == k.a.element).tiles[0].threadblock
             and k.epilogue.fused]
    assert small and all(k.tile.in_default_set for k in small)
    assert {k.epilogue for k in small} == set(DEFAULT_SET)
    assert {k.c.element for k in small} == {BF16, F16}, "f32-output rows add none there"
    # the non-default tiles (cooperative, clusters) and the smaller alignments get no fused kernel
    for family in (sm80_tensorop.FAMILY, sm90_tensorop.FAMILY):
        for k in by_family(kernels, family):
            if k.tile.scheduler == "grouped":
                continue   # rows of their own (test_grouped_fused_kernels)
            first = any(k.tile == r.tiles[0] for r in family.rows if r.a == k.a.element and r.c == k.c.element)
            if k.epilogue.fused and not first:
                assert k.tile.in_default_set and k.epilogue in DEFAULT_SET, k.name


def test_fp8_rows_have_no_plain_kernel_and_always_scale_amax(kernels):
    fp8 = [k for k in kernels if k.c.element in (E4M3, E5M2)]
    # (bf16, f16) x (e4m3, e5m2) x tn x 4 variants, in each of sm80 and sm90; e4m3 x e4m3 -> (e4m3,
    # e5m2) on sm90's 4 tiles with 128-row warpgroups (TILES_FP8 + TILES_FP8_MORE)
    assert len(fp8) == 2 * 4 * N_FP8 + 2 * 4 * N_FP8
    assert all(k.epilogue.fused and k.epilogue.scale_amax for k in fp8)
    assert [k.epilogue for k in fp8 if k.family is sm90_tensorop.FAMILY][:N_FP8] == list(FP8)
    assert {k.a.layout.letter + k.b.layout.letter for k in fp8} == {"tn"}
    # the default set: e4m3 x e4m3 -> e4m3 on 128x128, 128x64 and 128x32, -> e5m2 on 128x128, each
    # with FP8_DEFAULT_SET (amax alone, bias+ReLU+amax, bias+GELU+amax)
    default = [(k.c.element, k.tile.threadblock.n, k.epilogue) for k in fp8 if k.in_default_set]
    assert all(k.a.element == E4M3 for k in fp8 if k.in_default_set)
    assert sorted(default, key=str) == sorted(
        [(E4M3, n, e) for n in (128, 64, 32) for e in FP8_DEFAULT_SET] + [(E5M2, 128, e) for e in FP8_DEFAULT_SET], key=str)
    assert not any(k.epilogue.scale_amax for k in kernels if k.c.element not in (E4M3, E5M2))


def test_bias_and_aux_element_types(kernels):
    fused = [k for k in kernels if k.epilogue.fused]
    assert any(k.element_aux for k in fused) and any(k.element_bias for k in fused)
    for k in fused:
        if k.c.element in (E4M3, E5M2):
            expected = BF16 if k.a.element == E4M3 else k.a.element   # fp8 outputs: 16-bit inputs' type, bf16 for e4m3
        elif k.c.element == F32:
            expected = F32             # f32 outputs (sgemm and 16-bit inputs with f32 output): f32
        else:
            expected = k.c.element     # 16-bit outputs: the output type
            assert expected in (BF16, F16)
        assert k.element_bias == (expected if k.epilogue.bias else None), k.name
        assert k.element_aux == (expected if k.epilogue.aux else None), k.name
    for k in kernels:
        if not k.epilogue.fused:
            assert k.element_bias is None and k.element_aux is None, k.name


def test_grouped_fused_kernels(kernels):
    grouped = [k for k in by_family(kernels, sm90_tensorop.FAMILY) if k.tile.scheduler == "grouped" and k.epilogue.fused]
    # every standard variant (no D scale / amax) on the grouped 128x128 tile (bf16, f16 x 4 layouts)
    # and the 64x32 tile (x tn, nn); bias, bias+ReLU, bias+GELU of TN in the default set
    assert len(grouped) == (2 * 4 + 2 * 2) * N_STANDARD
    assert not any(k.epilogue.scale_amax for k in grouped)
    default = [k for k in grouped if k.in_default_set]
    assert len(default) == 2 * 2 * 3
    assert {k.a.layout.letter + k.b.layout.letter for k in default} == {"tn"}
    assert {k.epilogue for k in default} == set(sm90_tensorop.GROUPED_DEFAULT_EPILOGUES)
    assert {k.tile.threadblock for k in default} == {Shape(128, 128, 64), Shape(64, 32, 64)}


def test_default_set_fused_kernels_are_bias_relu_and_bias_gelu_of_16bit_outputs(kernels):
    # (the fp8 outputs' default set, which has no plain kernel: test_fp8_rows_have_no_plain_kernel...)
    fused_default = [k for k in kernels if k.in_default_set and k.epilogue.fused and k.tile.scheduler != "grouped"
                     and not k.epilogue.scale_amax]
    assert {k.family for k in fused_default} == {gemv.FAMILY, sm80_skinny.FAMILY, sm80_tensorop.FAMILY, sm90_tensorop.FAMILY}
    assert all(k.c.element in (BF16, F16) and k.a.element in (k.c.element, E4M3) for k in fused_default)
    for family in (sm80_tensorop.FAMILY, sm90_tensorop.FAMILY):
        for element in (BF16, F16):
            for layout in ("nn", "nt", "tn", "tt"):
                group = [k for k in fused_default if k.family is family and k.a.element == element
                         and k.a.layout.letter + k.b.layout.letter == layout]
                tiles = {k.tile for k in group}
                assert [k.epilogue for k in group] == list(DEFAULT_SET) * len(tiles), (family.name, element, layout)
    # every fused default-set kernel has a plain default-set kernel of the same configuration
    plain_default = {(k.family.name, k.a, k.b, k.c, k.tile) for k in kernels if k.in_default_set and not k.epilogue.fused}
    assert all((k.family.name, k.a, k.b, k.c, k.tile) in plain_default for k in fused_default)


def _broken_family(**tile_fields):
    """The SIMT family with its 128x128x8 sgemm tile alone, changed to trip a rule."""
    base = next(t for t in sm50_simt.SGEMM_TILES if t.threadblock == Shape(128, 128, 8))
    tile = dataclasses.replace(base, **tile_fields)
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
    # (its TN kernel would split A into K-major 32-row slices; the MN-major layouts cannot)
    ({"threadblock": Shape(64, 128, 64), "warp": Shape(64, 128, 64), "cluster": Shape(1, 2, 1)},
     "threadblock 64x128 does not split into whole multicast slices for cluster 1x2"),
])
def test_sm90_cluster_rules(tile_fields, message):
    with pytest.raises(rules.ConfigError, match=message):
        enumerate_kernels([_sm90_family_with_tile(**tile_fields)])


def test_sm90_cluster_kernels_are_not_in_the_default_set(kernels):
    clustered = [k for k in kernels if k.family is sm90_tensorop.FAMILY and k.tile.cluster != Shape(1, 1, 1)]
    # 4 type rows x 4 layouts x 4 clustered tiles (2 tiles x 2 clusters), tf32, s8, the 3 e4m3 and
    # the 3 s8-dequantization rows tn x 4 each, the block-scaled 128x128 2x1 tile (3 pairings x 3 outputs), the
    # grouped 128x128 2x1 and 256x128 1x2 tiles (bf16, f16) tn, the swap-AB 16x128, 16x64 and
    # 32x64 on 1x2 (bf16, f16) tn; no fused variant on them
    assert len(clustered) == 64 + 4 + 4 + 3 * 4 + 3 * 4 + 3 * 3 + 2 + 2 + 3 * 2
    assert not any(k.in_default_set for k in clustered)
    assert {(k.tile.cluster.m, k.tile.cluster.n) for k in clustered} == {(2, 1), (1, 2)}
