"""corr's live PGN, PDN and SGF read back as live game files for ``manage.py clock`` (Django-free).

Each format's comments are taken in the order they stand (before the first move, after each move of the
main line, after the last) and their commands (:mod:`.live_stamps`) give the live game file's events, so
the three formats read the same way. The board is not replayed: a live move's facts are in its
``[%ccpress]``, whether the move is on the board or, without notation, in a comment.
"""

from __future__ import annotations

import re

from .board_stamps import game_label, pdn_games, sgf_games
from .live_stamps import LiveStampError, live_game_file
from .pgn_stamps import META_TAGS, PgnStampError


def live_games(raw: bytes, text: str, *, suffix: str, ruleset: dict) -> list[dict]:
    """Every game of a file in ``suffix``'s format (``pgn``, ``pdn``, ``sgf``; ``raw`` its bytes, ``text`` the
    same decoded) as a live game file under ``ruleset`` (a live one).

    :raises PgnStampError: for a file the format's reader refuses, and (as :class:`LiveStampError`, a
        subclass of ``ValueError`` too) for a command that cannot be read, naming the game.
    """
    if suffix in ("sgf", "pdn"):
        read = sgf_games(raw) if suffix == "sgf" else pdn_games(text)
        games = [(tags, [preface, *(comment for _player, comment in plies)]) for tags, plies, preface in read]
    else:
        games = _pgn_comments(text)
    out = []
    for number, (tags, comments) in enumerate(games, start=1):
        label = game_label(number, tags)
        meta = {key.lower(): tags.get(key) or "?" for key in META_TAGS}
        out.append(live_game_file(comments, ruleset=ruleset, label=label, meta=meta))
    return out


_PGN_TOKEN = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]|\{([^}]*)\}|;[^\n]*|([()])|([^\s(){};\[]+)')
_PGN_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})


def _pgn_comments(text: str) -> list[tuple[dict, list[str]]]:
    """Each PGN game's tags and its main line's comments in order (variations, in parentheses, are analysis;
    ``;`` comments to the end of the line and the moves are skipped).

    Read here rather than by python-chess, which ends a game at an empty line in the movetext: pgn-extract
    writes one after a comment before the first move, and the rest of the game would be lost.
    :raises PgnStampError: for a file without a game, a game without its result at its end.
    """
    games, tags, comments, depth, in_moves = [], {}, [], 0, False
    for match in _PGN_TOKEN.finditer(text):
        name, value, comment, paren, word = match.groups()
        if name is not None:
            if in_moves:
                raise PgnStampError(f"{game_label(len(games) + 1, tags)}: no result before the next game's tags")
            tags[name] = value.replace('\\"', '"').replace("\\\\", "\\")
        elif comment is not None:
            in_moves = True
            if depth == 0:
                comments.append(comment)
        elif paren is not None:
            in_moves = True
            depth = max(depth + (1 if paren == "(" else -1), 0)
        elif word is not None:
            in_moves = True
            if depth == 0 and word in _PGN_RESULTS:
                games.append((tags, comments))
                tags, comments, in_moves = {}, [], False
    if in_moves:
        raise PgnStampError(f"{game_label(len(games) + 1, tags)}: the movetext has no result (1-0, 0-1, 1/2-1/2"
                            " or *) at its end")
    if not games:
        raise PgnStampError("no PGN game found (a game starts with tags such as [Event \"...\"] and its moves)")
    return games


__all__ = ["LiveStampError", "live_games"]
