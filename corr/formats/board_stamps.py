"""corr's own PDN and SGF exports read back as game files for ``manage.py clock`` (issue 37; Django-free).

corr writes a draughts game's PDN and a Go game's SGF with the same comments as its PGN: each move's
``[%ccsnt]`` (and by post ``[%ccrd]``), and corr's commands of the clock's other facts
(:mod:`corr.exports.stamps`). These readers find the moves and their comments and hand them to
:func:`corr.formats.pgn_stamps.stamped_game_file`, so that the three formats read the same way and
give the game file of the module :mod:`.pgn_stamps` describes.

- **PDN** (3.0, as corr writes it): tag pairs, then movetext from white's first move; each move is
  followed by its comments, comments before the first move are the preface, and the game ends at its
  result (``2-0``, ``1-0``, ``1/2-1/2``, ``1-1``, ``*`` ...). Draughts rules are not checked: the moves are
  taken as written (corr does not know every variant's rules either).
- **SGF** (FF[4], read by sgfmill): the main sequence's ``B``/``W`` nodes are the moves (a pass too), each
  one's ``C`` its comment, the root's ``C`` the preface; ``DT`` the official start, ``RE`` absent while the
  game goes on, ``PW``/``PB``/``EV``/``PC`` to ``meta``.

The time control is the preset's, as for a PGN: neither format says it in a form that is read here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .pgn_stamps import PgnStampError, _official_start, _zone, game_start, stamped_game_file

_PDN_TOKEN = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]|\{([^}]*)\}|(\S+)')
_PDN_RESULTS = frozenset({"2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"})
_MOVE_NUMBER = re.compile(r"\d+\.(?:\.\.)?")


def games_from_pdn(text: str, *, ruleset: dict, time_zone: str = "UTC",
                   warn: Callable[[str], None] | None = None) -> list[dict]:
    """Every game of a PDN text as a game file dict (as :func:`corr.formats.pgn_stamps.games_from_pgn`).

    :raises PgnStampError: naming the game (and the move) that cannot be read.
    """
    zone = _zone(time_zone)
    games = []
    for number, (tags, plies, preface) in enumerate(pdn_games(text), start=1):
        label = game_label(number, tags)
        # A server game started after its tournament's official start carries UTCDate/UTCTime, as in PGN.
        started, official_start = game_start(tags, label)
        games.append(stamped_game_file(tags, label, plies, preface, ruleset=ruleset, zone=zone,
                                       zone_name=time_zone, started=started, official_start=official_start,
                                       warn=warn))
    return games


def game_label(number: int, tags: dict) -> str:
    """How messages name a game: ``game 1 (anna - boris)``."""
    return f"game {number} ({tags.get('White') or '?'} - {tags.get('Black') or '?'})"


def pdn_games(text: str) -> list[tuple[dict, list[tuple[str, str]], str]]:
    """Every game of a PDN text as (its tags, its plies: each the mover's colour and the move's comments, the
    comments before the first move). :raises PgnStampError: for a game without a result, a text without one."""
    games, tags, plies, preface, in_moves = [], {}, [], [], False
    for match in _PDN_TOKEN.finditer(text):
        name, value, comment, word = match.groups()
        if name is not None:
            if in_moves:  # a new game's tags: the last one had no result
                raise PgnStampError(f"game {len(games) + 1}: no result before the next game's tags")
            tags[name] = value.replace('\\"', '"').replace("\\\\", "\\")
        elif comment is not None:
            in_moves = True
            if plies:
                plies[-1] = (plies[-1][0], f"{plies[-1][1]} {comment}")
            else:
                preface.append(comment)
        elif word in _PDN_RESULTS:
            games.append((tags, plies, " ".join(preface)))
            tags, plies, preface, in_moves = {}, [], [], False
        elif not _MOVE_NUMBER.fullmatch(word):
            in_moves = True
            plies.append(("white" if len(plies) % 2 == 0 else "black", ""))
    if in_moves or tags:
        raise PgnStampError(f"game {len(games) + 1}: the movetext has no result (2-0, 1-0, * ...) at its end")
    if not games:
        raise PgnStampError("no PDN game found (a game starts with tags such as [Event \"...\"] and its moves)")
    return games


def games_from_sgf(raw: bytes, *, ruleset: dict, time_zone: str = "UTC",
                   warn: Callable[[str], None] | None = None) -> list[dict]:
    """Every game of an SGF collection as a game file dict. :raises PgnStampError: naming the game."""
    zone = _zone(time_zone)
    games = []
    for number, (tags, plies, preface) in enumerate(sgf_games(raw), start=1):
        label = game_label(number, tags)
        games.append(stamped_game_file(tags, label, plies, preface, ruleset=ruleset, zone=zone,
                                       zone_name=time_zone, started=None,
                                       official_start=_official_start(tags, label).isoformat(), warn=warn))
    return games


def sgf_games(raw: bytes) -> list[tuple[dict, list[tuple[str, str]], str]]:
    """Every game of an SGF collection as (tags in PGN's names, plies, the root's comment), as :func:`pdn_games`.

    :raises PgnStampError: for a file sgfmill cannot read, naming the game.
    """
    from sgfmill import sgf, sgf_grammar  # only for SGF runs

    try:
        trees = sgf_grammar.parse_sgf_collection(raw)
    except ValueError as error:
        raise PgnStampError(f"not an SGF file: {error}") from None
    games = []
    for number, tree in enumerate(trees, start=1):
        try:
            game = sgf.Sgf_game.from_coarse_game_tree(tree)
            root = game.get_root()
            tags = {"White": _property(root, "PW"), "Black": _property(root, "PB"), "Event": _property(root, "EV"),
                    "Site": _property(root, "PC"), "Result": _property(root, "RE") or "*",
                    "Date": (_property(root, "DT") or "").replace("-", ".")}
            plies = [("black" if colour == "b" else "white", _property(node, "C") or "")
                     for node in game.get_main_sequence()[1:]
                     for colour, _point in [node.get_move()] if colour is not None]
        except ValueError as error:
            raise PgnStampError(f"game {number}: {error}") from None
        games.append((tags, plies, _property(root, "C") or ""))
    if not games:
        raise PgnStampError("no SGF game found")
    return games


def _property(node, name: str) -> str | None:
    return node.get(name) if node.has_property(name) else None
