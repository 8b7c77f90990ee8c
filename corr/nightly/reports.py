"""Nightly reports: per tournament, the deadlines of the next 7 days, time trouble, new overstep cases, and the
players on a move of a "Use 40+ days" notice (ICCF Playing Rules 3b: whether the silence is an exceeded time
limit is the arbiter's to decide; issue 40)."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from django.db import connection
from django.db.models import Exists, OuterRef
from django.utils import timezone

from corr.models import (
    EmailStatus, EventKind, Game, GameEvent, GameStatus, NightlyReport, OutboundEmail, OverstepCase, PlayerClock,
    Tournament,
)

from corr.games.turns import STORED_TURN_STATE_SQL, TurnState, stored_turn_state
from corr.sql import insert_new

DEADLINES_SOON_DAYS = 7


def _item(clock: PlayerClock, on: date) -> dict:
    """A player's line of the report: their stored figures and their turn that night (``stored_turn_state``:
    a deadline of a move still in the post is its presumed arrival's, ``until`` that arrival)."""
    game = clock.game
    state = stored_turn_state(on_move=clock.on_move, deadline=clock.deadline, computed_on=clock.computed_on, on=on)
    return {"game": game.pk, "player": clock.player, "username": game.user_of(clock.player).username,
            "deadline": clock.deadline.isoformat() if clock.deadline else None,
            "remaining_days": clock.remaining_days, "state": state.value,
            "until": clock.computed_on.isoformat() if state is TurnState.IN_THE_POST else None}


def report_data(*, on: date) -> dict[int, dict]:
    """Each active tournament's report of ``on`` (a few queries, whatever the number of tournaments)."""
    active = Tournament.objects.filter(Exists(Game.objects.filter(tournament=OuterRef("pk"),
                                                                   status=GameStatus.ONGOING)))
    data = {t.pk: {"id": t.pk, "name": t.name, "deadlines_soon": [], "time_trouble": [], "overstep_cases": [],
                   "long_moves": [], "email_failures": []} for t in active}
    ongoing = PlayerClock.objects.filter(game__status=GameStatus.ONGOING).select_related(
        "game", "game__white", "game__black")
    soon = ongoing.filter(on_move=True, deadline__gte=on, deadline__lte=on + timedelta(days=DEADLINES_SOON_DAYS))
    for clock in soon.order_by("deadline", "game_id", "player"):
        data[clock.game.tournament_id]["deadlines_soon"].append(_item(clock, on))
    for clock in ongoing.filter(flagged=True, time_trouble=True, overstepped_control__isnull=True).order_by(
            "remaining_days", "game_id", "player"):
        data[clock.game.tournament_id]["time_trouble"].append(_item(clock, on))
    # The players on move on a move they gave the "Use 40+ days" notice for: the arbiter decides on the silence.
    noticed = GameEvent.objects.filter(game=OuterRef("game_id"), kind=EventKind.LONG_MOVE, player=OuterRef("player"),
                                       number=OuterRef("made") + 1)
    for clock in ongoing.filter(Exists(noticed), on_move=True).order_by("game_id", "player"):
        data[clock.game.tournament_id]["long_moves"].append(_item(clock, on))
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
    """Store the reports of ``on`` that do not exist yet; returns how many this call created.

    On PostgreSQL one ``INSERT ... SELECT ... ON CONFLICT DO NOTHING``: the
    database builds every report's JSON from the stored clocks, cases and
    e-mails (``REPORTS_SQL``) and skips the tournaments reported already. On
    SQLite (the embedded mode, a small federation) the same data is built by
    ``report_data`` and inserted with ON CONFLICT DO NOTHING RETURNING.
    """
    claim, now = uuid.uuid4(), timezone.now()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(REPORTS_SQL, {
                "on": on, "soon": on + timedelta(days=DEADLINES_SOON_DAYS), "run": run_id, "claim": claim,
                "now": now, "ongoing": GameStatus.ONGOING, "failed": EmailStatus.FAILED})
            return cursor.rowcount
    rows = [(tid, on, {"date": on.isoformat(), **body}, run_id, claim, now) for tid, body in report_data(on=on).items()]
    return len(insert_new(NightlyReport, ("tournament", "date", "data", "run", "claim", "created_at"), rows,
                          returning=("id",)))


_ITEM = f"""jsonb_build_object('game', c.game_id, 'player', c.player, 'username', c.username,
                             'deadline', c.deadline, 'remaining_days', c.remaining_days,
                             'state', {STORED_TURN_STATE_SQL},
                             'until', CASE WHEN c.on_move AND c.computed_on > %(on)s THEN c.computed_on END)"""
