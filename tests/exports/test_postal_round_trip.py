"""A postal game's PGN carries each move's received date (``[%ccrd]``, issue 37): ``manage.py clock`` on the
export gives the game page's figures, and warns when a postal PGN has none."""

from __future__ import annotations

import json
import re
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command

from corr.clock.presets import preset_ruleset
from corr.formats.pgn_stamps import games_from_pgn

from ..commands.test_clock_pgn import PGN_EXTRACT, needs_pgn_extract
from ..conftest import TODAY
from .test_exports import CHESS, export, play

pytestmark = pytest.mark.django_db

COMPARED = ("thinking_days", "total_days", "control", "deadline", "time_trouble", "overstepped", "on_move", "made")
"""The account fields both answers hold: the days left are ``control.remaining_days``."""


def clock_command(tmp_path, text: str) -> tuple[dict, str]:
    """``manage.py clock game.pgn --preset rus_50_4`` (the postal cup's rules: 10 moves in 30 days) as of today."""
    path = tmp_path / "game.pgn"
    path.write_text(text)
    out, err = StringIO(), StringIO()
    call_command("clock", str(path), "--preset", "rus_50_4", "--time-zone", "Europe/Moscow", "--json",
                 "--as-of", TODAY.isoformat(), stdout=out, stderr=err)
    return json.loads(out.getvalue())["players"], err.getvalue()


def page(api, user, game) -> dict:
    players = api(user).get(f"/api/games/{game.pk}/").json()["clock"]["players"]
    return {colour: {key: account[key] for key in COMPARED} for colour, account in players.items()}


@pytest.fixture
def received(api, postal_game, anna, boris):
    """Five moves by post, each received days after it was sent; black records receiving Bb5 on 02-13."""
    play(api, postal_game, {"white": anna, "black": boris}, CHESS)
    r = api(boris).post(f"/api/games/{postal_game.pk}/receipts/", {"received_on": "2026-02-13"}, format="json")
    assert r.status_code == 201, r.json()
    return postal_game


def test_the_export_computed_by_the_command_gives_the_game_pages_days_left(api, tmp_path, received, anna):
    text = export(api(anna), received, "pgn").content.decode()
    assert "e5 {[%ccrd 2026.01.16] [%ccsnt 2026.01.18]" in text
    assert "black's move 3 pending: [%ccrd 2026.02.13] received 2026-02-13" in text
    players, warnings = clock_command(tmp_path, text)
    assert warnings == ""
    assert {colour: {key: players[colour][key] for key in COMPARED} for colour in players} == page(api, anna,
                                                                                                   received)
    # Black: e5 01-16 -> 01-18 (2), Nc6 01-29 -> 02-01 (3), move 3 received 02-13, 16 days by 03-01: 21 of 30.
    assert players["black"]["control"]["remaining_days"] == 9


def test_without_received_dates_transit_is_thinking_and_the_command_says_so(api, tmp_path, received, anna):
    text = export(api(anna), received, "pgn").content.decode()
    players, warnings = clock_command(tmp_path, re.sub(r"\[%ccrd [^\]]*\] ", "", text))  # as a file before
    assert warnings.startswith("warning: game 1 (anna - boris): a postal game (Mode PM or EM) with no received"
                               " dates ([%ccrd])")
    assert "the days in transit are charged as thinking time" in warnings
    # Black's move 3 now counts from Bb5's dispatch, 02-07: 6 more days than from its receipt on 02-13.
    on_page = page(api, anna, received)["black"]["control"]["remaining_days"]
    assert players["black"]["control"]["remaining_days"] < on_page


def test_a_presumed_receipt_is_not_written_and_the_command_warns_of_the_move_on_turn(api, tmp_path, postal_game,
                                                                                     anna, boris):
    play(api, postal_game, {"white": anna, "black": boris}, CHESS)
    text = export(api(anna), postal_game, "pgn").content.decode()
    assert "black's move 3 pending: received 2026-02-11" in text  # presumed: 02-07 + 4 days, no [%ccrd]
    _, warnings = clock_command(tmp_path, text)
    assert warnings == ("warning: game 1 (anna - boris): the move on turn has no received date ([%ccrd]): it counts"
                        " from the partner's sent date, the days in transit charged as thinking time\n")


@needs_pgn_extract
def test_pgn_extract_leaves_the_received_dates_alone(api, tmp_path, received, anna):
    text = export(api(anna), received, "pgn").content.decode()
    path = tmp_path / "game.pgn"
    path.write_text(text)
    done = subprocess.run([PGN_EXTRACT, "-s", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.count("[%ccrd") == text.count("[%ccrd") == 5  # four answering moves and the pending one
    ruleset = preset_ruleset("rus_50_4", None)
    assert (games_from_pgn(done.stdout, ruleset=ruleset, time_zone="Europe/Moscow")
            == games_from_pgn(text, ruleset=ruleset, time_zone="Europe/Moscow"))
