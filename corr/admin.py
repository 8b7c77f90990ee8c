"""The Django admin for every model; events are read-only (corrections go through the services)."""

from django.contrib import admin

from .models import Game, GameEvent, IdempotencyRecord, PlayerClock, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "official_start", "mode", "time_zone", "moves_per_control", "days_per_control")
    filter_horizontal = ("arbiters",)
    search_fields = ("name",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "white", "black", "mode", "status", "result")
    list_filter = ("status", "mode", "tournament")
    raw_id_fields = ("white", "black")


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
