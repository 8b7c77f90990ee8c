"""The live game endpoints (issue 16): thin views over ``corr.live.services``, and the dispatch of shared paths.

``GET /api/games/{id}/``, ``POST /api/games/``, ``…/moves/``, ``…/result/``, ``…/reopen/`` and
``…/history/`` keep their correspondence behaviour; for a live game they answer
from its live clock (the ``"live"`` object beside the existing fields).
``…/pause/``, ``…/resume/``, ``…/time-adjustments/``, ``…/illegal-moves/`` and
``…/late-arrival-excuses/`` and ``…/live/ruling/`` are arbiters' only; ``…/live/stop/`` and
``…/live/call-arbiter/`` its players' only (issue 24). Every request to a live game first records any flag
due at its instant (the check on every incoming request).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from corr.games.errors import InvalidInput, NotAllowed
from corr.games.permissions import can_arbitrate
from corr.live import services as live, stops, timesource
from corr.live.state import clock_at, live_state, payload_of
from corr.models import Game, LiveGame, Mode, Tournament

from . import live_serializers as ls
from . import serializers as s
from . import views
from .idempotency import idempotent


def live_body(game: Game, now_ms: int | None = None) -> dict:
    """A live game as the API shows it: the summary, the engine's clock JSON, and the ``"live"`` object.

    ``now_ms`` None: the server's instant read after the game's events, so that none of them is later
    (a press recorded by another request meanwhile, issue 23).
    """
    # The game, its live row and its events read at one moment, in one round trip (issue 42).
    fresh, state, rows = live_state(game.pk)
    if state is None:
        raise LiveGame.DoesNotExist(f"game {game.pk} has no live clock")
    now_ms = timesource.now_ms() if now_ms is None else now_ms
    clock = clock_at(fresh, state, rows, now_ms)
    body = s.game_summary_named(fresh, white=game.white.username, black=game.black.username)
    body["to_move"] = clock.to_move
    body["pending"] = None
    body["clock"] = clock.as_json()
    body["live"] = payload_of(fresh, state, clock, now_ms, rows)
    return body


def written_body(game: Game) -> dict | None:
    """The body of ``live_body`` for a game a write has just left (``live.payload`` and ``live.written_clock``,
    :func:`corr.live.write.finish_write`), from the write's own clock: nothing computed or read twice but the
    players' names. None when the write left no clock (a game ended before its instant: read again)."""
    state = game.live
    clock, payload = getattr(state, "written_clock", None), getattr(state, "payload", None)
    if clock is None or payload is None:
        return None
    names = dict(User.objects.filter(pk__in=(game.white_id, game.black_id)).values_list("pk", "username"))
    body = s.game_summary_named(game, white=names[game.white_id], black=names[game.black_id])
    body["to_move"] = clock.to_move
    body["pending"] = None
    body["clock"] = clock.as_json()
    body["live"] = payload
    return body


def _is_live(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id, mode=Mode.LIVE).exists()


def _answer(request, game_id: int, code: int = status.HTTP_201_CREATED) -> Response:
    """The game as it is now. The services read their instant once they hold the game's lock (issue 23:
    one read before waiting on it was earlier than the press that held it), so no view reads one first."""
    game = views._game(request, game_id)
    return Response(live_body(game), status=code)


def _live_act(request, game_id: int, serializer, service) -> Response:
    """One act on a live game that the caller may read: ``serializer`` validates the body, ``service`` (keyword
    arguments ``game_id``, ``by`` and the body's fields) acts, and the answer is the game as GET shows it (201)."""
    views._game(request, game_id)
    data = s.validated(serializer, request.data)
    service(game_id=game_id, by=request.user, **data)
    return _answer(request, game_id)


