"""The nightly job for a date D: select by stored deadlines, re-check, flag, e-mail, report.

Split in three steps so that Celery can fan the middle one out to workers:
``nightly_start`` (select and chunk), ``nightly_chunk_process`` (one chunk,
one transaction), ``nightly_finish`` (reports and totals). ``nightly_job``
runs all three in this process, for ``manage.py nightly``.
"""

from __future__ import annotations

import logging
from collections import defaultdict, namedtuple
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import partial
from operator import attrgetter, itemgetter
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from corr.clock import ClockError
from corr.gcpause import no_cyclic_gc
from corr.clock.assembly import rows_as_of
from corr.games.cases import cases_follow
from corr.games.clockstate import clock_day, game_time, local_today
from corr.games.leaves import leaves_prefetch
from corr.games.records import record_text
from corr.games.selectors import EVENT_FIELDS, event_rows
from corr.games.services import CLOCK_FIELDS, clock_fields, clocks_write, time_for_storage
from corr.models import (
    Game, GameEvent, GameStatus, NightlyRun, OverstepCase, OverstepStatus, PlayerClock, Tournament,
)
from corr.outbox import emails_send_due, emails_store
from corr.sql import bound_cursor

from .flags import Flags, case_emails, cases_announce, flag_emails, flags_collect, flags_store
from .reports import nightly_reports_create
from .sending import chunk_sender

COUNT_KEYS = ("time_trouble_notices", "reminders", "overstep_cases", "cases_withdrawn", "stale_skipped", "errors")
"""The run's counts: new warnings, cases announced to the arbiters, cases withdrawn by the re-check,
games whose warnings were skipped because they changed after the run's date, games that failed."""

log = logging.getLogger(__name__)


def warning_window_days() -> int:
    """How far ahead of a deadline the job looks: the widest of the warning window, the reminders and
    every tournament's time-trouble threshold (a pending player enters time trouble that many days out)."""
    widest_trouble = Tournament.objects.aggregate(m=Max("time_trouble_days"))["m"] or 0
    return max([settings.WARNING_WINDOW_DAYS, widest_trouble, *settings.REMINDER_DAYS])


def nightly_select(*, on: date) -> list[int]:
    """Ids of the ongoing games with a player whose stored deadline is within the window, or passed,
    or who is flagged (time trouble or over a control), and of every game with an open case (each
    night re-checks them). Uses the deadline index and the partial ``flagged`` and open-case indexes;
    never loads the other games."""
    horizon = on + timedelta(days=warning_window_days())
    ids = set(PlayerClock.objects.filter(Q(deadline__lte=horizon) | Q(flagged=True))
              .filter(game__status=GameStatus.ONGOING).values_list("game_id", flat=True))
    ids.update(OverstepCase.objects.filter(status=OverstepStatus.OPEN).values_list("game_id", flat=True))
    return sorted(ids)


def nightly_start(*, on: date) -> tuple[NightlyRun, list[list[int]]]:
    """Record the run and cut the selected games into chunks of ``NIGHTLY_CHUNK_SIZE``."""
    ids = nightly_select(on=on)
    size = settings.NIGHTLY_CHUNK_SIZE
    chunks = [ids[i:i + size] for i in range(0, len(ids), size)]
    run = NightlyRun.objects.create(date=on, selected_players=len(ids), chunks=len(chunks))
    return run, chunks


CHUNK_ROW_FIELDS = tuple(name for name in EVENT_FIELDS if name != "entered_at") + ("entered_on",)
ChunkRow = namedtuple("ChunkRow", CHUNK_ROW_FIELDS)
"""An event row of a chunk: the selectors' fields, with the calendar date it was entered (in the tournament's
zone) in place of the instant: that date is all ``rows_as_of`` reads, and the database computes it."""


_SEQ = attrgetter("seq")
_entered_on = attrgetter("entered_on")
"""A chunk row's entry date (``rows_as_of``'s ``entered_on``), read in C."""


