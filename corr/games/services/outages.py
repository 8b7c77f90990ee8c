"""An outage of the service given back in correspondence server games counted in instants (issue 39).

When no process could take moves (the beat of :mod:`corr.live.gaps` was silent longer than ``LIVE_GAP_MS``),
the player on move in every ongoing server game counted in instants (``whole_days``, ``exact``: presets
``chesscom_days_N``, ``lichess_days_N``, ``iccf_*``) gets back the part of the outage that fell within their
turn: from the later of the outage's start and their turn's start (``Turn.since``) to the outage's end. The
player not on move gets nothing (their clock was not running); a game counted in dates gets nothing (a date
has no hours to give back); a player whose flag fell before the outage began keeps the flag.

The time is a credit (``GameEvent`` of kind ``credit``, :mod:`.credits`) entered by no person: the history
shows it as corr's, with a line that names the outage (``outage_credit``), and an arbiter may withdraw it like
any other event. Under ``exact`` it is the outage's seconds (rounded up to the second); under ``whole_days``,
where the clock has no smaller unit than a 24-hour period, every begun day of it counts as a whole day (ICCF's
directors credit days after a server outage).

Once per outage: the ``ServiceOutage`` row (unique by its start) is written in the transaction that gives the
time back, so a second call for the same outage (the beat run twice, two processes noticing it) gives nothing.
"""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime

from django.db import transaction

from corr.clock.counts import DAY_SECONDS
from corr.models import Game, GameStatus, Mode, ServiceOutage, Tournament

from ..clockstate import INSTANT_COUNTS, clock_day, counts_instants, game_time, instant_text, tournament_count
from ..records import amount_text, record_text
from ..turns import game_turns
from .credits import credit_row, exact
from .storage import events_store_changes, game_lock

log = logging.getLogger(__name__)


@transaction.atomic
def outage_credit(*, start: datetime, end: datetime) -> int:
    """Give the outage from ``start`` (the last beat) to ``end`` (now; both aware) back; returns how many games got it.

    0 when this outage (by its ``start``) was given back before, or ``end`` is not after ``start``. A game that
    cannot take the credit (a clock error) is logged and skipped: the others still get theirs.
    """
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    if end <= start:
        return 0
    outage, created = ServiceOutage.objects.get_or_create(started_at=start, defaults={"ended_at": end})
    if not created:
        return 0  # given back before: by another process, or by this one's earlier call
    count = 0
    for game_id in server_game_ids():
        try:
            with transaction.atomic():  # a savepoint: one game's failure leaves the others' credits
                count += _game_credit(game_id, start, end)
        except Exception:  # noqa: BLE001 - one bad game must not keep the outage from the others
            log.exception("outage %s: server game %s not given its time back", outage, game_id)
    ServiceOutage.objects.filter(pk=outage.pk).update(games=count)
    return count


def server_game_ids() -> list[int]:
    """Ids of the ongoing server games whose tournament counts instants, in id order (the order writers lock in)."""
    tournaments = [t.pk for t in Tournament.objects.filter(mode=Mode.SERVER) if tournament_count(t) in INSTANT_COUNTS]
    return list(Game.objects.filter(tournament_id__in=tournaments, mode=Mode.SERVER, status=GameStatus.ONGOING)
                .order_by("pk").values_list("pk", flat=True))


def given_back(game: Game, time, start: datetime, end: datetime) -> tuple[str, int] | None:
    """(the player on move, the seconds of the outage within their turn), or None when nobody gets anything.

    Nothing for a game without a player on move, a turn that began after the outage, or a flag that fell at or
    before the outage's start (the service was up when it fell)."""
    mover = time.to_move
    if mover is None:
        return None
    turn = game_turns(game=game, time=time)[mover]
    account = time.clock.accounts[mover]
    if turn.since is None or (account.flag_at is not None and account.flag_at <= start):
        return None
    begin = max(start, turn.since)
    seconds = math.ceil((end - begin).total_seconds())
    return (mover, seconds) if seconds > 0 else None


def _game_credit(game_id: int, start: datetime, end: datetime) -> int:
    game, rows = game_lock(Game(pk=game_id))
    if game.status != GameStatus.ONGOING or not counts_instants(game):
        return 0
    time = game_time(game, rows, end)
    given = given_back(game, time, start, end)
    if given is None:
        return 0
    player, seconds = given
    days, seconds = (0, seconds) if exact(game) else (math.ceil(seconds / DAY_SECONDS), 0)
    bounds = {"start": instant_text(start), "end": instant_text(end)}
    note = record_text("outage_credit", amount=amount_text(days, seconds), player=player, **bounds)
    row = credit_row(None, player, time.clock.accounts[player].next_charge_number, days, seconds, note)
    events_store_changes(game, rows, [row], clock_day(game, end), as_of=end,
                         cause=record_text("cause_outage", **bounds))
    return 1
