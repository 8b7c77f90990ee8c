"""Run schemathesis against the API of a live server: no 5xx, and every answer as the schema says.

``make schemathesis`` (CI runs it after ``make test``): migrates a fresh
database (a SQLite file in a temporary directory, or
``SCHEMATHESIS_DATABASE_URL``), stores an arbiter with a postal and a server
game, starts gunicorn on a free port, and runs schemathesis on a copy of
``/api/schema/`` with the arbiter's token, checks ``not_a_server_error`` and
``response_schema_conformance``, in all four phases:

- examples, coverage and fuzzing, every operation alone
  (``SCHEMATHESIS_MAX_EXAMPLES``, default 20, cases per operation);
- stateful: ``SCHEMATHESIS_STATEFUL_SCENARIOS`` (100) scenarios of at most
  ``STATEFUL_STEPS`` calls, each following the schema's links with the values
  of the answers: create a tournament, a game in it, press, read the game and
  its history. The links are the product's (``corr/api/schema_links.py``) and
  the run's own (``run_links``: the seeded players, a first move), added to
  the copy; the ones schemathesis would infer from the names are off
  (``CONFIG`` says why).

The run's values (``CONFIG``) draw the seeded ids, users, dates and zones most
of the time, so that generated requests get past validation to the logic.
Afterwards it prints how many stateful scenarios ran and counts in the
database what they made: tournaments, games, and games with a move (in a
tournament the run created, too). The exit status is schemathesis's, or 1 when
no game the run created got a move (the stateful phase reached no sequence).
About 3.5 minutes on 2 shared cores. ``SCHEMATHESIS_PHASES`` runs some phases
only and ``SCHEMATHESIS_EXTRA`` adds arguments (``--report har``), for working
on the run itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# Operations left out of the run for now, each with its reason. Remove an entry once its fix has landed.
EXCLUDED_OPERATION_IDS: dict[str, str] = {}
"""Operations left out of the run, each with its reason (none: every operation is checked)."""

STATEFUL_STEPS = 6
"""Calls in a stateful scenario at most (schemathesis's default): a tournament, a game, a press, reads."""

CONFIG = """\
[generation]
max-examples = {max_examples}

[phases.stateful]
max-steps = {steps}

# Only the schema's own links (the product's and the run's): those schemathesis infers from the names
# (363, every game action from every answer with a game's id) gave ~25 starting operations and a few
# hundred transitions, so that a scenario almost never went from a new tournament to a move in its game.
[phases.stateful.inference]
algorithms = []

[phases.stateful.generation]
max-examples = {scenarios}

# Drawn from these lists 9 times in 10 (else generated as the schema says), not fixed: a link's value
# (a new game's id, a new tournament's) must win in the stateful phase, and the tenth case still
# probes the validation. The seeded games 1 (postal) and 2 (server) and tournaments 1 and 2; the
# seeded users, the arbiter (whose token signs every request) as white, so that its game takes the
# arbiter's presses; mostly server tournaments and games (a server move is a notation and no date,
# where a postal one needs the date it was sent: one link body cannot be both).
[parameters]
"path.game_id" = {{ dictionary = "seeded_ids", probability = 0.9 }}
"path.tournament_id" = {{ dictionary = "seeded_ids", probability = 0.9 }}
"body.mode" = {{ dictionary = "server", probability = 0.9 }}
"body.tournament" = {{ dictionary = "server_tournament", probability = 0.9 }}
"body.white" = {{ dictionary = "white", probability = 0.9 }}
"body.black" = {{ dictionary = "black", probability = 0.9 }}
"body.time_zone" = {{ dictionary = "zones", probability = 0.9 }}
"body.official_start" = {{ dictionary = "dates", probability = 0.9 }}
"body.received_on" = {{ dictionary = "dates", probability = 0.9 }}
"body.sent_on" = {{ dictionary = "dates", probability = 0.9 }}
"body.number" = {{ dictionary = "numbers", probability = 0.9 }}

[dictionaries]
seeded_ids = {{ values = [1, 2] }}
server = {{ values = ["server"] }}
server_tournament = {{ values = [2] }}
white = {{ values = ["st-arbiter"] }}
black = {{ values = ["st-boris", "st-anna"] }}
zones = {{ values = ["UTC", "Europe/Moscow"] }}
dates = {{ values = ["2026-01-10", "2026-01-20", "2026-02-01"] }}
numbers = {{ values = [1, 2] }}
"""
"""The run's schemathesis.toml; ``{max_examples}``, ``{steps}`` and ``{scenarios}`` filled in by ``main``."""


def run_links() -> dict[tuple[str, str], dict[str, dict]]:
    """Links the run adds to its copy of the schema: the seeded players and a first move, as a person goes on.

    From a new tournament, a game in it between the arbiter (white, whose token signs
    every request) and st-anna, in the tournament's mode and kind; from a new game, white's
    first move (written as a server game takes it: the CONFIG's ``body.mode`` makes most
    tournaments server ones) and a read; from a move, a read and the history. A link's body
    is merged into the generated one field by field (each 9 times in 10, schemathesis's
    default), so the generated media type is kept and some fields still vary (a null is no
    value in a form: those moves get their 400). The product's own link
    (``corr/api/schema_links.py``: a new tournament's id to ``POST /api/games/``) stays beside.
    """
    move = {"number": 1, "notation": "e4", "received_on": None, "sent_on": None, "void": False, "mail": "",
            "variant": ""}
    game = {"path.game_id": "$response.body#/id"}
    return {
        ("tournaments_create", "201"): {"RunGame": {"operationId": "games_create", "requestBody": {
            "tournament": "$response.body#/id", "white": "st-arbiter", "black": "st-anna", "first": "white",
            "mode": "$response.body#/mode", "kind": "$response.body#/kind"}}},
        ("games_create", "201"): {
            "RunMove": {"operationId": "games_moves_create", "parameters": game, "requestBody": move},
            "RunRead": {"operationId": "games_retrieve", "parameters": game}},
        ("games_moves_create", "201"): {
            "RunRead": {"operationId": "games_retrieve", "parameters": game},
            "RunHistory": {"operationId": "games_history_list", "parameters": game}},
    }


def schema_with_run_links(schema: dict, links: dict[tuple[str, str], dict[str, dict]]) -> dict:
    """``schema`` with ``links`` added to the responses they name (the product's links kept)."""
    responses = {op["operationId"]: op["responses"] for path in schema["paths"].values() for op in path.values()}
    for (operation_id, status), extra in links.items():
        responses[operation_id][status].setdefault("links", {}).update(extra)
    return schema


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def seed() -> None:
    """Inside Django (``python run_schemathesis.py seed``): the data the run starts from; prints the token."""
    import django

    django.setup()

    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services

    arbiter = User.objects.create_user("st-arbiter", "st@example.org", "st-arbiter-pass-1")
    services.arbiter_grant(user=arbiter)
    anna = User.objects.create_user("st-anna", "anna@example.org", "st-anna-pass-1")
    boris = User.objects.create_user("st-boris", "boris@example.org", "st-boris-pass-1")
    today = date.today()
    for mode in ("postal", "server"):
        tournament = services.tournament_create(by=arbiter, name=f"{mode} cup", official_start=date(2026, 1, 10),
                                                mode=mode, presumed_transit_days=3 if mode == "postal" else None)
        services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=today)
    print(Token.objects.create(user=arbiter).key)


