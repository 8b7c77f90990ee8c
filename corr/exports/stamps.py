"""Correspondence PGN's sent stamp, ``[%ccsnt]``: the moment a move was sent, as ICCF and SchemingMind write it;
and corr's received date, ``[%ccrd]``, of a move by post or e-mail.

``[%ccsnt 2026.03.01]`` when the clock counts dates (a postcard's or a server game's under article
50.4.4), ``[%ccsnt 2026.03.01,14:05:09]`` when it counts the instant (a server game counting
``whole_days`` or ``exact``, issue 22), the time in the tournament's zone: the form
:mod:`corr.formats.pgn_stamps` reads back (``manage.py clock --pgn``, the tournament import).

``[%ccrd 2026.02.28]`` (issue 37) is the date a player received the move they answer, recorded by them:
by post it is days after the partner's ``[%ccsnt]``, and without it a reader charges those days in transit
as thinking. It stands in the order things happened: before a move's ``[%ccsnt]`` the mover's receipt;
after the last move's (in the pending move's comment) the receipt of the player on move. ICCF's and
SchemingMind's readers do not know it and leave it in the comment (pgn-extract keeps it as written).
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo


def ccsnt(*, sent_on: date | None, sent_at: datetime | None, zone: str, instants: bool) -> str | None:
    """The stamp of a move sent on ``sent_on`` (at ``sent_at``, aware), or None for a move not sent."""
    if instants and sent_at is not None:
        return "[%ccsnt " + sent_at.astimezone(ZoneInfo(zone)).strftime("%Y.%m.%d,%H:%M:%S") + "]"
    if sent_on is None:
        return None
    return "[%ccsnt " + sent_on.strftime("%Y.%m.%d") + "]"


def ccrd(received_on: date | None) -> str | None:
    """The received date of a postal or e-mail move (or of the pending move's receipt), or None without one."""
    if received_on is None:
        return None
    return "[%ccrd " + received_on.strftime("%Y.%m.%d") + "]"


def stamp_text(value: date, zone: str) -> str:
    """A date as ``YYYY.MM.DD``, an instant (aware) as ``YYYY.MM.DD,HH:MM:SS`` in ``zone``: the stamps' forms."""
    if isinstance(value, datetime):
        return value.astimezone(ZoneInfo(zone)).strftime("%Y.%m.%d,%H:%M:%S")
    return value.strftime("%Y.%m.%d")


def clock_fact(event, zone: str) -> str | None:
    """corr's command of a calculator event that is no move on the board (issue 37), or None for a board move.

    The facts of the clock beside the moves, in the order they happened, so that a reader
    (:mod:`corr.formats.pgn_stamps`) gives the calculator the game's own events back:

    - ``[%ccvoid white 2 2026.01.22 2026.01.25]``: a void move (50.4.7), its player, number, received
      (``-`` for none) and sent dates;
    - ``[%ccnotice black 2 impossible_move 2026.01.29 2026.01.30]``: a notice (50.4.7), its player, the move
      it is charged to, its reason, received and sent;
    - ``[%ccpenalty white 2 impossible_move]`` (50.4.9) and ``[%ccdelay white 3 2 late_repeat]`` (50.4.11):
      the player, the move charged, (the days,) the reason.
    """
    kind = event.type
    if kind == "move":
        if not event.void:
            return None
        received = "-" if event.received_on is None else stamp_text(event.received_on, zone)
        return f"[%ccvoid {event.player} {event.number} {received} {stamp_text(event.sent_on, zone)}]"
    if kind == "notice":
        return (f"[%ccnotice {event.player} {event.move} {event.reason.value} {stamp_text(event.received_on, zone)}"
                f" {stamp_text(event.sent_on, zone)}]")
    if kind == "penalty":
        return f"[%ccpenalty {event.player} {event.move} {event.reason.value}]"
    return f"[%ccdelay {event.player} {event.move} {event.days} {event.reason.value}]"


def long_move_facts(long_moves) -> list[str]:
    """corr's commands of the "Use 40+ days" notices (ICCF Playing Rules 3b, issue 40), for the comment before
    the moves: ``[%cclong white 12]``, white gave the notice for their move 12 (``Game.long_moves``)."""
    return [f"[%cclong {player} {move}]" for player, move in long_moves]


def player_facts(players) -> list[str]:
    """corr's commands of what a game's players bring to its clock (issue 37), for the comment before the moves:
    ``[%ccstart white 2026.01.20]`` a start notice received late (50.4.6), ``[%ccleave white 2026.02.15
    2026.02.18]`` a range of leave, both days included."""
    out = []
    for player in players:
        if player.notice_received_on is not None:
            out.append(f"[%ccstart {player.id} {player.notice_received_on.strftime('%Y.%m.%d')}]")
        out += [f"[%ccleave {player.id} {r.first.strftime('%Y.%m.%d')} {r.last.strftime('%Y.%m.%d')}]"
                for r in player.leave]
    return out
