"""Users, tournaments and games: what arbiters set up before play."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime

from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import ARBITERS_GROUP, User
from accounts.usernames import username_lookalike
from corr.clock import ClockError, Ruleset, RulesetError
from corr import limits as lim
from corr.clock.presets import preset_ruleset
from corr.models import Colour, EventKind, Game, GameKind, Mode, Timeouts, Tournament

from ..clock_messages import ClockRefusal
from ..cases import history_append
from ..notices import Change, notice_on_commit
from ..records import record_text
from ..clockstate import INSTANT_COUNTS, local_today, midnight, ruleset_count, tournament_count
from ..errors import InvalidInput, NotAllowed
from ..permissions import can_arbitrate
from .storage import events_store, game_recompute


@transaction.atomic
def participant_create(*, by: User, username: str, password: str, email: str = "") -> User:
    """Create a participant account (arbiters only).

    The username is stored in Unicode NFKC (Django's ``normalize_username``)
    and refused when it looks like an existing one, case and look-alike
    letters of other scripts included (``аrb1`` with a Cyrillic а beside
    ``arb1``, see :mod:`accounts.usernames`).
    :raises InvalidInput: naming ``username``, ``password`` or ``email``.
    """
    if not by.is_arbiter:
        raise NotAllowed(_("only arbiters create participants"))
    username = User.normalize_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise InvalidInput(_("username %(name)s is taken"), field="username", name=repr(username))
    # Every name is compared: look-alikes share no prefix or length that an index could use.
    lookalike = username_lookalike(username, User.objects.values_list("username", flat=True).iterator())
    if lookalike is not None:
        raise InvalidInput(_("username %(name)s looks like the existing %(other)s; choose another"),
                           field="username", name=repr(username), other=repr(lookalike))
    user = User(username=username, email=email)
    try:
        validate_password(password, user)  # AUTH_PASSWORD_VALIDATORS: length, common, numeric, similar
    except ValidationError as error:
        raise InvalidInput(_("password: %(problems)s"), field="password", problems=" ".join(error.messages)) from None
    user.set_password(password)
    try:
        # NFKC can lengthen a name or turn a letter into a character the username rule refuses (½ -> 1⁄2).
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidInput(f"{field}: {' '.join(messages)}", field=field) from None
    user.save()
    return user


def arbiter_grant(*, user: User) -> None:
    """Make ``user`` an arbiter (a member of the ``arbiters`` group)."""
    group, _created = Group.objects.get_or_create(name=ARBITERS_GROUP)
    user.groups.add(group)
    user._is_arbiter = True


@transaction.atomic
def tournament_create(*, by: User, name: str, official_start: date, mode: str, ruleset: dict | None = None,
                      time_zone: str = "UTC", presumed_transit_days: int | None = None,
                      preset: str | None = None, kind: str = GameKind.CHESS, timeouts: str = Timeouts.ARBITER,
                      gift_max_days: int = 0, **leave_rules) -> Tournament:
    """Create a tournament; its creator becomes one of its arbiters.

    ``preset`` names a ruleset of :data:`corr.clock.presets.PRESETS`; keys of
    ``ruleset`` override it. ``presumed_transit_days`` defaults to 0 (e-mail
    and server games). ``kind`` (chess, draughts, go) is what its games play. ``leave_rules``: any
    of :data:`LEAVE_SETTINGS` (issue 14; the model's defaults otherwise). ``timeouts``: who records a
    fallen flag of a server game under an instant count (``Timeouts``). ``gift_max_days``: the days a player
    may give the partner in one server game (issue 39; 0: none).
    The time control is stored expanded, its ``count`` with it: the tournament
    keeps the count it was created with whatever a preset later says.
    :raises InvalidInput: for a ruleset value, mode, count or time zone that breaks its rule.
    """
    if not by.is_arbiter:
        raise NotAllowed(_("only arbiters create tournaments"))
    try:
        rules = Ruleset.from_mapping(preset_ruleset(preset, ruleset))
    except RulesetError as error:
        raise ClockRefusal(error, field=error.field) from None
    if mode not in Mode.values:
        raise InvalidInput(_("mode must be one of %(allowed)s, got %(value)s"), field="mode",
                           allowed=", ".join(Mode.values), value=repr(mode))
    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(_("time_zone is not a known time zone: %(value)s"), field="time_zone",
                           value=repr(time_zone)) from None
    ensure_mode_fits_unit(mode, rules)
    ensure_mode_fits_count(mode, rules)
    ensure_timeouts(timeouts)
    if kind not in GameKind.values:
        raise InvalidInput(_("kind must be one of %(allowed)s, got %(value)s"), field="kind",
                           allowed=", ".join(GameKind.values), value=repr(kind))
    for key in leave_rules:
        if key not in LEAVE_SETTINGS:
            raise InvalidInput(_("%(key)s is not a tournament setting"), field=key, key=key)
    tournament = Tournament.objects.create(
        name=name, official_start=official_start, mode=mode, time_zone=time_zone, kind=kind,
        presumed_transit_days=presumed_transit_days or 0, created_by=by, timeouts=timeouts, gift_max_days=gift_max_days,
        **rules.as_dict(),
        **leave_rules,
    )
    tournament.arbiters.add(by)
    return tournament


def ensure_mode_fits_unit(mode: str, rules: Ruleset) -> None:
    """A live tournament keeps its clock in seconds; a correspondence one in days (issue 16).

    Checked when a tournament is created and whenever its ruleset changes, with or without games
    (issue 23): a live game under a ruleset in days answers 400 to every read, and a server game under
    one in seconds cannot compute.
    :raises InvalidInput: naming ``ruleset.time_control.unit``.
    """
    seconds = rules.time_control is not None and rules.time_control.live is not None
    if mode == Mode.LIVE and not seconds:
        raise InvalidInput(_("a live tournament needs ruleset.time_control with unit seconds"),
                           field="ruleset.time_control.unit")
    if mode != Mode.LIVE and seconds:
        raise InvalidInput(_("a time control in seconds is for live tournaments (mode live)"),
                           field="ruleset.time_control.unit")


def ensure_mode_fits_count(mode: str, rules: Ruleset) -> None:
    """A postal or e-mail tournament counts dates (issue 22): a postcard carries no instant (50.4.4).

    :raises InvalidInput: naming ``time_control.count``, for ``whole_days`` or ``exact`` outside server play.
    """
    count = ruleset_count(rules)
    if mode == Mode.POSTAL and count in INSTANT_COUNTS:
        raise InvalidInput(_("time_control.count %(count)s needs the instant of every move: a postal or e-mail"
                             " tournament counts dates (a postcard carries no instant); use mode server"),
                           field="time_control.count", count=count)


def ensure_timeouts(value: str) -> None:
    """:raises InvalidInput: naming ``timeouts`` unless it is one of ``Timeouts``."""
    if value not in Timeouts.values:
        raise InvalidInput(_("timeouts must be one of %(allowed)s, got %(value)s"), field="timeouts",
                           allowed=", ".join(Timeouts.values), value=repr(value))


@transaction.atomic
def game_create(*, by: User, tournament: Tournament, white: User, black: User, first: str | None = None,
                mode: str | None = None, kind: str = "", today: date, starts_at: datetime | None = None) -> Game:
    """Pair two participants in a tournament (its arbiters only); ``kind`` blank plays the tournament's.

    ``first``: who moves first; None is black in Go ("the clock of the player with the black stones is
    started", Go rules 12.5) and white in chess and draughts.
    ``starts_at``: a server game counted in instants only: the instant its first mover's clock starts, not
    before the tournament's official start (50.4.5). Omitted, a game created after the official start starts
    at its creation: nobody is charged for time before the game existed (issue 39).
    :raises InvalidInput: ``starts_at`` for another game, or before the official start (``field: "starts_at"``).
    """
    if not can_arbitrate(by, tournament):
        raise NotAllowed(_("only the tournament's arbiters create its games"))
    if white.pk == black.pk:
        raise InvalidInput(_("white and black must be two different participants"), field="black")
    if first is None:
        first = Colour.BLACK if (kind or tournament.kind) == GameKind.GO else Colour.WHITE
    if first not in Colour.values:
        raise InvalidInput(_("first must be white or black, got %(value)s"), field="first", value=repr(first))
    mode = mode or tournament.mode
    if mode not in Mode.values:
        raise InvalidInput(_("mode must be one of %(allowed)s, got %(value)s"), field="mode",
                           allowed=", ".join(Mode.values), value=repr(mode))
    if mode == Mode.LIVE or tournament.mode == Mode.LIVE:
        raise InvalidInput(_("a live game is created with starts_at in a live tournament"), field="starts_at")
    if kind and kind not in GameKind.values:
        raise InvalidInput(_("kind must be one of %(allowed)s, got %(value)s"), field="kind",
                           allowed=", ".join(GameKind.values), value=repr(kind))
    count = tournament_count(tournament)
    if mode == Mode.POSTAL and count in INSTANT_COUNTS:
        raise InvalidInput(_("time_control.count %(count)s needs the instant of every move: a postal or e-mail"
                             " tournament counts dates (a postcard carries no instant); use mode server"),
                           field="time_control.count", count=count)
    clock_start = _clock_start(tournament, mode, count, starts_at)
    game = Game.objects.create(tournament=tournament, white=white, black=black, first=first, mode=mode,
                               kind=kind, clock_start=clock_start)
    game.tournament = tournament
    events_store(game, [], [], today)
    notice_on_commit(Change.START, game_id=game.pk, version=game.events_version)
    return game


def _clock_start(tournament: Tournament, mode: str, count: str, starts_at: datetime | None) -> datetime | None:
    """The ``Game.clock_start`` of a new game: see ``game_create``. None: the official start."""
    if mode != Mode.SERVER or count not in INSTANT_COUNTS:
        if starts_at is not None:
            raise InvalidInput(_("starts_at is the start of a server game counted in instants (or of a live game);"
                                 " this game counts dates from the tournament's official start (50.4.5)"),
                               field="starts_at")
        return None
    official = midnight(tournament, tournament.official_start)
    if starts_at is None:
        created = timezone.now().replace(microsecond=0)
        return created if created > official else None
    if starts_at.tzinfo is None:
        raise InvalidInput(_("starts_at needs its offset or Z (an instant), got %(value)s"), field="starts_at",
                           value=starts_at.isoformat())
    if starts_at < official or not lim.date_in_window(starts_at.date()):
        raise InvalidInput(_("starts_at must not be before the tournament's official start, %(start)s (50.4.5)"),
                           field="starts_at", start=official.isoformat())
    return starts_at.astimezone(UTC).replace(microsecond=0)


CLOCK_SETTINGS = ("official_start", "presumed_transit_days", "time_zone")
CALENDAR_FIELDS = ("holidays", "weekend_days", "move_on_leave")
LEAVE_SETTINGS = ("leave_days", "leave_per", "leave_min_days", "leave_book_ahead_days")
"""The rules of booking leave (issue 14): they change no clock until a player books."""
"""The ruleset's calendar (corr.clock.calendar), stored as tournament fields."""
"""Tournament fields beside the ruleset that change clocks."""


def ensure_rules_changer(tournament: Tournament, by: User) -> None:
    """``by`` may change the tournament's rules: one of its arbiters who plays in none of its games.

    New rules recompute every game and can withdraw a case: a player would be
    ruling on their own game (the arbiter policy of ``ensure_arbiter``).
    """
    if not can_arbitrate(by, tournament):
        raise NotAllowed(_("only the tournament's arbiters change its rules"))
    if Game.objects.filter(Q(white=by) | Q(black=by), tournament=tournament).exists():
        raise NotAllowed(_("you play in this tournament: another arbiter or another superuser must change its rules"
                           " (nobody arbitrates their own game)"))


def tournament_rule_values(tournament: Tournament) -> dict:
    """Everything of a tournament that its clocks depend on, as comparable values."""
    values = {name: getattr(tournament, name) for name in (*Ruleset.field_names(), *CLOCK_SETTINGS)}
    values["time_control"] = tournament.time_control
    for name in CALENDAR_FIELDS:
        values[name] = getattr(tournament, name)
    return values


@transaction.atomic
def tournament_rules_change(*, tournament: Tournament, by: User, ruleset: dict | None = None,
                            preset: str | None = None, now, **settings) -> Tournament:
    """Change a tournament's rules or clock settings (its arbiters); every game follows at once.

    ``ruleset`` keys (and ``preset``) replace the current ones; ``settings``
    may hold ``official_start``, ``presumed_transit_days``, ``time_zone`` and
    ``name``. Every game gets a history line, new stored clocks and re-checked
    cases in this transaction (``tournament_rules_apply``).
    :raises InvalidInput: for a value that breaks its rule, or a game that would no longer compute.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    ensure_rules_changer(tournament, by)
    before = tournament_rule_values(tournament)
    if ruleset is not None or preset is not None:
        current = tournament.ruleset.as_dict() if preset is None else {}
        try:
            rules = Ruleset.from_mapping({**current, **preset_ruleset(preset, ruleset)})
        except RulesetError as error:
            raise ClockRefusal(error, field=error.field) from None
        ensure_mode_fits_unit(tournament.mode, rules)
        for name, value in rules.as_dict().items():
            setattr(tournament, name, value)
        if rules.time_control is None:
            tournament.time_control = None
        # as_dict leaves out an empty calendar: write the tournament's fields whole.
        tournament.holidays = [r.as_json() for r in rules.holidays]
        tournament.weekend_days = list(rules.weekend_days)
        tournament.move_on_leave = rules.move_on_leave.value
        # Issue 40: as_dict leaves out what a ruleset does not have; a ruleset without them has none.
        tournament.player_calendars = rules.player_calendars.value
        tournament.vacation = None if rules.vacation is None else rules.vacation.as_json()
        tournament.pauses_per_game = rules.pauses_per_game
        tournament.gifts = None if rules.gifts is None else rules.gifts.as_json()
        ensure_mode_fits_count(tournament.mode, rules)
    for name, value in settings.items():
        if name == "timeouts":
            ensure_timeouts(value)
        if name not in (*CLOCK_SETTINGS, *LEAVE_SETTINGS, "name", "timeouts", "gift_max_days"):
            raise InvalidInput(_("%(name)s cannot be changed here"), field=name, name=name)
        if name == "time_zone":
            try:
                zoneinfo.ZoneInfo(value)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                raise InvalidInput(_("time_zone is not a known time zone: %(value)s"), field="time_zone",
                                   value=repr(value)) from None
        setattr(tournament, name, value)
    tournament.save()
    tournament.__dict__.pop("ruleset", None)  # the cached calculator ruleset is the old one
    tournament_rules_apply(tournament=tournament, by=by, before=before, now=now)
    return tournament


def tournament_rules_apply(*, tournament: Tournament, by: User | None, before: dict, now) -> int:
    """Recompute every game of a tournament whose saved rules differ from ``before``; returns how many.

    Each game (locked in id order, as the nightly job locks them) gets a history
    line naming the changes, a new version, new stored clocks and re-checked
    cases, so the nightly selection and the arbiters see the new rules at once.
    :raises InvalidInput: naming the first game the new rules cannot compute (nothing is kept).
    """
    after = tournament_rule_values(tournament)
    changed = {name: (before[name], after[name]) for name in after if before[name] != after[name]}
    if not changed:
        return 0
    text = "; ".join(f"{name} {old} -> {new}" for name, (old, new) in sorted(changed.items()))
    today = local_today(tournament, now)
    # Live games store no computed clocks: each read computes from the rules in force (corr.live).
    games = list(Game.objects.select_for_update(of=("self",)).filter(tournament=tournament)
                 .exclude(mode=Mode.LIVE).order_by("pk"))
    for game in games:
        game.tournament = tournament
        history_append(game=game, by=by, kind=EventKind.RULES, note=record_text("rules_changed", text=text))
        try:
            game_recompute(game, by=by, today=today, cause=record_text("cause_rules", text=text))
        except ClockError as error:
            raise InvalidInput(_("game #%(game)s would not compute under the new rules: %(problem)s"),
                               field=error.field, game=game.pk,
                               problem=_Said(ClockRefusal(error, field=error.field, game=game))) from None
    return len(games)


class _Said:
    """A refusal's words when a message quoting it is read (in that message's language)."""

    def __init__(self, refusal) -> None:
        self.refusal = refusal

    def __str__(self) -> str:
        return self.refusal.message