def chunk_rows(games: list[Game]) -> dict[int, list[ChunkRow]]:
    """The events of the chunk's games (tournaments loaded) as plain tuples, by game, in sequence (one query).

    Only the selected games' events are read, through the events' game index:
    the games and their time zones go in as arrays, so the query never joins
    (or scans) the games table. On PostgreSQL the entry date is computed in the
    tournament's zone by the database (``AT TIME ZONE``), so no timestamp is
    turned into a Python object; SQLite gets it from Python.
    """
    by_game: dict[int, list[ChunkRow]] = defaultdict(list)
    if not games:
        return by_game
    if connection.vendor == "postgresql":
        columns = ", ".join(f"e.{name}" for name in CHUNK_ROW_FIELDS[:-1])
        with bound_cursor() as cursor:
            cursor.execute(
                f"SELECT {columns}, (e.entered_at AT TIME ZONE z.zone)::date"
                " FROM unnest(%s::bigint[], %s::text[]) AS z(game_id, zone)"
                " JOIN corr_gameevent e ON e.game_id = z.game_id",
                [[g.pk for g in games], [g.tournament.time_zone for g in games]])
            rows = cursor.fetchall()
        # Not sorted by the database: sorting the chunk's ~20,000 wide rows cost it a third of the
        # query; each game's few dozen are sorted here. Rows built in C (a partial of tuple.__new__):
        # a Python call per row (``ChunkRow._make``) cost as much as the query.
        for row in map(partial(tuple.__new__, ChunkRow), rows):
            by_game[row[1]].append(row)
        for game_rows in by_game.values():
            game_rows.sort(key=_SEQ)
        return by_game
    zones = {g.pk: ZoneInfo(g.tournament.time_zone) for g in games}
    for row in event_rows(GameEvent.objects.filter(game_id__in=list(zones)).order_by("game_id", "seq")):
        by_game[row.game_id].append(ChunkRow(*row[:-1], row.entered_at.astimezone(zones[row.game_id]).date()))
    return by_game


def chunk_games(game_ids: list[int]) -> list[Game]:
    """Lock the chunk's games in id order (like every other writer) and read them with their tournaments.

    One query for the games, one for their few tournaments: each tournament is
    one instance shared by its games (its ruleset is computed once).
    """
    games = list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk"))
    tournaments = Tournament.objects.in_bulk({g.tournament_id for g in games})
    for game in games:
        game.tournament = tournaments[game.tournament_id]
    return games


def nightly_chunk_process(*, on: date, game_ids: list[int], run_id: int | None, enqueue: bool,
                          now: datetime | None = None,
                          on_emails: Callable[[list[int]], None] | None = None) -> dict[str, int]:
    """Re-check one chunk of games as of ``on``, refresh their stored clocks, record and announce flags.

    One transaction: a chunk is done whole or not at all, so a run that died is
    finished by running again. The chunk's games are locked (in id order, like
    every other writer) for the transaction, so no move can commit between the
    read and the write of a clock; stored clocks are written only over older ones.

    Each game is computed as it stood on ``on`` (``rows_as_of``): a run for an
    earlier date never crashes on a later event. Its warnings (time trouble,
    reminders) are made only if nothing was recorded after ``on``: otherwise
    they could contradict today's page, and tonight's run warns from today's
    facts. Cases are always re-checked against the game's current facts. A game
    that cannot be computed is logged and counted (``errors``); the rest go on.
    The flags, the e-mails and the case marks are written set-based
    (``corr.nightly.sql``). E-mails are queued after commit when ``enqueue``, and their ids handed to
    ``on_emails`` after commit when given (the synchronous job's sender, ``corr.nightly.sending``).
    :returns: the counts of new notices, reminders and cases, announced cases, skipped games and errors.
    """
    now = now or timezone.now()
    counts = dict.fromkeys((*COUNT_KEYS, "cases_withdrawn", "stale_skipped", "errors"), 0)
    # A chunk builds ~20,000 event tuples and keeps none: the collector's full passes over the
    # process (Django's objects included) cost a tenth of the chunk, for cycles it has not made.
    with no_cyclic_gc(), transaction.atomic():
        games = chunk_games(game_ids)
        ids = [g.pk for g in games]
        leaves_prefetch(games)  # the chunk's leave in one query, not one per game
        rows_by_game = chunk_rows(games)
        clocks = {(c[0], c[1]): c[2:] for c in PlayerClock.objects.filter(game_id__in=ids).values_list(
            "game_id", "player", *CLOCK_FIELDS)}
        flags = Flags()
        changed = []
        live_cases = defaultdict(list)
        for case in OverstepCase.objects.filter(game_id__in=ids).exclude(status=OverstepStatus.WITHDRAWN):
            live_cases[case.game_id].append(case)
        todays: dict[int, date] = {}
        for game in games:
            tid = game.tournament_id
            if tid not in todays:
                todays[tid] = local_today(game.tournament, now)
            try:
                changed += _game_check(game, rows_by_game[game.pk], live_cases[game.pk], on, todays[tid], flags,
                                       clocks, counts)
            except ClockError as error:  # one broken game must not stop the federation's night
                log.error("nightly %s: game %s cannot be computed: %s", on, game.pk, error)
                counts["errors"] += 1
        clocks_write(changed)
        stored = flags_store(flags=flags, run=NightlyRun(pk=run_id) if run_id else None)
        announced = cases_announce(game_ids=ids, on=on)
        emails_store(flag_emails(stored) + case_emails(announced), enqueue=enqueue, then=on_emails)
    counts.update({"time_trouble_notices": len(stored.notices), "reminders": len(stored.reminders),
                   "overstep_cases": len(announced)})
    return counts


