"""Property (issue 28, 004 50.4.8): a server game played through a conditional tree is charged exactly as the same
game typed with its replies as ``variant: conditional`` moves.

Two games are driven through the HTTP API in lockstep, on one frozen clock: a server game whose owner sends a
tree with one of their moves (its replies played by the server when the partner's move matches), and an e-mail
game (postal, no transit) where both players type every move with its dates and the owner types each reply as
``variant: conditional`` with no dates. Random: the time control (50.4's days, Fischer, byo-yomi), the legal
line, who sends the tree and with which move, how deep it follows the game, its decoy branches, whether it is
dropped by an unexpected move, and the days each move by hand takes. The clock the API shows (``GET
/api/games/{id}/``: accounts and ledger) must be the same, but for the ledger's words on a reply, which name the
line it came from (``corr.games.reply_notes``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import timedelta

import chess
import pytest
import time_machine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from django.utils import timezone

from corr.games import services

from ..clock import conftest as _profiles  # noqa: F401  the suite's Hypothesis profiles (corr, thorough, ci)
from ..conftest import NOW, TODAY
from .test_conditional_api import move

pytestmark = pytest.mark.django_db

EXAMPLES = max(10, settings.default.max_examples // 6)
"""25 games under the ``corr`` and ``ci`` profiles (each plays two games over HTTP), 250 under ``thorough``."""

SYSTEMS = ("days", "fischer", "byoyomi")
OWN_VARIANT_NOTE = "played from the player's own conditional variant: costs nothing"
counter = itertools.count()


@dataclass
class Ply:
    colour: str
    number: int
    san: str
    days: int = 0
    """Days the clock moves on before a move by hand (a reply fired from the tree takes none)."""
    fired: bool = False
    tree: list | None = None
    """The tree sent with this move (the owner's move it goes with)."""


@dataclass
class Plan:
    ruleset: dict | None
    plies: list[Ply] = field(default_factory=list)
    tail_days: int = 0


def san_legal(draw, board: chess.Board, avoid: str | None = None) -> str | None:
    """A legal move on ``board`` (other than ``avoid``) that does not end the game, as SAN; None: there is none."""
    moves = []
    for candidate in sorted(board.legal_moves, key=board.san):
        san = board.san(candidate)
        board.push(candidate)
        over = board.is_game_over()
        board.pop()
        if san != avoid and not over:
            moves.append(san)
    return draw(st.sampled_from(moves)) if moves else None


@st.composite
def rulesets(draw) -> dict | None:
    system = draw(st.sampled_from(SYSTEMS))
    if system == "days":  # 004 50.4: moves in a control of days, cumulative
        return {"moves_per_control": draw(st.integers(1, 4)), "days_per_control": draw(st.integers(2, 12))}
    if system == "fischer":
        return {"time_control": {"system": "fischer", "initial": draw(st.integers(2, 12)),
                                 "increment": draw(st.integers(0, 3))}}
    return {"time_control": {"system": "byoyomi", "main": draw(st.integers(0, 6)), "periods": draw(st.integers(1, 3)),
                             "period_time": draw(st.integers(1, 4))}}


@st.composite
def plans(draw) -> Plan:
    """A legal game with one tree sent by ``owner`` with their move ``sent_with``, followed for ``depth`` replies."""
    plan = Plan(ruleset=draw(rulesets()))
    owner = draw(st.sampled_from(("white", "black")))
    sent_with = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 4))
    dropped = draw(st.booleans())  # a branch below the last followed one that the partner's move does not take
    after = draw(st.integers(0, 3))  # moves by hand after the tree
    board = chess.Board()
    made = {"white": 0, "black": 0}

    def ply(fired: bool = False) -> Ply | None:
        colour = "white" if board.turn == chess.WHITE else "black"
        san = san_legal(draw, board)
        if san is None:
            return None
        board.push_san(san)
        made[colour] += 1
        step = Ply(colour, made[colour], san, days=0 if fired else draw(st.integers(0, 4)), fired=fired)
        plan.plies.append(step)
        return step

    while made[owner] < sent_with:
        if (sent := ply()) is None:
            return plan
    sent.tree = tree = []
    level = tree
    for _ in range(depth):
        partner = ply()
        if partner is None:
            return plan
        position = board.copy()
        position.pop()
        decoys = draw(st.integers(0, 2))
        for _ in range(decoys):  # branches the partner's move does not take (checked legal all the same)
            decoy = san_legal(draw, position, avoid=partner.san)
            if decoy is not None and all(b["if"] != decoy for b in level):
                position.push_san(decoy)
                reply = san_legal(draw, position)
                position.pop()
                if reply is not None:
                    level.append({"if": decoy, "then": reply, "next": []})
        reply = ply(fired=True)
        if reply is None:
            return plan
        branch = {"if": partner.san, "then": reply.san, "next": []}
        level.insert(draw(st.integers(0, len(level))), branch)
        level = branch["next"]
    followed, position = len(plan.plies), board.copy()
    for _ in range(after):
        if ply() is None:
            break
    if dropped:  # a branch for a partner's move other than the one played next: the tree is dropped there
        actual = plan.plies[followed].san if followed < len(plan.plies) else None
        partner_next = san_legal(draw, position, avoid=actual)
        if partner_next is not None:
            position.push_san(partner_next)
            reply = san_legal(draw, position)
            if reply is not None:
                level.append({"if": partner_next, "then": reply, "next": []})
    plan.tail_days = draw(st.integers(0, 5))
    return plan


