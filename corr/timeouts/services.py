"""Recording a fallen flag of a server game at its instant (issue 22): the one write of ``corr.timeouts``."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from corr.games.cases import history_append
from corr.games.records import record_text
from corr.games.clockstate import clock_day, counts_instants, game_time
from corr.games.flagclock import flag_check_at
from corr.games.services import game_lock, game_recompute
from corr.live.gaps import beat_fresh, flag_waits
from corr.models import EventKind, Game, GameStatus, Timeouts
from corr.outbox import emails_store
from corr.nightly.flags import case_emails, cases_announce

from .emails import timeout_emails
from .outcome import Timeout, timeout_decide

log = logging.getLogger(__name__)


def fallen_flag(game: Game, time) -> tuple[str, datetime] | None:
    """The colour whose time is over as of ``time``'s instant, and when its flag fell; None if none.

    The player to move first; else a player whose late move was stored (``timeouts: arbiter``
    stores it, and the case it opened is announced here).
    """
    order = [time.to_move] if time.to_move else []
    for colour in order + [c for c in time.clock.accounts if c not in order]:
        over = time.clock.accounts[colour].overstepped
        if over is not None:
            at = getattr(over, "at", None)
            return colour, at if at is not None else time.clock.as_of
    return None


@transaction.atomic
def flag_record(*, game_id: int, now: datetime, version: int | None = None) -> bool:
    """Record the flag of server game ``game_id`` if it has fallen by ``now`` (aware); True if this call did.

    Under the game's row lock (the lock a move takes, ``game_lock``): a move
    stored first leaves no flag to find, a move that comes after finds the
    flag recorded (``timeouts: automatic``: the game is over, 409; ``arbiter``:
    the case stands, the move was late). ``version``: the game's
    ``events_version`` the check was queued for; a later version (an event
    since) makes it a no-op, the later event having queued its own check.
    Recorded means, by the tournament's ``timeouts``:

    * ``arbiter``: the overstep case is opened (or found opened by the late move's
      store) and announced at once, the arbiters e-mailed (the nightly's case e-mail);
    * ``automatic``: the result (``outcome.timeout_decide``), a history line,
      the cases withdrawn as the game is over, both players and the arbiters
      e-mailed. A game an arbiter reopened is theirs: its flags open cases.

    Running it twice records nothing twice: the case is announced once (its
    conditional UPDATE), a finished game is left alone.

    A flag that fell after the beat's last instant (``corr.live.gaps.flag_waits``) is not recorded yet (issue
    39): the service may have been down when it fell. While the beat is fresh, the check comes again one beat
    later; in an outage the beat's return gives the time back first (``corr.games.services.outages``), which
    queues the game's new check, and the sweep is the backstop.
    """
    try:
        game, rows = game_lock(Game(pk=game_id))
    except Game.DoesNotExist:
        return False
    if game.status != GameStatus.ONGOING or not counts_instants(game):
        return False
    if version is not None and game.events_version != version:
        return False
    time = game_time(game, rows, now)
    fallen = fallen_flag(game, time)
    if fallen is None:
        return False
    colour, at = fallen
    if flag_waits(at):
        _again_after_the_beat(game, now)
        return False
    today = clock_day(game, time.clock.as_of)
    reopened = any(row.kind == EventKind.REOPEN for row in rows)
    if game.tournament.timeouts == Timeouts.AUTOMATIC and not reopened and colour == time.to_move:
        timeout_record(game=game, timeout=timeout_decide(kind=game.kind_in_force, rows=rows, player=colour, at=at),
                       today=today, now=now)
        return True
    # The arbiter's way: the stored clocks and the case follow the clock as of now, then the case is announced.
    game_recompute(game, by=None, today=today, as_of=now, cause=record_text("cause_flag", player=colour))
    announced = cases_announce(game_ids=[game.pk], on=today)
    emails_store(case_emails(announced), enqueue=True)
    return bool(announced)


def _again_after_the_beat(game: Game, now: datetime) -> None:
    """Queue the check of ``game``'s flag one beat after ``now`` if the beat is fresh (in an outage, nothing)."""
    if beat_fresh(now):
        at, version = now + timedelta(seconds=settings.LIVE_BEAT_SECONDS), game.events_version
        transaction.on_commit(lambda: flag_check_at(game_id=game.pk, version=version, at=at))


def timeout_record(*, game: Game, timeout: Timeout, today, now: datetime) -> None:
    """Finish ``game`` (locked) with ``timeout``'s result: history line, clocks, cases, e-mails to all concerned."""
    game.status, game.result, game.termination = GameStatus.FINISHED, timeout.result, timeout.termination
    game.save(update_fields=["status", "result", "termination"])
    history_append(game=game, by=None, kind=EventKind.RESULT, player=timeout.player,
                   note=record_text("result_ended", result=timeout.result, termination=timeout.termination))
    game_recompute(game, by=None, today=today, as_of=now, cause=record_text("cause_result", result=timeout.result))
    emails_store(timeout_emails(game=game, timeout=timeout), enqueue=True)
    log.info("server game %s: %s", game.pk, timeout.termination)
