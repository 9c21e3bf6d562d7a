"""Filtering: wildcard semantics, the include/ignore lists, operations, architectures and exit codes."""
import dataclasses

import pytest

from generator import cli, filtering
from generator.architectures import Arch, family_enabled, parse_architectures
from generator.datatypes import BF16, F32
from generator.enumeration import enumerate_kernels
from generator.families import sm80_tensorop


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
    assert len(sgemm) == 16 and len(dgemm) == 8
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
    assert len(expected) == len(sm80_tensorop.TILES_16BIT)
    assert names_of(kernels, "cutlass_tensorop_s*gemm_bf16_*_tn_align8") == expected


def test_list_prints_names_in_registration_order(capsys, kernels):
    status, names, _ = listed(capsys, "--kernels", "all")
    assert status == 0
    assert names == [k.name for k in kernels]


def test_unknown_operation_is_rejected(capsys):
    status = cli.main(["--architectures", "80", "--operations", "gemm,conv2d", "--list"])
    err = capsys.readouterr().err
    assert status == 2
    assert "conv2d" in err and "valid operations: gemm, all" in err


@pytest.mark.parametrize("operations", ["gemm", "GEMM", "all", "ALL", ""])
def test_known_operations_are_accepted(capsys, operations):
    status, names, _ = listed(capsys, "--operations", operations)
    assert status == 0 and len(names) == 85


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
    for bad in ("", "sm_80", "90b", "80;x"):
        with pytest.raises(ValueError):
            parse_architectures(bad)


def test_bad_architecture_exits_2(capsys):
    assert cli.main(["--architectures", "sm_80", "--list"]) == 2
    assert "sm_80" in capsys.readouterr().err


def test_families_follow_the_listed_architectures(capsys):
    assert cli.main(["--architectures", "70", "--kernels", "all", "--list"]) == 0
    names = capsys.readouterr().out.split()
    assert len(names) == 27 and all(n.startswith("cutlass_simt_") for n in names)
    assert cli.main(["--architectures", "40", "--list"]) == 3
    assert "No kernel family supports" in capsys.readouterr().err


def test_arch_specific_family_needs_the_a_suffix():
    sm90 = dataclasses.replace(sm80_tensorop.FAMILY, min_cc=90, max_cc=90, arch_specific=True)
    assert family_enabled(sm90, parse_architectures("80;90a"))
    assert not family_enabled(sm90, parse_architectures("80;90"))
    assert not family_enabled(sm90, parse_architectures("100a"))
    assert family_enabled(sm80_tensorop.FAMILY, parse_architectures("90"))
    assert not family_enabled(sm80_tensorop.FAMILY, parse_architectures("75"))
