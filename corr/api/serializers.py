"""Input and output shapes of the API; no logic beyond types (STYLE 5)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from corr import limits as lim
from corr.clock import ClockError, parse_date
from corr.clock.presets import PRESETS
from corr.games.timeleft import TimeLeftWhy
from corr.games.turns import TurnSince, TurnState
from corr.models import AllowancePer, Colour, Game, GameKind, Mail, Mode, Timeouts, Tournament

from .fields import RulesetField, StrictDateField


class StrictInput(serializers.Serializer):
    """A request body that refuses keys it does not declare: a client's typo is never silently ignored.

    Headers (``Idempotency-Key``, ``Authorization``) are not the body and are not checked here.
    """

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            for key in data:
                if key not in self.fields:
                    raise serializers.ValidationError({str(key): [self.unknown_key_message(key)]})
        return super().to_internal_value(data)

    def unknown_key_message(self, key) -> str:
        return _("%(key)s is not a field of this request (fields: %(fields)s)") % {
            "key": repr(key), "fields": ", ".join(self.fields)}


def validated(serializer_class: type[serializers.Serializer], data) -> dict:
    """``serializer_class(data=data)``'s validated data; :raises serializers.ValidationError: as
    ``is_valid(raise_exception=True)`` does.

    The serializer's fields are let go before it is returned: a DRF serializer and its fields refer to each other
    (``field.parent``), a reference cycle that only the cyclic collector frees, which then frees a press's every
    object hanging off it in one pause (issue 42: the live socket's presses). ``fields`` is a cached property: the
    serializer drops its own reference, and reference counting frees the rest at once."""
    checked = serializer_class(data=data)
    try:
        checked.is_valid(raise_exception=True)
        return checked.validated_data
    finally:
        checked.__dict__.pop("fields", None)


def move_field(**kwargs) -> serializers.IntegerField:
    """A move number (a move's own, or the move a penalty or delay is charged to): 1..MOVES_MAX."""
    return serializers.IntegerField(min_value=1, max_value=lim.MOVES_MAX, **kwargs)


def delay_days_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=lim.DELAY_DAYS_MIN, max_value=lim.DELAY_DAYS_MAX, **kwargs)


def reason_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=lim.REASON_MAX, **kwargs)


def note_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=lim.NOTE_MAX, **kwargs)


def seq_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=lim.INT_MAX, **kwargs)


class TokenRequest(StrictInput):
    # Bounded before django-axes stores a failed sign-in's username in its varchar(255) (issue 23):
    # no account has a longer name than the column's 150, so the bound refuses no one who could sign in.
    username = serializers.CharField(max_length=lim.USERNAME_MAX, error_messages={
        "max_length": _("must have at most {max_length} characters")})
    password = serializers.CharField(style={"input_type": "password"}, max_length=lim.PASSWORD_MAX)


class UserCreate(StrictInput):
    username = serializers.RegexField(r"^[\w.@+-]{1,150}$", max_length=lim.USERNAME_MAX, error_messages={
        "invalid": _("must be 1-150 letters, digits or @ . + - _")})
    password = serializers.CharField(min_length=8, max_length=lim.PASSWORD_MAX,
                                     error_messages={"min_length": _("must have at least 8 characters")})
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=lim.EMAIL_MAX)


class LeaveSettings(StrictInput):
    """A tournament's leave rules, in its creation and its changes."""

    leave_days = serializers.IntegerField(required=False, min_value=0, max_value=lim.LEAVE_DAYS_MAX,
                                          help_text="leave a player may book per `leave_per` (default 45; 0: none)")
    leave_per = serializers.ChoiceField(choices=AllowancePer.choices, required=False,
                                        help_text="the allowance counts per calendar year (default) or per event")
    leave_min_days = serializers.IntegerField(required=False, min_value=1, max_value=lim.LEAVE_DAYS_MAX,
                                              help_text="the shortest leave that may be booked (default 1)")
    leave_book_ahead_days = serializers.IntegerField(required=False, min_value=0, max_value=lim.LEAVE_DAYS_MAX,
                                                     help_text="leave begins at least this many days after booking"
                                                               " (default 1)")


