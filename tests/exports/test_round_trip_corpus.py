"""Issue 37's round trip: every file corr exports computes, read back, the clocks the game has.

Each game of the corpus is made through the real services and API, downloaded through the real export
endpoint (``GET /api/games/{id}/export/{format}/``), then

1. computed by ``manage.py clock FILE --preset P --time-zone Z --as-of D --json``: every field of every
   player's account that both answers hold equals ``GET /api/games/{id}/`` (``clock.players``);
2. where corr imports the file, imported into a new tournament of the same rules: the copy's
   ``clock.players`` equals the original's, field by field, whole.

Fields compared (1): every key of the API's account that the command's account also has. The API adds keys
of its own that no file can hold: ``days_left`` and ``hours_left`` (its words for the same time left,
derived from ``remaining_seconds``) are kept and compared as well when the command has them; none is
excluded silently: ``EXCLUDED`` lists what is left out and why.
"""

from __future__ import annotations

import json
import re
import subprocess
from datetime import UTC, date, datetime
from io import StringIO

import chess.pgn
import pytest
from django.core.management import call_command

from corr.clock.live.gamefile import ms_instant
from corr.games import services


from ..commands.test_clock_pgn import PGN_EXTRACT, needs_pgn_extract
from ..conftest import TODAY
from .test_exports import export
from .test_exports import play as postal_moves

pytestmark = pytest.mark.django_db

EXCLUDED: dict[str, str] = {}
"""Account fields of the API that the command's answer does not hold, with the reason."""


def clock_command(tmp_path, text: str, suffix: str, *, preset: str, zone: str, as_of: str) -> tuple[dict, str]:
    path = tmp_path / f"game.{suffix}"
    path.write_text(text)
    out, err = StringIO(), StringIO()
    call_command("clock", str(path), "--preset", preset, "--time-zone", zone, "--json", "--as-of", as_of,
                 stdout=out, stderr=err)
    return json.loads(out.getvalue())["players"], err.getvalue()


def api_clock(api, user, game) -> dict:
    r = api(user).get(f"/api/games/{game.pk}/")
    assert r.status_code == 200, r.json()
    return r.json()["clock"]


def assert_same_accounts(command: dict, page: dict) -> None:
    """Every field both answers hold, for every player, equal; what only the page has is in ``EXCLUDED``."""
    assert set(command) == set(page)
    for colour, account in page.items():
        shared = set(account) & set(command[colour])
        assert set(account) - shared <= set(EXCLUDED), (colour, set(account) - shared)
        assert {k: command[colour][k] for k in shared} == {k: account[k] for k in shared}, colour


@pytest.fixture
def postal_eventful(api, arbiter, anna, boris, postal_game):
    """A postal game (10 moves in 30 days, 4 days' transit, Moscow) with an impossible move and its notice, the
    penalty for it, a late repeat's delay, special leave and a recorded receipt of the move on turn."""
    return eventful(api, arbiter, anna, boris, postal_game)


