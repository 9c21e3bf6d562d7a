"""Filtering: wildcard semantics, the include/ignore lists, operations, architectures and exit codes."""
import dataclasses

import pytest

from generator import cli, filtering
from generator.architectures import Arch, family_enabled, parse_architectures
from generator.datatypes import BF16, F32
from generator.enumeration import enumerate_kernels
from generator.epilogues import STANDARD
from generator.families import sm50_simt, sm80_tensorop, sm90_tensorop

#: The default set with every family enabled (test_enumeration.py derives it).
DEFAULT_SET_SIZE = 468
#: SIMT kernels: sgemm 4 layouts x its tiles + dgemm 4 x 2 + igemm 3 x 1, plus sgemm's fused variants 4 x 17.
SIMT_COUNT = 4 * len(sm50_simt.SGEMM_TILES) + 8 + 3 + 4 * len(STANDARD)
#: GEMV kernels (CUDA cores too, any arch): 8 type rows and 3 opt-in e4m3 rows x 4 layouts, plus 5
#: rows x 4 layouts x 17 fused.
GEMV_COUNT = (8 + 3) * 4 + 5 * 4 * len(STANDARD)


@pytest.fixture(scope="module")
def kernels():
    return enumerate_kernels()


def listed(capsys, *argv):
    """Run ``--list`` and return (exit status, selected names, stderr)."""
    status = cli.main(["--architectures", "80;90a", "--list", *argv])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def names_of(kernels, patterns, ignore=""):
    selected = filtering.select(kernels, filtering.split_patterns(patterns), filtering.split_patterns(ignore))
    return [k.name for k in selected]


@pytest.mark.parametrize("pattern, name, expected", [
    ("sgemm", "cutlass_simt_sgemm_128x128_8x2_nn_align1", True),                  # substring
    ("SGEMM", "cutlass_simt_sgemm_128x128_8x2_nn_align1", False),                 # case-sensitive
    ("*", "anything", True),
    ("simt*nn", "cutlass_simt_sgemm_128x128_8x2_nn_align1", True),                # pieces in order
    ("nn*simt", "cutlass_simt_sgemm_128x128_8x2_nn_align1", False),               # out of order
    ("128x128*128x128", "cutlass_simt_sgemm_128x128_8x2_nn_align1", False),       # pieces may not overlap
    ("cutlass_simt_sgemm_128x128_8x2_nn_align1*", "cutlass_simt_sgemm_128x128_8x2_nn_align1", True),
    ("align1", "cutlass_tensorop_i16832gemm_s8_128x256_64x3_tn_align16", True),   # unanchored
])
def test_pattern_semantics(pattern, name, expected):
    assert filtering.pattern_matches(pattern, name) is expected


def test_comma_list_is_a_union_and_whitespace_is_trimmed(kernels):
    sgemm, dgemm = names_of(kernels, "sgemm"), names_of(kernels, "dgemm")
    # sgemm: 4 layouts x its tiles, plus the first tile's 17 fused variants per layout; dgemm: 4 x 2, no fused
    assert len(sgemm) == 4 * len(sm50_simt.SGEMM_TILES) + 4 * len(STANDARD) and len(dgemm) == 8
    union = [n for n in names_of(kernels, "all") if n in set(sgemm + dgemm)]
    assert names_of(kernels, "sgemm,dgemm") == union
    assert names_of(kernels, " sgemm ,  dgemm ") == union
    assert names_of(kernels, "sgemm;dgemm") == union


def test_all_in_any_case_selects_every_kernel(kernels):
    every = [k.name for k in kernels]
    for spelling in ("all", "ALL", " All ", "*"):
        assert names_of(kernels, spelling) == every


def test_empty_kernels_selects_the_default_set(kernels):
    assert names_of(kernels, "") == [k.name for k in kernels if k.in_default_set]
    assert names_of(kernels, " , ") == names_of(kernels, "")


def test_ignore_list_wins_over_the_include_list(kernels):
    assert names_of(kernels, "sgemm", ignore="sgemm") == []
    assert names_of(kernels, "sgemm", ignore="_nn_") == [n for n in names_of(kernels, "sgemm") if "_nn_" not in n]


