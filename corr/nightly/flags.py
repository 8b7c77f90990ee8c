"""Flags of one date: time-trouble notices, deadline reminders and overstep cases, each once.

``flags_collect`` is pure: from computed accounts it lists what should exist.
``flags_store`` inserts them all with ON CONFLICT DO NOTHING under one claim
token and reads back the rows carrying that token: those, and only those, are
new and this caller's to announce (STYLE 7). Running twice, or two runs at
once, creates and sends nothing twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date

from django.conf import settings
from django.urls import reverse

from corr.games.clockstate import GameTime
from corr.models import DeadlineReminder, Game, OverstepCase, TimeTroubleNotice

from .emails import email_prepare


@dataclass
class Flags:
    """What a set of games should have recorded on a date (unsaved rows)."""

    notices: list[TimeTroubleNotice] = field(default_factory=list)
    reminders: list[DeadlineReminder] = field(default_factory=list)
    cases: list[OverstepCase] = field(default_factory=list)


def reminder_threshold(days_left: int, thresholds: list[int]) -> int | None:
    """The tightest reminder threshold (days before the deadline) that ``days_left`` has reached.

    With thresholds 7 and 2: 7..3 days left -> 7; 2..0 -> 2; 8 or more, or a
    deadline already passed -> None. A run that missed a day still reminds.
    """
    if days_left < 0:
        return None
    reached = [t for t in thresholds if days_left <= t]
    return min(reached) if reached else None


def flags_collect(*, game: Game, time: GameTime, on: date, flags: Flags) -> None:
    """Add to ``flags`` what the accounts of ``game`` as of ``on`` call for."""
    for colour, account in time.clock.accounts.items():
        over = account.overstepped
        if over is not None:
            # 50.4.3: a control exceeded, or a deadline passed (its pending move then exceeds it).
            flags.cases.append(OverstepCase(
                game=game, player=colour, control_number=over.control, through_move=over.through_move,
                allowed_days=over.allowed_days, used_days=over.used_days, deadline=account.deadline,
                opened_on=on))
            continue
        if account.time_trouble:
            flags.notices.append(TimeTroubleNotice(
                game=game, player=colour, control_number=account.control.number,
                remaining_days=account.remaining_days, deadline=account.deadline, noticed_on=on))
        if account.deadline is not None:
            threshold = reminder_threshold((account.deadline - on).days, settings.REMINDER_DAYS)
            if threshold is not None:
                flags.reminders.append(DeadlineReminder(game=game, player=colour, deadline=account.deadline,
                                                        days_before=threshold, reminded_on=on))


@dataclass
class Stored:
    """The rows this call created (the others existed already)."""

    notices: list[TimeTroubleNotice]
    reminders: list[DeadlineReminder]
    cases: list[OverstepCase]


def flags_store(*, flags: Flags, run=None) -> Stored:
    """Insert the flags, ignoring those that exist; return the ones this call created.

    The rows read back carry the caller's game objects (no join to load them
    again). Must run inside a transaction (the caller's chunk).
    """
    claim = uuid.uuid4()
    created = []
    for model, rows in ((TimeTroubleNotice, flags.notices), (DeadlineReminder, flags.reminders),
                        (OverstepCase, flags.cases)):
        for row in rows:
            row.claim, row.run = claim, run
        if rows:
            games = {row.game_id: row.game for row in rows}
            model.objects.bulk_create(rows, ignore_conflicts=True)
            mine = list(model.objects.filter(claim=claim))
            for row in mine:
                row.game = games[row.game_id]
            created.append(mine)
        else:
            created.append([])
    return Stored(*created)


def flag_emails(stored: Stored) -> list:
    """The e-mails announcing newly created flags (unsaved)."""
    emails = []
    for n in stored.notices:
        user = n.game.user_of(n.player)
        emails.append(email_prepare(
            key=f"time_trouble:{n.pk}", tournament_id=n.game.tournament_id,
            recipients=[user.email] if user.email else [],
            subject=f"Time trouble in game #{n.game_id}: {n.remaining_days} day(s) left — use registered mail",
            body=(f"{user.username}, in game #{n.game_id} ({n.game.tournament.name}) you have {n.remaining_days}"
                  f" day(s) left in control {n.control_number}"
                  + (f"; your deadline is {n.deadline.isoformat()}" if n.deadline else "") + ".\n"
                  "Article 50.4.12: a player with 5 or fewer days left until the end of the control must send"
                  " replies by registered mail.\n" + _game_link(n.game))))
    for r in stored.reminders:
        user = r.game.user_of(r.player)
        left = (r.deadline - r.reminded_on).days
        emails.append(email_prepare(
            key=f"reminder:{r.pk}", tournament_id=r.game.tournament_id,
            recipients=[user.email] if user.email else [],
            subject=f"Game #{r.game_id}: your move is due by {r.deadline.isoformat()} ({left} day(s))",
            body=(f"{user.username}, your move in game #{r.game_id} ({r.game.tournament.name}) must be sent by"
                  f" {r.deadline.isoformat()}, in {left} day(s).\n" + _game_link(r.game))))
    arbiters_of: dict[int, list[str]] = {}
    for c in stored.cases:
        tid = c.game.tournament_id
        if tid not in arbiters_of:  # one query per tournament, not per case
            arbiters_of[tid] = [a.email for a in c.game.tournament.arbiters.all() if a.email]
        arbiters = arbiters_of[tid]
        emails.append(email_prepare(
            key=f"overstep:{c.pk}", tournament_id=c.game.tournament_id, recipients=arbiters,
            subject=f"Overstep case in game #{c.game_id}: {c.player} exceeded control {c.control_number}",
            body=(f"Game #{c.game_id} ({c.game.tournament.name}): {c.player} ({c.game.user_of(c.player).username})"
                  f" used {c.used_days} days through move {c.through_move}, {c.allowed_days} allowed (50.4.3).\n"
                  "Confirm (the game is lost on time) or dismiss it with a reason:\n"
                  f"{reverse('tournament', args=[c.game.tournament_id])}")))
    return emails


def _game_link(game: Game) -> str:
    # reverse() once per process, not per e-mail: a night may write thousands.
    global _GAME_PATH
    if _GAME_PATH is None:
        _GAME_PATH = reverse("game", args=[0]).replace("/0/", "/{}/")
    return f"Game page: {_GAME_PATH.format(game.pk)}\n"


_GAME_PATH: str | None = None
