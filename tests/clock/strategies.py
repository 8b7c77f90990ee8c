"""Hypothesis strategies: random games that are valid by construction."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import strategies as st

from corr.clock import (
    Delay, DelayReason, Game, Move, Notice, NoticeReason, Penalty, PenaltyReason, Player, Ruleset, Variant,
)

START = date(2026, 1, 10)
ACTIONS = ("move", "move", "move", "move", "void", "accepted", "conditional", "notice", "penalty", "delay")


@st.composite
def games(draw, max_events: int = 40):
    """A game of up to ``max_events`` events and an as-of date not before any of them."""
    ruleset = Ruleset(
        moves_per_control=draw(st.integers(1, 12)), days_per_control=draw(st.integers(1, 40)),
        grace_days=draw(st.integers(0, 4)), first_penalty_days=draw(st.integers(0, 6)),
        repeat_penalty_days=draw(st.integers(0, 12)), time_trouble_days=draw(st.integers(0, 6)),
        late_notice_start_days=draw(st.integers(0, 4)),
    )
    notices = [draw(st.none() | st.integers(-5, 10).map(lambda n: START + timedelta(days=n))) for _ in range(2)]
    players = (Player("white", notices[0]), Player("black", notices[1]))
    made = {"white": 0, "black": 0}
    pending = {"white": False, "black": False}
    last_dispatcher = None  # who sent the last dated move, conditional move or notice: the partner answers it
    day = START - timedelta(days=draw(st.integers(0, 5)))
    events = []
    for _ in range(draw(st.integers(0, max_events))):
        player = draw(st.sampled_from(("white", "black")))
        action = draw(st.sampled_from(ACTIONS))
        received = day + timedelta(days=draw(st.integers(0, 3)))
        sent = received + timedelta(days=draw(st.integers(0, 9)))
        reason = draw(st.sampled_from(list(NoticeReason)))
        number = made[player] + 1
        if action in ("move", "void", "notice") and not (action == "notice" and reason is NoticeReason.REPEAT):
            # A dispatch answers the partner's: players take turns, and a pending move ends the exchange.
            if any(pending.values()):
                action = "penalty"
            elif player == last_dispatcher:
                player = "black" if player == "white" else "white"
                number = made[player] + 1
            if action != "penalty":
                last_dispatcher = player
        if action in ("move", "void", "accepted", "conditional") and pending[player]:
            action = "penalty"
        if action == "move":
            if draw(st.booleans()) and draw(st.booleans()):
                events.append(Move(player, number, received if number > 1 or draw(st.booleans()) else None))
                pending[player] = True
                day = received
                continue
            events.append(Move(player, number, received if number > 1 or draw(st.booleans()) else None, sent))
            made[player] = number
            day = sent
        elif action == "void":
            events.append(Move(player, number, received, sent, void=True))
            day = sent
        elif action in ("accepted", "conditional"):
            events.append(Move(player, number, variant=Variant(action)))
            made[player] = number
            if action == "conditional":
                # The proposer's answer (sent with their dated move, or played by the server the instant the
                # partner's expected move came): the partner answers it next, as a dispatch.
                last_dispatcher = player
        elif action == "notice":
            events.append(Notice(player, draw(st.integers(1, number)), reason, received, sent))
            day = sent
        elif action == "penalty":
            events.append(Penalty(player, draw(st.integers(1, number)), draw(st.sampled_from(list(PenaltyReason)))))
        else:
            events.append(Delay(player, draw(st.integers(1, number)), draw(st.integers(0, 6)), DelayReason.LATE_REPEAT))
    known = max([day] + [n for n in notices if n is not None])  # a notice after as_of is refused, as any fact
    as_of = known + timedelta(days=draw(st.integers(0, 40)))
    return Game(official_start=START, players=players, events=tuple(events), ruleset=ruleset), as_of
