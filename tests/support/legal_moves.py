"""Legal chess moves for tests that play long server games (issue 36: the server refuses an illegal move).

The knights' dance: white Nf3, Ng1, black Nf6, Ng8, for ever. It repeats the starting position, which draws a game
only when a player claims it (FIDE 9.2), so a game of any length stays under way.
"""

from __future__ import annotations

DANCE = {"white": ("Nf3", "Ng1"), "black": ("Nf6", "Ng8")}
DANCE_UCI = {"white": ("g1f3", "f3g1"), "black": ("g8f6", "f6g8")}


def dance(colour: str, number: int, *, uci: bool = False) -> str:
    """``colour``'s move ``number`` of the knights' dance (SAN, or the same move in UCI)."""
    return (DANCE_UCI if uci else DANCE)[colour][(number - 1) % 2]


def store_unchecked(game, user, colour: str, number: int, notation: str):
    """Store a server move as the service stored it before issue 36 (as typed, unchecked): a game made then.

    The row is written directly, as the old service wrote it, then the game's clocks are recomputed.
    """
    from django.db.models import Max
    from django.utils import timezone

    from corr.games.clockstate import local_today
    from corr.games.services import game_recompute
    from corr.models import GameEvent

    now = timezone.now().replace(microsecond=0)
    today = local_today(game.tournament, now)
    seq = (GameEvent.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0) + 1
    row = GameEvent.objects.create(game=game, seq=seq, kind="move", player=colour, number=number, notation=notation,
                                   mail="server", sent_on=today, sent_at=now, entered_by=user)
    game_recompute(game, by=None, today=today, cause="stored before issue 36")
    return row
