"""The stored facts of corr: tournaments, games, their events, and each player's current clock.

Facts in, state out (STYLE 2): events are what happened and are never edited;
a correction is a new event that supersedes an earlier one. ``PlayerClock`` is
the one denormalised row per player, written in the same transaction as the
event that changed it, so that nightly work can select by date through an index.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import cached_property

from corr import limits as lim
from corr.clock import Ruleset

# The calendar window of corr.limits (also what the admin's forms accept).
DATE_WINDOW = [MinValueValidator(lim.DATE_MIN), MaxValueValidator(lim.DATE_MAX)]


def ruleset_range(name: str) -> list:
    low, high = lim.RULESET_RANGES[name]
    return [MinValueValidator(low), MaxValueValidator(high)]


class Mode(models.TextChoices):
    SERVER = "server", _("server (moves submitted online; the server's date counts)")
    POSTAL = "postal", _("postal or e-mail (players record the dates)")
    LIVE = "live", _("live (a clock in seconds kept by the server, over-the-board rules)")


class Colour(models.TextChoices):
    WHITE = "white", _("white")
    BLACK = "black", _("black")


class GameKind(models.TextChoices):
    """What is played: it decides the export formats (PGN, PDN, SGF) and nothing of the clock."""

    CHESS = "chess", _("chess")
    DRAUGHTS = "draughts", _("draughts")
    GO = "go", _("Go")


NOTATION_EXAMPLES = {GameKind.CHESS: "Nf3", GameKind.DRAUGHTS: "c3-d4", GameKind.GO: "D4"}
"""A move of each kind as its export reads it (PGN's SAN, PDN's squares, a Go point), in every language: the
pages' and the refusals' example (a French "Cf3" is no move a chess program reads)."""


class AllowancePer(models.TextChoices):
    """What a tournament's leave allowance is counted over."""

    YEAR = "year", "calendar year (myChess, ICCF)"
    EVENT = "event", "the whole event"


class MoveOnLeave(models.TextChoices):
    """The calculator's ``ruleset.move_on_leave`` option (``corr.clock.calendar.MoveOnLeave``)."""

    ALLOWED = "allowed", "allowed, the leave stays (SchemingMind)"
    ENDS_LEAVE = "ends_leave", "the move ends the leave (myChess)"
    REFUSED = "refused", "refused (ICCF)"


class PlayerCalendars(models.TextChoices):
    """The calculator's ``ruleset.player_calendars`` (``corr.clock.personal.CalendarZone``, issue 40)."""

    NONE = "none", "none (ICCF, postal play)"
    OWN_ZONE = "own_zone", "each player's own zone (OGS, DGS)"
    GAME_ZONE = "game_zone", "the game's zone"


class Timeouts(models.TextChoices):
    """What happens when a server game's flag falls under an instant count (issue 22)."""

    ARBITER = "arbiter", _("arbiter (a case the arbiter confirms, the 50.4 way)")
    AUTOMATIC = "automatic", _("automatic (lost on time at the flag, as the ICCF webserver, lichess and chess.com)")


