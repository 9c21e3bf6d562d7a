"""Compiles every ```c and ```cpp block of the README against include/ (syntax only), so the
documented examples cannot rot. Usage: check_snippets.py <README.md> <include dir> <cuda include dir>."""
import os
import re
import subprocess
import sys
import tempfile


def main(readme, include_dir, cuda_include):
    text = open(readme).read()
    blocks = re.findall(r"```(c|cpp)\n(.*?)```", text, re.S)
    if not blocks:
        print("no C/C++ snippets found in", readme)
        return 1
    failures = 0
    for index, (lang, code) in enumerate(blocks):
        suffix, compiler = (".c", ["gcc", "-std=c99"]) if lang == "c" else (".cpp", ["g++", "-std=c++17"])
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
            f.write(code)
            path = f.name
        command = compiler + ["-fsyntax-only", "-Wall", "-Werror", "-I", include_dir, "-isystem", cuda_include, path]
        result = subprocess.run(command, capture_output=True, text=True)
        os.unlink(path)
        status = "ok" if result.returncode == 0 else "FAILED"
        print("snippet %d (%s): %s" % (index, lang, status))
        if result.returncode != 0:
            print(result.stderr)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
