"""The Django admin for every model; events are read-only (corrections go through the services).

What the admin may change it changes through the same paths as the API: a new
tournament or game is created by ``tournament_create`` / ``game_create`` (so a
game has its stored clocks and is seen by the nightly job), a tournament's rules
recompute its games (``tournament_rules_apply``), and a change to a game is a
line of its history. Status and result are changed only through the services
(result, reopen), which record them. What the nightly work records (cases,
notices, reminders, reports, the outbox, runs) is read-only here: cases are
decided on the tournament page or through the API.
"""

import zoneinfo

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from corr.clock import Ruleset, RulesetError
from corr.games.clock_messages import ClockRefusal
from corr.games.cases import history_append
from corr.games.records import record_text
from corr.games.clockstate import local_today
from corr.games.errors import ServiceError
from corr.games.permissions import can_arbitrate
from corr.games.services import game_create, game_lock, game_recompute, tournament_create, tournament_rules_apply
from corr.games.services.arbiters import ensure_arbiter
from corr.games.services.setup import (
    ensure_mode_fits_count, ensure_mode_fits_unit, ensure_rules_changer, tournament_rule_values,
)

from .models import (
    RECORD_KINDS, DeadlineReminder, EventKind, Game, GameEvent, IdempotencyRecord, NightlyReport, NightlyRun,
    OutboundEmail, OverstepCase, PlayerCalendars, PlayerClock, Timeouts, TimeTroubleNotice, Tournament,
)


class TournamentForm(forms.ModelForm):
    # Optional in the form (a form posted before the option existed means the default, the 50.4 way).
    timeouts = forms.ChoiceField(choices=Timeouts.choices, required=False, initial=Timeouts.ARBITER,
                                 help_text="Server games under an instant count: who records a fallen flag.")
    # Issue 40's personal calendars: optional too (a form posted before they existed means none, the default).
    player_calendars = forms.ChoiceField(choices=PlayerCalendars.choices, required=False,
                                         initial=PlayerCalendars.NONE,
                                         help_text="Whether players keep their own weekend and night, and in whose"
                                                   " zone (OGS, DGS).")

    class Meta:
        model = Tournament
        # Leave rules and the calendar (issue 14) are set through the API (PATCH /api/tournaments/{id}/).
        exclude = ("leave_days", "leave_per", "leave_min_days", "leave_book_ahead_days", "holidays", "weekend_days",
                   "move_on_leave")

    def clean(self):
        data = super().clean()
        data["player_calendars"] = data.get("player_calendars") or PlayerCalendars.NONE
        values = {name: data.get(name) for name in Ruleset.field_names() if data.get(name) is not None}
        if data.get("time_control"):
            values["time_control"] = data["time_control"]
        try:
            rules = Ruleset.from_mapping(values)
        except RulesetError as error:
            raise forms.ValidationError(ClockRefusal(error, field=error.field).message) from None
        data["timeouts"] = data.get("timeouts") or Timeouts.ARBITER
        try:
            ensure_mode_fits_count(data.get("mode") or "", rules)
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        try:  # seconds for a live tournament, days for the others (issue 23), as the API says
            ensure_mode_fits_unit(data.get("mode") or "", rules)
        except ServiceError as error:
            raise forms.ValidationError({"time_control": error.message}) from None
        if self.instance.pk and "mode" in self.changed_data and self.instance.games.exists():
            raise forms.ValidationError({"mode": _("the mode cannot change once the tournament has games: their"
                                                   " clocks are kept in its unit")})
        try:
            zoneinfo.ZoneInfo(data.get("time_zone") or "")
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError({"time_zone": _("not a known time zone: %(value)s")
                                         % {"value": repr(data.get("time_zone"))}}) from None
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "official_start", "mode", "time_zone", "moves_per_control", "days_per_control", "timeouts")
    filter_horizontal = ("arbiters",)
    search_fields = ("name",)
    readonly_fields = ("created_by", "created_at")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            form.instance.arbiters.add(request.user)  # the creator arbitrates, as tournament_create says

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
            self._save(request, obj, form, change)
        except ServiceError as error:
            # The form was valid but the service or the games refuse it: nothing was kept (one transaction).
            raise PermissionDenied(error.message) from None

    @transaction.atomic
    def _save(self, request, obj, form, change):
        if not change:  # the same service as POST /api/tournaments/
            values = {name: form.cleaned_data[name] for name in Ruleset.field_names()}
            if form.cleaned_data.get("time_control"):
                values["time_control"] = form.cleaned_data["time_control"]
            created = tournament_create(by=request.user, name=obj.name, official_start=obj.official_start,
                                        mode=obj.mode, ruleset=values, time_zone=obj.time_zone,
                                        presumed_transit_days=obj.presumed_transit_days, kind=obj.kind,
                                        timeouts=obj.timeouts)
            obj.pk, obj.created_by, obj.created_at = created.pk, created.created_by, created.created_at
            obj._state.adding, obj._state.db = False, created._state.db
            return
        before = tournament_rule_values(Tournament.objects.select_for_update().get(pk=obj.pk))
        obj.save()
        if before is not None:
            obj.__dict__.pop("ruleset", None)
            tournament_rules_apply(tournament=obj, by=request.user, before=before, now=timezone.now())


