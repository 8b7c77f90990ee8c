"""``GET /api/games/{id}/plan/?think_days=N&post_days=T`` (issue 41): planning ahead for the player on move.

The answer is ``corr.games.plan_selectors``'s: the latest moments to send the pending move (``latest_send``, as
``GET /api/games/{id}/`` gives it) and, if every further move took ``think_days`` from its receipt and the post
``post_days`` to carry it, when each player's next controls would end (``control_ends``). Whoever may read the
game may ask; nothing is stored.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from corr import limits as lim
from corr.games.clockstate import clock_as_of
from corr.games.errors import InvalidInput
from corr.games.plan_selectors import game_control_ends, game_latest_send
from corr.games.planning import THINK_DAYS_MAX
from corr.games.selectors import game_time_get
from corr.models import Mode

from . import views

class PlanQuery(serializers.Serializer):
    think_days = serializers.IntegerField(min_value=0, max_value=THINK_DAYS_MAX, help_text=(
        "the days every further move takes from its receipt to its sending (the pending one: from its receipt,"
        " never before today)"))
    post_days = serializers.IntegerField(required=False, min_value=0, max_value=lim.PRESUMED_TRANSIT_DAYS_MAX,
                                         help_text="the days the post takes to carry each move (default: the"
                                                   " tournament's presumed transit days; 0 in a server game)")


class LatestSendOut(serializers.Serializer):
    out_of_time_trouble = serializers.CharField(allow_null=True, help_text=(
        "the latest day (an instant, RFC 3339, under an instant count) to send that leaves more than the"
        " time-trouble days (50.4.12: registered mail); null: none from today"))
    in_time = serializers.CharField(allow_null=True, help_text=(
        "the latest day (or instant) to send that keeps the player in the control (50.4.3); null: none"))


class ControlEndOut(serializers.Serializer):
    player = serializers.CharField()
    control = serializers.IntegerField()
    through_move = serializers.IntegerField(help_text="the move that ends the control")
    sent = serializers.CharField(help_text="the day (or instant) that move would be sent")
    in_time = serializers.BooleanField(help_text="the player would be in time then (no overstep, 50.4.3)")


class PlanOut(serializers.Serializer):
    think_days = serializers.IntegerField()
    post_days = serializers.IntegerField()
    latest_send = serializers.DictField(child=LatestSendOut(), help_text="by colour: the player on move only")
    control_ends = ControlEndOut(many=True)


def plan_query(game, params) -> tuple[int, int]:
    """``(think_days, post_days)`` of a plan's query. :raises ValidationError: naming the field."""
    query = PlanQuery(data=params)
    query.is_valid(raise_exception=True)
    post = query.validated_data.get("post_days")
    if post is None:
        post = game.tournament.presumed_transit_days if game.mode == Mode.POSTAL else 0
    return query.validated_data["think_days"], post


class PlanView(APIView):
    """GET /api/games/{id}/plan/?think_days=N&post_days=T: the latest days to send, and when controls would end."""

    @extend_schema(parameters=[PlanQuery], responses={200: PlanOut})
    def get(self, request, game_id: int):
        game = views._game(request, game_id)
        if game.mode == Mode.LIVE:
            raise InvalidInput(_("a live game's clocks are read through the live service"), field="game")
        think, post = plan_query(game, request.query_params)
        now = timezone.now()
        time, _rows = game_time_get(game=game, as_of=clock_as_of(game, now))
        return Response({
            "think_days": think, "post_days": post,
            "latest_send": {c: v.as_json() for c, v in game_latest_send(game=game, time=time, now=now).items()},
            "control_ends": [row.as_json() for row in game_control_ends(
                game=game, time=time, now=now, think_days=think, post_days=post)],
        })
