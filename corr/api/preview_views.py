"""``POST /api/games/{id}/preview/`` (issue 41): the game as it would be after some events, nothing stored.

Each event is read by its own endpoint's input (``MoveInput``, ``PenaltyInput`` ...) and run by its own
endpoint's service (``corr.games.services.preview``), so a preview is refused where the act would be, with
the act's status and body (a player previewing an arbiter's penalty: 403).

``POST /api/leaves/preview/`` {"from", "to"}: the booking ``POST /api/leaves/`` would make, previewed across
every ongoing game of the player (``corr.games.services.leave_preview``): game by game, each player's deadline
before and after, whether it moves, and the changes worded.
"""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from corr.games import services
from corr.games.draws import draw_offer_json
from corr.games.errors import InvalidInput
from corr.games.clockstate import clock_as_of
from corr.games.leaves import leave_forget
from corr.games.selectors import game_rows, game_time_get
from corr.games.services.leave import leave_book
from corr.games.services.leave_preview import leave_preview
from corr.games.services.preview import game_preview
from corr.models import Mode
from corr.web.whatif_text import changes_text, moment_json

from . import serializers as s
from . import views
from .errors import answer_language
from .move_input import move_input


def _move(user, game, data, today):
    return services.move_submit(game=game, by=user, today=today, **data)


def _leave(user, game, data, today):
    """The booking ``POST /api/leaves/`` makes (every game of the player it stops), then this game's time."""
    now = timezone.now()
    leave_book(by=user, first=data["from"], last=data["to"], now=now)
    leave_forget(game)  # read the booking's leave anew
    return game_time_get(game=game, as_of=clock_as_of(game, now))[0]


# kind: (how its fields are read, the service its endpoint runs)
ACTS = {
    "move": (move_input, _move),
    "receipt": (lambda d: s.validated(s.ReceiptInput, d), views.ReceiptsView.call),
    "notice": (lambda d: s.validated(s.NoticeInput, d), views.NoticesView.call),
    "penalty": (lambda d: s.validated(s.PenaltyInput, d), views.PenaltiesView.call),
    "delay": (lambda d: s.validated(s.DelayInput, d), views.DelaysView.call),
    "credit": (lambda d: s.validated(s.CreditInput, d), views.CreditsView.call),
    "leave": (lambda d: s.validated(s.LeaveInput, d), _leave),
    "result": (lambda d: s.validated(s.ResultInput, d), views.ResultView.call),
}
assert tuple(ACTS) == s.PREVIEW_KINDS


def _act(user, today, event: dict):
    """The act of one event: its fields read as its endpoint reads them (400 as that endpoint's)."""
    fields = dict(event)
    kind = fields.pop("kind", None)
    if not isinstance(kind, str) or kind not in ACTS:
        raise InvalidInput(_("kind must be one of %(allowed)s, got %(value)s"), field="kind",
                           allowed=", ".join(ACTS), value=repr(kind))
    read, call = ACTS[kind]
    data = read(fields)
    return kind, lambda game: call(user, game, dict(data), today)


class PreviewView(APIView):
    """POST /api/games/{id}/preview/ {"events": [...]}: 200 with the game as it would be and ``changes``.

    Nothing is stored, e-mailed or queued; each event is checked and computed by its own endpoint's service,
    with that endpoint's permissions and refusals.
    """

    @extend_schema(request=s.PreviewInput, responses={200: s.PreviewOut})
    def post(self, request, game_id: int):
        game = views._game(request, game_id)
        if game.mode == Mode.LIVE:
            raise InvalidInput(_("a live game's clocks are read through the live service"), field="game")
        data = s.validated(s.PreviewInput, request.data)
        today = views._today(game)
        acts = [_act(request.user, today, event) for event in data["events"]]
        preview = game_preview(game=game, acts=[act for _kind, act in acts], now=timezone.now())
        # A move lapses a standing draw offer (its answer has none); any other act leaves it.
        offer = (draw_offer_json(game_rows(game=game)) if game.mode == Mode.SERVER and acts[-1][0] != "move"
                 else None)
        with translation.override(answer_language(request)):
            body = views.game_body(game, preview.time, preview.warnings, draw_offer=offer)
            body["changes"] = changes_text(preview.changes, zone=game.tournament.time_zone,
                                           by_post=game.mode == Mode.POSTAL)
        return Response(body)


class DeadlineMoveOut(serializers.Serializer):
    player = serializers.CharField()
    before = serializers.CharField(allow_null=True, help_text="the deadline now: a date, or an instant (RFC 3339)")
    after = serializers.CharField(allow_null=True, help_text="the deadline after the booking")
    moves = serializers.BooleanField()


class GameLeavePreviewOut(serializers.Serializer):
    game = serializers.IntegerField()
    tournament_name = serializers.CharField()
    colour = serializers.CharField(help_text="the booking player's colour in the game")
    opponent = serializers.CharField()
    stops = serializers.BooleanField(help_text="the booking stops this game's clocks (its tournament allows leave)")
    deadlines = DeadlineMoveOut(many=True)
    changes = serializers.ListField(child=serializers.CharField())


class LeavePreviewOut(serializers.Serializer):
    games = GameLeavePreviewOut(many=True)


def leave_preview_json(rows) -> dict:
    """The leave preview's answer (``LeavePreviewOut``), worded in the active language."""
    return {"games": [{
        "game": row.game.pk, "tournament_name": row.game.tournament.name, "colour": row.colour,
        "opponent": (row.game.black if row.colour == "white" else row.game.white).username, "stops": row.stops,
        "deadlines": [{"player": d.player, "before": moment_json(d.before), "after": moment_json(d.after),
                       "moves": d.moves} for d in row.deadlines],
        "changes": changes_text(row.changes, zone=row.game.tournament.time_zone,
                                by_post=row.game.mode == Mode.POSTAL),
    } for row in rows]}


class LeavePreviewView(APIView):
    """POST /api/leaves/preview/ {"from", "to"}: what booking this leave would do to every ongoing game of the
    caller, game by game (the deadlines it moves and those it does not); nothing is stored or e-mailed.

    Refused as ``POST /api/leaves/`` refuses the booking (400 naming the rule broken).
    """

    @extend_schema(request=s.LeaveInput, responses={200: LeavePreviewOut})
    def post(self, request):
        data = s.validated(s.LeaveInput, request.data)
        rows = leave_preview(by=request.user, first=data["from"], last=data["to"], now=timezone.now())
        with translation.override(answer_language(request)):
            return Response(leave_preview_json(rows))