def gift_max_field(**kwargs) -> serializers.IntegerField:
    """A tournament's ``gift_max_days`` (issue 39): 0..``GIFT_DAYS_MAX``."""
    return serializers.IntegerField(min_value=0, max_value=lim.GIFT_DAYS_MAX, help_text=(
        "server games: the most days a player may give the partner in one game (0, the default: no gifts)"),
        **kwargs)


class TournamentCreate(LeaveSettings):
    name = serializers.CharField(max_length=lim.NAME_MAX)
    official_start = StrictDateField()
    mode = serializers.ChoiceField(choices=Mode.choices)
    ruleset = RulesetField(required=False, help_text="the game file's ruleset keys; defaults: 50.4")
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False,
                                     help_text="a named ruleset; keys of `ruleset` override it")
    time_zone = serializers.CharField(required=False, default="UTC", max_length=lim.TIME_ZONE_MAX)
    presumed_transit_days = serializers.IntegerField(required=False, min_value=0,
                                                     max_value=lim.PRESUMED_TRANSIT_DAYS_MAX)
    kind = serializers.ChoiceField(choices=GameKind.choices, required=False, default=GameKind.CHESS,
                                   help_text="what its games play (their export formats); a game may override it")
    timeouts = serializers.ChoiceField(choices=Timeouts.choices, required=False, default=Timeouts.ARBITER,
                                       help_text="server games under an instant count: arbiter (a case) or automatic"
                                                 " (lost on time at the flag)")
    gift_max_days = gift_max_field(required=False, default=0)

    def validate_ruleset(self, value: dict) -> dict:
        """Numbers within ``corr.limits`` (their columns are smallints); the calculator checks the rest."""
        for name, (low, high) in lim.RULESET_RANGES.items():
            number = value.get(name)
            if isinstance(number, int) and not isinstance(number, bool) and not low <= number <= high:
                raise serializers.ValidationError({name: _("must be %(low)s..%(high)s, got %(number)s") % {
                    "low": low, "high": high, "number": number}})
        error = lim.time_control_error(value.get("time_control"), "time_control")
        if error is not None:
            message, where = error
            raise serializers.ValidationError({where: message})
        holidays = value.get("holidays")
        if isinstance(holidays, list):
            if len(holidays) > lim.TIME_CONTROL_ITEMS_MAX:
                raise serializers.ValidationError({"holidays": _("at most %(count)s ranges")
                                                   % {"count": lim.TIME_CONTROL_ITEMS_MAX}})
            for i, item in enumerate(holidays):
                for end in ("from", "to"):
                    text = item.get(end) if isinstance(item, dict) else None
                    try:
                        day = parse_date(text, f"holidays[{i}].{end}")
                    except ClockError:
                        continue  # the calculator names it
                    message = lim.date_window_error(day, f"holidays[{i}].{end}")
                    if message is not None:
                        raise serializers.ValidationError({f"holidays[{i}].{end}": message})
        return value


class TournamentChange(LeaveSettings):
    """PATCH /api/tournaments/{id}/: any of these, within the bounds of a new tournament's."""

    name = serializers.CharField(max_length=lim.NAME_MAX, required=False)
    official_start = StrictDateField(required=False)
    ruleset = RulesetField(required=False, help_text="the game file's ruleset keys to change")
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False,
                                     help_text="a named ruleset replacing the current one; `ruleset` keys override it")
    time_zone = serializers.CharField(required=False, max_length=lim.TIME_ZONE_MAX)
    presumed_transit_days = serializers.IntegerField(required=False, min_value=0,
                                                     max_value=lim.PRESUMED_TRANSIT_DAYS_MAX)
    timeouts = serializers.ChoiceField(choices=Timeouts.choices, required=False)
    gift_max_days = gift_max_field(required=False)
    validate_ruleset = TournamentCreate.validate_ruleset