class GamesView(views.GamesView):
    """POST /api/games/ in a live tournament creates a live game (``starts_at`` required); elsewhere a
    correspondence game (``starts_at`` only for a server game counted in instants: issue 39)."""

    @extend_schema(request=s.GameCreate, responses={201: s.GameOut})
    def post(self, request):
        data = request.data if isinstance(request.data, Mapping) else {}
        if _live_tournament(data.get("tournament")):
            return self.live_post(request)
        return super().post(request)

    @idempotent
    def live_post(self, request):
        if not request.user.is_arbiter:
            raise NotAllowed(_("only the tournament's arbiters create its games"))
        data = s.validated(s.GameCreate, request.data)
        tournament = Tournament.objects.filter(pk=data["tournament"]).first()
        if tournament is None:
            raise InvalidInput(_("no tournament %(id)s"), field="tournament", id=data["tournament"])
        if not can_arbitrate(request.user, tournament):
            raise NotAllowed(_("only the tournament's arbiters create its games"))
        if tournament.mode != Mode.LIVE or data.get("mode", Mode.LIVE) != Mode.LIVE:
            raise InvalidInput(_("starts_at is for the games of live tournaments"), field="starts_at")
        if "starts_at" not in data:
            raise InvalidInput(_("a live game needs starts_at, the instant its clock starts"), field="starts_at")
        players = {u.username: u for u in User.objects.filter(username__in=[data["white"], data["black"]])}
        for colour in ("white", "black"):
            if data[colour] not in players:
                raise InvalidInput(_("no user %(name)s"), field=colour, name=repr(data[colour]))
        now = timesource.now_ms()
        game = live.live_game_create(by=request.user, tournament=tournament, white=players[data["white"]],
                                     black=players[data["black"]], kind=data.get("kind", ""),
                                     starts_at_ms=round(data["starts_at"].timestamp() * 1000), now_ms=now,
                                     handicap_stones=data.get("handicap_stones", 0))
        return Response(live_body(game, now), status=status.HTTP_201_CREATED)


def _live_tournament(value) -> bool:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return False
    return 0 < pk <= 2**31 - 1 and Tournament.objects.filter(pk=pk, mode=Mode.LIVE).exists()


class GameView(views.GameView):
    """GET /api/games/{id}/: a live game's clocks as of the server's instant, flags due recorded first."""

    def live_get(self, request, game):
        # The base view read the game and checked permission first: a stranger triggers nothing.
        live.live_check(game_id=game.pk, taking_moves=True)
        return _answer(request, game.pk, status.HTTP_200_OK)


class MovesView(views.MovesView):
    """POST /api/games/{id}/moves/ {"number", "notation", "lag_ms"} in a live game: the press of the player to move."""

    # The base view's post locks and reads the game once, checks that the caller may see it, and hands a live
    # game here: a correspondence move pays no statement to ask whether its game is live (issue 13). The answer
    # is the press's own clock and payload (issue 42: not the game and its events read again).
    def live_move(self, request, game_id: int):
        data = s.validated(ls.LiveMoveInput, request.data)
        game = live.live_move(game_id=game_id, by=request.user, **data)
        body = written_body(game)
        if body is None:
            return _answer(request, game_id)
        return Response(body, status=status.HTTP_201_CREATED)


class ResultView(views.ResultView):
    """POST /api/games/{id}/result/ in a live game: the arbiter's result stops the clocks."""

    @extend_schema(request=s.ResultInput, responses={201: s.GameOut})
    def post(self, request, game_id: int):
        if not _is_live(game_id):
            return super().post(request, game_id)
        return self.live_post(request, game_id)

    @idempotent
    def live_post(self, request, game_id: int):
        return _live_act(request, game_id, s.ResultInput, live.live_result)


class ReopenView(views.ReopenView):
    """POST /api/games/{id}/reopen/ {"note"} in a live game: the arbiter sets the finished game back to ongoing,
    its clocks standing until the arbiter resumes them."""

    @extend_schema(request=s.ReopenInput, responses={201: s.GameOut})
    def post(self, request, game_id: int):
        if not _is_live(game_id):
            return super().post(request, game_id)
        return self.live_post(request, game_id)

    @idempotent
    def live_post(self, request, game_id: int):
        return _live_act(request, game_id, s.LiveReopenInput, live.live_reopen)


