"""The README and the pages of docs/ run (STYLE 12, 18): their Python examples are doctests, the clock example
is real output, and every command they print runs as printed, in the project's virtualenv, with no variable set.

The README is the front door (what corr is, the two commands, each role's first tasks, a map of docs/); the
reference is in docs/, one page per subject, checked here as the README is."""

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
DOCS = ROOT / "docs"
# The README first: its quick start migrates the database that the pages' commands (nightly, bench_data) use.
PAGES = [README, *sorted(DOCS.glob("*.md"))]
VENV_BIN = Path(sys.executable).parent

# Commands the README or a page of docs/ prints that this test does not run, each with the reason.
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
    "python -m corr.clock.mypyc_build": "compiles the calculator (40 s of CPU, a third of this test): every make test"
                                        " runs it first (the Makefile's $(BUILT) step, when a source changed) and"
                                        " tests/clock/test_build.py checks the build it made",
    "python bench/live_engine.py": "a benchmark of the live engine (a minute; tests/clock/test_live_snapshot.py checks"
                                   " that the press it times is the replay)",
    "BENCH_LIVE_ARGS=": "the live benchmark at scale (tens of minutes; make bench-live-quick is CI's smoke run)",
    ".venv/bin/python bench/": "the benchmarks (minutes, PostgreSQL), as make bench",
    "python bench/move_profile.py": "a profile of a move at two plies on PostgreSQL (make bench's kind: it took"
                                    " over 300 s in CI with both jobs at once)",
    "python bench/asgi_connections.py": "a benchmark of 5-minute rounds on PostgreSQL, Redis, daphne and a worker"
                                        " (tests/service/test_asgi_connections.py runs the same load in small)",
}


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def page_commands(page: Path) -> list[str]:
    """Every shell command of a page, in order: the lines of its ``sh`` blocks and the inline ones."""
    text = page.read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.append(line)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    commands += [c for c in re.findall(r"`((?:python|cat) [^`]+)`", prose)]
    return commands


def readme_commands() -> list[str]:
    return page_commands(README)


def placeholder(command: str) -> bool:
    return re.search(r"\b[A-Z]{2,}\b", command.split("#")[0]) is not None  # USERNAME: a word to replace


def test_every_command_of_the_readme_and_the_docs_runs_as_printed_with_no_variable_set(tmp_path):
    work = tmp_path / "corr"
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(
        ".venv", ".git", "db.sqlite3", "test-db.sqlite3*", "__pycache__", ".pytest_cache", ".hypothesis", "screenshots",
        "sent-mail"))
    env = {"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    ran = []
    for page in PAGES:
        for command in page_commands(page):
            if any(command.startswith(prefix) for prefix in NOT_RUN) or placeholder(command):
                continue
            if command in ran:  # printed again (a page's prose and its block): it ran as printed already
                continue
            done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, f"{page_id(page)}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr, f"{page_id(page)}: {command}"
            ran.append(command)
    assert "python manage.py clock tests/clock/example_game.json" in ran
    assert any(c.startswith("python manage.py clock tests/commands/data/iccf_stamped.pgn") for c in ran)
    assert any(c.startswith("python manage.py nightly") for c in ran)
    assert any(c.startswith("python manage.py bench_data") for c in ran)
    assert "python manage.py axes_reset_username anna" in ran


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    prose = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", prose, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_file_the_readme_and_the_docs_name_exists(page):
    for command in page_commands(page):
        for word in command.split():
            if re.match(r"^[\w./-]+\.(json|py|md|png|pgn)$", word):
                assert (ROOT / word).exists(), f"{page_id(page)}: {word} (in {command!r})"
    text = page.read_text()
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        assert (page.parent / image).exists(), f"{page_id(page)}: {image}"
    for target in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page_id(page)}: {target}"
        if anchor:
            assert anchor in anchors(linked), f"{page_id(page)}: {target} (no such heading)"
    # A file of the project named in the prose (`tests/xfcc/test_scid_client.py`), from the repository's folder.
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for name in re.findall(r"`([\w.-]+/[\w./-]+\.(?:py|json|md|png|pgn|js|html|tcl|po))`", prose):
        assert (ROOT / name).exists(), f"{page_id(page)}: {name}"


def test_the_python_examples_of_the_readme_and_the_docs_run():
    """Every ``>>>`` example of the README and docs/ (docs/time_controls.md's count is tests/test_docs.py's)."""
    attempted = {}
    for page in PAGES:
        result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, page_id(page)
        attempted[page.name] = result.attempted
    assert attempted["calculator.md"] > 0  # the calculator from Python, without Django


def test_the_clock_example_of_the_docs_is_what_the_command_prints():
    blocks = [block for page in PAGES
              for block in re.findall(r"<!-- clock-example.*?-->\n```json\n(.*?)```", page.read_text(), re.S)]
    assert len(blocks) == 1
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    done = subprocess.run([sys.executable, "manage.py", "clock", "tests/clock/example_game.json", "--json"],
                          cwd=ROOT, capture_output=True, text=True, env=env, check=True)
    assert json.loads(done.stdout)["players"] == json.loads(blocks[0])


def test_the_readme_shows_the_two_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text
    assert re.search(r"```sh\nmake run .*\nmake test .*\n```", text)


def test_the_readme_is_the_front_door_with_a_map_of_every_page_of_the_docs():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    unlinked = [page.name for page in DOCS.glob("*.md") if f"](docs/{page.name})" not in text]
    assert unlinked == []


def test_the_readme_tells_players_about_conditional_moves_with_the_service_s_own_bounds():
    """Issue 28: what players can do, the limits the service enforces (``corr.limits``), and the rules' page."""
    from corr import limits as lim

    text = README.read_text()
    section = text[text.index("\n## Conditional moves\n"):]
    section = section[:section.index("\n## ", 1)]
    assert f"up to {lim.CONDITIONAL_DEPTH_MAX} replies deep and {lim.CONDITIONAL_NODES_MAX} branches" in section
    for said in ("POST /api/games/{id}/moves/", "/api/games/{id}/conditional/", "POST /api/games/{id}/variants/",
                 "conditional reply from the line sent with move 12 (50.4.8)",
                 "](docs/service.md#conditional-moves)", "](docs/time_controls.md#conditional-replies-5048)"):
        assert said in section, said


@pytest.mark.parametrize("command", ["celery -A corr worker --loglevel=info", "make run"])
def test_commands_not_run_are_listed_with_a_reason(command):
    assert any(command.startswith(prefix) for prefix in NOT_RUN)
