"""Input and output shapes of the API; no logic beyond types (STYLE 5)."""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework import serializers

from corr.clock.presets import PRESETS
from corr.models import Colour, Game, Mail, Mode, Tournament

from .fields import StrictDateField


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
        return f"{key!r} is not a field of this request (fields: {', '.join(self.fields)})"


class TokenRequest(StrictInput):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class UserCreate(StrictInput):
    username = serializers.RegexField(r"^[\w.@+-]{1,150}$", error_messages={
        "invalid": "must be 1-150 letters, digits or @ . + - _"})
    password = serializers.CharField(min_length=8, error_messages={"min_length": "must have at least 8 characters"})
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class TournamentCreate(StrictInput):
    name = serializers.CharField(max_length=200)
    official_start = StrictDateField()
    mode = serializers.ChoiceField(choices=Mode.choices)
    ruleset = serializers.DictField(required=False, help_text="the game file's ruleset keys; defaults: 50.4")
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False,
                                     help_text="a named ruleset; keys of `ruleset` override it")
    time_zone = serializers.CharField(required=False, default="UTC")
    presumed_transit_days = serializers.IntegerField(required=False, min_value=0, max_value=365)


class TournamentChange(StrictInput):
    """PATCH /api/tournaments/{id}/: any of these; `ruleset` keys replace the current ones."""

    name = serializers.CharField(max_length=200, required=False)
    official_start = StrictDateField(required=False)
    ruleset = serializers.DictField(required=False, help_text="the game file's ruleset keys to change")
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False,
                                     help_text="a named ruleset replacing the current one; `ruleset` keys override it")
    time_zone = serializers.CharField(required=False)
    presumed_transit_days = serializers.IntegerField(required=False, min_value=0, max_value=365)


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


class GameCreate(StrictInput):
    tournament = serializers.IntegerField()
    white = serializers.CharField()
    black = serializers.CharField()
    first = serializers.ChoiceField(choices=Colour.choices, required=False, default=Colour.WHITE)
    mode = serializers.ChoiceField(choices=Mode.choices, required=False)


class MoveInput(StrictInput):
    number = serializers.IntegerField(min_value=1)
    notation = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    received_on = StrictDateField(required=False, allow_null=True, default=None)
    sent_on = StrictDateField(required=False, allow_null=True, default=None)
    void = serializers.BooleanField(required=False, default=False)
    mail = serializers.ChoiceField(choices=Mail.choices, required=False, default="")
    variant = serializers.ChoiceField(choices=["accepted", "conditional"], required=False, default="")


class ReceiptInput(StrictInput):
    received_on = StrictDateField()


class NoticeInput(StrictInput):
    reason = serializers.CharField()
    received_on = StrictDateField()
    sent_on = StrictDateField()


class PenaltyInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    reason = serializers.CharField()
    move = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class DelayInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    days = serializers.IntegerField(min_value=0)
    move = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    reason = serializers.CharField(required=False, default="late_repeat")


class StartNoticeInput(StrictInput):
    player = serializers.ChoiceField(choices=Colour.choices)
    received_on = StrictDateField()


class CorrectionInput(StrictInput):
    event = serializers.IntegerField(min_value=1, help_text="seq of the event to correct")
    note = serializers.CharField()
    received_on = StrictDateField(required=False)
    sent_on = StrictDateField(required=False)
    days = serializers.IntegerField(required=False, min_value=0)
    reason = serializers.CharField(required=False)
    notation = serializers.CharField(required=False, allow_blank=True)
    mail = serializers.ChoiceField(choices=Mail.choices, required=False)
    number = serializers.IntegerField(required=False, min_value=1)

    def unknown_key_message(self, key) -> str:
        correctable = [name for name in self.fields if name not in ("event", "note")]
        return f"{key} cannot be corrected (correctable: {', '.join(correctable)})"


class WithdrawalInput(StrictInput):
    event = serializers.IntegerField(min_value=1)
    note = serializers.CharField()


class ReopenInput(StrictInput):
    note = serializers.CharField(help_text="why the finished game is set back to ongoing")


class ResultInput(StrictInput):
    result = serializers.ChoiceField(choices=["1-0", "0-1", "1/2-1/2"])
    termination = serializers.CharField(required=False, allow_blank=True, default="")


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
    entered_by = serializers.CharField(allow_null=True, help_text="null: corr itself (the nightly re-check)")
    entered_at = serializers.DateTimeField()
