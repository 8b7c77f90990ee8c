"""The game page's planning ahead (issue 41): the latest days to send beside the deadline, and the table of
"if every further move takes N days (and the post T days)", the controls' ends.

The answers are ``corr.games.plan_selectors``'s (the API's ``latest_send`` and ``/plan/``); this module words
them and reads the table's small form (GET ``think_days``, ``post_days`` on the game page).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from corr.games.plan_selectors import game_control_ends, game_latest_send
from corr.games.planning import THINK_DAYS_MAX
from corr.limits import PRESUMED_TRANSIT_DAYS_MAX
from corr.models import GameStatus, Mode
from corr.rulebooks import cited

from .describe import deadline_text
from .forms import PageForm
from .whatif_text import moment_json


class PlanForm(PageForm):
    """The table's question: the days every further move takes, and the days in the post."""

    name = "plan"
    think_days = forms.IntegerField(label=gettext_lazy("Days each move takes"), min_value=0, max_value=THINK_DAYS_MAX)
    post_days = forms.IntegerField(label=gettext_lazy("Days in the post"), min_value=0,
                                   max_value=PRESUMED_TRANSIT_DAYS_MAX, required=False)


def _when(moment, zone: str) -> str:
    """The latest moment to send, worded as the deadline is: a day, or "send before" the next second."""
    if isinstance(moment, datetime):
        return deadline_text(at=moment + timedelta(seconds=1), zone=zone)
    return _("send by %(day)s") % {"day": deadline_text(day=moment)}


def latest_send_lines(latest, *, by_post: bool, zone: str) -> list[str]:
    """The planning lines of one player's ``LatestSend``: out of time trouble, then in time (none when None)."""
    lines = []
    if latest.out_of_time_trouble is not None:
        when = _when(latest.out_of_time_trouble, zone)
        lines.append(cited(_("%(when)s to stay out of time trouble (registered mail, 50.4.12)") % {"when": when})
                     if by_post else _("%(when)s to stay out of time trouble") % {"when": when})
    if latest.in_time is not None:
        lines.append(_("%(when)s to stay in time") % {"when": _when(latest.in_time, zone)})
    return lines


def plan_context(request, game, time, *, zone: str) -> dict:
    """The game page's planning: ``latest_send_rows`` (per player on move, its lines), ``plan_form`` and, once
    asked, ``plan_rows`` (the controls' ends: ``end``, ``sent`` worded, ``iso`` as the API writes it)."""
    if game.status != GameStatus.ONGOING or game.mode == Mode.LIVE:
        return {"latest_send_rows": [], "plan_form": None, "plan_rows": None}
    now = timezone.now()
    by_post = game.mode == Mode.POSTAL
    latest = game_latest_send(game=game, time=time, now=now)
    rows = [{"player": player, "lines": latest_send_lines(value, by_post=by_post, zone=zone)}
            for player, value in latest.items()]
    asked = "think_days" in request.GET
    default_post = game.tournament.presumed_transit_days if by_post else 0
    form = PlanForm(request.GET if asked else None, initial={"think_days": 3, "post_days": default_post})
    if not by_post:
        del form.fields["post_days"]
    plan_rows = None
    if asked and form.is_valid():
        post = form.cleaned_data.get("post_days")
        ends = game_control_ends(game=game, time=time, now=now, think_days=form.cleaned_data["think_days"],
                                 post_days=default_post if post is None else post)
        # ``iso``: the day (instant) as the API's ``/plan/`` writes it, for the cell's <time datetime>.
        plan_rows = [{"end": end, "iso": moment_json(end.sent),
                      "sent": _when(end.sent, zone) if isinstance(end.sent, datetime) else deadline_text(day=end.sent)}
                     for end in ends]
    return {"latest_send_rows": rows, "plan_form": form, "plan_rows": plan_rows}
