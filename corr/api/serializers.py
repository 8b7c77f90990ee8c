"""Input and output shapes of the API; no logic beyond types (STYLE 5)."""

from __future__ import annotations

from rest_framework import serializers

from corr import limits as lim
from corr.clock.presets import PRESETS
from corr.models import Colour, Game, Mail, Mode, Tournament

from .fields import StrictDateField


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


class TokenRequest(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class UserCreate(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{1,150}$", max_length=lim.USERNAME_MAX, error_messages={
        "invalid": "must be 1-150 letters, digits or @ . + - _"})
    password = serializers.CharField(min_length=8, max_length=lim.PASSWORD_MAX,
                                     error_messages={"min_length": "must have at least 8 characters"})
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=lim.EMAIL_MAX)


class TournamentCreate(serializers.Serializer):
    name = serializers.CharField(max_length=lim.NAME_MAX)
    official_start = StrictDateField()
    mode = serializers.ChoiceField(choices=Mode.choices)
    ruleset = serializers.DictField(required=False, help_text="the game file's ruleset keys; defaults: 50.4")
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False,
                                     help_text="a named ruleset; keys of `ruleset` override it")
    time_zone = serializers.CharField(required=False, default="UTC", max_length=lim.TIME_ZONE_MAX)
    presumed_transit_days = serializers.IntegerField(required=False, min_value=0,
                                                     max_value=lim.PRESUMED_TRANSIT_DAYS_MAX)

    def validate_ruleset(self, value: dict) -> dict:
        """Numbers within ``corr.limits`` (their columns are smallints); the calculator checks the rest."""
        for name, (low, high) in lim.RULESET_RANGES.items():
            number = value.get(name)
            if isinstance(number, int) and not isinstance(number, bool) and not low <= number <= high:
                raise serializers.ValidationError({name: f"must be {low}..{high}, got {number}"})
        error = lim.time_control_error(value.get("time_control"), "time_control")
        if error is not None:
            message, where = error
            raise serializers.ValidationError({where: message})
        return value


class TournamentOut(serializers.ModelSerializer):
    ruleset = serializers.SerializerMethodField()
    official_start = StrictDateField()
    arbiters = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "name", "official_start", "mode", "time_zone", "presumed_transit_days", "ruleset",
                  "arbiters"]

    def get_ruleset(self, obj) -> dict:
        return obj.ruleset.as_dict()


class GameCreate(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=lim.ID_MAX)
    white = serializers.CharField(max_length=lim.USERNAME_MAX)
    black = serializers.CharField(max_length=lim.USERNAME_MAX)
    first = serializers.ChoiceField(choices=Colour.choices, required=False, default=Colour.WHITE)
    mode = serializers.ChoiceField(choices=Mode.choices, required=False)


class MoveInput(serializers.Serializer):
    number = move_field()
    notation = serializers.CharField(max_length=lim.NOTATION_MAX, required=False, allow_blank=True, default="")
    received_on = StrictDateField(required=False, allow_null=True, default=None)
    sent_on = StrictDateField(required=False, allow_null=True, default=None)
    void = serializers.BooleanField(required=False, default=False)
    mail = serializers.ChoiceField(choices=Mail.choices, required=False, default="")
    variant = serializers.ChoiceField(choices=["accepted", "conditional"], required=False, default="")


class ReceiptInput(serializers.Serializer):
    received_on = StrictDateField()


class NoticeInput(serializers.Serializer):
    reason = reason_field()
    received_on = StrictDateField()
    sent_on = StrictDateField()


class PenaltyInput(serializers.Serializer):
    player = serializers.ChoiceField(choices=Colour.choices)
    reason = reason_field()
    move = move_field(required=False, allow_null=True, default=None)


class DelayInput(serializers.Serializer):
    player = serializers.ChoiceField(choices=Colour.choices)
    days = delay_days_field()
    move = move_field(required=False, allow_null=True, default=None)
    reason = reason_field(required=False, default="late_repeat")


class StartNoticeInput(serializers.Serializer):
    player = serializers.ChoiceField(choices=Colour.choices)
    received_on = StrictDateField()


class CorrectionInput(serializers.Serializer):
    event = seq_field(help_text="seq of the event to correct")
    note = note_field()
    received_on = StrictDateField(required=False)
    sent_on = StrictDateField(required=False)
    days = delay_days_field(required=False)
    reason = reason_field(required=False)
    notation = serializers.CharField(required=False, allow_blank=True, max_length=lim.NOTATION_MAX)
    mail = serializers.ChoiceField(choices=Mail.choices, required=False)
    number = move_field(required=False)


class WithdrawalInput(serializers.Serializer):
    event = seq_field()
    note = note_field()


class ResultInput(serializers.Serializer):
    result = serializers.ChoiceField(choices=["1-0", "0-1", "1/2-1/2"])
    termination = serializers.CharField(required=False, allow_blank=True, default="", max_length=lim.TERMINATION_MAX)


def game_summary(game: Game) -> dict:
    return {
        "id": game.pk, "tournament": game.tournament_id, "tournament_name": game.tournament.name,
        "mode": game.mode, "white": game.white.username, "black": game.black.username, "first": game.first,
        "status": game.status, "result": game.result, "termination": game.termination,
    }


# --- output shapes, for the OpenAPI schema ---------------------------------------------------------

class PendingOut(serializers.Serializer):
    player = serializers.ChoiceField(choices=Colour.choices)
    number = serializers.IntegerField()
    received_on = serializers.DateField(allow_null=True)
    presumed = serializers.BooleanField(help_text="true until the player records the receipt")


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


class GameOut(GameSummaryOut):
    to_move = serializers.ChoiceField(choices=Colour.choices, allow_null=True)
    pending = PendingOut(allow_null=True)
    clock = serializers.DictField(help_text="exactly the JSON of `manage.py clock --json` for this game, as of today")
    warnings = serializers.ListField(child=serializers.CharField(), required=False)


class UserOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_arbiter = serializers.BooleanField(required=False)


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
    void = serializers.BooleanField()
    variant = serializers.CharField()
    mail = serializers.CharField()
    reason = serializers.CharField()
    days = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()
    supersedes = serializers.IntegerField(allow_null=True)
    entered_by = serializers.CharField()
    entered_at = serializers.DateTimeField()