"""A report's line (``_item``): the state is ``stored_turn_state``'s, written in SQL."""

# The "Use 40+ days" lines start from the notices themselves (the partial index ``event_long_move``; the kind is
# written as a literal so that the planner can match the index's condition), never from every ongoing clock.
REPORTS_SQL = f"""
WITH active AS (
  SELECT t.id, t.name FROM corr_tournament t
  WHERE EXISTS (SELECT 1 FROM corr_game g WHERE g.tournament_id = t.id AND g.status = %(ongoing)s)),
clock AS (
  SELECT g.tournament_id, c.*, u.username
  FROM corr_playerclock c JOIN corr_game g ON g.id = c.game_id
  JOIN accounts_user u ON u.id = CASE WHEN c.player = 'white' THEN g.white_id ELSE g.black_id END
  WHERE g.status = %(ongoing)s
    AND ((c.on_move AND c.deadline BETWEEN %(on)s AND %(soon)s)
         OR (c.flagged AND c.time_trouble AND c.overstepped_control IS NULL))),
soon AS (
  SELECT c.tournament_id, jsonb_agg({_ITEM} ORDER BY c.deadline, c.game_id, c.player) AS items
  FROM clock c WHERE c.on_move AND c.deadline BETWEEN %(on)s AND %(soon)s GROUP BY c.tournament_id),
trouble AS (
  SELECT c.tournament_id, jsonb_agg({_ITEM} ORDER BY c.remaining_days, c.game_id, c.player) AS items
  FROM clock c WHERE c.flagged AND c.time_trouble AND c.overstepped_control IS NULL GROUP BY c.tournament_id),
cases AS (
  SELECT g.tournament_id, jsonb_agg(jsonb_build_object(
           'game', o.game_id, 'player', o.player, 'username', u.username, 'deadline', o.deadline,
           'remaining_days', o.allowed_days - o.used_days, 'case', o.id, 'control', o.control_number,
           'used_days', o.used_days, 'allowed_days', o.allowed_days, 'status', o.status, 'kind', o.kind)
         ORDER BY o.game_id, o.player) AS items
  FROM corr_overstepcase o JOIN corr_game g ON g.id = o.game_id
  JOIN accounts_user u ON u.id = CASE WHEN o.player = 'white' THEN g.white_id ELSE g.black_id END
  WHERE o.announced_on = %(on)s GROUP BY g.tournament_id),
long AS (
  SELECT c.tournament_id, jsonb_agg({_ITEM} ORDER BY c.game_id, c.player) AS items
  FROM (SELECT g.tournament_id, c.*, u.username
        FROM (SELECT DISTINCT e.game_id, e.player, e.number FROM corr_gameevent e
              WHERE e.kind = '{EventKind.LONG_MOVE.value}') e
        JOIN corr_playerclock c ON c.game_id = e.game_id AND c.player = e.player AND c.made + 1 = e.number
        JOIN corr_game g ON g.id = c.game_id
        JOIN accounts_user u ON u.id = CASE WHEN c.player = 'white' THEN g.white_id ELSE g.black_id END
        WHERE g.status = %(ongoing)s AND c.on_move) c
  GROUP BY c.tournament_id),
failures AS (
  SELECT e.tournament_id, jsonb_agg(jsonb_build_object('key', e.key, 'subject', e.subject,
                                                       'attempts', e.attempts, 'error', e.last_error)
                                    ORDER BY e.id) AS items
  FROM corr_outboundemail e WHERE e.status = %(failed)s GROUP BY e.tournament_id)
INSERT INTO corr_nightlyreport (tournament_id, date, data, run_id, claim, created_at)
SELECT a.id, %(on)s, jsonb_build_object(
         'date', %(on)s, 'id', a.id, 'name', a.name,
         'deadlines_soon', COALESCE(soon.items, '[]'::jsonb), 'time_trouble', COALESCE(trouble.items, '[]'::jsonb),
         'overstep_cases', COALESCE(cases.items, '[]'::jsonb), 'long_moves', COALESCE(long.items, '[]'::jsonb),
         'email_failures', COALESCE(failures.items, '[]'::jsonb)),
       %(run)s, %(claim)s, %(now)s
FROM active a LEFT JOIN soon ON soon.tournament_id = a.id LEFT JOIN trouble ON trouble.tournament_id = a.id
LEFT JOIN cases ON cases.tournament_id = a.id LEFT JOIN long ON long.tournament_id = a.id
LEFT JOIN failures ON failures.tournament_id = a.id
ON CONFLICT DO NOTHING
"""