class Tournament(models.Model):
    """A correspondence tournament: its ruleset (50.4 numbers), start, mode and arbiters."""

    name = models.CharField(max_length=lim.NAME_MAX)
    official_start = models.DateField(help_text="50.4.5: no thinking time counts before it.", validators=DATE_WINDOW)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.POSTAL)
    kind = models.CharField(max_length=10, choices=GameKind.choices, default=GameKind.CHESS,
                            db_default=GameKind.CHESS,
                            help_text="What its games play, unless a game says otherwise.")
    time_zone = models.CharField(max_length=64, default="UTC",
                                 help_text="The zone whose calendar dates count (server dates, 'today').")
    presumed_transit_days = models.PositiveSmallIntegerField(
        default=0, help_text="Days a move is presumed in transit until its receipt is recorded (0 for e-mail).",
        validators=[MaxValueValidator(lim.PRESUMED_TRANSIT_DAYS_MAX)])
    moves_per_control = models.PositiveSmallIntegerField(default=10, validators=ruleset_range("moves_per_control"))
    days_per_control = models.PositiveSmallIntegerField(default=30, validators=ruleset_range("days_per_control"))
    grace_days = models.PositiveSmallIntegerField(default=3, validators=ruleset_range("grace_days"))
    first_penalty_days = models.PositiveSmallIntegerField(default=5, validators=ruleset_range("first_penalty_days"))
    repeat_penalty_days = models.PositiveSmallIntegerField(default=10,
                                                           validators=ruleset_range("repeat_penalty_days"))
    time_trouble_days = models.PositiveSmallIntegerField(default=5, validators=ruleset_range("time_trouble_days"))
    late_notice_start_days = models.PositiveSmallIntegerField(default=3,
                                                              validators=ruleset_range("late_notice_start_days"))
    time_control = models.JSONField(null=True, blank=True,
                                    help_text="Another time-control system (the game file's ruleset.time_control).")
    # Days that do not count (issue 14; corr.clock.calendar). Defaults: ICCF's 45 days of leave a
    # calendar year, at least 1 day, booked at least 1 day ahead; no holidays, no weekend clock.
    leave_days = models.PositiveSmallIntegerField(
        default=45, db_default=45, validators=[MaxValueValidator(lim.LEAVE_DAYS_MAX)],
        help_text="Leave a player may book per calendar year or per event (0: no leave).")
    leave_per = models.CharField(max_length=5, choices=AllowancePer.choices, default=AllowancePer.YEAR,
                                 db_default=AllowancePer.YEAR,
                                 help_text="What the leave allowance is counted over.")
    leave_min_days = models.PositiveSmallIntegerField(default=1, db_default=1, validators=[MinValueValidator(1),
                                                                             MaxValueValidator(lim.LEAVE_DAYS_MAX)],
                                                      help_text="The shortest leave that may be booked.")
    leave_book_ahead_days = models.PositiveSmallIntegerField(
        default=1, db_default=1, validators=[MaxValueValidator(lim.LEAVE_DAYS_MAX)],
        help_text="Leave must begin at least this many days after the day it is booked.")
    holidays = models.JSONField(default=list, db_default=models.Value([], models.JSONField()), blank=True,
                                help_text='Days off for both players: [{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}].')
    weekend_days = models.JSONField(default=list, db_default=models.Value([], models.JSONField()), blank=True,
                                    help_text='Weekdays that do not count, e.g. ["saturday", "sunday"].')
    move_on_leave = models.CharField(max_length=10, default=MoveOnLeave.ALLOWED, db_default=MoveOnLeave.ALLOWED,
                                     choices=MoveOnLeave.choices,
                                     help_text="What a move sent on one's own leave day does.")
    timeouts = models.CharField(max_length=10, choices=Timeouts.choices, default=Timeouts.ARBITER,
                                db_default=Timeouts.ARBITER,
                                help_text="Server games under an instant count: who records a fallen flag.")
    # Issue 39: a player may give the partner time (lichess's "+", DGS's add-time) in server games, up to
    # this many days in all per game; 0, the default, allows no gift.
    gift_max_days = models.PositiveSmallIntegerField(
        default=0, db_default=0, blank=True, validators=[MaxValueValidator(lim.GIFT_DAYS_MAX)],
        help_text="Server games: the most days a player may give the partner in one game (0: no gifts).")
    # Issue 40: each server's own clock stops and time given, the calculator's ruleset keys of the same names
    # (corr.clock.rules.Ruleset; docs/time_controls.md, "Each server's clock"). The defaults allow none of them.
    player_calendars = models.CharField(
        max_length=10, choices=PlayerCalendars.choices, default=PlayerCalendars.NONE, db_default=PlayerCalendars.NONE,
        help_text="Whether players keep their own weekend and night, and in whose zone (OGS, DGS).")
    vacation = models.JSONField(null=True, blank=True, help_text=(
        'The servers\' vacation rule (ruleset.vacation): {"initial_hours", "accrue_hours", "period_days",'
        ' "cap_hours", "min_hours", "granularity", "scope", "ends_on_move", "automatic"}; null: no vacation.'))
    pauses_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(lim.PAUSES_PER_GAME_MAX)],
        help_text="How many pauses each player may start in a game (OGS pauses_left); null: no pauses.")
    gifts = models.JSONField(null=True, blank=True, help_text=(
        'Time the opponent may give (ruleset.gifts): {"days": 1, "below_allowance_less_hours": 1} (lichess),'
        ' {"max_days": 14} (DGS); null: the older gift_max_days (issue 39) alone.'))
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="arbitrated_tournaments", blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-official_start", "name"]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def ruleset(self) -> Ruleset:
        """The calculator's ruleset (parsed once per instance: the nightly job asks for it per game)."""
        values = {name: getattr(self, name) for name in Ruleset.field_names()}
        if self.time_control:
            values["time_control"] = self.time_control
        values.update(holidays=self.holidays or [], weekend_days=self.weekend_days or [],
                      move_on_leave=self.move_on_leave, player_calendars=self.player_calendars,
                      vacation=self.vacation, pauses_per_game=self.pauses_per_game, gifts=self.gifts)
        return Ruleset.from_mapping(values)


