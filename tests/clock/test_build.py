"""The calculator runs on the build it should: mypyc's extensions, or the pure-Python sources.

``make test`` runs the suite with ``CORR_EXPECT_BUILD`` set to the build ``make venv`` made
(``mypyc``, or ``pure`` when the compile failed), then the calculator's tests again with
``CORR_PURE_PYTHON=1`` and ``CORR_EXPECT_BUILD=pure``: these tests fail when the switch did not
take, so neither run can silently test the other build.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import corr.clock
from corr.clock import EventError, build, charging, compute

from .builders import d, delay, game, move, penalty

ROOT = Path(__file__).resolve().parents[2]


def _files_of(env: dict) -> dict:
    code = ("import json, corr.clock, corr.clock.build as b; "
            "print(json.dumps({'build': corr.clock.BUILD, 'in_use': b.in_use(), "
            "'files': [__import__('corr.clock.' + n, fromlist=['x']).__file__ for n in b.COMPILED]}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif("CORR_EXPECT_BUILD" not in os.environ, reason="make test says which build to expect")
def test_the_build_in_use_is_the_one_make_expects():
    expected = os.environ["CORR_EXPECT_BUILD"]
    assert corr.clock.BUILD == expected
    assert build.in_use() == expected
    compiled = not charging.__file__.endswith(".py")
    assert compiled == (expected == build.MYPYC), charging.__file__


def test_the_pure_switch_imports_every_compiled_module_from_its_source():
    result = _files_of(dict(os.environ, CORR_PURE_PYTHON="1"))
    assert result["build"] == result["in_use"] == build.PURE
    assert [Path(f).name for f in result["files"]] == [f"{name.rpartition('.')[2]}.py" for name in build.COMPILED]


def test_without_the_switch_the_extensions_are_used_when_they_are_built():
    env = {k: v for k, v in os.environ.items() if k != "CORR_PURE_PYTHON"}
    result = _files_of(env)
    built = build.STAMP.exists() and build.STAMP.read_text().strip() == build.sources_hash()
    if not built:
        assert result["build"] == result["in_use"] == build.PURE
        return
    assert result["build"] == result["in_use"] == build.MYPYC
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert all(f.endswith(suffixes) for f in result["files"]), result["files"]


def test_a_stale_build_is_not_used(tmp_path):
    # The stamp says which sources were compiled; any other sources mean the extensions are stale.
    if not build.STAMP.exists():
        pytest.skip("no compiled build here")
    stamp = tmp_path / "compiled.sha256"
    stamp.write_text("0" * 64 + "\n")
    env = {k: v for k, v in os.environ.items() if k != "CORR_PURE_PYTHON"} | {"CORR_BUILD_STAMP": str(stamp)}
    code = "import corr.clock, corr.clock.build as b; print(corr.clock.BUILD, b.in_use())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    assert done.stdout.split() == [build.PURE, build.PURE]
    assert "older than its sources" in done.stderr


@pytest.mark.parametrize("events, message", [
    # Move 2 as True: an int to a compiled reader of a field declared int, a bool to the rules.
    ((move("white", 1, sent="01-12"), move("black", 1, "01-14", "01-15"), move("white", True, "01-17", "01-18")),
     "event 2 (move): number must be a whole number, got True"),
    ((move("white", 1, sent="01-12"), penalty("white", True)),
     "event 1 (penalty): move must be a whole number, got True"),
    ((move("white", 1, sent="01-12"), delay("white", 1, True)),
     "event 1 (delay): days must be a whole number >= 0, got True"),
])
def test_a_bool_where_a_whole_number_belongs_is_refused_by_either_build(events, message):
    with pytest.raises(EventError) as error:
        compute(game(*events), d("02-01"))
    assert str(error.value) == message


def test_a_copy_of_the_package_carries_its_build(tmp_path):
    # Everything compiled lives in corr/clock (the shared library too): a copy of corr/ runs the same build.
    import shutil

    shutil.copytree(ROOT / "corr", tmp_path / "corr", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("CORR_PURE_PYTHON", "PYTHONPATH")}
    code = "import corr.clock, corr.clock.build as b; print(corr.clock.BUILD, b.in_use(), b.HERE)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          check=True)
    built, in_use, here = done.stdout.split()
    assert Path(here) == tmp_path / "corr" / "clock"
    expected = build.MYPYC if build.STAMP.exists() else build.PURE
    assert built == in_use == expected, done.stderr
