"""MakeAMove's rarer answers through the HTTP stack (issue 26): LostOnTime (to the loser only), YouAreOnLeave,
ServerError, and the games XFCC does not play (postal, draughts, Go, black first) as InvalidGameID."""

from __future__ import annotations

from ..support.legal_moves import store_unchecked

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine

from accounts.xfcc import xfcc_password_issue
from corr.games import services
from corr.games.services.leave import leave_book
from corr.models import GameEvent
from corr.timeouts.services import flag_record

from ..conftest import NOW, TODAY
from ..server_instants.conftest import BLACK_FLAG, WHITE_SENT, game_of, instant_tournament, move_at
from .conftest import envelope, move_params
from .test_xfcc_soap import result, soap

pytestmark = pytest.mark.django_db
UTC = timezone.utc


def make_a_move(user: str, password: str, game_id: int, number: int, notation: str, at: datetime) -> str:
    with time_machine.travel(at, tick=False):
        return result(soap(envelope("MakeAMove", move_params(user, password, game_id, number, notation))))


@pytest.fixture
def secrets(anna, boris):
    return {"anna": xfcc_password_issue(user=anna, now=NOW), "boris": xfcc_password_issue(user=boris, now=NOW)}


def test_a_flag_recorded_automatically_answers_lost_on_time_to_the_loser_only(arbiter, anna, boris, api, secrets):
    game = game_of(arbiter, instant_tournament(arbiter, timeouts="automatic"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    with time_machine.travel(BLACK_FLAG, tick=False):
        assert flag_record(game_id=game.pk, now=BLACK_FLAG) is True
    later = BLACK_FLAG + timedelta(minutes=5)
    before = GameEvent.objects.count()
    assert make_a_move("boris", secrets["boris"], game.pk, 1, "e5", later) == "LostOnTime"
    # The winner is not told that they lost: the game is over, nobody is to move.
    assert make_a_move("anna", secrets["anna"], game.pk, 2, "d4", later) == "NotYourTurn"
    assert GameEvent.objects.count() == before


def test_a_move_after_the_flag_under_automatic_timeouts_is_lost_on_time(arbiter, anna, boris, api, secrets):
    # Nobody has recorded the flag yet (no worker ran): the move itself finds it fallen.
    game = game_of(arbiter, instant_tournament(arbiter, timeouts="automatic"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    assert make_a_move("boris", secrets["boris"], game.pk, 1, "e5", BLACK_FLAG + timedelta(seconds=1)) \
        == "LostOnTime"
    assert not GameEvent.objects.filter(game=game, kind="move", player="black").exists()


def test_a_move_on_a_leave_day_where_the_tournament_refuses_them_is_you_are_on_leave(arbiter, anna, boris, secrets):
    tournament = services.tournament_create(by=arbiter, name="ICCF-like", official_start=date(2026, 1, 10),
                                            mode="server", ruleset={"move_on_leave": "refused"}, leave_days=30)
    with time_machine.travel(NOW, tick=False):
        game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
        leave_book(by=anna, first=date(2026, 3, 5), last=date(2026, 3, 12), now=NOW)
    on_leave = datetime(2026, 3, 6, 12, tzinfo=UTC)
    assert make_a_move("anna", secrets["anna"], game.pk, 1, "e4", on_leave) == "YouAreOnLeave"
    assert not GameEvent.objects.filter(game=game, kind="move").exists()
    assert make_a_move("anna", secrets["anna"], game.pk, 1, "e4", datetime(2026, 3, 13, 12, tzinfo=UTC)) \
        == "Success"


def test_a_game_whose_stored_moves_are_no_chess_takes_moves_as_written_not_a_server_error(server_game, anna, boris,
                                                                                        secrets, frozen):
    # A server game stored before issue 36 may hold a move that is no legal SAN: XFCC answers it as the API does
    # (the move recorded as written, until an arbiter corrects the unreadable one), never ServerError.
    services.move_submit(game=server_game, by=anna, number=1, notation="e4", today=TODAY)
    store_unchecked(server_game, boris, "black", 1, "Qh9")
    before = GameEvent.objects.count()
    assert make_a_move("anna", secrets["anna"], server_game.pk, 2, "d4", NOW) == "Success"
    assert GameEvent.objects.count() == before + 1
    assert GameEvent.objects.filter(game=server_game, kind="move").last().notation == "d4"


@pytest.mark.parametrize("kind, first, mode", [("draughts", "white", "server"), ("go", "black", "server"),
                                               ("chess", "black", "server"), ("chess", "white", "postal")])
def test_games_xfcc_does_not_play_are_invalid_game_ids_and_not_listed(arbiter, anna, boris, secrets, kind, first,
                                                                     mode):
    tournament = services.tournament_create(by=arbiter, name=f"{kind} {mode}", official_start=date(2026, 1, 10),
                                            mode=mode, kind=kind)
    with time_machine.travel(NOW, tick=False):
        game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY,
                                    first=first)
        listed = soap(envelope("GetMyGames", {"username": "anna", "password": secrets["anna"]})).content.decode()
    assert "<XfccGame>" not in listed
    mover = ("anna", "e4") if first == "white" else ("boris", "e5")
    user, notation = mover
    assert make_a_move(user, secrets[user], game.pk, 1, notation, NOW) == "InvalidGameID"
    assert not GameEvent.objects.filter(game=game, kind="move").exists()