@pytest.mark.parametrize("include", ["", "all", "ALL"])
def test_ignore_list_applies_with_empty_or_all_kernels(kernels, include):
    remaining = names_of(kernels, include, ignore="tensorop")
    assert remaining == [n for n in names_of(kernels, include) if "tensorop" not in n]
    assert remaining and all(n.startswith("cutlass_simt_") for n in remaining)


def test_bf16_f32_output_tn_align8_example(kernels):
    expected = [
        k.name for k in kernels
        if k.family is sm80_tensorop.FAMILY and k.a.element == BF16 and k.c.element == F32
        and k.a.layout.letter + k.b.layout.letter == "tn" and k.a.alignment == 8
    ]
    # one plain kernel per 16-bit tile row, and the 17 fused variants of the first tile
    assert len(expected) == len(sm80_tensorop.TILES_16BIT) + len(STANDARD)
    # the pattern also selects the skinny family's bf16 -> f32 kernels (same name scheme, "_splitk")
    skinny = [k.name for k in kernels if k.family.name == "sm80_skinny" and k.a.element == BF16 and k.c.element == F32]
    assert names_of(kernels, "cutlass_tensorop_s*gemm_bf16_*_tn_align8") == expected + skinny


def test_list_prints_names_in_registration_order(capsys, kernels):
    status, names, _ = listed(capsys, "--kernels", "all")
    assert status == 0
    assert names == [k.name for k in kernels]


@pytest.mark.parametrize("operations", ["gemm,conv2d", "all,conv2d", "conv2d,ALL"])
def test_unknown_operation_is_rejected(capsys, operations):
    status = cli.main(["--architectures", "80", "--operations", operations, "--list"])
    err = capsys.readouterr().err
    assert status == 2
    assert "conv2d" in err and "valid operations: gemm, all" in err


@pytest.mark.parametrize("operations", ["gemm", "GEMM", "all", "ALL", ""])
def test_known_operations_are_accepted(capsys, operations):
    status, names, _ = listed(capsys, "--operations", operations)
    assert status == 0 and len(names) == DEFAULT_SET_SIZE


def test_zero_matches_exits_3_with_nearby_names(capsys):
    status, names, err = listed(capsys, "--kernels", "cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8")
    assert status == 3 and names == []
    assert "no kernel matched" in err
    assert "cutlass_tensorop_s16816gemm_bf16_128x128_32x3_tn_align8" in err
    nearby = [line.strip() for line in err.splitlines() if line.startswith("  ")]
    assert 1 <= len(nearby) <= 5
    assert "cutlass_tensorop_s16816gemm_bf16_128x128_32x4_tn_align8" in nearby


def test_ignoring_everything_exits_3(capsys):
    status, _, err = listed(capsys, "--ignore-kernels", "cutlass")
    assert status == 3 and "no kernel matched" in err


def test_architecture_parsing():
    assert parse_architectures("80;90a") == (Arch(80, ""), Arch(90, "a"))
    assert parse_architectures(" 80 , 100f ;80") == (Arch(80, ""), Arch(100, "f"))
    for bad in ("", "sm_80", "90b", "80;x", "080", "090a"):
        with pytest.raises(ValueError):
            parse_architectures(bad)


def test_bad_architecture_exits_2(capsys):
    assert cli.main(["--architectures", "sm_80", "--list"]) == 2
    assert "sm_80" in capsys.readouterr().err


def test_families_follow_the_listed_architectures(capsys):
    assert cli.main(["--architectures", "70", "--kernels", "all", "--list"]) == 0
    names = capsys.readouterr().out.split()
    assert len(names) == SIMT_COUNT + GEMV_COUNT and all(n.startswith("cutlass_simt_") for n in names)
    assert cli.main(["--architectures", "40", "--list"]) == 3
    assert "No kernel family supports" in capsys.readouterr().err


@pytest.mark.parametrize("spelling", ["default", "DEFAULT", " Default ", "\tdefault"])
def test_default_keyword_selects_the_default_set(kernels, spelling):
    default = [k.name for k in kernels if k.in_default_set]
    assert len(default) == DEFAULT_SET_SIZE
    assert names_of(kernels, spelling) == default
    assert names_of(kernels, spelling) == names_of(kernels, "")


