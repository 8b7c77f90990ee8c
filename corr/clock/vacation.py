"""Vacation as the servers keep it, and the players' pauses (issue 40).

A ruleset's ``vacation`` (:class:`~corr.clock.allowances.VacationRule`) gives each player an allowance that
accrues (an amount every period from the official start, up to a cap) and that every vacation spends (at
least ``min_hours``, by started hour or day). A vacation is a stretch of time when that player's clock
stands still (:mod:`corr.clock.personal`); the other player's clock is never touched.

- **Booked** vacations are the game file's ``players.<id>.vacation.taken``; each must fit the allowance
  left when it begins. With ``ends_on_move`` a move the player sends during one ends it there (chess.com:
  "vacation ends when you make a move"), and it spends what it lasted.
- **Automatic** vacation (``automatic``; chess.com's members: "if you are about to time out, vacation will
  automatically be turned on"): where the flag would fall while allowance remains, a vacation starts at the
  last instant the player was in time (one second before the flag: the clock stops with that second left)
  and lasts until the player moves or the allowance is spent, whichever is first; then the clock runs again
  from that second. Each is found by computing the game and looking at its flags, so the calculator
  derives them from the facts and records them (``automatic``: true) as the server would.

``pauses_per_game`` (OGS's ``pauses_left``) bounds how many pauses each player may start in a game.

No Django here; :func:`corr.clock.account.compute` calls :func:`prepare` and :func:`with_automatic_vacation`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any, Callable

from .allowances import Granularity, VacationRule
from .counts import Count, duration_text, rfc3339
from .errors import clock_error
from .events import Game, Move, Player
from .personal import Span

HOUR = 3600


def unit_seconds(rule: VacationRule) -> int:
    """The granularity of ``rule`` in seconds: an hour or a day."""
    return HOUR * (24 if rule.granularity is Granularity.DAYS else 1)


def spent_seconds(rule: VacationRule, length_seconds: int) -> int:
    """What a vacation of ``length_seconds`` spends: every started unit, and never less than ``min_hours``."""
    unit = unit_seconds(rule)
    return max(rule.min_hours * HOUR, -(-length_seconds // unit) * unit)


def balance_seconds(rule: VacationRule, player: Player, start: datetime, at: datetime,
                    spans: tuple[Span, ...]) -> int:
    """The player's allowance left at ``at``: the initial amount, what accrued every ``period_days`` from the
    game's ``start`` (never above ``cap_hours``), less what each vacation begun before ``at`` spent.

    Accrual and spending are taken in the order they happened: an allowance at its cap accrues nothing.
    """
    balance = (rule.initial_hours if player.allowance_hours is None else player.allowance_hours) * HOUR
    cap = rule.cap_hours * HOUR
    period = timedelta(days=rule.period_days)
    steps: list[tuple[datetime, int]] = []
    if rule.accrue_hours:
        tick = start + period
        while tick <= at:
            steps.append((tick, rule.accrue_hours * HOUR))
            tick += period
    for span in spans:
        if span.first < at:
            steps.append((span.first, -spent_seconds(rule, _seconds(span.last - span.first))))
    for _when, amount in sorted(steps, key=lambda s: s[0]):
        if amount > 0:
            balance = max(balance, min(cap, balance + amount)) if cap else balance + amount
        else:
            balance += amount
    return balance


def prepare(game: Game) -> Game:
    """``game`` with its vacations checked against the rule and ended by moves where the rule says so, and
    its pauses checked against the budget.

    :raises ClockError: naming the player's field and the rule: vacation or pauses the ruleset does not
        have, a booked vacation shorter than the rule's least or above the allowance left, more pauses
        started than the budget.
    """
    rules = game.ruleset
    players = list(game.players)
    _check_pauses(game)
    rule = rules.vacation
    changed = False
    for i, player in enumerate(players):
        if not player.vacation:
            continue
        field = f"players.{player.id}.vacation.taken"
        if rule is None:
            raise clock_error("vacation_not_allowed", field=field)
        if rules.count is Count.DATES:
            raise clock_error("spans_need_instants", field=field, key="vacation")
        sent = [e.sent_on for e in game.events if isinstance(e, Move) and e.player == player.id
                and isinstance(e.sent_on, datetime)]
        spans: list[Span] = []
        for k, span in enumerate(player.vacation):
            where = f"{field}[{k}]"
            length = _seconds(span.last - span.first)
            if not span.automatic and length < rule.min_hours * HOUR:
                raise clock_error("vacation_too_short", field=where, hours=rule.min_hours, taken=duration_text(length))
            if rule.ends_on_move:
                ended = next((s for s in sent if span.first < s < span.last), None)
                if ended is not None:
                    span = replace(span, last=ended)
            left = balance_seconds(rule, player, _instant(game.official_start), span.first, tuple(spans))
            spent = spent_seconds(rule, _seconds(span.last - span.first))
            if spent > left:
                raise clock_error("vacation_over_allowance", field=where, player=player.id,
                                  taken=duration_text(spent), left=duration_text(max(0, left)))
            spans.append(span)
        if tuple(spans) != player.vacation:
            players[i] = replace(player, vacation=tuple(spans))
            changed = True
    if not changed:
        return game
    return replace(game, players=(players[0], players[1]))


def _check_pauses(game: Game) -> None:
    budget = game.ruleset.pauses_per_game
    started: dict[str, int] = {}
    for player in game.players:
        if player.pauses and budget is None:
            raise clock_error("pauses_not_allowed", field=f"players.{player.id}.pauses")
        for k, span in enumerate(player.pauses):
            who = span.by or player.id
            started[who] = started.get(who, 0) + 1
            if budget is not None and started[who] > budget:
                raise clock_error("pauses_over_budget", field=f"players.{player.id}.pauses[{k}]", player=who,
                                  count=started[who], budget=budget)


def with_automatic_vacation(game: Game, flags: Callable[[Game], dict[str, Any]]) -> Game:
    """``game`` with the automatic vacations its flags call for (the rule's ``automatic``), recorded as such.

    ``flags(game)`` computes the game and gives each player's overstep (its ``at``, the flag's instant) or
    None. While a player's flag falls with allowance left, a vacation is added from one second before it
    until the player's next move or the end of the allowance, and the game computed again: each round adds
    one vacation later than the ones before, so there are at most as many rounds as moves.
    """
    rule = game.ruleset.vacation
    if rule is None or not rule.automatic or game.ruleset.count is Count.DATES:
        return game
    for _round in range(len(game.events) + 2):
        added = False
        for pid, over in flags(game).items():
            at = None if over is None else over.at
            if at is None:
                continue
            player = next(p for p in game.players if p.id == pid)
            begin = at - timedelta(seconds=1)
            if any(s.first <= begin < s.last for s in player.vacation):
                continue  # the flag fell after a vacation had spent the allowance: it stands
            left = balance_seconds(rule, player, _instant(game.official_start), begin, player.vacation)
            unit = unit_seconds(rule)
            usable = (left // unit) * unit
            if usable <= 0 or usable < rule.min_hours * HOUR:
                continue  # no allowance left (or less than a vacation's least): the flag falls
            end = begin + timedelta(seconds=usable)
            sent = _move_in_hand_sent(game, pid, at)
            if sent is not None and sent < end:
                end = sent
            span = Span(begin, end, automatic=True)
            spans = tuple(sorted((*player.vacation, span), key=lambda s: s.first))
            players = tuple(replace(p, vacation=spans) if p.id == pid else p for p in game.players)
            game = replace(game, players=(players[0], players[1]))
            added = True
            break
        if not added:
            return game
    return game


def vacation_json(game: Game, player: Player, as_of: datetime) -> dict[str, Any]:
    """What the account says of a player's vacation: the allowance left as of ``as_of`` (hours) and every
    vacation taken (automatic ones marked)."""
    rule = game.ruleset.vacation
    assert rule is not None
    spans = tuple(s if s.last <= as_of else replace(s, last=max(as_of, s.first + timedelta(seconds=1)))
                  for s in player.vacation if s.first < as_of)
    left = balance_seconds(rule, player, _instant(game.official_start), as_of + timedelta(seconds=1), spans)
    return {"left_hours": max(0, left) // HOUR, "taken": [s.as_json() for s in player.vacation]}


def _move_in_hand_sent(game: Game, player: str, at: datetime) -> datetime | None:
    """When the player sent the move that was running at ``at`` (None: it is still pending)."""
    for event in game.events:
        if isinstance(event, Move) and event.player == player and event.variant is None:
            sent = event.sent_on
            if isinstance(sent, datetime) and sent >= at:
                return sent
    return None


def _seconds(delta: timedelta) -> int:
    return delta.days * 86_400 + delta.seconds


def _instant(moment: date) -> datetime:
    assert isinstance(moment, datetime)  # a count of instants: the official start is an instant
    return moment


__all__ = ["prepare", "with_automatic_vacation", "balance_seconds", "spent_seconds", "vacation_json", "rfc3339"]
