"""The stored facts of live games: their events stamped by the server, and one row per game to select by.

Facts in, state out (STYLE 2): ``LiveEvent`` rows are appended, never edited,
each stamped with the server's instant (``corr.live.timesource.now_ms``, integer
milliseconds since the Unix epoch); the clock is always recomputed from them by
``corr.clock.live.live_clock``. ``LiveGame`` is the one denormalised row per game:
its ``next_check_at_ms`` (the instant a flag or a late arrival falls due) is what
the periodic sweep selects by, through its index.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from corr import limits as lim

from .games import Colour, Game

LIVE_TEXT_MAX = 300
"""A reason, a verdict or a case as the history shows it (a rule and who it concerns)."""


class LiveEventKind(models.TextChoices):
    """What happened in a live game: the clock's events (``LIVE_CLOCK_KINDS``) and the records."""

    START = "start", _("clocks started (the first mover's clock runs from the start instant)")
    MOVE = "move", _("move made and clock pressed")
    PAUSE = "pause", _("clocks stopped by the arbiter (002 6.12)")
    RESUME = "resume", _("clocks restarted by the arbiter (002 6.13)")
    ADJUST = "adjust", _("time adjusted by the arbiter (000 12.5, 001 1.7.8, 003 17.4)")
    ILLEGAL = "illegal", _("illegal move declared by the arbiter (003 13.4)")
    GAP = "gap", _("the service was down: that time counts for no one")
    EXCUSE = "excuse", _("late arrival excused by the arbiter (002 6.6, 003 12.7)")
    STOP = "stop", _("clocks stopped by a player: resignation, or a draw claimed (000 12.11, 001 1.7.11, 1.7.13)")
    CALL = "call", _("clocks stopped by a player to call the arbiter (002 6.12 b, 003 12.13)")
    # Records: lines of the history that change no clock (the engine never sees them).
    FLAG = "flag", _("flag fall recorded")
    CASE = "case", _("arbiter case opened")
    RESULT = "result", _("result recorded")
    REOPEN = "reopen", _("game reopened by the arbiter")
    WARNING = "warning", _("warning by the arbiter (003 17.4 a)")
    RULING = "ruling", _("the arbiter's ruling on a player's stop of the clocks")


LIVE_CLOCK_KINDS = frozenset({LiveEventKind.START, LiveEventKind.MOVE, LiveEventKind.PAUSE, LiveEventKind.RESUME,
                              LiveEventKind.ADJUST, LiveEventKind.ILLEGAL, LiveEventKind.GAP,
                              LiveEventKind.EXCUSE, LiveEventKind.STOP, LiveEventKind.CALL})
"""The kinds the live clock is computed from; the others only record what the service decided."""


class LiveGame(models.Model):
    """The live side of a game: its start, version, next instant due, the position after its last move."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="live")
    starts_at_ms = models.BigIntegerField(help_text="The instant the first mover's clock starts (ms since epoch).")
    version = models.PositiveIntegerField(
        default=0, help_text="Raised with every stored event: a scheduled check of an older version does nothing.")
    next_check_at_ms = models.BigIntegerField(
        null=True, blank=True, help_text="When a flag or a late arrival falls due if nothing happens; null: never.")
    ended_at_ms = models.BigIntegerField(null=True, blank=True, help_text="The instant the clocks stopped for good.")
    # 400: a Go position's key (corr.games.goboard.GoBoard.key) is 19 rows of 19 points, the side and the ko.
    position = models.CharField(
        max_length=400, blank=True, default="",
        help_text="FEN after the last move when every move was read (chess SAN, Russian draughts; Go: the stones,"
                  " the side to move and the ko point); blank otherwise.")
    readable = models.BooleanField(default=True, help_text="Every move so far was in a notation corr reads.")
    case = models.CharField(max_length=LIVE_TEXT_MAX, blank=True, default="",
                            help_text="The open arbiter case (the rule to apply), blank when none.")
    snapshot = models.JSONField(
        null=True, blank=True,
        help_text="The live engine's state after the event numbered snapshot_seq (corr.clock.live LiveClock.snapshot):"
                  " a press folds its one event onto it instead of replaying the game (issue 27). Derived: null,"
                  " stale or of another time control, the events are replayed.")
    snapshot_seq = models.PositiveIntegerField(default=0, help_text="The seq of the last event the snapshot folds.")

    class Meta:
        indexes = [models.Index(fields=["next_check_at_ms"], condition=Q(next_check_at_ms__isnull=False),
                                name="livegame_next_check")]

    def __str__(self) -> str:
        return f"live game {self.game_id} v{self.version}"


class LiveEvent(models.Model):
    """One fact of a live game, stamped by the server (``at_ms``), in the order it was stored (``seq``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="live_events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=LiveEventKind.choices)
    player = models.CharField(max_length=5, choices=Colour.choices, blank=True, default="")
    number = models.PositiveIntegerField(null=True, blank=True)
    notation = models.CharField(max_length=lim.NOTATION_MAX, blank=True, default="")
    at_ms = models.BigIntegerField(help_text="The server's instant (ms since epoch); for a flag, when it fell.")
    lag_ms = models.PositiveIntegerField(default=0, help_text="A move's client-reported network lag.")
    ends_game = models.BooleanField(
        default=False, help_text="A move that ended the game (a mate, a stalemate, no legal move left to the partner):"
                                 " complete without the press (002 6.7 a).")
    delta_ms = models.BigIntegerField(null=True, blank=True, help_text="An adjustment: + adds, - takes.")
    from_ms = models.BigIntegerField(null=True, blank=True, help_text="A gap's first instant (the last heartbeat).")
    reason = models.CharField(max_length=LIVE_TEXT_MAX, blank=True, default="")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
                                   blank=True, help_text="None for corr itself (a flag, a gap).")
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="live_event_seq_unique_per_game")]
        # The events a write reads besides those from the snapshot's on (corr.live.trips.Window): every one but
        # the moves, found without walking a long game's moves (issue 42).
        indexes = [models.Index(fields=["game", "seq"], condition=~Q(kind="move"), name="live_event_not_move")]

    def __str__(self) -> str:
        return f"live game {self.game_id} #{self.seq} {self.kind} {self.player}"


class LiveHeartbeat(models.Model):
    """The last instant the flag sweep ran: a longer silence is time the service was down (``LiveGap``)."""

    name = models.CharField(max_length=20, primary_key=True)
    beat_ms = models.BigIntegerField()

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_ms}"


class ServiceOutage(models.Model):
    """A silence of the beat longer than ``LIVE_GAP_MS``: no process could take moves from ``started_at`` (the last
    beat) to ``ended_at`` (the beat that noticed it). One row per outage, written with the time it gave back to the
    correspondence server games (``corr.games.services.outages``): a second attempt at the same outage finds its row
    and gives nothing (STYLE 7)."""

    started_at = models.DateTimeField(unique=True, help_text="The last beat before the silence.")
    ended_at = models.DateTimeField(help_text="The first beat after it.")
    games = models.PositiveIntegerField(default=0, help_text="Server games given the outage back.")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"down {self.started_at:%Y-%m-%d %H:%M:%S} to {self.ended_at:%Y-%m-%d %H:%M:%S} UTC"