def eventful(api, arbiter, anna, boris, game):
    """``game`` (a new postal or e-mail game, anna - boris) played as ``postal_eventful`` says."""
    users = {"white": anna, "black": boris}
    postal_moves(api, game, users, [("white", "e4", None, "2026-01-12"), ("black", "e5", "2026-01-16", "2026-01-18"),
                                    ("white", "Ke3", "2026-01-22", "2026-01-25")])  # impossible: e3 is not the king's
    r = api(boris).post(f"/api/games/{game.pk}/notices/", {"reason": "impossible_move", "received_on": "2026-01-29",
                                                           "sent_on": "2026-01-30"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/penalties/", {"player": "white", "reason": "impossible_move"},
                          format="json")
    assert r.status_code == 201, r.json()
    r = api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 2, "notation": "Nf3", "received_on": "2026-02-03",
                                                        "sent_on": "2026-02-04"}, format="json")
    assert r.status_code == 201, r.json()
    postal_moves(api, game, users, [])
    r = api(boris).post(f"/api/games/{game.pk}/moves/", {"number": 2, "notation": "Nc6", "received_on": "2026-02-08",
                                                         "sent_on": "2026-02-10"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/delays/", {"player": "white", "days": 2}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/special-leave/", {"player": "white", "from": "2026-02-15",
                                                                   "to": "2026-02-18", "reason": "illness"},
                          format="json")
    assert r.status_code == 201, r.json()
    r = api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 3, "notation": "Bb5", "received_on": "2026-02-14",
                                                        "sent_on": "2026-02-21"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(boris).post(f"/api/games/{game.pk}/receipts/", {"received_on": "2026-02-25"}, format="json")
    assert r.status_code == 201, r.json()
    return game


def test_postal_pgn_with_notice_penalty_delay_and_leave_computes_to_the_game_page(api, tmp_path, anna,
                                                                                   postal_eventful):
    text = export(api(anna), postal_eventful, "pgn").content.decode()
    page = api_clock(api, anna, postal_eventful)
    players, warnings = clock_command(tmp_path, text, "pgn", preset="rus_50_4", zone="Europe/Moscow",
                                      as_of=TODAY.isoformat())
    assert warnings == ""
    assert_same_accounts(players, page["players"])


def at(day: int, hour: int, minute: int = 0, month: int = 2) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def server_conditional(arbiter, anna, boris, frozen):
    """ICCF rules (10 moves in 50 days, whole days at the instant, Moscow): white's 2. Nf3 is a conditional
    reply the server played from the line sent with 1. e4 (a variant move, 50.4.8); the arbiter's penalty on black
    and a delay of white's are charged beside the moves."""
    t = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 2, 20), mode="server",
                                   preset="iccf_10_50", time_zone="Europe/Moscow")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)
    services.move_submit(game=game, by=anna, number=1, notation="e4", today=at(21, 9).date(), now=at(21, 9, 30),
                         conditional=[{"if": "e5", "then": "Nf3"}])
    services.move_submit(game=game, by=boris, number=1, notation="e5", today=at(23, 20).date(), now=at(23, 20))
    services.move_submit(game=game, by=boris, number=2, notation="Nc6", today=at(26, 8).date(), now=at(26, 8, 15))
    services.penalty_assess(game=game, by=arbiter, player="black", reason="address_error", today=at(27, 9).date())
    services.move_submit(game=game, by=anna, number=3, notation="Bb5", today=at(27, 7).date(), now=at(27, 7, 5))
    services.delay_assess(game=game, by=arbiter, player="white", days=3, today=at(27, 9).date())
    return game


def test_server_pgn_with_a_conditional_reply_computes_and_imports_to_the_game_page(api, tmp_path, arbiter, anna,
                                                                                    server_conditional):
    text = export(api(anna), server_conditional, "pgn").content.decode()
    assert "variant conditional" in text and "2. Nf3 {[%ccsnt 2026.02.23,23:00:00]" in text
    assert "[%ccpenalty black 3 address_error]" in text and "[%ccdelay white 4 3 late_repeat]" in text
    page = api_clock(api, anna, server_conditional)
    players, warnings = clock_command(tmp_path, text, "pgn", preset="iccf_10_50", zone="Europe/Moscow",
                                      as_of=page["as_of"])
    assert warnings == ""
    assert_same_accounts(players, page["players"])
    copy = imported(api, arbiter, server_conditional, text)
    assert api_clock(api, anna, copy)["players"] == page["players"]
    assert page["players"]["black"]["penalty_days"] == 5 and page["players"]["white"]["delay_days"] == 3


