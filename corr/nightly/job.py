"""The nightly job for a date D: select by stored deadlines, re-check, flag, e-mail, report.

Split in three steps so that Celery can fan the middle one out to workers:
``nightly_start`` (select and chunk), ``nightly_chunk_process`` (one chunk,
one transaction), ``nightly_finish`` (reports and totals). ``nightly_job``
runs all three in this process, for ``manage.py nightly``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from corr.games.clockstate import game_time
from corr.games.selectors import event_rows
from corr.games.services import clock_fields, clocks_write, time_for_storage
from corr.models import Game, GameEvent, GameStatus, NightlyRun, PlayerClock, Tournament

from .emails import emails_send_due, emails_store
from .flags import Flags, flag_emails, flags_collect, flags_store
from .reports import nightly_reports_create

COUNT_KEYS = ("time_trouble_notices", "reminders", "overstep_cases")


def warning_window_days() -> int:
    """How far ahead of a deadline the job looks: the widest of the warning window, the reminders and
    every tournament's time-trouble threshold (a pending player enters time trouble that many days out)."""
    widest_trouble = Tournament.objects.aggregate(m=Max("time_trouble_days"))["m"] or 0
    return max([settings.WARNING_WINDOW_DAYS, widest_trouble, *settings.REMINDER_DAYS])


def nightly_select(*, on: date) -> list[int]:
    """Ids of the ongoing games with a player whose stored deadline is within the window, or passed,
    or who is flagged (time trouble or over a control). Uses the deadline index and the partial
    ``flagged`` index; never loads the other games."""
    horizon = on + timedelta(days=warning_window_days())
    ids = (PlayerClock.objects.filter(Q(deadline__lte=horizon) | Q(flagged=True))
           .filter(game__status=GameStatus.ONGOING).values_list("game_id", flat=True).distinct())
    return sorted(ids)


def nightly_start(*, on: date) -> tuple[NightlyRun, list[list[int]]]:
    """Record the run and cut the selected games into chunks of ``NIGHTLY_CHUNK_SIZE``."""
    ids = nightly_select(on=on)
    size = settings.NIGHTLY_CHUNK_SIZE
    chunks = [ids[i:i + size] for i in range(0, len(ids), size)]
    run = NightlyRun.objects.create(date=on, selected_players=len(ids), chunks=len(chunks))
    return run, chunks


def nightly_chunk_process(*, on: date, game_ids: list[int], run_id: int | None, enqueue: bool) -> dict[str, int]:
    """Re-check one chunk of games as of ``on``, refresh their stored clocks, record new flags.

    One transaction: a chunk is done whole or not at all, so a run that died is
    finished by running again. E-mails are queued after commit when ``enqueue``.
    :returns: the counts of new notices, reminders and cases.
    """
    with transaction.atomic():
        games = list(Game.objects.filter(pk__in=game_ids, status=GameStatus.ONGOING)
                     .select_related("tournament", "white", "black"))
        rows_by_game = defaultdict(list)
        for row in event_rows(GameEvent.objects.filter(game_id__in=[g.pk for g in games]).order_by("game_id", "seq")):
            rows_by_game[row.game_id].append(row)
        clocks = {(c.game_id, c.player): c for c in PlayerClock.objects.filter(game_id__in=[g.pk for g in games])}
        flags = Flags()
        changed = []
        for game in games:
            rows = rows_by_game[game.pk]
            # Re-check with the calculator as of D: a stale stored value never makes a flag.
            time = game_time(game, rows, on)
            flags_collect(game=game, time=time, on=on, flags=flags)
            for colour, fields in clock_fields(game, time_for_storage(game, rows, on, time)).items():
                clock = clocks.get((game.pk, colour))
                if clock is None:
                    PlayerClock.objects.create(game=game, player=colour, **fields)
                elif any(getattr(clock, name) != value for name, value in fields.items()):
                    changed.append((game.pk, colour, fields))
        clocks_write(changed)
        stored = flags_store(flags=flags, run=NightlyRun(pk=run_id) if run_id else None)
        emails_store(flag_emails(stored), enqueue=enqueue)
    return {"time_trouble_notices": len(stored.notices), "reminders": len(stored.reminders),
            "overstep_cases": len(stored.cases)}


def nightly_finish(*, on: date, run_id: int, chunk_counts: list[dict], now: datetime) -> dict:
    """Store the reports of the date and the run's totals; returns the JSON of ``manage.py nightly``."""
    reports = nightly_reports_create(on=on, run_id=run_id)
    totals = {"date": on.isoformat(), **{k: sum(c.get(k, 0) for c in chunk_counts) for k in COUNT_KEYS},
              "reports": reports}
    NightlyRun.objects.filter(pk=run_id).update(finished_at=now, counts=totals)
    return totals


def nightly_job(*, on: date, now: datetime | None = None) -> dict:
    """The whole job in this process, e-mails included (no broker needed)."""
    run, chunks = nightly_start(on=on)
    counts = [nightly_chunk_process(on=on, game_ids=ids, run_id=run.pk, enqueue=False) for ids in chunks]
    totals = nightly_finish(on=on, run_id=run.pk, chunk_counts=counts, now=now or timezone.now())
    emails_send_due(now=now or timezone.now())
    return totals
