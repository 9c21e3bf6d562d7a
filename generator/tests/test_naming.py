"""Naming: CUTLASS's procedural names exactly, and the name parses back to its configuration."""
import re

import pytest

from generator.config import KernelConfig, Operand, TileRow, output_operand
from generator.datatypes import BF16, COLUMN_MAJOR, F16, F32, F64, ROW_MAJOR, S8, S32, TF32, Shape
from generator.enumeration import enumerate_kernels
from generator.families import sm50_simt, sm80_tensorop, sm90_tensorop
from generator.naming import kernel_name

LAYOUTS = {"n": COLUMN_MAJOR, "t": ROW_MAJOR}

NAME_TAIL = re.compile(r"_(\d+)x(\d+)_(\d+)x(\d+)_([nt])([nt])_align(\d+)$")


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
                          r"_warpspecialized_(cooperative|pingpong)_epi_tma$")


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
        assert values[11] == {"KernelTmaWarpSpecializedCooperative": "cooperative",
                              "KernelTmaWarpSpecializedPingpong": "pingpong"}[k.tile.schedule]
        types = "_".join(e.name for e in (k.a.element, k.b.element, k.accumulator, k.c.element, k.d.element))
        assert k.name.startswith(f"cutlass3x_sm90_tensorop_gemm_{types}_")
        assert k.a.element in (BF16, F16)


def test_name_parses_back_to_the_configuration():
    for k in enumerate_kernels():
        if k.family.api == "3x":
            continue
        match = NAME_TAIL.search(k.name)
        assert match, k.name
        tb_m, tb_n, tb_k, stages, layout_a, layout_b, alignment = match.groups()
        tb = k.tile.threadblock
        assert (int(tb_m), int(tb_n), int(tb_k)) == (tb.m, tb.n, tb.k)
        assert int(stages) == k.tile.stages
        assert (layout_a, layout_b) == (k.a.layout.letter, k.b.layout.letter)
        assert int(alignment) == max(k.a.alignment, k.b.alignment)
        assert k.name.startswith(f"cutlass_{k.family.opcode_class}_")