def test_a_postal_pgn_with_a_notice_is_refused_by_a_server_tournament_naming_game_and_fact(api, arbiter, anna,
                                                                                          postal_eventful):
    text = export(api(anna), postal_eventful, "pgn").content.decode()
    target = services.tournament_create(by=arbiter, name="Server copy", official_start=date(2026, 1, 10),
                                        mode="server", time_zone="Europe/Moscow")
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/", {"pgn": text}, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris): white's [%ccleave] cannot be imported: a server tournament"
                                 " imports moves, penalties and delays (leave is booked by the player)"]
    without_leave = text.replace("{[%ccleave white 2026.02.15 2026.02.18]}\n", "")
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/", {"pgn": without_leave}, format="json")
    assert r.status_code == 400 and r.json()["errors"] == [
        "game 1 (anna - boris), white's [%ccvoid]: a server game has no void moves or notices (50.4.7: the server"
        " refuses an impossible move)"]
    assert target.games.count() == 0


def imported(api, arbiter, game, text: str):
    """``text`` imported into a new tournament with ``game``'s rules, mode, kind and zone: the one game made."""
    t = game.tournament
    target = services.tournament_create(by=arbiter, name="Copy", official_start=t.official_start, mode=t.mode,
                                        ruleset=t.ruleset.as_dict(), time_zone=t.time_zone, kind=t.kind,
                                        presumed_transit_days=t.presumed_transit_days if t.mode != "server" else None)
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/", {"pgn": text}, format="json")
    assert r.status_code == 201, r.json()
    (made,) = r.json()["games"]
    return type(game).objects.get(pk=made["id"])


@pytest.fixture
def email_game(api, arbiter, anna, boris, frozen):
    """By e-mail: a postal tournament that presumes no transit (PGN's Mode EM), Paris, 10 moves in 30 days."""
    t = services.tournament_create(by=arbiter, name="E-mail cup", official_start=date(2026, 1, 10), mode="postal",
                                   presumed_transit_days=0, time_zone="Europe/Paris")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)
    postal_moves(api, game, {"white": anna, "black": boris},
                 [("white", "d4", None, "2026-01-11"), ("black", "Nf6", "2026-01-11", "2026-01-14"),
                  ("white", "c4", "2026-01-15", "2026-01-20"), ("black", "e6", "2026-01-20", "2026-01-29")])
    return game


def test_email_pgn_computes_to_the_game_page(api, tmp_path, anna, email_game):
    text = export(api(anna), email_game, "pgn").content.decode()
    assert '[Mode "EM"]' in text
    page = api_clock(api, anna, email_game)
    players, warnings = clock_command(tmp_path, text, "pgn", preset="rus_50_4", zone="Europe/Paris",
                                      as_of=TODAY.isoformat())
    assert warnings == ""  # by e-mail the receipt is the day it was sent: nothing presumed, nothing missing
    assert_same_accounts(players, page["players"])


@pytest.fixture
def draughts_server(arbiter, anna, boris, frozen):
    """Russian draughts on the server under article 50.4 (dates), UTC."""
    t = services.tournament_create(by=arbiter, name="Шашки", official_start=date(2026, 2, 1), mode="server",
                                   kind="draughts")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)
    for user, number, notation, when in ((anna, 1, "c3-d4", at(2, 10)), (boris, 1, "f6-g5", at(5, 18)),
                                         (anna, 2, "g3-f4", at(9, 9))):
        services.move_submit(game=game, by=user, number=number, notation=notation, today=when.date(), now=when)
    return game


def test_russian_draughts_pdn_computes_to_the_game_page(api, tmp_path, anna, draughts_server):
    text = export(api(anna), draughts_server, "pdn").content.decode()
    assert '[GameType "25"]' in text and "[%ccsnt 2026.02.05]" in text
    page = api_clock(api, anna, draughts_server)
    players, warnings = clock_command(tmp_path, text, "pdn", preset="rus_50_4", zone="UTC", as_of=page["as_of"])
    assert warnings == ""
    assert_same_accounts(players, page["players"])


