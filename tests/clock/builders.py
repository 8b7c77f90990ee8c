"""Small builders for calculator tests: dates as "MM-DD" of 2026, events by keyword."""

from __future__ import annotations

from datetime import date

from corr.clock import Delay, DelayReason, Game, Move, Notice, NoticeReason, Penalty, PenaltyReason, Player, Ruleset


def d(text: str) -> date:
    """``d("01-10")`` is 2026-01-10; a full ISO date is accepted too."""
    return date.fromisoformat(text if len(text) == 10 else f"2026-{text}")


def move(player, number, received=None, sent=None, *, void=False, variant=None):
    return Move(player, number, d(received) if received else None, d(sent) if sent else None, void, variant)


def notice(player, number, received, sent, reason=NoticeReason.IMPOSSIBLE_MOVE):
    return Notice(player, number, reason, d(received), d(sent))


def penalty(player, number, reason=PenaltyReason.IMPOSSIBLE_MOVE):
    return Penalty(player, number, reason)


def delay(player, number, days):
    return Delay(player, number, days, DelayReason.LATE_REPEAT)


def game(*events, start="01-10", ruleset=None, white_notice=None, black_notice=None):
    return Game(
        official_start=d(start),
        players=(Player("white", d(white_notice) if white_notice else None),
                 Player("black", d(black_notice) if black_notice else None)),
        events=tuple(events),
        ruleset=ruleset or Ruleset(),
    )


def alternate(white_days, black_days, start="2026-01-10", transit=3):
    """A game where white and black alternate, each move taking the given days.

    White's move 1 is received on the start date; every move travels ``transit``
    days (never counted, 50.4.3). Returns (events, date of the last send).
    """
    day = d(start)
    events = []
    received_white = None
    received_black = None
    for i in range(max(len(white_days), len(black_days))):
        if i < len(white_days):
            got = received_white or day
            sent = date.fromordinal(got.toordinal() + white_days[i])
            events.append(Move("white", i + 1, got if i else None, sent))
            received_black = date.fromordinal(sent.toordinal() + transit)
            day = sent
        if i < len(black_days):
            got = received_black
            sent = date.fromordinal(got.toordinal() + black_days[i])
            events.append(Move("black", i + 1, got, sent))
            received_white = date.fromordinal(sent.toordinal() + transit)
            day = sent
    return events, day