def test_default_keyword_is_only_a_whole_pattern(kernels):
    # no kernel name contains "default": as part of a pattern it is an ordinary (non-matching) piece
    assert names_of(kernels, "default*") == []
    assert names_of(kernels, "*default") == []
    assert names_of(kernels, "defaults") == []


def test_default_combines_with_other_patterns(kernels):
    bias_gelu = names_of(kernels, "*bias_gelu*")
    union = names_of(kernels, "default,*bias_gelu*")
    wanted = {k.name for k in kernels if k.in_default_set} | set(bias_gelu)
    assert union == [k.name for k in kernels if k.name in wanted], "a union, in registration order"
    assert len(union) == DEFAULT_SET_SIZE + len([n for n in bias_gelu if not any(
        k.name == n and k.in_default_set for k in kernels)])
    # every default-set bias_gelu kernel is counted once; the non-default ones are added
    assert set(names_of(kernels, "default")) < set(union) and set(bias_gelu) < set(union)
    assert names_of(kernels, " default ; sgemm ") == [
        k.name for k in kernels if k.in_default_set or "sgemm" in k.name]
    assert names_of(kernels, "default,all") == [k.name for k in kernels]


def test_default_keyword_and_the_ignore_list(kernels):
    # the ignore list wins over "default" too
    assert names_of(kernels, "default", ignore="tensorop") == [
        k.name for k in kernels if k.in_default_set and "tensorop" not in k.name]
    # "default" in the ignore list drops the default set
    assert names_of(kernels, "all", ignore="default") == [k.name for k in kernels if not k.in_default_set]
    assert names_of(kernels, "default,sgemm", ignore="DEFAULT") == [
        k.name for k in kernels if "sgemm" in k.name and not k.in_default_set]


def test_default_keyword_through_the_command_line(capsys, kernels):
    status, names, _ = listed(capsys, "--kernels", "default,*bias_gelu*")
    assert status == 0 and names == names_of(kernels, "default,*bias_gelu*")
    status, names, err = listed(capsys, "--kernels", "default", "--ignore-kernels", "cutlass")
    assert status == 3 and names == [] and "no kernel matched" in err


def test_bias_gelu_pattern_selects_both_naming_schemes(kernels):
    selected = [k for k in kernels if k.name in set(names_of(kernels, "*bias_gelu"))]
    assert {k.family.api for k in selected} == {"2x", "3x"}
    assert all(k.epilogue.bias and k.epilogue.activation in ("gelu", "gelu_erf") for k in selected)
    assert any(k.name.endswith("_align8_epi_bias_gelu") for k in selected)
    assert any(k.name.endswith("_epi_tma_bias_gelu") for k in selected)
    # it also matches the longer variants that start with bias_gelu (aux, erf, fp8 amax):
    # sgemm 4 layouts x 3 + sm80 16-bit 4 rows x 4 layouts x 3 + sm80 fp8 4 x 1
    # + sm90 4 rows x 4 layouts x 3 + sm90 64x128 and stream-K 128x128 tiles 2 x 2 rows x 4 layouts x 1
    # + sm90 fp8 4 x 1 + sm90 tf32 tn x 3 (first tile) + GEMV (4 16-bit rows and f32) x 4 layouts x 3
    # + skinny 4 rows x 3 on its first width + 2 rows x 1 other width x 1
    # + the grouped 128x128 (bf16, f16) x 4 layouts and 64x32 (bf16, f16) x (tn, nn) x 3
    # + sm90 e4m3 x e4m3 (bf16, f16, f32 out) tn x 3 (first tile), and (e4m3, e5m2 out) x 4 tiles x 1 (amax)
    # + the few-token row's 16-bit-output rows x (tn, nn) x 6 default-set tiles and f32-output rows x
    # (tn, nn) x its first tile, x 1; e4m3 x e4m3 -> (bf16, f16)'s 64x128 and stream-K 128x128 tiles x 1
    # + the swap-AB row's 4 default-set tiles (bf16, f16) tn x 1
    assert {k.epilogue.suffix for k in selected} == {"bias_gelu", "bias_gelu_aux", "bias_gelu_erf", "bias_gelu_amax"}
    assert len(selected) == 12 + 48 + 4 + 48 + 16 + 4 + 3 + 60 + 14 + (2 * 4 + 2 * 2) * 3 + 3 * 3 + 2 * 4 + 2 * 2 * 6 + 2 * 2 + 2 * 2 + 4 * 2
    assert [k.name for k in selected] == names_of(kernels, "bias_gelu")
    # every kernel with a bias and GELU (tanh or erf) is selected
    assert [k.name for k in kernels if k.epilogue.bias and k.epilogue.activation in ("gelu", "gelu_erf")] == [
        k.name for k in selected]


