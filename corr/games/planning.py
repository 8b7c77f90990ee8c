"""Planning ahead (issue 41): the latest moment to send a pending move, and when each control would end.

Both answers are the calculator's, never a formula of their own: a hypothetical move is added to the game
file of the game as it is (``corr.clock.gamefile.write_game``) and the game computed with it
(``corr.clock.batch.compute_file``), as ``manage.py clock FILE --with`` does. So every rule the calculator
knows (leave, double time, penalties, a control that ends with the move, a system's own clock) is in them.

- ``latest_sends``: for the player on move, the latest day (an instant, under an instant count) on which
  sending keeps them out of time trouble (50.4.12: registered mail at 5 or fewer days left in the control),
  and the latest that keeps them in time (no overstep, 50.4.3). Sending later only ever charges more, so the
  answer is found by bisection between the present and the deadline.
- ``control_ends``: if every further move took ``think_days`` from its receipt and the post ``post_days``
  to carry it, the day each player's next controls would end, and whether in time.

Nothing here reads or writes the database: the callers hand in the calculator's game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from corr.clock.batch import compute_file
from corr.clock.charging import player_start
from corr.clock.counts import moment_text, start_of
from corr.clock.gamefile import write_game

CONTROLS_AHEAD = 3
"""How many controls of each player ``control_ends`` looks ahead."""

THINK_DAYS_MAX = 365
"""The most days a move may be planned to take (a year: beyond any correspondence control)."""

PLIES_AHEAD_MAX = 400
"""The most hypothetical moves ``control_ends`` plays (a bound for systems whose controls never end)."""


@dataclass(frozen=True, slots=True)
class LatestSend:
    """The latest moments to send the pending move of ``player``.

    ``out_of_time_trouble``: sending then leaves more than the time-trouble days (50.4.12); None when no
    moment from now on does (already in time trouble, or over the control). ``in_time``: sending then
    keeps the player in the control (50.4.3); None when they are over it already. Dates under a count in
    dates or whole days; aware UTC instants under an instant count.
    """

    player: str
    out_of_time_trouble: date | datetime | None
    in_time: date | datetime | None

    def as_json(self) -> dict:
        return {"out_of_time_trouble": _text(self.out_of_time_trouble), "in_time": _text(self.in_time)}


@dataclass(frozen=True, slots=True)
class ControlEnd:
    """One control of ``player`` ending with move ``through_move``, sent on ``sent`` (a date or an instant);
    ``in_time``: the player is in time after it (no overstep, 50.4.3)."""

    player: str
    control: int
    through_move: int
    sent: date | datetime
    in_time: bool

    def as_json(self) -> dict:
        return {"player": self.player, "control": self.control, "through_move": self.through_move,
                "sent": _text(self.sent), "in_time": self.in_time}


def _text(moment) -> str | None:
    return None if moment is None else moment_text(moment)


def _move(player: str, number: int, received, sent, *, instants: bool) -> dict:
    """A game file's move event; ``received`` None: the calculator presumes it (the transit days)."""
    suffix = "at" if instants else "on"
    event = {"type": "move", "player": player, "number": number, f"sent_{suffix}": moment_text(sent)}
    if received is not None:
        event[f"received_{suffix}"] = moment_text(received)
    return event


def _with(data: dict, moves: list[dict], as_of):
    """``data`` computed as of ``as_of`` with ``moves`` sent; the first of them may be the game's pending move,
    which the game file holds with its receipt and no sending: it is sent, its own receipt kept."""
    events = list(data["events"])
    if moves:
        first = moves[0]
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            if (event.get("type") == "move" and event.get("player") == first["player"]
                    and event.get("number") == first["number"]):
                if "sent_on" not in event and "sent_at" not in event:
                    events[index] = {key: value for key, value in first.items() if not key.startswith("received")
                                     } | {key: value for key, value in event.items() if key.startswith("received")}
                    moves = moves[1:]
                break
    return compute_file(data | {"events": [*events, *moves], "as_of": moment_text(as_of)}, as_of=as_of, today=as_of)


def _latest(ok: Callable[[object], bool], lo, hi, step: timedelta, guess=None):
    """The latest moment in ``lo``..``hi`` (``step`` apart) for which ``ok`` holds, ``ok`` holding up to a point
    and no more after it; None when it does not hold at ``lo``.

    ``guess``: where the boundary likely is (a moment ``step``s from ``lo``), or None. It is tried first, with
    the moment after it: when ``ok`` holds at it and not after it, it is the answer (two calls to ``ok``);
    otherwise it narrows the bisection, so a wrong guess costs those two calls and never changes the answer.
    """
    if hi < lo or not ok(lo):
        return None
    if ok(hi):
        return hi
    low, high = 0, (hi - lo) // step  # ok(lo + low * step), not ok(lo + high * step)
    if guess is not None and lo < guess < hi:
        at = (guess - lo) // step
        if not ok(lo + at * step):
            high = at
        elif at + 1 == high or not ok(lo + (at + 1) * step):
            return lo + at * step  # it holds at the guess and not a step later: the boundary
        else:
            low = at + 1
    while high - low > 1:
        middle = (low + high) // 2
        if ok(lo + middle * step):
            low = middle
        else:
            high = middle
    return lo + low * step