def _game_check(game: Game, rows, cases: list, on: date, today: date, flags: Flags, clocks: dict,
                counts: dict) -> list:
    """One game of a chunk: its cases against today's facts, its warnings as of ``on``; the clock rows to write.

    A run for a date before the tournament's today (a failed night run again)
    sends no warnings: they would contradict today's page, and today's run
    warns from today's facts (a reminder threshold missed is still reached).
    Its clocks and cases follow today's facts. Queries only when a case must
    change (most games have none).
    """
    if on < today or game.status != GameStatus.ONGOING:
        counts["stale_skipped"] += game.status == GameStatus.ONGOING
        time = game_time(game, rows, today)
    else:
        then, later = rows_as_of(rows, on, _entered_on)
        time = game_time(game, then, on)
        if later:  # entries after ``on``, which is today or later: only a clock set wrong can do it
            counts["stale_skipped"] += 1
            return []
        flags_collect(game=game, time=time, on=on, flags=flags)
        rows = then
    _cases_checked(game, time, rows, cases, on, counts)
    if game.status != GameStatus.ONGOING:
        return []
    changed = []
    for colour, fields in clock_fields(game, time_for_storage(game, rows, time.clock.as_of, time)).items():
        stored = clocks.get((game.pk, colour))  # the stored values, in CLOCK_FIELDS order
        if stored is None or stored != _CLOCK_VALUES(fields):
            changed.append((game.pk, colour, fields))  # clocks_write keeps a newer stored clock
    return changed


_CLOCK_VALUES = itemgetter(*CLOCK_FIELDS)
"""A clock's fields as the tuple of stored values (``CLOCK_FIELDS`` order)."""


def _cases_checked(game: Game, time, rows, cases: list, on: date, counts: dict) -> None:
    """Re-check the game's cases against ``time`` (skipped when there is nothing to check)."""
    if cases or any(a.overstepped is not None for a in time.clock.accounts.values()):
        changes = cases_follow(game=game, time=time, rows=rows, on=clock_day(game, time.clock.as_of),
                               cause=record_text("cause_nightly", day=on), cases=cases)
        counts["cases_withdrawn"] += len(changes.withdrawn)


def nightly_finish(*, on: date, run_id: int, chunk_counts: list[dict], now: datetime) -> dict:
    """Store the reports of the date and the run's totals; returns the JSON of ``manage.py nightly``."""
    reports = nightly_reports_create(on=on, run_id=run_id)
    totals = {"date": on.isoformat(), **{k: sum(c.get(k, 0) for c in chunk_counts) for k in COUNT_KEYS},
              "reports": reports}
    NightlyRun.objects.filter(pk=run_id).update(finished_at=now, counts=totals)
    return totals


def nightly_job(*, on: date, now: datetime | None = None) -> dict:
    """The whole job in this process, e-mails included (no broker needed).

    Each chunk's e-mails are sent, once it commits, while the next chunks are checked (``chunk_sender``, on
    PostgreSQL outside an outer transaction; issue 42), as Celery's workers send them; then every e-mail still
    due (earlier nights' failures, and all of this run's where no sender could run) is sent.
    """
    run, chunks = nightly_start(on=on)
    with chunk_sender(now) as sender:
        on_emails = None if sender is None else sender.submit
        counts = [nightly_chunk_process(on=on, game_ids=ids, run_id=run.pk, enqueue=False, now=now,
                                        on_emails=on_emails) for ids in chunks]
        totals = nightly_finish(on=on, run_id=run.pk, chunk_counts=counts, now=now or timezone.now())
    emails_send_due(now=now or timezone.now(), skip=frozenset() if sender is None else sender.attempted)
    return totals