def test_ignore_list_drops_fused_variants(kernels):
    # ignore patterns drop fused variants as they drop any kernel
    remaining = names_of(kernels, "sgemm_128x128_16x2_nn_align1", ignore="_gelu,_epi_bias")
    assert remaining == [n for n in names_of(kernels, "sgemm_128x128_16x2_nn_align1")
                         if "_gelu" not in n and "_epi_bias" not in n]
    assert "cutlass_simt_sgemm_128x128_16x2_nn_align1" in remaining
    assert "cutlass_simt_sgemm_128x128_16x2_nn_align1_epi_relu" in remaining
    assert not any("gelu" in n or "epi_bias" in n for n in remaining)
    # "cutlass_*_epi_" (2.x) and "_epi_tma_" (3.x) drop every fused kernel and nothing else
    plain = names_of(kernels, "all", ignore="cutlass_*_epi_,_epi_tma_")
    assert plain == [k.name for k in kernels if not k.epilogue.fused]
    assert any(k.family is sm90_tensorop.FAMILY for k in kernels if k.name in set(plain))
    # the default set without its fused kernels: its 240 plain tiled kernels + 32 GEMV + 8 skinny
    assert len(names_of(kernels, "", ignore="cutlass_*_epi_,_epi_tma_")) == 240 + 32 + 8


def test_arch_specific_family_needs_the_a_suffix():
    sm90 = dataclasses.replace(sm80_tensorop.FAMILY, min_cc=90, max_cc=90, arch_specific=True)
    assert family_enabled(sm90, parse_architectures("80;90a"))
    assert not family_enabled(sm90, parse_architectures("80;90"))
    assert not family_enabled(sm90, parse_architectures("100a"))
    assert family_enabled(sm80_tensorop.FAMILY, parse_architectures("90"))
    assert not family_enabled(sm80_tensorop.FAMILY, parse_architectures("75"))


def test_zero_matches_says_when_only_the_case_differs(capsys):
    status, _, err = listed(capsys, "--kernels", "SGEMM")
    assert status == 3
    assert "case-sensitive" in err and "cutlass_simt_sgemm" in err
    status, _, err = listed(capsys, "--kernels", "no_such_kernel")
    assert status == 3 and "case-sensitive" not in err


@pytest.mark.parametrize("kernels, ignore", [("sgemm", "sgemm"), ("all", "*"), ("", "default")])
def test_zero_matches_blames_the_ignore_list_when_it_dropped_everything(capsys, kernels, ignore):
    status, _, err = listed(capsys, "--kernels", kernels, "--ignore-kernels", ignore)
    assert status == 3
    assert "--ignore-kernels drops every one of them" in err and "case-sensitive" not in err


def test_zero_matches_names_the_architecture_a_family_needs(capsys):
    status = cli.main(["--architectures", "80;90", "--kernels", "cutlass3x_sm90_*_tnn_align8", "--list"])
    err = capsys.readouterr().err
    assert status == 3
    assert "sm90_tensorop family" in err and "needs 90a" in err
    status = cli.main(["--architectures", "80;90", "--kernels", "no_such_kernel", "--list"])
    assert status == 3 and "needs" not in capsys.readouterr().err


def test_max_device_cc_follows_the_built_sass():
    from generator.architectures import max_device_cc
    sm90 = dataclasses.replace(sm80_tensorop.FAMILY, min_cc=90, max_cc=90, arch_specific=True)
    sm80 = sm80_tensorop.FAMILY
    assert max_device_cc(sm80, parse_architectures("80")) == 89           # no sm_90 claim
    assert max_device_cc(sm80, parse_architectures("80;90a")) == 90
    assert max_device_cc(sm80, parse_architectures("86;120")) == 129
    assert max_device_cc(sm90, parse_architectures("80;90a")) == 90
    assert max_device_cc(sm80, parse_architectures("75")) == sm80.max_cc    # not built
