"""Naming: CUTLASS's procedural names exactly, and the name parses back to its configuration."""
import re

import pytest

import dataclasses

from generator.config import KernelConfig, Operand, TileRow, output_operand
from generator.datatypes import BF16, COLUMN_MAJOR, E4M3, E5M2, F16, F32, F64, ROW_MAJOR, S32, S8, Shape, TF32
from generator.enumeration import enumerate_kernels
from generator.epilogues import ACTIVATIONS, FP8, PLAIN, STANDARD, Epilogue
from generator.families import gemv, sm50_simt, sm80_skinny, sm80_tensorop, sm90_tensorop
from generator.naming import kernel_name

LAYOUTS = {"n": COLUMN_MAJOR, "t": ROW_MAJOR}

#: 2.x tail; fused kernels add "_epi_<variant>" after the alignment.
NAME_TAIL = re.compile(r"_(\d+)x(\d+)_(\d+)x(\d+)_([nt])([nt])_align(\d+)(_splitk)?(?:_epi_(\w+))?$")

#: The pieces of a variant name in their fixed order (epilogues.Epilogue.suffix).
VARIANT = re.compile(r"^(?:(alphavec)(?:_|$))?(?:(bias)(?:_|$))?(?:(" + "|".join(
    sorted((a for a in ACTIVATIONS if a != "identity"), key=len, reverse=True)) + r")(?:_|$))?(?:(aux)(?:_|$))?(amax)?$")


def parse_variant(suffix):
    """The Epilogue a name's variant suffix spells (None for a plain name); fails on pieces out of order."""
    if suffix is None:
        return PLAIN
    match = VARIANT.match(suffix)
    assert match and suffix, f"variant {suffix!r} is not <alphavec>_<bias>_<activation>_<aux>_<amax> in that order"
    alphavec, bias, activation, aux, amax = match.groups()
    return Epilogue(activation=activation or "identity", bias=bool(bias), alpha_vector=bool(alphavec),
                    aux=bool(aux), scale_amax=bool(amax))


def make_config(family, a, c, accumulator, instruction, tile, layouts, alignment):
    """A configuration built by hand (A and B share type and alignment)."""
    a_operand = Operand(element=a, layout=LAYOUTS[layouts[0]], alignment=alignment)
    return KernelConfig(
        family=family,
        a=a_operand,
        b=Operand(element=a, layout=LAYOUTS[layouts[1]], alignment=alignment),
        c=output_operand(a_operand, c),
        accumulator=accumulator,
        compute=accumulator,
        instruction=instruction,
        tile=TileRow(threadblock=Shape(*tile[:3]), warp=Shape(64, 64, tile[2]), stages=tile[3]),
        math_operation="multiply_add",
    )


SIMT, TENSOROP = sm50_simt.FAMILY, sm80_tensorop.FAMILY
ONE = Shape(1, 1, 1)

EXAMPLES = [
    ("cutlass_simt_sgemm_128x128_8x2_nn_align1",
     make_config(SIMT, F32, F32, F32, ONE, (128, 128, 8, 2), "nn", 1)),
    ("cutlass_simt_dgemm_64x64_8x2_tn_align1",
     make_config(SIMT, F64, F64, F64, ONE, (64, 64, 8, 2), "tn", 1)),
    ("cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8",
     make_config(TENSOROP, BF16, F32, F32, Shape(16, 8, 16), (128, 128, 32, 3), "tn", 8)),
    ("cutlass_tensorop_bf16_s16816gemm_bf16_128x256_32x3_tn_align8",
     make_config(TENSOROP, BF16, BF16, F32, Shape(16, 8, 16), (128, 256, 32, 3), "tn", 8)),
    ("cutlass_tensorop_s1688gemm_tf32_128x128_16x4_tn_align4",
     make_config(TENSOROP, TF32, F32, F32, Shape(16, 8, 8), (128, 128, 16, 4), "tn", 4)),
    ("cutlass_tensorop_i16832gemm_s8_128x256_64x3_tn_align16",
     make_config(TENSOROP, S8, S32, S32, Shape(16, 8, 32), (128, 256, 64, 3), "tn", 16)),
    ("cutlass_simt_igemm_s8_64x64_16x2_nt_align1",
     make_config(SIMT, S8, S32, S32, ONE, (64, 64, 16, 2), "nt", 1)),
]