@pytest.fixture
def go_server(arbiter, anna, boris, frozen):
    """Go on the server in byo-yomi of days (DGS's: 30 days, then 5 periods of 1 day), Tokyo; black moves first."""
    t = services.tournament_create(by=arbiter, name="Go cup", official_start=date(2026, 1, 20), mode="server",
                                   kind="go", preset="dgs_byoyomi", time_zone="Asia/Tokyo")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, first="black", today=TODAY)
    for user, number, notation, when in ((boris, 1, "Q16", at(21, 1, 0, 1)), (anna, 1, "D4", at(30, 12, 0, 1)),
                                         (boris, 2, "pass", at(3, 3)), (anna, 2, "Q4", at(10, 22))):
        services.move_submit(game=game, by=user, number=number, notation=notation, today=when.date(), now=when)
    return game


def test_go_sgf_computes_to_the_game_page(api, tmp_path, anna, go_server):
    content = export(api(anna), go_server, "sgf").content
    assert b"[%ccsnt " in content
    page = api_clock(api, anna, go_server)
    players, warnings = clock_command(tmp_path, content.decode(), "sgf", preset="dgs_byoyomi", zone="Asia/Tokyo",
                                      as_of=page["as_of"])
    assert warnings == ""
    assert_same_accounts(players, page["players"])


def live_eventful(api, arbiter, anna, boris, clock, create_game, ruleset: dict, kind: str, moves: list) -> int:
    """A live game under ``ruleset`` (anna - boris) of ``moves`` (each the player, the notation, the seconds
    thought), with a lag reported on the second press, a pause of the arbiter's of 10 minutes after it, an
    arbiter's minute to black on resuming: the game's id, the clock 7 s into the next move."""
    from ..live.conftest import MIN, S, START_MS
    from .test_live_exports import press, tournament

    game_id = create_game(tournament(arbiter, ruleset, kind=kind))
    clock.advance_to(START_MS)
    users, made = {"white": anna, "black": boris}, {"white": 0, "black": 0}
    for index, (player, notation, seconds) in enumerate(moves):
        clock.advance(seconds * S)
        made[player] += 1
        press(api, users[player], game_id, made[player], notation, **({"lag_ms": 250} if index == 1 else {}))
        if index == 1:
            clock.advance(60 * S)
            assert api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "a phone rang"},
                                     format="json").status_code == 201
            clock.advance(10 * MIN)
            assert api(arbiter).post(f"/api/games/{game_id}/resume/", {}, format="json").status_code == 201
            r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                                  {"player": "black", "seconds": 60, "reason": "sanction against white"},
                                  format="json")
            assert r.status_code == 201, r.json()
    clock.advance(7 * S)
    return game_id


LIVE_CHESS = [("white", "e4", 10), ("black", "e5", 4), ("white", "Nf3", 95), ("black", "Nc6", 20)]
LIVE_DRAUGHTS = [("white", "c3-d4", 12), ("black", "f6-g5", 30), ("white", "g3-f4", 95)]
LIVE_GO = [("black", "Q16", 12), ("white", "D4", 30), ("black", "Q4", 95), ("white", "pass", 3)]


LIVE_EXCLUDED = {
    "now": "the command's instant in ISO 8601 beside now_ms (both compared with the API's now_ms)",
    "ledger": "the command's explanation of each event; the API gives the ledger as the CSV export",
    "server_ms": "the live object's instant of the answer: the clock's now_ms, compared",
    "version": "the service's count of stored events (for the page's pushes), no clock's",
    "starts_at_ms": "the service's scheduled start; the clock's started_at_ms is compared",
    "ended_at_ms": "the service's record of the end (the file's [%ccnow] is at or before it)",
    "case": "an arbiter's open case: a record, not a clock event",
    "player_stop": "a player's stop waiting for the arbiter's ruling: a record (the stop itself is [%ccstop])",
    "status": "the game's status: a record of the service", "result": "the game's result: PGN's Result tag",
    "termination": "the game's termination: words after the last move, PGN's Termination tag",
}
"""Fields of a live clock that the command and the API do not both hold, with the reason."""