def census() -> None:
    """Inside Django (``python run_schemathesis.py census``): what the run created past the seeded data (JSON)."""
    import django

    django.setup()
    from django.db.models import Exists, OuterRef

    from corr.models import Game, GameEvent, LiveEvent, Tournament

    seeded = ("postal cup", "server cup")
    games = Game.objects.exclude(tournament__name__in=seeded, white__username="st-anna", black__username="st-boris")
    moved = games.filter(Exists(GameEvent.objects.filter(game=OuterRef("pk"), kind="move"))
                         | Exists(LiveEvent.objects.filter(game=OuterRef("pk"), kind="move")))
    print(json.dumps({"tournaments": Tournament.objects.exclude(name__in=seeded).count(), "games": games.count(),
                      "games_with_moves": moved.count(),
                      "in_new_tournaments": moved.exclude(tournament__name__in=seeded).count()}))


def stateful_scenarios(events: Path) -> int:
    """Stateful scenarios that ran, from schemathesis's event stream (its ndjson report)."""
    count = 0
    with events.open() as lines:
        for line in lines:
            finished = json.loads(line).get("ScenarioFinished")
            count += bool(finished and finished.get("phase") == "stateful")
    return count


def wait_for(url: str, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not answer within {seconds} s")


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="corr-schemathesis-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SECRET_KEY="schemathesis-only-not-secret", DEBUG="0", SECURE_SSL_REDIRECT="0",
               DATABASE_URL=os.environ.get("SCHEMATHESIS_DATABASE_URL") or f"sqlite:///{workdir / 'db.sqlite3'}",
               DJANGO_SETTINGS_MODULE="corr.settings", PYTHONPATH=str(ROOT),
               # The sign-in throttle (10/min) would answer nearly every generated sign-in with 429 and
               # leave the view untested; the lockout stays on, and tests/security test the throttle.
               SIGN_IN_RATE="100000/min")
    port = free_port()
    server = None
    server_log = workdir / "gunicorn.log"
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        token = subprocess.run([sys.executable, __file__, "seed"], cwd=ROOT, env=env, check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        server = subprocess.Popen([str(BIN / "gunicorn"), "corr.wsgi", "--bind", f"127.0.0.1:{port}",
                                   "--workers", "2", "--timeout", "60", "--log-level", "warning"],
                                  cwd=ROOT, env=env, start_new_session=True, stderr=server_log.open("w"))
        schema_url = f"http://127.0.0.1:{port}/api/schema/"
        wait_for(schema_url, server)
        with urllib.request.urlopen(f"{schema_url}?format=json", timeout=30) as answer:
            schema = json.load(answer)
        schema_file = workdir / "schema.json"
        schema_file.write_text(json.dumps(schema_with_run_links(schema, run_links())))
        config = workdir / "schemathesis.toml"
        config.write_text(CONFIG.format(max_examples=int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "20")),
                                        steps=STATEFUL_STEPS,
                                        scenarios=int(os.environ.get("SCHEMATHESIS_STATEFUL_SCENARIOS", "100"))))
        events = workdir / "events.ndjson"
        phases = os.environ.get("SCHEMATHESIS_PHASES", "examples,coverage,fuzzing,stateful")
        extra = os.environ.get("SCHEMATHESIS_EXTRA", "").split()  # e.g. "--report har" while working on the run
        command = [str(BIN / "schemathesis"), "--config-file", str(config), "--no-color", "run", str(schema_file),
                   "--url", f"http://127.0.0.1:{port}",
                   "--phases", phases,
                   "--checks", "not_a_server_error,response_schema_conformance",
                   "--header", f"Authorization: Token {token}",
                   "--seed", os.environ.get("SCHEMATHESIS_SEED", "20261129"),
                   "--report", "ndjson", "--report-ndjson-path", str(events),
                   # One worker: with two, hypothesis's lambda descriptions hit a CPython 3.11 race in
                   # ast.parse ("AST constructor recursion depth mismatch"), a runner error, not the API's.
                   "--workers", "1", "--request-timeout", "30", *extra]
        for operation_id in EXCLUDED_OPERATION_IDS:
            command += ["--exclude-operation-id", operation_id]
        started = time.monotonic()
        run = subprocess.Popen(command, cwd=workdir, env=env, stdout=subprocess.PIPE, text=True)
        links = ""
        for line in run.stdout:  # echoed as it comes, the stateful phase's links line kept
            print(line, end="", flush=True)
            if re.match(r"\s*API Links:", line):
                links = line.split(":", 1)[1].strip()
        status = run.wait()
        print(f"schemathesis: exit status {status} in {time.monotonic() - started:.0f} s")
        made = json.loads(subprocess.run([sys.executable, __file__, "census"], cwd=ROOT, env=env, check=True,
                                         capture_output=True, text=True).stdout.strip().splitlines()[-1])
        print(f"stateful phase: {stateful_scenarios(events)} scenarios, links {links or 'not reported'};"
              f" the run created {made['tournaments']} tournaments and {made['games']} games, of which"
              f" {made['games_with_moves']} got a move ({made['in_new_tournaments']} in a tournament it created)")
        if not status and "stateful" in phases and not made["games_with_moves"]:
            print("the stateful phase reached no move in a game it created")
            status = 1
        if status:
            errors = [line for line in server_log.read_text().splitlines() if "Internal Server Error" in line
                      or "Traceback" in line or "Error:" in line]
            print("server errors (gunicorn's log):", *errors[-40:], sep="\n  ")
        return status
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # gunicorn's own process group (start_new_session)
            server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["seed"]:
        seed()
    elif sys.argv[1:] == ["census"]:
        census()
    else:
        sys.exit(main())
