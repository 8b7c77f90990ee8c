"""A player's own stop of the clocks, and the arbiter's ruling on it (issue 24 item 5; STYLE 5: services write).

Two events a player triggers, each stopping both clocks at the server's instant (a clock pause with the
player named, :class:`corr.clock.live.LivePause`):

- **the stop** (``stop``): draughts 000 12.11 and 001 1.7.11, "Остановка часов участником рассматривается
  как признание им поражения": resignation at once, unless the arbiter finds it a misunderstanding ("то
  следует ограничиться замечанием участнику"): the ruling ``warning`` reopens the game and restarts the
  clocks. With the ruleset's ``stop_claims_draw`` (000 12.11, 001 1.7.13: a control to the end of the game,
  "остановка контрольных часов сильнейшей стороной, имеющей теоретически явно выигрышную позицию, фиксирует
  ничейный исход") the stop is a draw claim: a case for the arbiter, who rules ``draw``, ``resignation``
  (the position was not clearly winning) or ``warning`` (a misunderstanding, play on);
- **the call** (``call``): 002 6.12 b, "Un joueur peut arrêter les pendules pour chercher l'assistance de
  l'arbitre"; 003 12.13, the arbiter "должен определить, имел ли игрок какую–либо обоснованную причину":
  a case; the arbiter restarts the clocks with the ruling ``justified``, ``warning`` (003 17.4 a) or
  ``penalty`` (``seconds``: taken from the caller when negative, 17.4 c; given to the partner when positive,
  17.4 b).

Each is a line of the history with its rule quoted; the page shows the buttons and, to the arbiter, the
rulings the pending stop allows (:func:`pending_stop`).
"""

from __future__ import annotations


from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.games.errors import InvalidInput, NotAllowed, TurnConflict
from corr.games.records import record_text
from corr.games.services.arbiters import ensure_arbiter
from corr.models import LIVE_TEXT_MAX, Game, GameResult, GameStatus, LiveEventKind

from .decide import DRAW, WINS, Verdict, other
from .stopstate import CALL, CLAIM, RESIGNED, RULINGS, PendingStop, pending_stop  # noqa: F401 - re-exported
from .services import live_adjust_in, live_check
from .state import clock_at
from .write import MS, append, at_lock, decide, ensure_running, finish_write, live_lock, live_rules

STOP_RESIGNS = ('000 12.11, 001 1.7.11: "Остановка часов участником рассматривается как признание им'
                ' поражения"')
STOP_MISUNDERSTOOD = ('000 12.11, 001 1.7.11: "если судья считает, что часы остановлены по недоразумению, то'
                      ' следует ограничиться замечанием участнику"')
STOP_DRAW = ('000 12.11, 001 1.7.13: "остановка контрольных часов сильнейшей стороной, имеющей теоретически явно'
             ' выигрышную позицию, фиксирует ничейный исход"')
CALL_RULE = ('002 6.12 b: "Un joueur peut arrêter les pendules pour chercher l\'assistance de l\'arbitre";'
             ' 003 12.13')
CALL_JUDGED = '003 12.13: "арбитр должен определить, имел ли игрок какую–либо обоснованную причину"'
WARNING_RULE = '003 17.4 a: "предупреждение"'


def _player_stop(game_id: int, by: User, now_ms: int | None):
    """The game locked for a player's stop, the stopper's colour and the instant, the clocks running."""
    live_check(game_id=game_id, now_ms=now_ms, taking_moves=True)  # a flag that fell before the stop is recorded first
    game, live, rows = live_lock(game_id)
    now_ms = at_lock(now_ms)
    colour = game.colour_of(by)
    if colour is None:
        raise NotAllowed(_("only the players of this game stop its clocks (the arbiter pauses them)"))
    ensure_running(game, live, now_ms)
    if clock_at(game, live, rows, now_ms).paused:
        raise TurnConflict(_("the clocks are stopped already"), field=None)
    if live.case:  # a flag the arbiter judges (Go, unread moves): its case is not to be replaced by this one
        raise TurnConflict(_("the arbiter has a case of this game to rule on first"), field=None)
    return game, live, rows, colour, now_ms


def _log(code: str, note: str, **params) -> str:
    """The live history's line ``code`` (``corr.games.records``), its ``_why`` form when a ``note`` was typed."""
    return record_text(f"{code}_why", note=note, **params) if note else record_text(code, **params)


def live_stop(*, game_id: int, by: User, reason: str = "", now_ms: int | None = None) -> Game:
    """``by``, a player of the game, stops both clocks: resignation (000 12.11, 001 1.7.11), or with the
    ruleset's ``stop_claims_draw`` a draw claim for the arbiter (000 12.11, 001 1.7.13).

    :raises NotAllowed: not a player of the game. :raises TurnConflict: the game is over or not begun, the
        clocks are stopped already (409).
    """
    with transaction.atomic():
        game, live, rows, colour, now_ms = _player_stop(game_id, by, now_ms)
        append(game, rows, LiveEventKind.STOP, now_ms, by=by, player=colour,
               reason=_log("livelog_stop", reason, player=colour)[:LIVE_TEXT_MAX])
        if live_rules(game.tournament).stop_claims_draw:
            case = record_text("livelog_stop_claim", player=colour, rule=STOP_DRAW)
            decide(game, live, rows, Verdict(case, case=case), now_ms, now_ms)
        else:
            verdict = Verdict(record_text("livelog_stop_resigned", player=colour, rule=STOP_RESIGNS),
                              result=WINS[other(colour)])
            decide(game, live, rows, verdict, now_ms, now_ms)
            game.termination = record_text("live_stop_resigned", player=colour)
        finish_write(game, live, rows, now_ms)
        return game