class TournamentOut(serializers.ModelSerializer):
    ruleset = serializers.SerializerMethodField()
    official_start = StrictDateField()
    arbiters = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "name", "official_start", "mode", "time_zone", "presumed_transit_days", "ruleset",
                  "arbiters", "kind", "leave_days", "leave_per", "leave_min_days", "leave_book_ahead_days",
                  "timeouts", "gift_max_days"]

    def get_ruleset(self, obj) -> dict:
        return obj.ruleset.as_dict()


class GameCreate(StrictInput):
    tournament = serializers.IntegerField(min_value=1, max_value=lim.ID_MAX)
    white = serializers.CharField(max_length=lim.USERNAME_MAX)
    black = serializers.CharField(max_length=lim.USERNAME_MAX)
    first = serializers.ChoiceField(choices=Colour.choices, required=False, help_text=(
        "who moves first; omitted: black in Go (Go rules 12.5), white otherwise"))
    mode = serializers.ChoiceField(choices=Mode.choices, required=False)
    kind = serializers.ChoiceField(choices=GameKind.choices, required=False,
                                   help_text="omitted: the tournament's kind")
    starts_at = serializers.DateTimeField(required=False, help_text=(
        "live tournaments and server tournaments counted in instants: the ISO 8601 instant the first mover's"
        " clock starts; omitted in the latter, the later of the official start and the game's creation"))
    handicap_stones = serializers.IntegerField(required=False, min_value=0, max_value=9, help_text=(
        "live Go games: the free handicap stones black places first, one move each, on a clock that does not run"
        " (OGS's rule; 0 or omitted: none; 2..9)"))


class GamesQuery(serializers.Serializer):
    tournament = serializers.IntegerField(required=False, min_value=1, max_value=lim.ID_MAX,
                                          help_text="only this tournament's games: all of them for its arbiters,"
                                                    " a player's own for a player")


class MoveQuery(serializers.Serializer):
    ledger = serializers.BooleanField(
        required=False, default=False,
        help_text="1: the 201 answer's `clock` carries the `ledger` too; without it, `as_of` and `players` only"
                  " (the ledger is on GET /api/games/{id}/ at any time)")


class MoveInput(StrictInput):
    number = move_field()
    notation = serializers.CharField(max_length=lim.NOTATION_MAX, required=False, allow_blank=True, default="")
    received_on = StrictDateField(required=False, allow_null=True, default=None)
    sent_on = StrictDateField(required=False, allow_null=True, default=None)
    void = serializers.BooleanField(required=False, default=False)
    # "" (none said) is the documented default, so sent as it is it means the same as omitted.
    mail = serializers.ChoiceField(choices=Mail.choices, required=False, allow_blank=True, default="")
    variant = serializers.ChoiceField(choices=["accepted", "conditional"], required=False, allow_blank=True,
                                      default="")
    conditional = serializers.JSONField(
        required=False, allow_null=True, default=None,
        help_text="Server chess and draughts games (issue 28): the replies you will make to the partner's expected"
                  " moves, [{\"if\": \"Nf6\", \"then\": \"Bg5\", \"next\": [...]}, ...] (SAN or UCI; draughts"
                  " c3-d4, c3:e5), checked from the position after this move; it replaces your pending tree"
                  " (docs/service.md, \"Conditional moves\")")
    claim_draw = serializers.BooleanField(
        required=False, default=False,
        help_text="Server chess games (issue 36): claim a draw with this move, by threefold repetition (the position"
                  " after it stands for the third time, FIDE 9.2) or the fifty-move rule (FIDE 9.3); the game ends"
                  " 1/2-1/2 with the move, and an unfounded claim is refused (400, nothing stored)")


class ConditionalInput(StrictInput):
    conditional = serializers.JSONField(
        help_text="The tree that replaces your pending one, checked from the current position; [] cancels it")


PREVIEW_KINDS = ("move", "receipt", "notice", "penalty", "delay", "credit", "leave", "result")
"""The events a preview computes (issue 41): each with the fields its own endpoint takes."""


