"""``GetMyGames``: a user's ongoing chess server games as XFCC's ``XfccGame`` records (a selector).

Every field is one that Scid's ``tcl/tools/correspondence.tcl`` (``WritePGN``, ``PrintStatus``) or
another client reads. The clock is corr's: the time left of each side as of the request
(``daysPlayer``, ``hoursPlayer``, ``minutesPlayer`` and the opponent's) is the game page's days left
(``corr.games.timeleft``, issue 37: one answer, not the time to the flag), with hours and minutes
under an exact count only; ``timeControl`` in PGN's seconds.
"""

from __future__ import annotations

from datetime import datetime

import chess
import chess.pgn
from django.db.models import Q
from django.urls import reverse

from corr.clock.assembly import other
from corr.exports.moves import exported_moves
from corr.exports.stamps import ccsnt
from corr.exports.timecontrol import pgn_time_control
from corr.games.clockstate import clock_as_of, counts_instants, game_time
from corr.games.draws import draw_offer_of
from corr.games.selectors import game_rows
from corr.games.timeleft import TimeLeft, game_time_left
from corr.links import absolute_url
from corr.models import Colour, Game, GameKind, GameStatus, Mode

RESULTS = {"": "Ongoing", "1-0": "WhiteWins", "0-1": "BlackWins", "1/2-1/2": "Draw"}
"""corr's results in XFCC's ``result`` words (a finished game is no longer offered: ``Ongoing``)."""


def xfcc_games(*, user) -> list[Game]:
    """The games XFCC offers ``user``: ongoing chess server games they play, white moving first, by id.

    XFCC is a chess protocol and its move numbers are chess's: a game that starts with black
    (Go's order) or plays draughts or Go is not offered.
    """
    games = (Game.objects.filter(Q(white=user) | Q(black=user), mode=Mode.SERVER, status=GameStatus.ONGOING,
                                 first=Colour.WHITE)
             .filter(Q(kind=GameKind.CHESS) | Q(kind="", tournament__kind=GameKind.CHESS))
             .select_related("tournament", "white", "black").order_by("id"))
    return list(games)


def xfcc_game_offered(game: Game) -> bool:
    """Whether ``game`` is one XFCC plays (``xfcc_games``' rule, for one game, finished ones included)."""
    return game.mode == Mode.SERVER and game.kind_in_force == GameKind.CHESS and game.first == Colour.WHITE


def _left(left: TimeLeft) -> tuple[str, str, str]:
    """XFCC's (days, hours, minutes) of a ``TimeLeft``: 0 once the control is over, where the page says a
    negative number of days (XFCC's fields are times left: Scid writes them with ``%2u``)."""
    return ("0", "0", "0") if left.over else (str(left.days), str(left.hours), str(left.minutes))


def xfcc_movetext(game: Game, time, rows) -> str:
    """The game's moves as SAN with each move's ``[%ccsnt]`` stamp, no result (clients write their own).

    A stored notation python-chess cannot play ends the moves there, with a comment saying so: a
    client must never be handed a position other than corr's.
    """
    zone, instants = game.tournament.time_zone, counts_instants(game)
    pgn = chess.pgn.Game()
    node = pgn
    moves, _pending = exported_moves(time, rows)
    for move in moves:
        if move.void:
            continue
        try:
            played = node.board().parse_san(move.notation.rstrip("!?").replace("0", "O"))
        except ValueError:
            node.comment = (node.comment + " " if node.comment else "") + (
                f"moves stop here: {move.player}'s move {move.number} {move.notation!r} is no legal move")
            break
        node = node.add_variation(played)
        node.comment = ccsnt(sent_on=move.sent_on, sent_at=move.sent_at, zone=zone, instants=instants) or ""
    exporter = chess.pgn.StringExporter(headers=False, variations=False, comments=True, columns=None)
    text = pgn.accept(exporter)
    return text.removesuffix("*").strip()


def xfcc_game_record(game: Game, user, now: datetime) -> dict[str, str]:
    """One ``XfccGame``'s fields as text, in the order written, for ``user`` as of ``now``."""
    rows = game_rows(game=game)
    time = game_time(game, rows, clock_as_of(game, now))
    colour = game.colour_of(user)
    left = game_time_left(game=game, time=time)
    mine, theirs = _left(left[colour]), _left(left[other(colour)])
    offer = draw_offer_of(rows)
    t = game.tournament
    ruleset = t.ruleset.as_dict()
    booleans = {True: "true", False: "false"}
    return {
        "id": str(game.pk), "event": t.name, "site": absolute_url(reverse("game", args=[game.pk])),
        "eventDate": t.official_start.strftime("%Y.%m.%d"), "round": "-",
        "white": game.white.username, "black": game.black.username,
        # corr keeps no ratings: 0, the number typed clients read for "none".
        "whiteElo": "0", "blackElo": "0",
        "gameLink": absolute_url(reverse("game", args=[game.pk])),
        "myTurn": booleans[time.to_move == colour], "hasWhite": booleans[colour == Colour.WHITE],
        "result": RESULTS.get(game.result, "Ongoing"),
        "moves": xfcc_movetext(game, time, rows),
        "setup": "false", "fen": "",
        "drawOffered": booleans[offer is not None and offer.by != colour],
        "message": "",
        "daysPlayer": mine[0], "hoursPlayer": mine[1], "minutesPlayer": mine[2],
        "daysOpponent": theirs[0], "hoursOpponent": theirs[1], "minutesOpponent": theirs[2],
        "timeControl": pgn_time_control(ruleset),
        "variant": "chess",
        # No rule of corr forbids a source of help: the clients' "no..." flags are all false.
        "noOpeningBooks": "false", "noDatabases": "false", "noTablebases": "false", "noEngines": "false",
    }
