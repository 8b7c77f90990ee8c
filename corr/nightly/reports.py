"""Nightly reports: per tournament, the deadlines of the next 7 days, time trouble and new overstep cases."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from django.db.models import Exists, OuterRef

from corr.models import (
    EmailStatus, Game, GameStatus, NightlyReport, OutboundEmail, OverstepCase, PlayerClock, Tournament,
)

DEADLINES_SOON_DAYS = 7


def _item(clock: PlayerClock) -> dict:
    game = clock.game
    return {"game": game.pk, "player": clock.player, "username": game.user_of(clock.player).username,
            "deadline": clock.deadline.isoformat() if clock.deadline else None,
            "remaining_days": clock.remaining_days}


def report_data(*, on: date) -> dict[int, dict]:
    """Each active tournament's report of ``on`` (a few queries, whatever the number of tournaments)."""
    active = Tournament.objects.filter(Exists(Game.objects.filter(tournament=OuterRef("pk"),
                                                                   status=GameStatus.ONGOING)))
    data = {t.pk: {"id": t.pk, "name": t.name, "deadlines_soon": [], "time_trouble": [], "overstep_cases": [],
                   "email_failures": []} for t in active}
    ongoing = PlayerClock.objects.filter(game__status=GameStatus.ONGOING).select_related(
        "game", "game__white", "game__black")
    soon = ongoing.filter(on_move=True, deadline__gte=on, deadline__lte=on + timedelta(days=DEADLINES_SOON_DAYS))
    for clock in soon.order_by("deadline", "game_id", "player"):
        data[clock.game.tournament_id]["deadlines_soon"].append(_item(clock))
    for clock in ongoing.filter(flagged=True, time_trouble=True, overstepped_control__isnull=True).order_by(
            "remaining_days", "game_id", "player"):
        data[clock.game.tournament_id]["time_trouble"].append(_item(clock))
    # The cases announced that night: open after the night's re-check, new to the arbiters.
    cases = OverstepCase.objects.filter(announced_on=on).select_related("game", "game__white", "game__black")
    for case in cases.order_by("game_id", "player"):
        if case.game.tournament_id in data:
            data[case.game.tournament_id]["overstep_cases"].append({
                "game": case.game_id, "player": case.player, "username": case.game.user_of(case.player).username,
                "deadline": case.deadline.isoformat() if case.deadline else None,
                "remaining_days": case.allowed_days - case.used_days, "case": case.pk,
                "control": case.control_number, "used_days": case.used_days, "allowed_days": case.allowed_days,
                "status": case.status, "kind": case.kind})
    failed = OutboundEmail.objects.filter(status=EmailStatus.FAILED, tournament_id__in=list(data))
    for email in failed.order_by("id"):
        data[email.tournament_id]["email_failures"].append({
            "key": email.key, "subject": email.subject, "attempts": email.attempts, "error": email.last_error})
    return data


def nightly_reports_create(*, on: date, run_id: int | None) -> int:
    """Store the reports of ``on`` that do not exist yet; returns how many this call created."""
    claim = uuid.uuid4()
    reports = [NightlyReport(tournament_id=tid, date=on, data={"date": on.isoformat(), **body}, run_id=run_id,
                             claim=claim) for tid, body in report_data(on=on).items()]
    NightlyReport.objects.bulk_create(reports, ignore_conflicts=True)
    return NightlyReport.objects.filter(claim=claim).count()
