"""ICCF's silence (issue 40): reminders to the player on move after days without a move.

ICCF's webserver reminds a player by e-mail after 14 and 28 days without a move, and a final time after 35
(ICCF Webserver guide 7.1 "Reminders"); a game may be scored lost after 40 days without a move unless the player
told the tournament director and the opponent that the move will take longer (Playing Rules 3b; the "Use 40+
days" notice, ``corr.games.services.long_move``). ICCF sends the reminders to the silent player only, and so does
corr. They concern the server games whose time control sets a limit for one move (``max_per_move``: ICCF's 40
days, FICGS's 60), at the days of ``SILENCE_REMINDER_DAYS`` (14, 28, 35).

The silence of a move runs from the instant the partner's move reached the player (the game's clock start for
the first move), in whole 24-hour days under an instant count and in calendar days of the tournament's zone
under ``dates``. Each reminder is a notice keyed by the game, the player, the move awaited and the day, so the
beat's sweeps and their redeliveries send it once; a sweep that comes late sends the latest day passed only.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from corr.games.clockstate import clock_as_of, silent_days
from corr.games.selectors import game_time_get
from corr.models import EventKind, Game, GameEvent, GameStatus, Mode

from . import compose
from .compose import in_language
from .kinds import Kind
from .models import Notice
from .pace import notice_send_alone
from .preferences import choices_of

def silence_limit_days(game: Game) -> int | None:
    """The tournament's limit for one move (``max_per_move``, ICCF's 40 days); None: no silence rule."""
    return (game.tournament.time_control or {}).get("max_per_move")


SWEEP_GAMES_MAX = 2000
"""The most games one sweep looks at (``silence_reminders_due``'s ``limit``); the games already reminded for
their latest day passed are not among them, so a sweep's page always holds the games still owed a reminder."""


def silence_candidates(*, now: datetime, days: list[int], limit: int) -> list[Game]:
    """Ongoing server games with a silence limit, silent since their last move (or creation) for at least
    ``days[0]`` days, and not yet reminded for the latest day of ``days`` passed since then: a silence reminder
    stored at or after that day's instant (a reminder is sent once for its day, so a game served drops out and
    the cut at ``limit``, in id order, never starves the games beyond it: issue 40 review).

    The last move's instant is the query's reading of the silence; the player's own (``pending.received_on``)
    is checked per game, and is never earlier, so no game owed a reminder is left out."""
    days = sorted(days)
    last_move = (GameEvent.objects.filter(game=OuterRef("pk"), kind=EventKind.MOVE).order_by("-entered_at")
                 .values("entered_at")[:1])
    last_notice = (Notice.objects.filter(game=OuterRef("pk"), kind=Kind.SILENCE).order_by("-created_at")
                   .values("created_at")[:1])
    games = (Game.objects.filter(status=GameStatus.ONGOING, mode=Mode.SERVER,
                                 tournament__time_control__has_key="max_per_move")
             .annotate(silent_since=Coalesce(Subquery(last_move), F("created_at")),
                       last_reminder=Subquery(last_notice))
             .filter(silent_since__lte=now - timedelta(days=days[0])))
    served = Q()
    for i, day in enumerate(days):
        # Silent for ``day`` days and reminded since that day's instant; within a day of the next reminder day the
        # game stays in (the player's own count, in calendar days under ``dates``, may be a day ahead of this one).
        window = Q(silent_since__lte=now - timedelta(days=day), last_reminder__isnull=False,
                   last_reminder__gte=F("silent_since") + timedelta(days=day))
        if i + 1 < len(days):
            window &= Q(silent_since__gt=now - timedelta(days=days[i + 1] - 1))
        served |= window
    owed = ~served
    games = games.filter(owed).select_related("tournament", "white", "black").order_by("pk")
    return list(games[:limit])


def silence_reminders_due(*, now: datetime, limit: int = SWEEP_GAMES_MAX) -> list[str]:
    """Send the silence reminders whose day has come by ``now``, looking at ``limit`` games still owed one
    (``silence_candidates``); :returns: the keys of the notices sent."""
    days = list(settings.SILENCE_REMINDER_DAYS)
    if not days:
        return []
    sent = []
    for game in silence_candidates(now=now, days=days, limit=limit):
        time, _rows = game_time_get(game=game, as_of=clock_as_of(game, now))
        pending = time.assembled.pending
        if time.to_move is None or pending is None:
            continue
        silent = silent_days(game=game, received_on=pending.received_on, now=now)
        passed = [d for d in days if d <= silent]
        if not passed:
            continue
        day = passed[-1]  # the latest day passed: an earlier reminder missed is not sent late
        colour = time.to_move
        user = game.user_of(colour)
        key = f"silence:{game.pk}:{colour}:{pending.number}:{day}:{user.pk}"
        if not choices_of(user.pk).wants(Kind.SILENCE) or Notice.objects.filter(key=key).exists():
            continue
        with in_language(user):
            worded = compose.silence_reminder(game=game, time=time, user=user, colour=colour, days=day,
                                              final=day == days[-1], limit=silence_limit_days(game))
        try:
            with transaction.atomic():
                notice = Notice.objects.create(key=key, user=user, game=game, colour=colour, kind=Kind.SILENCE,
                                               subject=worded.subject[:200], text=worded.text, created_at=now)
                notice_send_alone(user=user, notice=notice)
        except IntegrityError:
            continue  # another sweep stored it first
        sent.append(key)
    return sent
