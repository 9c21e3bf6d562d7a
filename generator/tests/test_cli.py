"""The command line as a process: exit statuses and one-line errors instead of tracebacks."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator import cli
from generator.architectures import SUFFIXED_CCS, Arch, parse_architectures

REPO = Path(__file__).resolve().parents[2]
ONE_KERNEL = "sgemm_128x128_16x2_nn_align1"


def run_cli(*argv):
    """python3 -m generator <argv> from the repository root; the CompletedProcess (text)."""
    return subprocess.run([sys.executable, "-m", "generator", *argv], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def assert_one_line_error(result, status, *fragments):
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cutlass_lib generator: error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize("build_dir, reason", [
    ("/dev/null", "Not a directory"),
    ("/proc/foo", "No such file or directory"),
])
def test_unwritable_build_dir_is_a_one_line_usage_error(build_dir, reason):
    if not Path(build_dir).parent.is_dir():
        pytest.skip(f"no {Path(build_dir).parent} here")
    result = run_cli("--architectures", "80", "--kernels", ONE_KERNEL, "--curr-build-dir", build_dir)
    assert_one_line_error(result, cli.EXIT_USAGE, repr(build_dir), reason)


def test_build_dir_under_a_regular_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_cli("--architectures", "80", "--kernels", ONE_KERNEL, "--curr-build-dir", str(blocker / "out"))
    assert_one_line_error(result, cli.EXIT_USAGE, str(blocker), "Not a directory")


def test_missing_build_dir_is_created(tmp_path):
    out = tmp_path / "a" / "b"
    result = run_cli("--architectures", "80", "--kernels", ONE_KERNEL, "--curr-build-dir", str(out))
    assert result.returncode == 0, result.stderr
    assert "kernels selected" in result.stdout
    assert (out / "generated" / "manifest.json").is_file()


def test_list_into_a_closed_pipe_exits_quietly():
    # Well over a pipe buffer (64 KiB) of names, so the writer meets the closed pipe.
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "--architectures", "80;90a", "--kernels", "all", "--list"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert first.startswith(b"cutlass")
    assert status == cli.EXIT_BROKEN_PIPE
    assert stderr == ""


def test_list_into_an_open_pipe_still_exits_0():
    result = run_cli("--architectures", "80;90a", "--kernels", "all", "--list")
    assert result.returncode == 0 and result.stderr == ""
    assert len(result.stdout.splitlines()) > 1000


@pytest.mark.parametrize("digits", ["\u0668\u0660", "\uff18\uff10", "8\u0660"])  # Arabic-Indic, fullwidth, mixed
def test_non_ascii_digits_are_rejected(digits):
    with pytest.raises(ValueError):
        parse_architectures(digits)
    assert_one_line_error(run_cli("--architectures", digits, "--kernels", "all", "--list"),
                          cli.EXIT_USAGE, repr(digits))


@pytest.mark.parametrize("arch", ["80a", "86a", "89a", "90f", "75f", "80f", "102a", "122f"])
def test_suffix_nvcc_does_not_have_is_rejected(arch):
    with pytest.raises(ValueError, match="variant in nvcc"):
        parse_architectures(arch)
    assert_one_line_error(run_cli("--architectures", f"80;{arch}", "--kernels", "all", "--list"),
                          cli.EXIT_USAGE, repr(arch), "valid: ")


@pytest.mark.parametrize("arch", ["90a", "100a", "100f", "103a", "103f", "110a", "110f",
                                  "120a", "120f", "121a", "121f", "101a", "101f"])
def test_suffixes_nvcc_has_are_accepted(arch):
    assert parse_architectures(arch) == (Arch(int(arch[:-1]), arch[-1]),)


def test_suffix_table_matches_nvcc_13():
    # nvcc 13.0 (-gencode arch=compute_Xs,code=sm_Xs); 101 is the nvcc 12.8/12.9 name of sm_110.
    assert set(SUFFIXED_CCS["a"]) - {101} == {90, 100, 103, 110, 120, 121}
    assert set(SUFFIXED_CCS["f"]) - {101} == {100, 103, 110, 120, 121}


@pytest.mark.parametrize("text, expected", [
    ("80;90a", (Arch(80, ""), Arch(90, "a"))),
    ("80,90a", (Arch(80, ""), Arch(90, "a"))),
    (" 80 ; 90a ", (Arch(80, ""), Arch(90, "a"))),
    ("90a", (Arch(90, "a"),)),
    ("80", (Arch(80, ""),)),
    ("70;75;86;89;90;100;120", tuple(Arch(cc, "") for cc in (70, 75, 86, 89, 90, 100, 120))),
])
def test_plain_and_valid_lists_still_parse(text, expected):
    assert parse_architectures(text) == expected


def test_valid_architectures_still_list_kernels():
    for archs in ("80;90a", "80,90a", "90a", "80"):
        result = run_cli("--architectures", archs, "--kernels", "all", "--list")
        assert result.returncode == 0 and result.stdout.strip(), (archs, result.stderr)


@pytest.mark.skipif(not hasattr(os, "dup2"), reason="needs os.dup2")
def test_print_lines_returns_0_on_an_open_stream(capsys):
    assert cli.print_lines(["a", "b"]) == 0
    assert capsys.readouterr().out == "a\nb\n"


def test_architectures_default_to_cmakes_default():
    assert run_cli("--kernels", "all", "--list").stdout == \
        run_cli("--architectures", "80;90a", "--kernels", "all", "--list").stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_list_into_a_full_device_is_a_one_line_usage_error():
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "generator", "--kernels", "all", "--list"],
                                cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == cli.EXIT_USAGE
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write to standard output" in lines[0], result.stderr
