"""Warnings of one date: time-trouble notices and deadline reminders, each once; cases announced once.

``flags_collect`` is pure: from computed accounts it lists what should exist.
Cases are opened and withdrawn by ``corr.games.cases`` as the facts change;
the nightly run announces (``cases_announce``) the open cases its re-check
still finds, once each.
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

from corr.clock.calendar import Exclusions
from corr.games.clockstate import GameTime
from corr.models import CaseKind, DeadlineReminder, Game, Mode, OverstepCase, OverstepStatus, TimeTroubleNotice

from .emails import email_prepare


@dataclass
class Flags:
    """What a set of games should have recorded on a date (unsaved rows)."""

    notices: list[TimeTroubleNotice] = field(default_factory=list)
    reminders: list[DeadlineReminder] = field(default_factory=list)


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
    """Add to ``flags`` what the accounts of ``game`` as of ``on`` call for.

    A player gets no warning on a day that does not count for them (their leave, a holiday, a
    weekend day, issue 14): the clock is stopped; the next counted day's run warns (a run that
    missed a day still reminds).
    """
    calculated = time.clock.game
    for colour, account in time.clock.accounts.items():
        if account.overstepped is not None:
            continue  # 50.4.3: a case for the arbiters (corr.games.cases), no more warnings
        player = next(p for p in calculated.players if p.id == colour)
        stopped = Exclusions.of(player.leave, calculated.ruleset)
        if stopped is not None and stopped.reason(on) is not None:
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


def flags_store(*, flags: Flags, run=None) -> Stored:
    """Insert the flags, ignoring those that exist; return the ones this call created.

    The rows read back carry the caller's game objects (no join to load them
    again). Must run inside a transaction (the caller's chunk).
    """
    claim = uuid.uuid4()
    created = []
    for model, rows in ((TimeTroubleNotice, flags.notices), (DeadlineReminder, flags.reminders)):
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


def cases_announce(*, game_ids: list[int], on: date) -> list[OverstepCase]:
    """Mark the open, never announced cases of these (locked) games announced on ``on``; return them.

    Called after the chunk's re-check, so only cases that the facts still show
    are announced; a case opened and withdrawn during the day never is.
    """
    cases = list(OverstepCase.objects.filter(game_id__in=game_ids, status=OverstepStatus.OPEN,
                                             announced_on__isnull=True)
                 .select_related("game", "game__tournament", "game__white", "game__black").order_by("id"))
    OverstepCase.objects.filter(pk__in=[c.pk for c in cases], announced_on__isnull=True).update(announced_on=on)
    return cases


def flag_emails(stored: Stored) -> list:
    """The e-mails announcing newly created warnings (unsaved)."""
    emails = []
    for n in stored.notices:
        user = n.game.user_of(n.player)
        postal = n.game.mode == Mode.POSTAL
        emails.append(email_prepare(
            key=f"time_trouble:{n.pk}", tournament_id=n.game.tournament_id,
            recipients=[user.email] if user.email else [],
            subject=f"Time trouble in game #{n.game_id}: {n.remaining_days} day(s) left"
                    + (" — use registered mail" if postal else ""),
            body=(f"{user.username}, as of {n.noticed_on.isoformat()} in game #{n.game_id} ({n.game.tournament.name})"
                  f" you have {n.remaining_days} day(s) left in control {n.control_number}"
                  + (f"; your deadline is {n.deadline.isoformat()}" if n.deadline else "") + ".\n"
                  + ("Article 50.4.12: a player with 5 or fewer days left until the end of the control must send"
                     " replies by registered mail.\n" if postal else "")
                  + _game_link(n.game))))
    for r in stored.reminders:
        user = r.game.user_of(r.player)
        left = (r.deadline - r.reminded_on).days
        emails.append(email_prepare(
            key=f"reminder:{r.pk}", tournament_id=r.game.tournament_id,
            recipients=[user.email] if user.email else [],
            subject=f"Game #{r.game_id}: your move is due by {r.deadline.isoformat()} ({left} day(s))",
            body=(f"{user.username}, your move in game #{r.game_id} ({r.game.tournament.name}) must be sent by"
                  f" {r.deadline.isoformat()}, in {left} day(s).\n" + _game_link(r.game))))
    return emails


def case_emails(cases: list[OverstepCase]) -> list:
    """The arbiters' e-mails of newly announced cases (unsaved), one per case."""
    emails = []
    arbiters_of: dict[int, list[str]] = {}
    for c in cases:
        tid = c.game.tournament_id
        if tid not in arbiters_of:  # one query per tournament, not per case
            arbiters_of[tid] = [a.email for a in c.game.tournament.arbiters.all() if a.email]
        who = f"{c.player} ({c.game.user_of(c.player).username})"
        if c.kind == CaseKind.REGISTERED_MAIL:
            subject = f"Registered mail case in game #{c.game_id}: {c.player}'s move {c.through_move}"
            what = (f"{who} sent move {c.through_move} by ordinary mail or e-mail with"
                    f" {c.allowed_days - c.used_days} day(s) left in control {c.control_number} (50.4.12).\n"
                    "Confirm (a penalty, 50.4.9.3) or dismiss it with a reason:\n")
        else:
            subject = f"Overstep case in game #{c.game_id}: {c.player} exceeded control {c.control_number}"
            what = (f"{who} used {c.used_days} days through move {c.through_move}, {c.allowed_days} allowed"
                    f" (50.4.3), as re-checked on {c.checked_on.isoformat() if c.checked_on else c.opened_on}.\n"
                    "Confirm (the game is lost on time) or dismiss it with a reason:\n")
        emails.append(email_prepare(
            key=f"overstep:{c.pk}", tournament_id=tid, recipients=arbiters_of[tid], subject=subject,
            body=f"Game #{c.game_id} ({c.game.tournament.name}): {what}"
                 f"{absolute_url(reverse('tournament', args=[tid]))}\n{_game_link(c.game)}"))
    return emails


def absolute_url(path: str) -> str:
    """``SITE_URL`` + path: e-mails are read outside the site, where a relative link means nothing."""
    return settings.SITE_URL.rstrip("/") + path


def _game_link(game: Game) -> str:
    # reverse() once per process, not per e-mail: a night may write thousands.
    global _GAME_PATH
    if _GAME_PATH is None:
        _GAME_PATH = reverse("game", args=[0]).replace("/0/", "/{}/")
    return f"Game page: {absolute_url(_GAME_PATH.format(game.pk))}\n"


_GAME_PATH: str | None = None
