"""``GetMyGames``: a user's ongoing chess server games as XFCC's ``XfccGame`` records (a selector).

Every field is one that Scid's ``tcl/tools/correspondence.tcl`` (``WritePGN``, ``PrintStatus``) or
another client reads. The clock is corr's: the time left of each side as of the request
(``daysPlayer``, ``hoursPlayer``, ``minutesPlayer`` and the opponent's), to the minute under an
instant count and in whole days under article 50.4's dates; ``timeControl`` in PGN's seconds.
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


def _left(account, instants: bool) -> tuple[int, int, int]:
    """(days, hours, minutes) of time left: the seconds to the flag under an instant count, else whole days."""
    if instants:
        minutes = max(0, account.remaining_seconds) // 60
        return minutes // 1440, minutes % 1440 // 60, minutes % 60
    return max(0, account.control.remaining_days), 0, 0


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
    instants = counts_instants(game)
    mine, theirs = (_left(time.clock.accounts[c], instants) for c in (colour, other(colour)))
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
        "daysPlayer": str(mine[0]), "hoursPlayer": str(mine[1]), "minutesPlayer": str(mine[2]),
        "daysOpponent": str(theirs[0]), "hoursOpponent": str(theirs[1]), "minutesOpponent": str(theirs[2]),
        "timeControl": pgn_time_control(ruleset),
        "variant": "chess",
        # No rule of corr forbids a source of help: the clients' "no..." flags are all false.
        "noOpeningBooks": "false", "noDatabases": "false", "noTablebases": "false", "noEngines": "false",
    }