class PreviewInput(StrictInput):
    events = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=lim.PREVIEW_EVENTS_MAX,
        help_text="The events to preview, in order: each an object with its `kind` (move, receipt, notice, penalty,"
                  " delay, credit, leave, result) and the fields its own endpoint takes (a leave: POST"
                  " /api/leaves/'s `from` and `to`, booked for every game of the caller it stops),"
                  " e.g. {\"kind\": \"move\", \"number\": 12,"
                  " \"notation\": \"Nf3\", \"sent_on\": \"2027-01-05\"}")


class VariantInput(StrictInput):
    line = serializers.ListField(
        child=serializers.CharField(max_length=lim.NOTATION_MAX), min_length=1,
        help_text="The proposer's variant as received, starting with your next move: [\"Nc6\", \"Bb5\", \"a6\","
                  " \"Ba4\"]")
    accepted_through = move_field(help_text="Your last accepted move's number; the proposer's reply to it is played")


class ConditionalOut(serializers.Serializer):
    conditional = serializers.JSONField()
    sent_with_move = serializers.IntegerField(allow_null=True)
    awaiting = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    position = serializers.CharField(
        allow_null=True, help_text="The position the tree is read from: its FEN (chess), pydraughts' FEN and the"
                                   " number of the move to come (draughts)")
    changed = serializers.ChoiceField(
        choices=["position", "reopened"], allow_null=True,
        help_text="Why the tree will not fire: the game's position is no longer the one it was built for, or the"
                  " game was reopened since it was sent; null: it fires when its branch comes")
    warning = serializers.CharField(allow_null=True, help_text="The warning in words, in the reader's language")


class ReceiptInput(StrictInput):
    received_on = StrictDateField()


class NoticeInput(StrictInput):
    reason = reason_field()
    received_on = StrictDateField()
    sent_on = StrictDateField()


class PenaltyInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    reason = reason_field()
    move = move_field(required=False, allow_null=True, default=None, help_text="the move the days are charged to")
    note = note_field(required=False, allow_blank=True, default="")


class DelayInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    days = delay_days_field()
    move = move_field(required=False, allow_null=True, default=None)
    reason = reason_field(required=False, default="late_repeat")
    note = note_field(required=False, allow_blank=True, default="")


class StartNoticeInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    received_on = StrictDateField()


class CorrectionInput(StrictInput):
    event = seq_field(help_text="seq of the event to correct")
    note = note_field()
    received_on = StrictDateField(required=False)
    sent_on = StrictDateField(required=False)
    days = delay_days_field(required=False)
    reason = reason_field(required=False)
    notation = serializers.CharField(required=False, allow_blank=True, max_length=lim.NOTATION_MAX)
    mail = serializers.ChoiceField(choices=Mail.choices, required=False)
    number = move_field(required=False)

    def unknown_key_message(self, key) -> str:
        correctable = [name for name in self.fields if name not in ("event", "note")]
        return f"{key} cannot be corrected (correctable: {', '.join(correctable)})"

class WithdrawalInput(StrictInput):
    event = seq_field()
    note = note_field()


class LiveReopenInput(StrictInput):
    note = note_field(help_text="why the finished game is set back to ongoing")


class ReopenInput(LiveReopenInput):
    overstep = serializers.ChoiceField(choices=["credit", "keep"], required=False, allow_null=True, default=None,
                                       help_text=(
        "correspondence games, required where a player is over the control once reopened (a game lost on time):"
        " credit gives back the time that puts the player back in the control (the amount over it plus one day),"
        " keep leaves the overstep (its case open for the arbiter). Live games take no overstep."))


def credit_amount_fields():
    """``days`` or ``seconds`` of a credit or gift (one of the two; the service refuses both or neither)."""
    return {
        "days": serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                         max_value=lim.DELAY_DAYS_MAX, help_text="whole days given"),
        "seconds": serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                            max_value=lim.DELAY_DAYS_MAX * 86400, help_text=(
            "seconds given, only where the clock counts seconds (time_control.count exact): 2 h 30 min is 9000")),
    }