def assert_same_live_clock(computed: dict, body: dict) -> None:
    """``computed`` (the command's ``--json`` of a live game) is the API's game (``GET /api/games/{id}/``): its
    ``clock`` (the engine's, every field) and its ``live`` object (the page's), every field both hold equal;
    what only one holds is in ``LIVE_EXCLUDED``."""
    clock, live = body["clock"], body["live"]
    assert computed["now"] == ms_instant(clock["now_ms"]) and live["server_ms"] == clock["now_ms"]
    assert set(computed) - {"now", "ledger"} == set(clock)  # the engine's clock, whole
    for answer in (clock, live):
        assert_same_accounts(computed["players"], answer["players"])
        shared = (set(computed) & set(answer)) - {"players"}
        assert {k: computed[k] for k in shared} == {k: answer[k] for k in shared}
    assert set(live) - set(computed) <= set(LIVE_EXCLUDED)
    assert {"running", "paused", "next_flag_at_ms", "illegal_counts", "late_arrival_deadline_ms"} <= set(live)


@pytest.mark.django_db(transaction=True)
def test_live_chess_game_file_computes_to_the_game_page(api, tmp_path, arbiter, anna, boris, clock, create_game):
    """Live chess (FIDE classical) with a lag, a pause and an arbiter's adjustment: the game file corr exports
    for ``manage.py clock`` (``GET /api/games/{id}/events/``) computes, at the page's instant, the page's
    clocks."""
    from corr.clock.presets import PRESETS

    game_id = live_eventful(api, arbiter, anna, boris, clock, create_game, PRESETS["fide_classical_live"],
                            "chess", LIVE_CHESS)
    page = api(anna).get(f"/api/games/{game_id}/").json()
    events = api(anna).get(f"/api/games/{game_id}/events/")
    assert events.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(events.content)
    out = StringIO()
    call_command("clock", str(path), "--json", stdout=out)
    computed = json.loads(out.getvalue())
    assert computed["now"] == "2026-03-01T12:13:16Z"  # the file's now: the instant the page was read
    assert_same_live_clock(computed, page)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("kind", "suffix", "preset", "moves"), [
    ("chess", "pgn", "fide_classical_live", LIVE_CHESS),
    ("draughts", "pdn", "draughts_live", LIVE_DRAUGHTS),
    ("go", "sgf", "go_byoyomi_live", LIVE_GO),
])
def test_a_live_game_s_export_computes_to_the_game_page(api, tmp_path, arbiter, anna, boris, clock, create_game,
                                                        kind, suffix, preset, moves):
    """A live game with a lag, a pause and an arbiter's adjustment: its PGN (PDN, SGF) read back by ``manage.py
    clock FILE --preset NAME_live`` gives, at the file's ``[%ccnow]``, the page's live clock, field by field."""
    from corr.clock.presets import PRESETS

    game_id = live_eventful(api, arbiter, anna, boris, clock, create_game, PRESETS[preset], kind, moves)
    page = api(anna).get(f"/api/games/{game_id}/").json()
    r = api(anna).get(f"/api/games/{game_id}/export/{suffix}/")
    assert r.status_code == 200
    text = r.content.decode().replace("\\]", "]")  # SGF escapes the ] of a value
    assert "[%ccpause 2026-03-01T12:01:" in text and "[%ccadjust black +60 2026-03-01T12:11:" in text
    assert "[%cclag 250]" in text and "[%ccbegin 2026-03-01T12:00:00.000Z]" in text
    path = tmp_path / f"game.{suffix}"
    path.write_bytes(r.content)
    out, err = StringIO(), StringIO()
    call_command("clock", str(path), "--preset", preset, "--json", stdout=out, stderr=err)
    assert err.getvalue() == ""
    assert_same_live_clock(json.loads(out.getvalue()), page)
    # The commands are what the command reads: without the adjustment's, black's clock is another.
    path.write_bytes(re.sub(rb"\[%ccadjust [^\]]*\\?\]", b"", r.content))
    out = StringIO()
    call_command("clock", str(path), "--preset", preset, "--json", stdout=out)
    without = json.loads(out.getvalue())["players"]
    assert without["black"]["remaining_ms"] != page["clock"]["players"]["black"]["remaining_ms"]
    assert without["white"] == page["clock"]["players"]["white"]
    assert page["clock"]["running"] == ("black" if moves[-1][0] == "white" else "white")


