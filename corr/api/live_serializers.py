"""Input shapes of the live game endpoints (issue 16); no logic beyond types (STYLE 5)."""

from __future__ import annotations

from rest_framework import serializers

from corr import limits as lim
from corr.live.services import LAG_MS_MAX
from corr.models import LIVE_TEXT_MAX, Colour

from .serializers import HistoryOut, StrictInput, move_field


def reason_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=LIVE_TEXT_MAX, **kwargs)


class LiveMoveInput(StrictInput):
    """POST /api/games/{id}/moves/ in a live game: the server stamps the press."""

    number = move_field()
    notation = serializers.CharField(max_length=lim.NOTATION_MAX, required=False, allow_blank=True, default="",
                                     help_text="SAN (chess) or c3-d4 (Russian draughts) is checked; blank: a"
                                               " press without the move written")
    lag_ms = serializers.IntegerField(min_value=0, max_value=LAG_MS_MAX, required=False, default=0,
                                      help_text="the time from the press of the button to the request leaving, as the"
                                                " client measured it; forgiven within lichess's quota")


class LivePauseInput(StrictInput):
    reason = reason_field(required=False, allow_blank=True, default="")


class LiveAdjustInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    seconds = serializers.DecimalField(max_digits=12, decimal_places=3, min_value=-86_400, max_value=86_400,
                                       help_text="+ adds time, - takes it (to the millisecond)")
    reason = reason_field(help_text="why: a sanction (003 17.4) or a correction (000 12.5, 001 1.7.8)")


class LiveIllegalInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices, help_text="who made the illegal move")
    reason = reason_field(required=False, allow_blank=True, default="")


class LiveStopInput(StrictInput):
    reason = reason_field(required=False, allow_blank=True, default="",
                          help_text="optional: what the player says (a call: why the arbiter is needed)")


class LiveRulingInput(StrictInput):
    ruling = serializers.ChoiceField(choices=["justified", "warning", "penalty", "draw", "resignation"],
                                     help_text="on a call: justified, warning or penalty; on a draw claimed by a"
                                               " stop: draw, resignation or warning; on a stop that resigned:"
                                               " warning (a misunderstanding: the game goes on)")
    seconds = serializers.DecimalField(max_digits=12, decimal_places=3, min_value=-86_400, max_value=86_400,
                                       required=False, allow_null=True, default=None,
                                       help_text="a penalty: negative taken from the caller (003 17.4 c), positive"
                                                 " given to the partner (17.4 b)")
    reason = reason_field(required=False, allow_blank=True, default="")


class LiveExcuseInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices, help_text="who arrived late and is excused")
    reason = reason_field(help_text="why the arbiter decides otherwise on the late arrival (002 6.6, 003 12.7)")


class LiveHistoryOut(HistoryOut):
    """A row of ``GET /api/games/{id}/history/``: a correspondence game's event, or a live game's with the server's
    instants (issue 42: the live rows' fields were not in the schema, and their ``received_at`` and ``sent_at``
    were missing)."""

    at_ms = serializers.IntegerField(required=False, help_text="live games: the server's instant of the event (ms"
                                                               " since the epoch)")
    lag_ms = serializers.IntegerField(required=False, help_text="live games: a move's lag as its client reported it")
    delta_ms = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="live games: an adjustment's time, + added, - taken")
    from_ms = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="live games: a gap's first instant (the last heartbeat)")