class GameForm(forms.ModelForm):
    """Changing a game: players may be replaced; the turn order and dating stay once it has events."""

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


class GameAddForm(forms.ModelForm):
    """Pairing two players: the fields ``game_create`` takes, checked as it checks them."""

    class Meta:
        model = Game
        fields = ("tournament", "white", "black", "first", "mode", "kind")

    def clean(self):
        data = super().clean()
        tournament, white, black = data.get("tournament"), data.get("white"), data.get("black")
        if tournament is not None and not can_arbitrate(self.request.user, tournament):
            raise forms.ValidationError("only the tournament's arbiters create its games")
        if white is not None and white == black:
            raise forms.ValidationError("white and black must be two different participants")
        return data


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameForm
    list_display = ("id", "tournament", "white", "black", "mode", "status", "result")
    list_filter = ("status", "mode", "tournament")
    raw_id_fields = ("white", "black")
    readonly_fields = ("tournament", "status", "result", "termination", "events_version", "created_at")

    def has_delete_permission(self, request, obj=None):
        return False  # the history is append-only

    def has_change_permission(self, request, obj=None):
        if obj is None or not super().has_change_permission(request, obj):
            return super().has_change_permission(request, obj)
        try:
            ensure_arbiter(obj, request.user)  # an arbiter of its tournament who does not play in it
        except ServiceError:
            return False
        return True

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = GameAddForm
            kwargs["fields"] = GameAddForm.Meta.fields
        form = super().get_form(request, obj, **kwargs)
        form.request = request
        return form

    @transaction.atomic
    def save_model(self, request, obj, form, change):
        if not change:  # the same service as POST /api/games/: stored clocks, cases, the nightly sees it
            try:
                game = game_create(by=request.user, tournament=obj.tournament, white=obj.white, black=obj.black,
                                   first=obj.first, mode=obj.mode or None, kind=obj.kind or "",
                                   today=local_today(obj.tournament, timezone.now()))
            except ServiceError as error:  # checked by the form already; kept for a race
                raise forms.ValidationError(error.message) from None
            obj.pk, obj.created_at, obj.mode = game.pk, game.created_at, game.mode
            obj._state.adding, obj._state.db = False, game._state.db
            return
        if not form.changed_data:
            return
        # Apply the form's changes to the locked row: a result stored since the form was read stays.
        locked, _rows = game_lock(obj)
        text = "; ".join(f"{name} {getattr(locked, name)} -> {getattr(obj, name)}" for name in form.changed_data)
        for name in form.changed_data:
            setattr(locked, name, getattr(obj, name))
        locked.save(update_fields=form.changed_data)
        history_append(game=locked, by=request.user, kind=EventKind.ADMIN,
                       note=record_text("admin_changed", text=text))
        game_recompute(locked, by=request.user, today=local_today(locked.tournament, timezone.now()),
                       cause=record_text("cause_admin", text=text))


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


@admin.register(OverstepCase)
class OverstepCaseAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "kind", "player", "control_number", "through_move", "used_days", "allowed_days",
                    "status", "opened_on", "announced_on", "decided_by")
    list_filter = ("status", "kind")
    search_fields = ("game__id",)


@admin.register(TimeTroubleNotice)
class TimeTroubleNoticeAdmin(ReadOnlyAdmin):
    list_display = ("game", "player", "control_number", "remaining_days", "deadline", "noticed_on")


@admin.register(DeadlineReminder)
class DeadlineReminderAdmin(ReadOnlyAdmin):
    list_display = [f.name for f in DeadlineReminder._meta.fields if f.name not in ("claim", "run")]


@admin.register(NightlyReport)
class NightlyReportAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "date", "created_at")
    list_filter = ("tournament",)


@admin.register(OutboundEmail)
class OutboundEmailAdmin(ReadOnlyAdmin):
    list_display = ("key", "subject", "status", "attempts", "sent_at", "created_at")
    list_filter = ("status",)
    search_fields = ("key", "subject")


@admin.register(NightlyRun)
class NightlyRunAdmin(ReadOnlyAdmin):
    list_display = ("date", "started_at", "finished_at", "selected_players", "chunks", "counts")