class GameStatus(models.TextChoices):
    ONGOING = "ongoing", _("ongoing")
    FINISHED = "finished", _("finished")


class GameResult(models.TextChoices):
    NONE = "", _("none yet")
    WHITE_WON = "1-0", _("white won")
    BLACK_WON = "0-1", _("black won")
    DRAW = "1/2-1/2", _("draw")


class Game(models.Model):
    """A game between two participants of a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="games")
    white = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_as_black")
    first = models.CharField(max_length=5, choices=Colour.choices, default=Colour.WHITE,
                             help_text="The colour that moves first (black in Go).")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    kind = models.CharField(max_length=10, choices=GameKind.choices, blank=True, default="", db_default="",
                            help_text="Blank: the tournament's kind (a mixed tournament names it per game).")
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.ONGOING)
    result = models.CharField(max_length=8, choices=GameResult.choices, blank=True, default="")
    termination = models.CharField(max_length=lim.TERMINATION_MAX, blank=True, default="",
                                   help_text="How the game ended, e.g. 'white lost on time (50.4.3)'.")
    events_version = models.PositiveIntegerField(
        default=0, help_text="Raised with every stored event or result: the key of cached clocks.")
    created_at = models.DateTimeField(default=timezone.now)
    clock_start = models.DateTimeField(null=True, blank=True, help_text=(
        "A server game counted in instants: the instant its first mover's clock starts, when later than the"
        " tournament's official start (the game's creation, or the start the arbiter named); null: the official"
        " start (issue 39)."))
    position = models.JSONField(null=True, blank=True, editable=False, help_text=(
        "A server game: its board after the last server move (corr.games.position), valid only while its"
        " 'version' is the game's events_version; null or stale: the moves are replayed (issue 42)."))

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="game_players_differ"),
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="game_tournament_status")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.white} - {self.black}"

    @property
    def kind_in_force(self) -> str:
        """The game's own kind, or its tournament's when it names none."""
        return self.kind or self.tournament.kind

    def colour_of(self, user) -> str | None:
        if user.pk == self.white_id:
            return Colour.WHITE
        if user.pk == self.black_id:
            return Colour.BLACK
        return None

    def user_of(self, colour: str):
        return self.white if colour == Colour.WHITE else self.black


class EventKind(models.TextChoices):
    MOVE = "move", _("move")
    RECEIPT = "receipt", _("receipt of the partner's move")
    NOTICE = "notice", _("notice or repeat (50.4.7)")
    PENALTY = "penalty", _("penalty (50.4.9, 50.4.10)")
    DELAY = "delay", _("delay (50.4.11)")
    CREDIT = "credit", _("time given back")
    START_NOTICE = "start_notice", _("notice of the start received late (50.4.6)")
    WITHDRAWAL = "withdrawal", _("withdrawal of an earlier event")
    # Records: lines of the history that change no clock (the calculator never sees them).
    RESULT = "result", _("result recorded")
    REOPEN = "reopen", _("game reopened")
    CASE = "case", _("arbiter case opened, withdrawn or decided")
    RULES = "rules", _("tournament rules changed")
    ADMIN = "admin", _("changed in the admin")
    LEAVE = "leave", _("leave booked, cancelled or granted")
    # A player's draw offer in a server game and the partner's refusal (issue 26); a resignation and an
    # accepted offer are result lines.
    DRAW_OFFER = "draw_offer", _("draw offered")
    DRAW_DECLINE = "draw_decline", _("draw offer declined")
    # ICCF Playing Rules 3b (issue 40): the player on move's "Use 40+ days" notice. A fact of the clock (it lifts
    # the limit for one move, ``max_per_move``, of that move), not a record line.
    LONG_MOVE = "long_move", _("\"Use 40+ days\" notice (ICCF Playing Rules 3b)")
    # Issue 40: facts of one player's clock on a server. A gift (``days`` given to ``player`` at ``sent_at``) is an
    # event of the calculator (``corr.clock.events.Gift``); a vacation or a pause is a stretch of ``player``'s
    # clock that stood still, ``received_at`` to ``sent_at`` (``players.<id>.vacation``/``pauses`` of the game
    # file). A player's calendar changed is a record line (the calendar itself is ``PlayerCalendar``).
    GIFT = "gift", _("time given by the opponent")
    VACATION = "vacation", _("vacation")
    PAUSE = "pause", _("pause")
    CALENDAR = "calendar", _("a player's calendar set")


RECORD_KINDS = frozenset({EventKind.RESULT, EventKind.REOPEN, EventKind.CASE, EventKind.RULES, EventKind.ADMIN,
                          EventKind.LEAVE, EventKind.DRAW_OFFER, EventKind.DRAW_DECLINE, EventKind.CALENDAR})
"""Kinds of history lines that record a decision or a change and are never corrected or withdrawn."""


class Mail(models.TextChoices):
    REGISTERED = "registered", _("registered mail")
    ORDINARY = "ordinary", _("ordinary mail")
    EMAIL = "email", _("e-mail")
    SERVER = "server", _("server")


class GameEvent(models.Model):
    """One fact of a game, in the order it was entered (``seq``). Never edited.

    A correction is a new row of the same kind whose ``supersedes`` points at
    the row it replaces (in that row's place in the sequence); a withdrawal is a
    row of kind ``withdrawal``. ``number`` is the move's number for a move, and
    the move the days are charged to for a notice, penalty or delay.
    A ``credit`` (time given back, issue 39) gives back ``days`` of the unit its ``reason`` names:
    ``days``, or ``seconds`` under an exact count; ``number`` is the move they are taken off.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    player = models.CharField(max_length=5, choices=Colour.choices, blank=True,
                              help_text="Blank for a record that concerns both players.")
    number = models.PositiveIntegerField(null=True, blank=True, validators=[MaxValueValidator(lim.MOVES_MAX)])
    notation = models.CharField(max_length=lim.NOTATION_MAX, blank=True, default="")
    received_on = models.DateField(null=True, blank=True, validators=DATE_WINDOW)
    sent_on = models.DateField(null=True, blank=True, validators=DATE_WINDOW)
    # Server games: the instants themselves (issue 22); the dates above are their dates in the
    # tournament's zone. The partner's receipt is the sent instant: the server delivers at once.
    received_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    void = models.BooleanField(default=False)
    variant = models.CharField(max_length=12, blank=True, default="")
    mail = models.CharField(max_length=12, choices=Mail.choices, blank=True, default="")
    reason = models.CharField(max_length=lim.REASON_MAX, blank=True, default="")
    days = models.PositiveIntegerField(null=True, blank=True, validators=[MaxValueValidator(lim.DELAY_DAYS_MAX)])
    note = models.TextField(blank=True, default="", validators=[MaxLengthValidator(lim.NOTE_MAX)])
    supersedes = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="superseded_by")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
                                   blank=True, help_text="None for corr itself (the nightly re-check).")
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique_per_game"),
        ]
        indexes = [
            # The nightly report's "Use 40+ days" lines start from these few rows (corr.nightly.reports),
            # not from every ongoing player's clock probing the events table (it grew with the federation).
            models.Index(fields=["game"], condition=Q(kind="long_move"), name="event_long_move"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq} {self.kind} {self.player}"


class PlayerCalendar(models.Model):
    """A player's own weekend days and nightly window in one game (issue 40; ``players.<id>.calendar``).

    Where the tournament's ``player_calendars`` allows it (OGS's ``pause_on_weekends``, DGS's night of 9 hours
    in the player's zone): that player's clock stands still then, the other's never. One per player and game,
    set before the player's first move: the game file has one calendar per player for the whole game, so a
    calendar changed later would rewrite the time of moves already made.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="calendars")
    player = models.CharField(max_length=5, choices=Colour.choices)
    time_zone = models.CharField(max_length=64, blank=True, default="",
                                 help_text="The player's IANA zone; blank: the game's zone.")
    weekend_days = models.JSONField(default=list, blank=True, help_text='e.g. ["saturday", "sunday"].')
    night_from = models.CharField(max_length=5, blank=True, default="",
                                  help_text='"HH:MM", local time; blank: no night.')
    night_hours = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(23)])

    class Meta:
        ordering = ["game_id", "player"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_calendar_per_player")]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.player}'s calendar"

    def as_json(self) -> dict:
        """``players.<id>.calendar`` of the game file (``corr.clock.personal.read_calendar`` reads it)."""
        out: dict = {}
        if self.time_zone:
            out["time_zone"] = self.time_zone
        if self.weekend_days:
            out["weekend_days"] = list(self.weekend_days)
        if self.night_from:
            out["night"] = {"from": self.night_from, "hours": self.night_hours}
        return out


class PlayerClock(models.Model):
    """A player's account as last computed, stored beside the game for date-driven jobs.

    Written in the same transaction as every event (``clock_store``). ``deadline``
    does not move while the move is pending, so the nightly job selects by it
    through its index instead of recomputing every game.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clocks")
    player = models.CharField(max_length=5, choices=Colour.choices)
    on_move = models.BooleanField(default=False)
    made = models.PositiveIntegerField(default=0)
    control_number = models.PositiveIntegerField(default=1)
    total_days = models.IntegerField(default=0)
    remaining_days = models.IntegerField(db_index=True)
    deadline = models.DateField(null=True, blank=True, db_index=True)
    time_trouble = models.BooleanField(default=False)
    overstepped_control = models.PositiveIntegerField(null=True, blank=True)
    flag_at = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="Server games under an instant count: when the pending move falls over its time (the flag"
                  " sweep selects by it); null otherwise, and once the overstep is recorded.")
    flagged = models.BooleanField(default=False, help_text="In time trouble or over a control, game ongoing.")
    computed_on = models.DateField(help_text="The date the figures were computed as of.")
    events_version = models.PositiveIntegerField(
        default=0, help_text="The game's events_version the figures were computed from: an older or concurrent"
                             " computation (lower version, or same version and earlier date) never overwrites.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_id", "player"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_clock_per_player"),
        ]
        indexes = [
            # The nightly selection: deadline <= D + window (the deadline index) OR flagged
            # (this partial index, small: only the flagged few of a federation's players).
            models.Index(fields=["game"], condition=Q(flagged=True), name="playerclock_flagged"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.player}: {self.remaining_days} d left"


class IdempotencyRecord(models.Model):
    """The first response to a POST carrying an ``Idempotency-Key``; a retry gets it back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    request_digest = models.CharField(
        max_length=64, blank=True, default="",
        help_text="SHA-256 of the first request's fields (corr.api.idempotency.fingerprint); a retry with other "
                  "fields is refused (422). Empty for records kept before the digest existed: not compared.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user"),
        ]
