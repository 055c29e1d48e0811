#!/usr/bin/env python3
"""Stages greenlight's runner-side Python scripts into a directory as greenlight does
(/work/.gl in the sandbox): the embedded files without their C++ raw-string wrapper lines
(the first and the last line), under the module names the runs import them by.

    gl_stage.py DEST_DIR   ->  DEST_DIR/greenlight_pytest.py, greenlight_unittest.py, ...
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "server", "core", "testing", "harness"))

FILES = {
    "pytest_plugin.py": "_greenlight_pytest.py",
    "pytest_plugin_entry.py": "greenlight_pytest.py",
    "unittest_runner.py": "greenlight_unittest.py",
    "python_origin.py": "_greenlight_origin.py",
    "python_cover.py": "_greenlight_cover.py",
    "python_warm.py": "python_warm.py",
    "python_harness.py": "python_harness.py",
}


def unwrap(text):
    lines = text.splitlines(True)
    assert lines[0].startswith('R"GLPY(') and lines[-1].startswith('")GLPY"'), "not a wrapped file"
    return "".join(lines[1:-1])


def stage(dest):
    os.makedirs(dest, exist_ok=True)
    for src, name in FILES.items():
        path = os.path.join(HARNESS, src)
        if not os.path.exists(path):
            continue
        with open(path, "r", encoding="utf-8") as f:
            text = unwrap(f.read())
        with open(os.path.join(dest, name), "w", encoding="utf-8") as f:
            f.write(text)
    return dest


if __name__ == "__main__":
    stage(sys.argv[1])