@needs_pgn_extract
@pytest.mark.django_db(transaction=True)
def test_a_live_pgn_rewritten_by_pgn_extract_and_read_by_python_chess_keeps_its_clock(
        api, tmp_path, arbiter, anna, boris, clock, create_game):
    """Other programs leave corr's live commands alone: pgn-extract reads the live PGN without a complaint and
    its copy (comments rewrapped) computes the same clock; python-chess reads every move and its ``[%clk]``."""
    from corr.clock.presets import PRESETS

    game_id = live_eventful(api, arbiter, anna, boris, clock, create_game, PRESETS["fide_classical_live"],
                            "chess", LIVE_CHESS)
    page = api(anna).get(f"/api/games/{game_id}/").json()
    content = api(anna).get(f"/api/games/{game_id}/export/pgn/").content
    game = chess.pgn.read_game(StringIO(content.decode()))
    assert game.errors == [] and [node.san() for node in game.mainline()] == ["e4", "e5", "Nf3", "Nc6"]
    assert [node.clock() for node in game.mainline()] == [5420, 5426.25, 5295, 5496.25]
    source, copy = tmp_path / "game.pgn", tmp_path / "copy.pgn"
    source.write_bytes(content)
    done = subprocess.run([PGN_EXTRACT, "-s", "-w", "60", "-o", str(copy), str(source)], capture_output=True,
                          text=True)
    assert (done.returncode, done.stderr) == (0, "")
    rewritten = copy.read_text()
    assert rewritten != content.decode() and "[%ccadjust black +60 2026-03-01T12:11:14.000Z]" in rewritten
    out = StringIO()
    call_command("clock", str(copy), "--preset", "fide_classical_live", "--json", stdout=out)
    assert_same_live_clock(json.loads(out.getvalue()), page)


@pytest.mark.parametrize(("change", "message"), [
    (("[%ccdelay white 3 2 late_repeat]", "[%ccdelay white 3 late_repeat]"),
     "game 1 (anna - boris), move 2... (black): [%ccdelay white 3 late_repeat] is not"
     " [%ccdelay PLAYER MOVE DAYS REASON]"),
    (("[%ccnotice black 2 impossible_move 2026.01.29", "[%ccnotice black 2 impossible_move 2026.01.32"),
     "game 1 (anna - boris), move 1... (black), [%ccnotice black 2 impossible_move 2026.01.32 2026.01.30]:"
     " '2026.01.32' is not a date (YYYY.MM.DD, YYYY.MM.DD,HH:MM or YYYY.MM.DD,HH:MM:SS)"),
    (("[%ccleave white 2026.02.15", "[%ccleave red 2026.02.15"),
     "game 1 (anna - boris), before the first move: [%ccleave red 2026.02.15 2026.02.18] is not"
     " [%ccleave PLAYER FROM TO]"),
])
def test_a_clock_fact_that_cannot_be_read_fails_the_command_naming_game_and_move(api, tmp_path, anna,
                                                                                 postal_eventful, change, message):
    from django.core.management.base import CommandError

    text = export(api(anna), postal_eventful, "pgn").content.decode()
    assert change[0] in text
    with pytest.raises(CommandError) as failed:
        clock_command(tmp_path, text.replace(*change), "pgn", preset="rus_50_4", zone="Europe/Moscow",
                      as_of=TODAY.isoformat())
    assert str(failed.value) == message