def played(api, games, plan: Plan, traveller) -> None:
    """``plan`` played on the server game through its tree and typed by hand on the e-mail game."""
    server, typed = games["server"], games["typed"]
    users = {"white": server.white, "black": server.black}
    last_sent = None  # the day of the last move sent by hand: the receipt of the next one (a reply travels with it)
    for step in plan.plies:
        user = users[step.colour]
        if step.fired:  # the server played it when the partner's move arrived
            move(api, user, typed, step.number, step.san, variant="conditional")
            continue
        traveller.shift(timedelta(days=step.days))
        day = today_text()
        extra = {} if step.tree is None else {"conditional": step.tree}
        move(api, user, server, step.number, step.san, **extra)
        dates = {"sent_on": day} | ({} if last_sent is None else {"received_on": last_sent})
        move(api, user, typed, step.number, step.san, **dates)
        last_sent = day
    traveller.shift(timedelta(days=plan.tail_days))


def today_text() -> str:
    """Today's date on the frozen clock, in the tournaments' zone (UTC)."""
    return timezone.now().date().isoformat()


def clock_of(api, user, game) -> dict:
    r = api(user).get(f"/api/games/{game.pk}/")
    assert r.status_code == 200, r.json()
    return {"to_move": r.json()["to_move"], "clock": r.json()["clock"]}


def replies_of(api, user, game) -> list[tuple[str, int, str]]:
    return [(h["player"], h["number"], h["notation"]) for h in api(user).get(f"/api/games/{game.pk}/history/").json()
            if h["kind"] == "move" and h["variant"] == "conditional"]


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=plans())
def test_a_game_played_through_a_tree_is_charged_as_the_game_typed_with_conditional_variants(
        api, arbiter, anna, boris, plan):
    n = next(counter)
    with time_machine.travel(NOW, tick=False) as traveller:
        games = {}
        for name, mode in (("server", "server"), ("typed", "postal")):
            tournament = services.tournament_create(by=arbiter, name=f"{name} {n}", official_start=TODAY, mode=mode,
                                                    presumed_transit_days=0, ruleset=plan.ruleset)
            games[name] = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris,
                                               today=TODAY)
        played(api, games, plan, traveller)
        server, typed = (clock_of(api, anna, games[k]) for k in ("server", "typed"))
    fired = [(p.colour, p.number, p.san) for p in plan.plies if p.fired]
    assert replies_of(api, anna, games["server"]) == fired  # the tree fired every planned reply, and no other
    assert server["to_move"] == typed["to_move"]
    assert server["clock"]["players"] == typed["clock"]["players"]
    assert server["clock"]["as_of"] == typed["clock"]["as_of"]
    # The ledger line by line, but for its words on a reply: the line it came from (corr.games.reply_notes).
    sent_with = next((p.number for p in plan.plies if p.tree is not None), 0)
    line = f"conditional reply from the line sent with move {sent_with} (50.4.8)"
    typed_notes = [ln["note"] for ln in typed["clock"]["ledger"] if ln["kind"] == "variant_move"]
    assert typed_notes == [OWN_VARIANT_NOTE] * len(fired)
    assert server["clock"]["ledger"] == [ln | {"note": line} if ln["kind"] == "variant_move" else ln
                                         for ln in typed["clock"]["ledger"]]
