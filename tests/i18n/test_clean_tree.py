"""`make messages` and `make screenshots` leave a clean tree on a clean checkout (issue 25 finding 8).

``make messages`` is run here as the Makefile writes it (its ``makemessages`` line, read from the Makefile)
on a copy of the sources: the catalogues come out byte for byte as committed, so ``git status`` stays
clean. ``make screenshots`` writes where git ignores (``build/``), never over the committed
``screenshots/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text()


def recipe(target: str) -> list[str]:
    """The recipe lines of ``target`` in the Makefile, continuation lines joined."""
    block = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", MAKEFILE, re.M)
    assert block, target
    return [line.strip() for line in block[1].replace("\\\n", " ").splitlines() if line.strip()]


def test_make_messages_on_a_clean_copy_changes_no_catalogue(tmp_path):
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: `make messages` installs it")
    [command] = [line for line in recipe("messages") if "makemessages" in line]
    copy = tmp_path / "corr"
    for name in ("corr", "accounts", "templates", "locale"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.so"))
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    argv = command.replace("$(PY)", sys.executable).split()
    subprocess.run(argv, cwd=copy, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", "DEBUG": "1"})
    for language in ("ru", "fr"):
        po = Path("locale") / language / "LC_MESSAGES" / "django.po"
        assert (copy / po).read_bytes() == (ROOT / po).read_bytes(), f"make messages rewrites {po}"


def test_make_screenshots_writes_where_git_ignores_never_over_the_committed_ones():
    [command] = [line for line in recipe("screenshots") if "pytest" in line]
    target = re.search(r"CORR_SCREENSHOTS=(\S+)", command)[1]
    assert not (ROOT / target).resolve().is_relative_to(ROOT / "screenshots")
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{target}/tournament-phone.png"], cwd=ROOT)
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0, f"{target} is not ignored by git: make screenshots would dirty the tree"
