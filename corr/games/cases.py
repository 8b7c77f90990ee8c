"""Arbiter cases that follow the recorded facts: opened, refreshed and withdrawn from the clock.

A case exists because the game's current recorded facts, computed by the
calculator, say so (issue "flags that follow the facts"):

* an *overstep* case (50.4.3) opens when a player's account is over a control;
  while it is open its figures follow the clock; when the recorded facts no
  longer show that overstep (a move typed in, a correction, a receipt, a rule
  change) it is *withdrawn* with the reason, and a history line says so. A
  withdrawn case frees its place: a later real overstep of the same control
  opens a new case.
* a *registered mail* case (50.4.12, 50.4.9.3) opens when a postal move is
  recorded as sent by ordinary mail or e-mail while its player had the time
  trouble days or fewer left; it is withdrawn if a correction or withdrawal of
  that move removes the fact.

Nothing here sends e-mail: the nightly run announces the cases that its own
re-check still finds (``corr.nightly``). Every function runs inside the
caller's transaction, with the game row locked.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass, field
from functools import partial
from datetime import date

from django.db.models import Max

from corr.clock import Account, ClockError, Move, compute
from corr.clock.assembly import assemble, current_row, rows_before
from corr.models import CaseKind, EventKind, Game, GameEvent, GameStatus, Mail, Mode, OverstepCase, OverstepStatus

from .clockstate import GameTime
from .records import record_text

UNREGISTERED = (Mail.ORDINARY, Mail.EMAIL)


@dataclass
class CaseChanges:
    """What one reconciliation did, or will do once ``apply``'d (``cases_follow(write=False)``).

    ``writes``: the statements still to run, in order; empty once applied, and
    empty from the start when the cases already agree with the clock (an
    ordinary move writes nothing here, so its store can end the transaction).
    """

    opened: list[OverstepCase] = field(default_factory=list)
    withdrawn: list[OverstepCase] = field(default_factory=list)
    refreshed: list[OverstepCase] = field(default_factory=list)
    writes: list = field(default_factory=list)
    cases: list[OverstepCase] = field(default_factory=list)
    """The game's cases that were not withdrawn, as this reconciliation found them (and left them)."""

    def apply(self) -> "CaseChanges":
        """Run the pending writes in order (the cases opened get their ids); returns itself."""
        writes, self.writes = self.writes, []
        for write in writes:
            write()
        return self


def history_append(*, game: Game, by, kind: str, note: str, player: str = "", number: int | None = None) -> None:
    """Append a record line (result, case, rules, admin) to the game's history. The game row must be locked."""
    last = GameEvent.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0
    GameEvent.objects.create(game=game, seq=last + 1, kind=kind, player=player, number=number, note=note,
                             entered_by=by)


def used_summary(account: Account, cause: str) -> str:
    """``"white's move 1 recorded: 2 of 30 days used in control 1"``: a withdrawal's reason with its figures."""
    window = account.control
    return record_text("why_figures", cause=cause, used=window.allowed_days - window.remaining_days,
                       allowed=window.allowed_days, control=window.number)


def cases_follow(*, game: Game, time: GameTime, rows, on: date, cause: str, by=None,
                 cases: list[OverstepCase] | None = None, new_rows=(), write: bool = True) -> CaseChanges:
    """Make the game's cases agree with its clock ``time`` (its current recorded facts, as of ``on``).

    ``cause`` names what changed ("white's move 1 recorded", "nightly re-check
    of 2026-03-01"); it becomes the reason of every withdrawal, and ``by`` the
    author of the history lines (None: corr itself). A finished game opens no
    case and its open cases are withdrawn. ``cases``: the game's cases that are
    not withdrawn, if the caller read them already (the nightly reads a chunk's at once).
    ``new_rows``: rows just stored; a move among them (or a correction of one)
    sent by ordinary mail or e-mail in time trouble opens a registered-mail case.
    ``write`` False: nothing is written yet; the changes carry their ``writes``
    for the caller to ``apply`` (after its own statement, in the same transaction).
    """
    changes = CaseChanges()
    if cases is None:
        cases = list(OverstepCase.objects.filter(game=game).exclude(status=OverstepStatus.WITHDRAWN))
    changes.cases = cases
    ongoing = game.status == GameStatus.ONGOING
    for colour, account in time.clock.accounts.items():
        over = account.overstepped if ongoing else None
        mine = [c for c in cases if c.player == colour and c.kind == CaseKind.OVERSTEP]
        for case in mine:
            if case.status != OverstepStatus.OPEN:
                continue
            if over is not None and over.control == case.control_number:
                if _refresh(case, over, account, on, changes):
                    changes.refreshed.append(case)
            else:
                why = used_summary(account, cause) if ongoing else record_text("why_over", cause=cause)
                _withdraw(game, case, why, by, on, changes)
        if over is not None and not any(c.control_number == over.control for c in mine):
            case = OverstepCase(
                game=game, kind=CaseKind.OVERSTEP, player=colour, control_number=over.control,
                through_move=over.through_move, allowed_days=over.allowed_days, used_days=over.used_days,
                deadline=account.deadline, opened_on=on, checked_on=on, claim=_no_claim())
            changes.writes.append(partial(case.save, force_insert=True))
            changes.opened.append(case)
    live_mail = {(c.player, c.through_move) for c in cases if c.kind == CaseKind.REGISTERED_MAIL}
    for row in new_rows:
        if ongoing and row.kind == EventKind.MOVE and (row.player, row.number) not in live_mail:
            case = mail_case_new(game=game, rows=rows, move_row=row, on=on)
            if case is not None:
                changes.writes.append(partial(case.save, force_insert=True))
                changes.opened.append(case)
    for case in cases:
        if case.kind == CaseKind.REGISTERED_MAIL and case.status == OverstepStatus.OPEN:
            still = ongoing and mail_case_holds(game, rows, case)
            if not still:
                why = (record_text("why_mail", cause=cause, move=case.through_move) if ongoing
                       else record_text("why_over", cause=cause))
                _withdraw(game, case, why, by, on, changes)
    return changes.apply() if write else changes


