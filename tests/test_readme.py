"""The README runs (STYLE 12): its Python example is a doctest, its clock example is real output."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_python_example_of_the_readme_runs():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_clock_example_of_the_readme_is_what_the_command_prints():
    text = README.read_text()
    block = re.search(r"<!-- readme-clock-example.*?-->\n```json\n(.*?)```", text, re.S).group(1)
    done = subprocess.run([sys.executable, "manage.py", "clock", "tests/clock/example_game.json", "--json"],
                          cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, DEBUG="1"), check=True)
    assert json.loads(done.stdout)["players"] == json.loads(block)


def test_the_readme_shows_the_two_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text
