"""The pending deadlines of a user's games or of a tournament, as the game pages show them today.

A server game counted by the instant (``whole_days``, ``exact``; issue 22) has its deadline at a moment,
the account's ``flag_at``: ``Deadline.flag_at`` carries it and the feed puts the event at that time;
every other deadline is a date and stays an all-day event.

Live games (issue 16) are left out: their clocks run in seconds on the game page and a flag falls at
its instant, so a calendar day says nothing true about them (and the days calculator refuses their
rulesets). Their start is on the game page; the calendars carry correspondence deadlines only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db.models import Q

from corr.games.clockstate import local_today
from corr.games.selectors import game_clock_view
from corr.games.timeleft import TimeLeft, view_time_left
from corr.games.turns import Turn, view_turns
from corr.models import Game, GameStatus, Mode, Tournament


@dataclass(frozen=True, slots=True)
class Deadline:
    """The last day ``player`` of ``game`` may send their pending move ``number``.

    ``flag_at``: under an instant count, the aware UTC instant the move is over its time (the move
    must be sent before it); None under ``dates``, where ``deadline`` is the whole answer.
    """

    game: Game
    player: str
    number: int
    deadline: date
    remaining_days: int
    time_trouble: bool
    as_of: date
    turn: Turn
    flag_at: datetime | None = None
    left: TimeLeft | None = None
    """The time left as of the feed's computation (``corr.games.timeleft``), the one answer."""

    @property
    def username(self) -> str:
        return self.game.user_of(self.player).username


def _deadlines(games, now: datetime, colour_of=None) -> list[Deadline]:
    """Every deadline of ``games`` as of today in each tournament's zone (the clock the game page computes).

    ``colour_of(game)`` keeps one player's; None keeps both. The clocks come
    from the calculator, not the stored ``PlayerClock`` rows: a move still
    presumed in transit has no stored deadline until the nightly job passes,
    while its game page shows one from the day it arrives.
    """
    out = []
    for game in games:
        today = local_today(game.tournament, now)
        view = game_clock_view(game=game, as_of=today)
        left = view_time_left(game=game, players=view["clock"]["players"])
        for player, turn in view_turns(view).items():
            # The game page's answer (corr.games.turns): a deadline only for a player on move, in time or
            # past it (the event stays on the day that passed); none while a move is in the post.
            if not turn.on_move or turn.until is None:
                continue
            if colour_of is not None and colour_of(game) != player:
                continue
            account = view["clock"]["players"][player]
            out.append(Deadline(game=game, player=player, number=turn.number,
                                deadline=date.fromisoformat(account["deadline"]),
                                remaining_days=account["control"]["remaining_days"],
                                time_trouble=account["time_trouble"], as_of=today, turn=turn,
                                flag_at=turn.until if isinstance(turn.until, datetime) else None,
                                left=left[player]))
    return sorted(out, key=lambda d: (d.deadline, d.flag_at or _LAST, d.game.pk, d.player))


_LAST = datetime.max.replace(tzinfo=UTC)  # a date deadline sorts after the instants of its own day


def deadlines_of_user(*, user, now: datetime) -> list[Deadline]:
    """The user's own pending deadlines in their ongoing correspondence games (live games have none)."""
    games = (Game.objects.filter(Q(white=user) | Q(black=user), status=GameStatus.ONGOING)
             .exclude(mode=Mode.LIVE).select_related("tournament", "white", "black").order_by("pk"))
    return _deadlines(games, now, colour_of=lambda game: game.colour_of(user))


def deadlines_of_tournament(*, tournament: Tournament, now: datetime) -> list[Deadline]:
    """Every player's pending deadline in the tournament's ongoing correspondence games (none if live)."""
    games = (Game.objects.filter(tournament=tournament, status=GameStatus.ONGOING)
             .exclude(mode=Mode.LIVE).select_related("tournament", "white", "black").order_by("pk"))
    return _deadlines(games, now)