def _no_claim() -> uuid.UUID:
    # The claim token of the nightly's insert-and-read-back (STYLE 7); cases opened here are nobody's e-mail yet.
    return uuid.uuid4()


def _refresh(case: OverstepCase, over, account: Account, on: date, changes: CaseChanges) -> bool:
    figures = dict(through_move=over.through_move, allowed_days=over.allowed_days, used_days=over.used_days,
                   deadline=account.deadline)
    changed = any(getattr(case, name) != value for name, value in figures.items())
    if not changed and case.checked_on == on:
        return False  # written only when it changes: a move in an overstepped game costs no statement here
    for name, value in figures.items():
        setattr(case, name, value)
    case.checked_on = on
    changes.writes.append(partial(case.save, update_fields=[*figures, "checked_on"]))
    return changed


def _withdraw(game: Game, case: OverstepCase, why: str, by, on: date, changes: CaseChanges) -> None:
    case.status, case.withdrawn_reason, case.checked_on = OverstepStatus.WITHDRAWN, why, on

    def write():
        case.save(update_fields=["status", "withdrawn_reason", "checked_on"])
        history_append(game=game, by=by, kind=EventKind.CASE, player=case.player, number=case.through_move,
                       note=record_text("case_withdrawn", kind=case.kind_name, case=case.pk, why=why))

    changes.writes.append(write)
    changes.withdrawn.append(case)


# --- 50.4.12: registered mail in time trouble ----------------------------------------------------------

def trouble_when_sent(game: Game, rows, move_row) -> Account | None:
    """The account of the move's player on the day they sent ``move_row``, the move itself pending.

    None when it cannot be told (an undated move, or events that do not compute).
    """
    if move_row.sent_on is None:
        return None
    t = game.tournament
    assembled = assemble(  # ongoing=False: no pending move is added, the move itself is
        rows=rows_before(rows, move_row.seq), ruleset=t.ruleset, official_start=t.official_start, first=game.first,
        transit_days=None if game.mode == Mode.SERVER else t.presumed_transit_days, ongoing=False,
        as_of=move_row.sent_on)
    pending = Move(move_row.player, move_row.number, move_row.received_on)
    calc_game = dataclasses.replace(assembled.game, events=assembled.game.events + (pending,))
    try:
        return compute(calc_game, move_row.sent_on).accounts[move_row.player]
    except ClockError:
        return None


def mail_case_due(game: Game, rows, move_row) -> Account | None:
    """The account that makes ``move_row`` a registered-mail case, or None (50.4.12 applies to postal games)."""
    if game.mode != Mode.POSTAL or move_row.kind != EventKind.MOVE or move_row.mail not in UNREGISTERED:
        return None
    account = trouble_when_sent(game, rows, move_row)
    return account if account is not None and account.time_trouble else None


def mail_case_holds(game: Game, rows, case: OverstepCase) -> bool:
    row = current_row(rows, case.event_seq) if case.event_seq else None
    return row is not None and mail_case_due(game, rows, row) is not None


def mail_case_new(*, game: Game, rows, move_row, on: date) -> OverstepCase | None:
    """The registered-mail case (unsaved) a move just stored opens if 50.4.12 was broken; None otherwise."""
    account = mail_case_due(game, rows, move_row)
    if account is None:
        return None
    window = account.control
    case = OverstepCase(
        game=game, kind=CaseKind.REGISTERED_MAIL, player=move_row.player, control_number=window.number,
        through_move=move_row.number, allowed_days=window.allowed_days,
        used_days=window.allowed_days - window.remaining_days, deadline=None, event_seq=move_row.seq,
        opened_on=on, checked_on=on, claim=_no_claim())
    return case
