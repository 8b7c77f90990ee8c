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

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from corr.games.clockstate import clock_as_of, clock_start, counts_instants, local_today
from corr.games.selectors import game_time_get
from corr.models import EventKind, Game, GameStatus, Mode

from . import compose
from .compose import in_language
from .kinds import Kind
from .models import Notice
from .pace import notice_send_alone
from .preferences import choices_of

DAY = timedelta(days=1)


def silence_limit_days(game: Game) -> int | None:
    """The tournament's limit for one move (``max_per_move``, ICCF's 40 days); None: no silence rule."""
    return (game.tournament.time_control or {}).get("max_per_move")


def silent_days(*, game: Game, received_on: date | datetime | None, now: datetime) -> int:
    """Whole days without a move since ``received_on`` (the partner's move reached the player; None: the game's
    clock start): 24-hour days from an instant, calendar days in the tournament's zone from a date."""
    if received_on is None:
        received_on = clock_start(game) if counts_instants(game) else game.tournament.official_start
    if isinstance(received_on, datetime):
        return int((now - received_on) // DAY)
    return (local_today(game.tournament, now) - received_on).days


def silence_candidates(*, now: datetime, first_days: int, limit: int) -> list[Game]:
    """Ongoing server games with a silence limit whose last move (or creation) is at least ``first_days`` old."""
    before = now - timedelta(days=first_days)
    games = (Game.objects.filter(status=GameStatus.ONGOING, mode=Mode.SERVER,
                                 tournament__time_control__has_key="max_per_move")
             .annotate(last_move=Max("events__entered_at", filter=Q(events__kind=EventKind.MOVE)))
             .filter(Q(last_move__lte=before) | Q(last_move__isnull=True, created_at__lte=before))
             .select_related("tournament", "white", "black").order_by("pk"))
    return list(games[:limit])


def silence_reminders_due(*, now: datetime, limit: int = 2000) -> list[str]:
    """Send the silence reminders whose day has come by ``now``; :returns: the keys of the notices sent."""
    days = list(settings.SILENCE_REMINDER_DAYS)
    if not days:
        return []
    sent = []
    for game in silence_candidates(now=now, first_days=days[0], limit=limit):
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