class GameHistoryView(views.GameHistoryView):
    """GET /api/games/{id}/history/: a live game's events, each with the server's instant (``at_ms``)."""

    @extend_schema(responses=ls.LiveHistoryOut(many=True))
    def get(self, request, game_id: int):
        if not _is_live(game_id):
            return super().get(request, game_id)
        game = views._game(request, game_id)
        rows = game.live_events.select_related("entered_by").order_by("seq")
        return Response([{
            "seq": r.seq, "kind": r.kind, "player": r.player, "number": r.number, "notation": r.notation,
            "received_on": None, "sent_on": None, "received_at": None, "sent_at": None,
            "void": False, "variant": "", "mail": "", "reason": r.reason,
            "days": None, "note": "", "supersedes": None,
            "entered_by": r.entered_by.username if r.entered_by else None, "entered_at": r.entered_at.isoformat(),
            "at_ms": r.at_ms, "lag_ms": r.lag_ms, "delta_ms": r.delta_ms, "from_ms": r.from_ms,
        } for r in rows])


class _ArbiterAction(APIView):
    """A POST on a live game by an arbiter (or a player: their stop and their call of the arbiter): one service,
    which checks who may, answered 201 with the game and its clocks."""

    input = None
    service = None

    @idempotent
    def post(self, request, game_id: int):
        game = views._game(request, game_id)
        if game.mode != Mode.LIVE:  # the permission's read tells it: no second query
            raise InvalidInput(_("game %(id)s is not a live game"), field=None, id=game_id)
        data = s.validated(self.input, request.data)
        type(self).service(game_id=game_id, by=request.user, **data)
        return _answer(request, game_id)


def _arbiter_view(name: str, input_class, service, doc: str) -> type[_ArbiterAction]:
    @extend_schema(request=input_class, responses={201: s.GameOut})
    class View(_ArbiterAction):
        pass

    View.__name__ = View.__qualname__ = name
    View.__doc__ = doc
    View.input, View.service = input_class, staticmethod(service)
    return View


PauseView = _arbiter_view("PauseView", ls.LivePauseInput, live.live_pause,
                          "POST /api/games/{id}/pause/ {\"reason\"}: the arbiter stops both clocks (002 6.12).")
ResumeView = _arbiter_view("ResumeView", ls.LivePauseInput, live.live_resume,
                           "POST /api/games/{id}/resume/ {\"reason\"}: the arbiter restarts them (002 6.13).")
TimeAdjustmentsView = _arbiter_view(
    "TimeAdjustmentsView", ls.LiveAdjustInput, live.live_adjust,
    "POST /api/games/{id}/time-adjustments/ {\"player\", \"seconds\", \"reason\"}: a sanction (003 17.4) or a"
    " correction (000 12.5, 001 1.7.8: never under 15 minutes to the control when it shortens a clock).")
IllegalMovesView = _arbiter_view(
    "IllegalMovesView", ls.LiveIllegalInput, live.live_illegal,
    "POST /api/games/{id}/illegal-moves/ {\"player\"}: 2 minutes to the opponent, the third loses (003 13.4).")
StopView = _arbiter_view(
    "StopView", ls.LiveStopInput, stops.live_stop,
    "POST /api/games/{id}/live/stop/ {\"reason\"}: a player stops both clocks, which is resignation (000 12.11,"
    " 001 1.7.11) unless the arbiter rules it a misunderstanding (a warning, the game goes on); with the ruleset's"
    " stop_claims_draw, a draw claim for the arbiter to confirm (000 12.11, 001 1.7.13). Players only.")
CallArbiterView = _arbiter_view(
    "CallArbiterView", ls.LiveStopInput, stops.live_call_arbiter,
    "POST /api/games/{id}/live/call-arbiter/ {\"reason\"}: a player stops both clocks to call the arbiter"
    " (002 6.12 b, 003 12.13); the arbiter rules (justified, a warning, a penalty of time) and the clocks restart."
    " Players only.")
RulingView = _arbiter_view(
    "RulingView", ls.LiveRulingInput, stops.live_ruling,
    "POST /api/games/{id}/live/ruling/ {\"ruling\", \"seconds\", \"reason\"}: the arbiter rules on a player's"
    " pending stop or call (the live object's player_stop lists the rulings it allows); 409 when none is pending.")
LateArrivalExcusesView = _arbiter_view(
    "LateArrivalExcusesView", ls.LiveExcuseInput, live.live_excuse,
    "POST /api/games/{id}/late-arrival-excuses/ {\"player\", \"reason\"}: the arbiter decides otherwise on a late"
    " arrival (002 6.6, 003 12.7): the game that player's late-arrival forfeit ended is reopened, the result kept"
    " in the history, and the clocks run on; 409 when there is no such forfeit.")
