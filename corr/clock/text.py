"""A readable table of a game's clock, for arbiters at a terminal: in English words, no stored code (issue 39).

The calculator's values (ledger kinds, reasons, a system's state) are said as the pages say them in English
(``corr.web.describe``'s ``LEDGER_KINDS``, ``REASON_WORDS``, ``system_state_text``); the codes stay in the JSON
(``--json``), for programs.
"""

from __future__ import annotations

import re
from datetime import date

from .account import GameClock
from .calendar import ExcludedReason
from .counts import duration_text, moment_text
from .events import DelayReason, NoticeReason, PenaltyReason

KIND_WORDS = {
    "void_move": "void move (impossible or illegible)", "variant_move": "variant move",
    "pending_move": "thinking now (move not sent yet)", "notice": "notice or repeat", "credit": "time given back",
}
"""The ledger's kinds in words (the others, ``move``, ``penalty``, ``delay``, are words already)."""

_CODES = re.compile(r"\b(" + "|".join(sorted({r.value for e in (NoticeReason, PenaltyReason, DelayReason,
                                                                 ExcludedReason) for r in e if "_" in r.value},
                                              key=len, reverse=True)) + r")\b")
"""The reasons stored as codes (``impossible_move``) wherever a ledger note names them."""

_UNIT = re.compile(r"_(days|seconds|ms)(?=_|$)")


def kind_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind.replace("_", " "))


def note_words(note: str) -> str:
    """A ledger note with its reasons in words: ``impossible_move notice`` reads ``impossible move notice``."""
    return _CODES.sub(lambda m: m[1].replace("_", " "), note)


def state_words(clock: dict) -> str:
    """A system's state (``Account.clock``) in words: each key named, its unit said with the amount, yes and no
    for true and false: ``main 30 d, periods left 5, period 1 d, in byoyomi no``."""
    parts = []
    for key, value in clock.items():
        if key == "system":
            continue
        unit = _UNIT.search(key)
        name = _UNIT.sub("", key).replace("_", " ")
        if isinstance(value, bool):
            said = "yes" if value else "no"
        elif value is None:
            said = "-"
        elif unit is not None and unit[1] == "days":
            said = f"{value} d"
        elif unit is not None and isinstance(value, (int, float)):
            said = duration_text(int(value / 1000 if unit[1] == "ms" else value))
        else:
            said = str(value)
        parts.append(f"{name} {said}")
    return ", ".join(parts)

_COLUMNS = ("player", "start", "made", "on move", "thinking", "penalty", "delay", "total",
            "control", "left", "deadline", "flag at", "trouble", "overstepped")


def _when(value: date | None) -> str:
    """A date, an instant (RFC 3339, UTC) or ``-``."""
    return "-" if value is None else moment_text(value)


def render_table(clock: GameClock) -> str:
    """The accounts of one game as an aligned table, then the ledger, one line per entry."""
    rows = [_COLUMNS]
    for pid, a in clock.accounts.items():
        over = a.overstepped
        rows.append((
            pid, _when(a.start), str(a.made), "yes" if a.on_move else "no",
            str(a.thinking_days), str(a.penalty_days), str(a.delay_days), str(a.total_days),
            f"{a.control.number} (to move {a.control.through_move}, {a.control.allowed_days} d)",
            str(a.control.remaining_days), _when(a.deadline), _when(a.flag_at),
            "REGISTERED MAIL (50.4.12)" if a.time_trouble else "no",
            f"control {over.control}: {over.used_days} > {over.allowed_days} d, at {_when(over.at)}" if over else "no",
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = [f"as of {_when(clock.as_of)}"]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.append("")
    for pid, a in clock.accounts.items():
        lines.append(f"why {pid}: {explain_account(a, clock.ruleset)}")
    lines.append("")
    lines.append("ledger:")
    for line in clock.ledger:
        excluded = f", {line.excluded_days} excluded" if line.excluded_days else ""
        lines.append(f"  [{line.event}] {line.player} move {line.move}: {kind_words(line.kind)} {line.days} d"
                     f"{excluded} ({line.rule}) {note_words(line.note)}".rstrip())
    return "\n".join(lines)


def explain_account(account, ruleset, *, by_post: bool = True) -> str:
    """Why a player's figures are what they are, in one paragraph (for pages and tables).

    ``by_post`` False (a server game) leaves out 50.4.12's registered mail, a rule of the post.

    Example: "Control 1 (moves 1-10) allows 30 days; 27 are charged (23 thinking,
    0 penalty, 4 delay): 3 left. Pending move counts from 2026-02-10 and has run
    19 days: deadline 2026-02-10 + 19 + 3 = 2026-03-04. 3 <= 5 days left: replies
    by registered mail (50.4.12)."
    """
    c = account.control
    if account.clock is not None:
        state = state_words(account.clock)
        parts = [f"{account.clock['system'].replace('_', ' ').capitalize()} control: {state};"
                 f" {c.remaining_days} day(s) left for move {account.next_charge_number}"
                 f" ({account.thinking_days} thinking, {account.penalty_days} penalty,"
                 f" {account.delay_days} delay in all)."]
    else:
        first_move = c.through_move - ruleset.moves_per_control + 1
        used = c.allowed_days - c.remaining_days
        parts = [
            f"Control {c.number} (moves {first_move}-{c.through_move}, accumulated) allows {c.allowed_days} days;"
            f" {used} are charged so far ({account.thinking_days} thinking,"
            f" {account.penalty_days} penalty, {account.delay_days} delay in all): {c.remaining_days} left (50.4.3)."
        ]
    if account.deadline is not None and ruleset.count.instants and account.flag_at is not None:
        # Counted by the instant (ICCF 2.4.2, lichess): the date alone would mislead by up to a day.
        parts.append(f"The pending move must be sent before {_when(account.flag_at)}.")
    elif account.deadline is not None:
        parts.append(f"The pending move must be sent by {account.deadline.isoformat()} at the latest.")
    if account.time_trouble and by_post:
        parts.append(f"{c.remaining_days} <= {ruleset.time_trouble_days} days left: replies must go by"
                     " registered mail (50.4.12).")
    elif account.time_trouble:
        parts.append(f"{c.remaining_days} <= {ruleset.time_trouble_days} days left: time trouble.")
    if account.overstepped is not None:
        o = account.overstepped
        if o.reason == "max_per_move":
            parts.append(f"Move {o.through_move} took {o.used_days} days, over the limit of {o.allowed_days}"
                         " for a single move.")
        elif account.clock is not None and account.clock["system"] not in ("periods", "sudden_death"):
            parts.append(f"The flag fell on move {o.through_move}: {o.used_days} days used,"
                         f" {o.allowed_days} on the clock.")
        else:
            parts.append(f"Control {o.control} was exceeded: {o.used_days} days used through move"
                         f" {o.through_move}, {o.allowed_days} allowed.")
    return " ".join(parts)