def export_text(api, user, game) -> str:
    return export(api(user), game, "pgn").content.decode()


def without_tags(text: str, *tags: str) -> str:
    """``text`` without the lines of ``tags`` (a copy's ``Event`` and ``Site`` name its own tournament and page)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(tuple(f"[{t} " for t in tags)))


def test_postal_pgn_imports_into_a_new_postal_tournament_with_the_same_clocks(api, arbiter, anna, boris,
                                                                              postal_eventful):
    """A void move, its notice, the penalty, a delay, special leave and the receipt of the move on turn: the copy's
    clocks are the game's, field by field, and its own export is the game's, but for its tournament and page."""
    elsewhere = services.tournament_create(by=arbiter, name="Other cup", official_start=date(2026, 1, 10),
                                           mode="postal", presumed_transit_days=4, time_zone="Europe/Moscow")
    other = services.game_create(by=arbiter, tournament=elsewhere, white=anna, black=boris, today=TODAY)
    other_before = api_clock(api, anna, other)
    text = export_text(api, anna, postal_eventful)
    assert "[%ccvoid white 2" in text and "[%ccleave white 2026.02.15 2026.02.18]" in text
    page = api_clock(api, anna, postal_eventful)
    copy = imported(api, arbiter, postal_eventful, text)
    assert api_clock(api, anna, copy)["players"] == page["players"]
    assert page["players"]["white"]["penalty_days"] == 5 and page["players"]["white"]["delay_days"] == 2
    assert without_tags(export_text(api, anna, copy), "Event", "Site") == without_tags(text, "Event", "Site")
    assert api_clock(api, anna, other) == other_before  # the copy's leave is its own: anna's other game keeps hers
    r = api(anna).get("/api/leaves/")
    (leave,) = [item for item in r.json()["leaves"] if item["tournament"] == copy.tournament_id]
    assert (leave["from"], leave["to"], leave["special"], leave["granted_by"]) == ("2026-02-15", "2026-02-18", True,
                                                                                  "arbiter")


@pytest.fixture
def email_eventful(api, arbiter, anna, boris, frozen):
    """``postal_eventful`` by e-mail (no transit presumed, Paris), black's notice of the start received late."""
    t = services.tournament_create(by=arbiter, name="E-mail events", official_start=date(2026, 1, 10), mode="postal",
                                   presumed_transit_days=0, time_zone="Europe/Paris")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)
    r = api(arbiter).post(f"/api/games/{game.pk}/start-notices/", {"player": "black", "received_on": "2026-01-11"},
                          format="json")
    assert r.status_code == 201, r.json()
    return eventful(api, arbiter, anna, boris, game)


def test_email_pgn_with_a_start_notice_and_leave_imports_into_a_new_email_tournament(api, tmp_path, arbiter, anna,
                                                                                     email_eventful):
    text = export_text(api, anna, email_eventful)
    assert '[Mode "EM"]' in text and "[%ccstart black 2026.01.11]" in text and "[%ccnotice black 2" in text
    page = api_clock(api, anna, email_eventful)
    players, warnings = clock_command(tmp_path, text, "pgn", preset="rus_50_4", zone="Europe/Paris",
                                      as_of=TODAY.isoformat())
    assert warnings == ""
    assert_same_accounts(players, page["players"])
    copy = imported(api, arbiter, email_eventful, text)
    assert api_clock(api, anna, copy)["players"] == page["players"]
    assert without_tags(export_text(api, anna, copy), "Event", "Site") == without_tags(text, "Event", "Site")


def test_an_email_game_without_events_imports_with_its_presumed_receipt(api, arbiter, anna, email_game):
    text = export_text(api, anna, email_game)
    page = api_clock(api, anna, email_game)
    copy = imported(api, arbiter, email_game, text)
    assert api_clock(api, anna, copy)["players"] == page["players"]