class CreditInput(StrictInput):
    """An arbiter's credit (issue 39): time given back to ``player``, taken off the current control."""

    player = serializers.ChoiceField(choices=Colour.choices)
    days, seconds = credit_amount_fields().values()
    reason = note_field(help_text="why the time is given back (required), e.g. a postal strike, a server outage")
    move = move_field(required=False, allow_null=True, default=None,
                      help_text="the move the time is taken off (default: the player's current one)")


class GiftInput(StrictInput):
    """A player's gift of time to the partner (issue 39), where the tournament's ``gift_max_days`` allows it."""

    days, seconds = credit_amount_fields().values()


class PauseInput(StrictInput):
    """A player's pause of their own clock in a server game (OGS, issue 40), within ``pauses_per_game``."""

    until = serializers.DateTimeField(help_text=(
        "when the pause ends (ISO 8601 instant, e.g. 2026-03-07T12:00:00Z); it starts now, at most 30 days"))


class VacationInput(StrictInput):
    """A vacation booked ahead or started now (issue 40), within the tournament's ``vacation`` rule."""

    starts = serializers.DateTimeField(required=False, allow_null=True, default=None, help_text=(
        "when the vacation begins (ISO 8601 instant); omitted: now"))
    until = serializers.DateTimeField(help_text="when it ends (ISO 8601 instant)")


class CalendarInput(StrictInput):
    """A player's own calendar in a server game (OGS, DGS, issue 40), where ``player_calendars`` allows it."""

    time_zone = serializers.CharField(required=False, allow_blank=True, default="", max_length=64, help_text=(
        "the player's IANA zone (own_zone tournaments); blank: the game's zone"))
    weekend_days = serializers.ListField(child=serializers.CharField(max_length=9), required=False, default=list,
                                         max_length=7, help_text='weekdays that stand still, e.g. ["saturday"]')
    night_from = serializers.CharField(required=False, allow_blank=True, default="", max_length=5, help_text=(
        "local start of the nightly window, HH:MM (DGS: the player's sleeping time)"))
    night_hours = serializers.IntegerField(required=False, allow_null=True, default=None, help_text=(
        "hours of the nightly window, 1 to 23 (DGS: 9)"))


class NoInput(StrictInput):
    """A request whose path says it all (a resignation, a draw offer or its answer): an empty body, ``{}``."""


class ResultInput(StrictInput):
    result = serializers.ChoiceField(choices=["1-0", "0-1", "1/2-1/2"])
    termination = serializers.CharField(required=False, allow_blank=True, default="", max_length=lim.TERMINATION_MAX)


def game_summary(game: Game) -> dict:
    return game_summary_named(game, white=game.white.username, black=game.black.username)


def game_summary_named(game: Game, *, white: str, black: str) -> dict:
    """:func:`game_summary` with the players' usernames given (read by the caller, without their whole rows)."""
    return {
        "id": game.pk, "tournament": game.tournament_id, "tournament_name": game.tournament.name,
        "mode": game.mode, "white": white, "black": black, "first": game.first,
        "status": game.status, "result": game.result, "termination": game.termination,
        "kind": game.kind_in_force,
    }


# --- output shapes, for the OpenAPI schema ---------------------------------------------------------

class PendingOut(serializers.Serializer):
    player = serializers.ChoiceField(choices=Colour.choices)
    number = serializers.IntegerField()
    received_on = serializers.DateField(allow_null=True, help_text=(
        "when the player received the move to answer (an instant's date in the tournament's zone); null: not yet"))
    received_at = serializers.DateTimeField(allow_null=True, help_text=(
        "server games under an instant count: that instant (RFC 3339, UTC); null otherwise (issue 22)"))
    presumed = serializers.BooleanField(help_text="true until the player records the receipt")