def latest_sends(game, *, player: str, number: int, received, presumed: bool, now, deadline) -> LatestSend:
    """The latest moments from ``now`` for ``player`` to send move ``number`` (``LatestSend``).

    ``game``: the calculator's game (``Assembled.game``); ``received``/``presumed``: the pending move's receipt
    (``PendingReceipt``); ``now``: today's date, or the present instant under an instant count (its type
    says which); ``deadline``: the account's deadline (a date) or its ``flag_at`` (an instant), the last
    moment the search looks at. Each moment is tried by computing the game with the move sent then.

    A read of a server game computes this at almost every second (its clock is cached per second), so the
    boundaries are guessed, then verified by the calculator (``_latest``): in time up to the deadline (its
    last second), out of time trouble up to ``time_trouble_days`` + 1 days before it, where the days left fall
    day for day with the send (50.4.12: trouble at that many days left or fewer). About six computations
    where each was a bisection of ~20 (issue 41); a system where the guess is wrong costs the bisection.
    """
    instants = isinstance(now, datetime)
    data = write_game(game)
    step = timedelta(seconds=1) if instants else timedelta(days=1)
    if deadline is None:
        return LatestSend(player, None, None)
    # 50.4.12: at time_trouble_days days left or fewer the player is in time trouble: the latest moment out of
    # it is likely time_trouble_days + 1 days (of the control: 15 h on Dragon Go Server) before the deadline.
    control = game.ruleset.time_control
    day = timedelta(seconds=control.day_seconds) if instants and control is not None else timedelta(days=1)
    untroubled_guess = deadline - (game.ruleset.time_trouble_days + 1) * day
    if instants:  # the flag's instant is already out of time: the last second before it is the latest
        deadline = deadline - step

    def account(sent):
        move = _move(player, number, None if presumed else received, sent, instants=instants)
        return _with(data, [move], sent).accounts[player]

    def in_time(sent) -> bool:
        return account(sent).overstepped is None

    def untroubled(sent) -> bool:
        after = account(sent)
        return after.overstepped is None and not after.time_trouble

    return LatestSend(player, _latest(untroubled, now, deadline, step, untroubled_guess),
                      _latest(in_time, now, deadline, step))


def _start(game, player: str):
    """The day (instant) ``player``'s thinking time starts in the calculator's ``game`` (``player_start``)."""
    notice = next(p.notice_received_on for p in game.players if p.id == player)
    if isinstance(game.official_start, datetime) and notice is not None and not isinstance(notice, datetime):
        notice = start_of(notice, game.time_zone)  # a date under an instant count: 00:00 there, as charged
    return player_start(game.official_start, notice, game.ruleset.late_notice_start_days)


def control_ends(game, *, first: str, to_move: str, number: int, received, presumed: bool, now, think_days: int,
                 post_days: int, controls: int = CONTROLS_AHEAD) -> list[ControlEnd]:
    """If every further move took ``think_days`` from its receipt (never before ``now``) and the post
    ``post_days`` to carry it, the next ``controls`` controls of each player: the move that ends each, the
    moment it would be sent, in time or not; in the order they would end.

    ``first``: the player who moves first (their move N comes before the partner's move N);
    ``to_move``/``number``: the player on move and their pending move; ``received``/``presumed``: its receipt
    (``PendingReceipt``; a presumed one is the calculator's; None: the game's first move, from the player's
    start). ``now``: a date, or an instant under an
    instant count.
    """
    instants = isinstance(now, datetime)
    data = write_game(game)
    think, post = timedelta(days=think_days), timedelta(days=post_days)
    players = [p.id for p in game.players]
    second = next(pid for pid in players if pid != first)
    start = _with(data, [], now)
    target = {pid: start.accounts[pid].control.through_move for pid in players}
    control = {pid: start.accounts[pid].control.number for pid in players}
    rows: dict[str, list[ControlEnd]] = {pid: [] for pid in players}
    moves: list[dict] = []
    player, move_number = to_move, number
    # A game's first move has no receipt: its time runs from the player's start (50.4.5, 50.4.6), as the
    # calculator counts it, so "N days from its receipt" are N days from that start, not from today (N days
    # on top of those already used: a player in time was shown over the control).
    arrived = received if received is not None else _start(game, player)
    for _ply in range(PLIES_AHEAD_MAX):
        if all(len(done) >= controls for done in rows.values()):
            break
        sent = max(arrived + think, now)
        # The pending move's own receipt stays the calculator's when it is presumed or the player's start.
        own = (presumed or received is None) and not moves
        moves.append(_move(player, move_number, None if own else arrived, sent, instants=instants))
        if move_number == target[player] and len(rows[player]) < controls:
            account = _with(data, moves, sent).accounts[player]
            rows[player].append(ControlEnd(player, control[player], move_number, sent, account.overstepped is None))
            target[player], control[player] = account.control.through_move, account.control.number
        # The first player's move N is answered by the partner's move N; the partner's by the first's N + 1.
        move_number = move_number if player == first else move_number + 1
        player, arrived = (second if player == first else first), sent + post
    return sorted((row for done in rows.values() for row in done), key=lambda r: (r.sent, r.player))