@pytest.mark.parametrize("expected, cfg", EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_cutlass_examples(expected, cfg):
    assert kernel_name(cfg) == expected
    assert cfg.name == expected


def test_examples_from_the_tables_are_enumerated():
    names = {k.name for k in enumerate_kernels()}
    for expected, _ in EXAMPLES:
        if expected != "cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8":  # no such tile row
            assert expected in names


NAME_TAIL_3X = re.compile(r"_(\d+)x(\d+)x(\d+)_(\d+)x(\d+)x(\d+)_(\d+)_([nt])([nt])([nt])_align(\d+)"
                          r"(_stream_k|_grouped)?_warpspecialized_(cooperative|pingpong|cooperative_blockscale)_epi_tma(?:_(\w+))?$")


def test_sm90_example():
    row = next(t for t in sm90_tensorop.TILES if t.schedule == sm90_tensorop.COOPERATIVE)
    a = Operand(element=BF16, layout=ROW_MAJOR, alignment=8)
    cfg = KernelConfig(family=sm90_tensorop.FAMILY, a=a, b=Operand(element=BF16, layout=COLUMN_MAJOR, alignment=8),
                       c=output_operand(a, BF16), accumulator=F32, compute=F32, instruction=row.instruction,
                       tile=row, math_operation="multiply_add")
    assert cfg.name == ("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_4_tnn_align8"
                        "_warpspecialized_cooperative_epi_tma")
    assert cfg.name in {k.name for k in enumerate_kernels()}


def test_sm90_names_parse_back_to_the_configuration():
    sm90 = [k for k in enumerate_kernels() if k.family is sm90_tensorop.FAMILY]
    assert sm90
    for k in sm90:
        match = NAME_TAIL_3X.search(k.name)
        assert match, k.name
        values = match.groups()
        tb, cl = k.tile.threadblock, k.tile.cluster
        assert tuple(int(v) for v in values[:7]) == (tb.m, tb.n, tb.k, cl.m, cl.n, cl.k, k.tile.stages)
        assert values[7:10] == (k.a.layout.letter, k.b.layout.letter, k.c.layout.letter)
        assert int(values[10]) == max(k.a.alignment, k.b.alignment)
        assert (values[11] or "") == {"": "", "stream_k": "_stream_k", "grouped": "_grouped"}[k.tile.scheduler]
        assert values[12] == {"KernelTmaWarpSpecializedCooperative": "cooperative",
                              "KernelTmaWarpSpecializedPingpong": "pingpong",
                              "KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum": "cooperative_blockscale"}[
                                  k.tile.schedule]
        assert parse_variant(values[13]) == k.epilogue, k.name
        # names spell fp8 e4m3 / e5m2 (CUTLASS's kernel names); manifest.json says fe4m3 / fe5m2
        types = "_".join(e.name for e in (k.a.element, k.b.element, k.accumulator, k.c.element, k.d.element))
        assert k.name.startswith(f"cutlass3x_sm90_tensorop_gemm_{types}_")
        assert k.a.element in (BF16, F16, TF32, S8, E4M3, E5M2)
        assert k.c.element in (BF16, F16, F32, E4M3, E5M2, S32, S8)


def test_name_parses_back_to_the_configuration():
    for k in enumerate_kernels():
        if k.family.api == "3x":
            continue
        match = NAME_TAIL.search(k.name)
        assert match, k.name
        tb_m, tb_n, tb_k, stages, layout_a, layout_b, alignment, split, variant = match.groups()
        assert (split or "") == k.family.name_suffix, k.name
        assert parse_variant(variant) == k.epilogue, k.name
        tb = k.tile.threadblock
        assert (int(tb_m), int(tb_n), int(tb_k)) == (tb.m, tb.n, tb.k)
        assert int(stages) == k.tile.stages
        assert (layout_a, layout_b) == (k.a.layout.letter, k.b.layout.letter)
        assert int(alignment) == max(k.a.alignment, k.b.alignment)
        assert k.name.startswith(f"cutlass_{k.family.opcode_class}_")


def test_fused_kernels_exist_in_both_naming_schemes():
    fused = [k for k in enumerate_kernels() if k.epilogue.fused]
    assert {k.family.api for k in fused} == {"2x", "3x"}
    assert {k.family for k in fused} == {gemv.FAMILY, sm50_simt.FAMILY, sm80_skinny.FAMILY, sm80_tensorop.FAMILY,
                                           sm90_tensorop.FAMILY}


def test_variant_suffixes_and_their_order():
    # pieces in the fixed order alphavec, bias, activation, aux, amax
    assert Epilogue(activation="relu", bias=True, alpha_vector=True, aux=True, scale_amax=True).suffix == \
        "alphavec_bias_relu_aux_amax"
    assert [e.suffix for e in STANDARD] == [
        "bias", "relu", "bias_relu", "gelu", "bias_gelu", "gelu_aux", "bias_gelu_aux", "gelu_erf", "bias_gelu_erf",
        "silu", "bias_silu", "sigmoid", "bias_sigmoid", "clamp", "bias_clamp", "alphavec", "alphavec_bias_relu"]
    assert [e.suffix for e in FP8] == ["amax", "bias_amax", "bias_relu_amax", "bias_gelu_amax"]
    assert PLAIN.suffix == "" and not PLAIN.fused
    assert all(e.fused for e in STANDARD + FP8)
    assert len({e.suffix for e in STANDARD + FP8}) == len(STANDARD + FP8)
    for e in STANDARD + FP8:
        assert parse_variant(e.suffix) == e


FUSED_EXAMPLES = [
    # 2.x: "_epi_<variant>" after the alignment (epilogues.py's own example)
    ("cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align8_epi_bias_gelu",
     make_config(TENSOROP, BF16, F32, F32, Shape(16, 8, 16), (128, 256, 32, 3), "tn", 8),
     Epilogue(activation="gelu", bias=True)),
    ("cutlass_simt_sgemm_128x128_16x2_nn_align1_epi_alphavec_bias_relu",
     make_config(SIMT, F32, F32, F32, ONE, (128, 128, 16, 2), "nn", 1),
     Epilogue(activation="relu", bias=True, alpha_vector=True)),
    # fp8 output: the C type leads the extended name, spelled e4m3
    ("cutlass_tensorop_e4m3_s16816gemm_bf16_128x256_32x3_tn_align8_epi_bias_gelu_amax",
     make_config(TENSOROP, BF16, E4M3, F32, Shape(16, 8, 16), (128, 256, 32, 3), "tn", 8),
     Epilogue(activation="gelu", bias=True, scale_amax=True)),
]


@pytest.mark.parametrize("expected, cfg, variant", FUSED_EXAMPLES, ids=[name for name, _, _ in FUSED_EXAMPLES])
def test_fused_examples(expected, cfg, variant):
    fused = dataclasses.replace(cfg, epilogue=variant)
    assert fused.name == expected
    assert fused.name == cfg.name + "_epi_" + variant.suffix
    assert expected in {k.name for k in enumerate_kernels()}


def test_sm90_fused_example():
    row = sm90_tensorop.TILES[0]
    a = Operand(element=BF16, layout=ROW_MAJOR, alignment=8)
    plain = KernelConfig(family=sm90_tensorop.FAMILY, a=a, b=Operand(element=BF16, layout=COLUMN_MAJOR, alignment=8),
                         c=output_operand(a, BF16), accumulator=F32, compute=F32, instruction=row.instruction,
                         tile=row, math_operation="multiply_add")
    fused = dataclasses.replace(plain, epilogue=Epilogue(activation="gelu", bias=True), element_bias=BF16)
    assert plain.name.endswith("_warpspecialized_pingpong_epi_tma")
    assert fused.name == plain.name + "_bias_gelu"
    assert fused.name == ("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_6_tnn_align8"
                          "_warpspecialized_pingpong_epi_tma_bias_gelu")
    assert fused.name in {k.name for k in enumerate_kernels()}
    fp8 = dataclasses.replace(plain, c=output_operand(a, E5M2), epilogue=Epilogue(scale_amax=True))
    assert fp8.name == ("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_e5m2_e5m2_128x128x64_1x1x1_6_tnn_align8"
                        "_warpspecialized_pingpong_epi_tma_amax")
    assert fp8.name in {k.name for k in enumerate_kernels()}