class TurnOut(serializers.Serializer):
    """A player's turn (``corr.games.turns.Turn``): who is on move, since and until when, and why."""

    state = serializers.ChoiceField(choices=[s.value for s in TurnState], help_text=(
        "on_move: a day is in time, `until` is the deadline; over_the_control: on move, no day is in time;"
        " in_the_post: `sender`'s move is presumed in the post until `until` (no clock runs); waiting: the"
        " partner is on move; finished"))
    number = serializers.IntegerField(allow_null=True, help_text="on move: the move owed; in the post: the move"
                                                                 " travelling")
    since = serializers.CharField(allow_null=True, help_text=(
        "on move: when the move to answer arrived (a date, or an RFC 3339 instant under an instant count);"
        " in the post: when the travelling move was sent"))
    until = serializers.CharField(allow_null=True, help_text=(
        "on move: the deadline (the last date, or the flag's instant); in the post: the presumed arrival"))
    why = serializers.ChoiceField(choices=[w.value for w in TurnSince], allow_null=True, help_text=(
        "on move: start (the game's first move), received (recorded or delivered), presumed (dispatch +"
        " transit days)"))
    sender = serializers.ChoiceField(choices=Colour.choices, allow_null=True, help_text=(
        "in the post: whose move travels"))


class TurnsOut(serializers.Serializer):
    white = TurnOut()
    black = TurnOut()


class TimeLeftOut(serializers.Serializer):
    """A player's time left (``corr.games.timeleft.TimeLeft``): the one answer the pages, the feed and XFCC give."""

    days = serializers.IntegerField(help_text=(
        "days the move may still take before its flag (the control's negative days once it is over)"))
    hours = serializers.IntegerField(help_text="hours beyond `days` (0-23); 0 under the `dates` count")
    minutes = serializers.IntegerField(help_text="minutes beyond `hours` (0-59); 0 under the `dates` count")
    seconds = serializers.IntegerField(help_text="the same time in seconds")
    control_days = serializers.IntegerField(help_text="the days left in the current control (50.4.3)")
    why = serializers.ChoiceField(choices=[w.value for w in TimeLeftWhy], allow_null=True, help_text=(
        "why the time left differs from the control's days: double (ICCF's double time), per_move (a move's"
        " limit), not_counted (leave, weekends, holidays before the deadline); null when they agree"))


class TimeLeftsOut(serializers.Serializer):
    white = TimeLeftOut()
    black = TimeLeftOut()


class GameSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    mode = serializers.ChoiceField(choices=Mode.choices)
    white = serializers.CharField()
    black = serializers.CharField()
    first = serializers.ChoiceField(choices=Colour.choices)
    status = serializers.CharField()
    result = serializers.CharField()
    termination = serializers.CharField()
    kind = serializers.ChoiceField(choices=GameKind.choices,
                                   help_text="the game's own kind, or its tournament's (decides the exports)")


class DrawOfferOut(serializers.Serializer):
    by = serializers.ChoiceField(choices=Colour.choices, help_text="who offered the draw")
    seq = serializers.IntegerField(help_text="the offer's line in the history")


class GameOut(GameSummaryOut):
    to_move = serializers.ChoiceField(choices=Colour.choices, allow_null=True)
    pending = PendingOut(allow_null=True)
    draw_offer = DrawOfferOut(allow_null=True, required=False, help_text=(
        "server games: the standing draw offer, answered by the player to move; null when none stands"))
    turn = TurnsOut(required=False, help_text="correspondence games: each player's turn, the pages' one answer")
    time_left = TimeLeftsOut(required=False, help_text=(
        "correspondence games: each player's time left, the pages', the feed's and XFCC's one answer (issue 39)"))
    latest_send = serializers.DictField(required=False, child=serializers.DictField(), help_text=(
        "GET only, correspondence games: for the player on move, `out_of_time_trouble` the latest day (an instant"
        " under an instant count) to send that leaves more than the time-trouble days (50.4.12: registered mail),"
        " `in_time` the latest that keeps them in the control (50.4.3); null: none from now (issue 41)"))
    vacation_text = serializers.DictField(required=False, child=serializers.CharField(allow_null=True), help_text=(
        "tournaments with a vacation rule (issue 40): each player's vacation as of now in the answer's language,"
        " the game page's sentence (an automatic one said so: \"on automatic vacation since ..., until a move or"
        " ... at the latest; 143 hours of vacation left\"); null for a player on none. The figures are"
        " `clock.players.<colour>.vacation`'s"))
    clock = serializers.DictField(help_text="exactly the JSON of `manage.py clock --json` for this game, as of today")
    live = serializers.DictField(required=False, help_text=(
        "live games only: the server's clocks (running, paused, players, server_ms, next_flag_at_ms, version)"))
    warnings = serializers.ListField(child=serializers.CharField(), required=False)


