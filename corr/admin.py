"""The Django admin for every model; events are read-only (corrections go through the services).

What the admin may change it changes through the same paths as the API: a
tournament's rules recompute its games (``tournament_rules_apply``), and a
change to a game is a line of its history. Status and result are changed only
through the services (result, reopen), which record them.
"""

import zoneinfo

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from corr.clock import Ruleset, RulesetError
from corr.games.cases import history_append
from corr.games.clockstate import local_today
from corr.games.errors import ServiceError
from corr.games.services import game_lock, game_recompute, tournament_rules_apply
from corr.games.services.arbiters import ensure_arbiter
from corr.games.services.setup import ensure_rules_changer, tournament_rule_values

from .models import RECORD_KINDS, EventKind, Game, GameEvent, IdempotencyRecord, PlayerClock, Tournament


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = "__all__"

    def clean(self):
        data = super().clean()
        values = {name: data.get(name) for name in Ruleset.field_names() if data.get(name) is not None}
        if data.get("time_control"):
            values["time_control"] = data["time_control"]
        try:
            Ruleset.from_mapping(values)
        except RulesetError as error:
            raise forms.ValidationError(error.message) from None
        try:
            zoneinfo.ZoneInfo(data.get("time_zone") or "")
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError({"time_zone": f"not a known time zone: {data.get('time_zone')!r}"}) from None
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "official_start", "mode", "time_zone", "moves_per_control", "days_per_control")
    filter_horizontal = ("arbiters",)
    search_fields = ("name",)

    def has_delete_permission(self, request, obj=None):
        return False  # games and their history hang on it (PROTECT)

    def has_change_permission(self, request, obj=None):
        if obj is None or not super().has_change_permission(request, obj):
            return super().has_change_permission(request, obj)
        try:
            ensure_rules_changer(obj, request.user)
        except ServiceError:
            return False  # shown read-only: a player never changes the rules of their own games
        return True

    def save_model(self, request, obj, form, change):
        try:
            self._save(request, obj, change)
        except ServiceError as error:
            # The form was valid but the games refuse the new rules: nothing was kept (one transaction).
            raise PermissionDenied(error.message) from None

    @transaction.atomic
    def _save(self, request, obj, change):
        before = tournament_rule_values(Tournament.objects.select_for_update().get(pk=obj.pk)) if change else None
        obj.save()
        if before is not None:
            obj.__dict__.pop("ruleset", None)
            tournament_rules_apply(tournament=obj, by=request.user, before=before, now=timezone.now())


class GameForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = "__all__"

    def clean(self):
        data = super().clean()
        if data.get("white") and data.get("white") == data.get("black"):
            raise forms.ValidationError({"black": "white and black must be two different participants"})
        if self.instance.pk and {"first", "mode"} & set(self.changed_data) and clock_events_exist(self.instance):
            raise forms.ValidationError("first and mode cannot change once the game has events: the recorded"
                                        " moves would answer a different turn order or dating")
        return data


def clock_events_exist(game: Game) -> bool:
    return GameEvent.objects.filter(game=game).exclude(kind__in=RECORD_KINDS).exists()


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameForm
    list_display = ("id", "tournament", "white", "black", "mode", "status", "result")
    list_filter = ("status", "mode", "tournament")
    raw_id_fields = ("white", "black")
    readonly_fields = ("tournament", "status", "result", "termination", "events_version", "created_at")

    def has_delete_permission(self, request, obj=None):
        return False  # the history is append-only

    def has_add_permission(self, request):
        return False  # games are paired through the API or the services, which store their first clocks

    def has_change_permission(self, request, obj=None):
        if obj is None or not super().has_change_permission(request, obj):
            return super().has_change_permission(request, obj)
        try:
            ensure_arbiter(obj, request.user)  # an arbiter of its tournament who does not play in it
        except ServiceError:
            return False
        return True

    @transaction.atomic
    def save_model(self, request, obj, form, change):
        if not form.changed_data:
            return
        # Apply the form's changes to the locked row: a result stored since the form was read stays.
        locked, _ = game_lock(obj)
        text = "; ".join(f"{name} {getattr(locked, name)} -> {getattr(obj, name)}" for name in form.changed_data)
        for name in form.changed_data:
            setattr(locked, name, getattr(obj, name))
        locked.save(update_fields=form.changed_data)
        history_append(game=locked, by=request.user, kind=EventKind.ADMIN, note=f"changed in the admin: {text}")
        game_recompute(locked, by=request.user, today=local_today(locked.tournament, timezone.now()),
                       cause=f"changed in the admin ({text})")


class ReadOnlyAdmin(admin.ModelAdmin):
    """Stored facts are never edited in place: a correction is a new event (see services)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "kind", "player", "number", "received_on", "sent_on", "void", "entered_by",
                    "entered_at")
    list_filter = ("kind",)


@admin.register(PlayerClock)
class PlayerClockAdmin(ReadOnlyAdmin):
    list_display = ("game", "player", "on_move", "remaining_days", "deadline", "time_trouble", "overstepped_control")
    list_filter = ("time_trouble",)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ("user", "key", "method", "path", "status_code", "created_at")
