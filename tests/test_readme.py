"""The README runs (STYLE 12): its Python example is a doctest, its clock example is real output, and every
command it prints runs as printed, in the project's virtualenv, with no variable set."""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
VENV_BIN = Path(sys.executable).parent

# Commands the README prints that this test does not run, each with the reason.
NOT_RUN = {
    "make run": "starts the development server (the demo and the pages are tested on their own)",
    "make test": "the suite itself",
    "make bench": "the benchmarks (minutes, PostgreSQL)",
    "make bench-quick": "the benchmarks' smoke test, run by CI",
    "make screenshots": "starts a browser (tests/browser runs the same pages)",
    "make venv": "this test runs in the virtualenv it creates",
    ". .venv/bin/activate": "this test puts the virtualenv first on PATH, which is what it does",
    "celery -A corr worker": "a long-running worker (tests/nightly/test_worker_integration.py starts one)",
    "celery -A corr beat": "a long-running scheduler",
    "pg_ctlcluster": "starts CI's PostgreSQL",
    "redis-server": "starts CI's Redis",
    "DATABASE_URL=": "the suite on CI's servers",
    "python manage.py check --deploy": "checks production's settings, which need SECRET_KEY and ALLOWED_HOSTS"
                                       " (tests/settings runs it with them)",
    "python bench/clock_command.py": "a benchmark of 10,000 games (make bench runs it)",
    "python bench/asgi_connections.py": "a benchmark of 5-minute rounds on PostgreSQL, Redis, daphne and a worker"
                                        " (tests/service/test_asgi_connections.py runs the same load in small)",
}


def readme_commands() -> list[str]:
    """Every shell command of the README, in order: the lines of its ``sh`` blocks and the inline ones."""
    text = README.read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.append(line)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    commands += [c for c in re.findall(r"`((?:python|cat) [^`]+)`", prose)]
    return commands


def placeholder(command: str) -> bool:
    return re.search(r"\b[A-Z]{2,}\b", command.split("#")[0]) is not None  # USERNAME: a word to replace


def test_every_readme_command_runs_as_printed_with_no_variable_set(tmp_path):
    work = tmp_path / "corr"
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(
        ".venv", ".git", "db.sqlite3", "__pycache__", ".pytest_cache", ".hypothesis", "screenshots", "sent-mail"))
    env = {"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    ran = []
    for command in readme_commands():
        if any(command.startswith(prefix) for prefix in NOT_RUN) or placeholder(command):
            continue
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, command
        ran.append(command)
    assert "python manage.py clock tests/clock/example_game.json" in ran
    assert any(c.startswith("python manage.py nightly") for c in ran)
    assert any(c.startswith("python manage.py bench_data") for c in ran)


def test_every_file_the_readme_names_exists():
    for command in readme_commands():
        for word in command.split():
            if re.match(r"^[\w./-]+\.(json|py|md|png|pgn)$", word):
                assert (ROOT / word).exists(), f"{word} (in {command!r})"
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README.read_text()):
        assert (ROOT / image).exists(), image


def test_the_python_example_of_the_readme_runs():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_clock_example_of_the_readme_is_what_the_command_prints():
    text = README.read_text()
    block = re.search(r"<!-- readme-clock-example.*?-->\n```json\n(.*?)```", text, re.S).group(1)
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    done = subprocess.run([sys.executable, "manage.py", "clock", "tests/clock/example_game.json", "--json"],
                          cwd=ROOT, capture_output=True, text=True, env=env, check=True)
    assert json.loads(done.stdout)["players"] == json.loads(block)


def test_the_readme_shows_the_two_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text


@pytest.mark.parametrize("command", ["celery -A corr worker --loglevel=info", "make run"])
def test_commands_not_run_are_listed_with_a_reason(command):
    assert any(command.startswith(prefix) for prefix in NOT_RUN)