class PreviewOut(GameOut):
    changes = serializers.ListField(child=serializers.CharField(), help_text=(
        "what the events would change from now, one sentence each, in the answer's language: time left, deadlines,"
        " time trouble (50.4.12), a case that would open or close"))


class UserOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_arbiter = serializers.BooleanField(required=False)
    vision = serializers.CharField(required=False, help_text=(
        "GET and PATCH /api/users/me/ only: \"\", \"low\" or \"blind\", the warnings a live game speaks to the"
        " user and its arbiter owes them (001 1.7.9: 5 minutes before the control, 10 for a blind player)"))
    calendar_url = serializers.URLField(required=False, help_text=(
        "GET /api/users/me/ only: the secret address of the user's deadline calendar (iCalendar); "
        "POST /api/users/me/calendar/rotate/ replaces it"))


class MeChange(StrictInput):
    """PATCH /api/users/me/: the user's own settings."""

    vision = serializers.ChoiceField(choices=[("", "none"), ("low", "low"), ("blind", "blind")], allow_blank=True,
                                     help_text="\"low\": warned 5 minutes before a control; \"blind\": 10 minutes"
                                               " (001 1.7.9); both: the opponent's flag")


class TokenOut(serializers.Serializer):
    token = serializers.CharField()


class HistoryOut(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    player = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    notation = serializers.CharField()
    received_on = serializers.DateField(allow_null=True)
    sent_on = serializers.DateField(allow_null=True)
    received_at = serializers.DateTimeField(allow_null=True, help_text="server games: the instant (issue 22)")
    sent_at = serializers.DateTimeField(allow_null=True, help_text="server games: the instant (issue 22)")
    void = serializers.BooleanField()
    variant = serializers.CharField()
    mail = serializers.CharField()
    reason = serializers.CharField()
    days = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()
    supersedes = serializers.IntegerField(allow_null=True)
    entered_by = serializers.CharField(allow_null=True, help_text="null: corr itself (the nightly re-check)")
    entered_at = serializers.DateTimeField()


class LeaveInput(StrictInput):
    """POST /api/leaves/: leave for every ongoing game whose tournament allows it."""

    from_ = StrictDateField(help_text="the first day of the leave")
    to = StrictDateField(help_text="the last day of the leave (included)")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")  # `from` is a Python keyword
        return fields


class SpecialLeaveInput(LeaveInput):
    """POST /api/games/{id}/special-leave/: an arbiter's leave for one player, beyond the allowance."""

    player = serializers.ChoiceField(choices=Colour.choices)
    reason = note_field(help_text="why it is granted (illness, outage compensation)")


class LeaveOut(serializers.Serializer):
    id = serializers.IntegerField()
    from_ = StrictDateField(source="first")
    to = StrictDateField(source="last")
    days = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True,
                                          help_text="null: every tournament that allows leave")
    special = serializers.BooleanField()
    reason = serializers.CharField()
    granted_by = serializers.SerializerMethodField(help_text="the arbiter who granted special leave")

    def get_granted_by(self, obj) -> str | None:
        return obj.granted_by.username if obj.granted_by_id else None

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class AllowanceOut(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    per = serializers.CharField(help_text="year (calendar year) or event: what the allowance counts over")
    year = serializers.IntegerField(allow_null=True, help_text="the calendar year counted; null per event")
    allowance_days = serializers.IntegerField()
    used_days = serializers.IntegerField()
    left_days = serializers.IntegerField()
    min_days = serializers.IntegerField()
    book_ahead_days = serializers.IntegerField()


class LeavesOut(serializers.Serializer):
    leaves = LeaveOut(many=True)
    allowances = AllowanceOut(many=True)