def live_call_arbiter(*, game_id: int, by: User, reason: str = "", now_ms: int | None = None) -> Game:
    """``by``, a player of the game, stops both clocks to call the arbiter (002 6.12 b, 003 12.13): a case the
    arbiter rules on (:func:`live_ruling`) and restarts the clocks with.

    :raises NotAllowed: not a player of the game. :raises TurnConflict: the game is over or not begun, the
        clocks are stopped already (409).
    """
    with transaction.atomic():
        game, live, rows, colour, now_ms = _player_stop(game_id, by, now_ms)
        append(game, rows, LiveEventKind.CALL, now_ms, by=by, player=colour,
               reason=_log("livelog_call", reason, player=colour)[:LIVE_TEXT_MAX])
        case = _log("livelog_call_case", reason, player=colour, rule=CALL_RULE)
        decide(game, live, rows, Verdict(case, case=case), now_ms, now_ms)
        finish_write(game, live, rows, now_ms)
        return game


def live_ruling(*, game_id: int, by: User, ruling: str, seconds=None, reason: str = "",
                now_ms: int | None = None) -> Game:
    """The arbiter rules on the player's pending stop or call (:func:`pending_stop`, :data:`RULINGS`).

    A call: ``justified`` (the clocks restart), ``warning`` (003 17.4 a; they restart), ``penalty`` with
    ``seconds`` (< 0 taken from the caller, 17.4 c; > 0 given to the partner, 17.4 b; they restart). A draw
    claimed by a stop: ``draw`` (000 12.11, 001 1.7.13), ``resignation`` (12.11, 1.7.11), ``warning`` (a
    misunderstanding: play on). A stop that resigned: ``warning`` reopens the game (the result stays in the
    history, a ``reopen`` line after it) and restarts the clocks. The time the clocks stood is no one's.

    :raises TurnConflict: no stop awaits a ruling (409). :raises InvalidInput: a ruling that stop does not
        allow (``ruling``), a penalty without ``seconds`` or one the clock cannot take (``seconds``).
    """
    with transaction.atomic():
        game, live, rows = live_lock(game_id)
        now_ms = at_lock(now_ms)
        ensure_arbiter(game, by)
        pending = pending_stop(game, live, rows)
        if pending is None:
            raise TurnConflict(_("no player's stop of the clocks awaits a ruling"), field="ruling")
        if ruling not in RULINGS[pending.kind]:
            raise InvalidInput(_("%(ruling)s is not a ruling on this stop: one of %(rulings)s"), field="ruling",
                               ruling=repr(ruling), rulings=", ".join(RULINGS[pending.kind]))
        player = pending.player
        restart = True
        if ruling == "draw":
            verdict = Verdict(record_text("live_stop_draw_why", player=player, note=reason) if reason
                              else record_text("live_stop_draw", player=player), result=DRAW)
            decide(game, live, rows, verdict, now_ms, now_ms, by=by)
            restart = False
        elif ruling == "resignation":
            text = (record_text("live_stop_resigned_ruled_why", player=player, note=reason) if reason
                    else record_text("live_stop_resigned_ruled", player=player))
            decide(game, live, rows, Verdict(text, result=WINS[other(player)]), now_ms, now_ms, by=by)
            restart = False
        elif ruling == "penalty":
            if seconds is None:
                raise InvalidInput(_("a penalty needs seconds: negative taken from the caller, positive given to the"
                                     " partner (003 17.4 b, c)"), field="seconds")
            delta_ms = round(float(seconds) * MS)
            target = player if delta_ms < 0 else other(player)
            live_adjust_in(game, live, rows, colour=target, delta_ms=delta_ms, now_ms=now_ms, by=by,
                           reason=_log("livelog_call_penalty", reason, player=player))
            text = _log("livelog_call_unfounded", reason, rule=CALL_JUDGED)
            append(game, rows, LiveEventKind.RULING, now_ms, by=by, player=player, reason=text[:LIVE_TEXT_MAX])
        elif ruling == "justified":
            append(game, rows, LiveEventKind.RULING, now_ms, by=by, player=player,
                   reason=_log("livelog_call_justified", reason, rule=CALL_JUDGED)[:LIVE_TEXT_MAX])
        else:  # warning
            if pending.kind == RESIGNED:
                was = f"{game.result}, {game.termination}" if game.termination else game.result
                game.status, game.result, game.termination = GameStatus.ONGOING, GameResult.NONE, ""
                live.ended_at_ms = None
                append(game, rows, LiveEventKind.REOPEN, now_ms, by=by, player=player,
                       reason=record_text("livelog_reopened_misunderstanding", was=was)[:LIVE_TEXT_MAX])
            rule = STOP_MISUNDERSTOOD if pending.kind != CALL else f"{WARNING_RULE}; {CALL_JUDGED}"
            append(game, rows, LiveEventKind.WARNING, now_ms, by=by, player=player,
                   reason=_log("livelog_warning", reason, player=player, rule=rule)[:LIVE_TEXT_MAX])
        if restart:
            live.case = ""
            append(game, rows, LiveEventKind.RESUME, now_ms, by=by,
                   reason=record_text(f"livelog_restart_{ruling}")[:LIVE_TEXT_MAX])
            clock_at(game, live, rows, now_ms)  # the engine's own check of the new events
        finish_write(game, live, rows, now_ms)
        return game
