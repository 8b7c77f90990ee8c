"""A readable table of a game's clock, for arbiters at a terminal."""

from __future__ import annotations

from .account import GameClock

_COLUMNS = ("player", "start", "made", "on move", "thinking", "penalty", "delay", "total",
            "control", "left", "deadline", "trouble", "overstepped")


def render_table(clock: GameClock) -> str:
    """The accounts of one game as an aligned table, then the ledger, one line per entry."""
    rows = [_COLUMNS]
    for pid, a in clock.accounts.items():
        over = a.overstepped
        rows.append((
            pid, a.start.isoformat(), str(a.made), "yes" if a.on_move else "no",
            str(a.thinking_days), str(a.penalty_days), str(a.delay_days), str(a.total_days),
            f"{a.control.number} (to move {a.control.through_move}, {a.control.allowed_days} d)",
            str(a.control.remaining_days), a.deadline.isoformat() if a.deadline else "-",
            "REGISTERED MAIL (50.4.12)" if a.time_trouble else "no",
            f"control {over.control}: {over.used_days} > {over.allowed_days} d" if over else "no",
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = [f"as of {clock.as_of.isoformat()}"]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.append("")
    lines.append("ledger:")
    for line in clock.ledger:
        excluded = f", {line.excluded_days} excluded" if line.excluded_days else ""
        lines.append(f"  [{line.event}] {line.player} move {line.move}: {line.kind} {line.days} d{excluded}"
                     f" ({line.rule}) {line.note}")
    return "\n".join(lines)
