"""The game page of a live game (issue 16, docs/live.md): clocks counting down, pushed over a WebSocket.

The page carries the payload of ``corr.live.state.live_payload`` as it was when it was served, so both
clocks show at once (and without JavaScript); ``corr/static/corr/live.js`` then keeps them counting
between the pushes of ``ws/games/<id>/live/`` and makes the moves and the arbiter's actions through
the API (``POST /api/games/{id}/moves/`` and the arbiter endpoints of the service).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from corr import limits as lim
from corr.games.permissions import can_arbitrate
from accounts.models import VISION_WARNING_S, Vision
from corr.models import LIVE_TEXT_MAX, Game

from .live_rules_words import arbiter_words
from .records import with_termination_text

# Spoken countdown in a byo-yomi period (003 12.16, its interpretation: "15, 10, 5, 4, 3, 2, 1 s"), to whoever
# switches it on, and the warnings before a control a player's vision is owed (001 1.7.9: 10 minutes for a
# totally blind player, 5 for a visually impaired one; accounts.models.VISION_WARNING_S), with the fall of the
# opponent's flag; the page speaks each threshold once as the clock crosses it.
BYOYOMI_COUNTDOWN_S = (15, 10, 5, 4, 3, 2, 1)


def live_game_context(request, game: Game) -> dict:
    """The template context of a live game's page for ``request.user`` (who may view it)."""
    from corr.live.state import live_payload

    colour = game.colour_of(request.user)
    ruling = can_arbitrate(request.user, game.tournament) and colour is None
    payload = with_termination_text(live_payload(game))
    # A player's sight is theirs and the arbiter's to know, not the opponent's (a health fact): the page of a
    # player carries only their own.
    vision = {side: game.user_of(side).vision for side in ("white", "black") if ruling or side == colour}
    return {
        "game": game, "live": payload, "colour": colour, "ruling": ruling,
        "is_arbiter": can_arbitrate(request.user, game.tournament),
        "sides": [{"side": side, "user": game.user_of(side), "player": payload["players"][side]}
                  for side in ("white", "black")],
        "live_config": live_config(game, colour, ruling, payload, vision),
        "owed": [{"side": side, "user": game.user_of(side), "vision": VISION_SHORT[v],
                  "minutes": VISION_WARNING_S[v] // 60} for side, v in vision.items() if v] if ruling else [],
        "vision_choices": Vision.choices,
        "history": live_history(game),
        "notation_max": lim.NOTATION_MAX, "reason_max": LIVE_TEXT_MAX, "termination_max": lim.TERMINATION_MAX,
        "stop_claims_draw": _stop_claims_draw(game), "rulings": RULINGS_SHOWN,
        "kind": game.kind_in_force,  # the page explains only the rules of its own game (issue 39)
        "rules_words": arbiter_words(game, game.kind_in_force) if ruling else {},
    }


VISION_SHORT = {Vision.BLIND: gettext_lazy("totally blind"), Vision.LOW: gettext_lazy("visually impaired")}


def _stop_claims_draw(game: Game) -> bool:
    control = game.tournament.ruleset.time_control
    return bool(control is not None and control.live is not None and control.live.stop_claims_draw)


RULINGS_SHOWN = [("justified", gettext_lazy("Justified: restart the clocks")),
                 ("warning", gettext_lazy("A warning: play on")), ("penalty", gettext_lazy("A penalty of time")),
                 ("draw", gettext_lazy("Confirm the draw")), ("resignation", gettext_lazy("A resignation"))]
"""The arbiter's rulings on a player's stop (corr.live.stops.RULINGS), as the page's buttons say them."""


def live_config(game: Game, colour: str | None, ruling: bool, payload: dict, vision: dict | None = None) -> dict:
    """What live.js needs, as JSON in the page (``json_script``): addresses, rules and its words."""
    def url(name: str) -> str:
        return reverse(name, args=[game.pk])

    return {
        "game": game.pk, "colour": colour, "ruling": ruling, "ongoing": game.status == "ongoing",
        "payload": payload, "time_control": game.tournament.time_control or {},
        "socket_path": f"/ws/games/{game.pk}/live/",
        "urls": {"game": url("api-game"), "moves": url("api-moves"), "pause": url("api-pause"),
                 "resume": url("api-resume"), "adjust": url("api-time-adjustments"),
                 "illegal": url("api-illegal-moves"), "result": url("api-result"),
                 "excuse": url("api-late-arrival-excuses"), "stop": url("api-live-stop"),
                 "call": url("api-live-call-arbiter"), "ruling": url("api-live-ruling"), "me": reverse("api-me"),
                 "reopen": url("api-reopen")},
        "stop_claims_draw": _stop_claims_draw(game),
        "moves_made": moves_made(game),
        "countdown_s": list(BYOYOMI_COUNTDOWN_S),
        "vision": vision or {}, "warning_s": {str(k): s for k, s in VISION_WARNING_S.items()},
        "words": live_words(game.kind_in_force),
    }


def live_words(kind: str = "draughts") -> dict:
    """The words live.js shows or speaks, in the page's language."""
    return {
        "connecting": _("connecting…"), "live": _("live"), "reconnecting": _("connection lost, reconnecting…"),
        "closed_4401": _("signed out: sign in again to follow the game"),
        "closed_4403": _("you may not follow this game"), "closed_4404": _("this game no longer exists"),
        "paused": _("clocks paused by the arbiter"), "finished": _("game over"),
        "ongoing": _("ongoing"), "finished_result": _("finished %(result)s"), "result_line": _("Result: %(result)s"),
        "sending": _("sending…"), "sent": _("move %(number)s recorded"), "refused": _("not recorded: %(detail)s"),
        "done": _("done"), "failed": _("failed: %(detail)s"), "network": _("no answer from the server"),
        "white": _("white"), "black": _("black"),
        "periods_left": _("byo-yomi periods left: %(periods)s"),
        "block_moves_left": _("moves left in the block: %(moves)s"),
        "moves_to_control": _("moves to the control: %(moves)s"),
        # Spoken (speech synthesis, in the page's language); the minutes are those of CONTROL_WARNINGS_S.
        "say_minutes": _("%(side)s: %(minutes)s minutes left to the control"),
        "say_flag": _("%(side)s: flag fallen"),
        # The arbiter's view of the warnings owed (001 1.7.9), and the player's own setting.
        "owed_minutes": _("owed now: %(minutes)s minutes to the control"),
        "owed_flag": _("owed now: %(side)s's flag has fallen"),
        "vision_saved": _("saved: the warnings spoken to you follow it"),
        # A player's stop awaiting the arbiter's ruling (corr.live.stops.pending_stop), and the questions asked
        # before an act that ends the game.
        "stop_call": _("%(side)s stopped the clocks to call the arbiter"),
        "stop_draw_claim": _("%(side)s stopped the clocks claiming a draw"),
        "stop_resignation": _("%(side)s stopped the clocks: resignation"),
        # Only the rules of the game's own kind (issue 39): a chess or Go page cites no draughts article.
        "confirm_stop": _("Stop the clocks? Stopping the clock is resignation unless the arbiter finds it a"
                          " misunderstanding (Russian draughts rules 12.11, 1.7.11).") if kind == "draughts" else
        _("Stop the clocks and resign? Stopping the clock is resignation unless the arbiter finds it a"
          " misunderstanding."),
        "confirm_stop_claim": _("Stop the clocks and claim a draw? The arbiter confirms it if your position is"
                                " clearly winning (Russian draughts rules 12.11, 1.7.13).") if kind == "draughts" else
        _("Stop the clocks and claim a draw? The arbiter confirms it if your position is clearly winning."),
        "confirm_result": _("Record the result %(result)s? The game ends and both clocks stop."),
        "confirm_reopen": _("Reopen the game? Its result is undone (the history keeps it) and the clocks stay"
                            " stopped until you resume them."),
    }


def moves_made(game: Game) -> dict[str, int]:
    """Moves each side has made so far (the page's next move number is one more)."""
    from corr.models.live import LiveEvent, LiveEventKind

    counts = {"white": 0, "black": 0}
    for side in counts:
        counts[side] = LiveEvent.objects.filter(game=game, kind=LiveEventKind.MOVE, player=side).count()
    return counts


def live_history(game: Game) -> list:
    """Every stored event of the live game, in order, with who entered it (corr itself: None)."""
    from corr.models.live import LiveEvent

    return list(LiveEvent.objects.filter(game=game).select_related("entered_by").order_by("seq"))
