"""Selectors: every read of the correspondence domain (STYLE 5), in a constant number of queries."""

from __future__ import annotations

from datetime import date

from django.db.models import Q, QuerySet

from corr.models import Game, GameEvent, PlayerClock, Tournament

from .clockstate import GameTime, game_time


def game_get(*, game_id: int) -> Game:
    """One game with its tournament and players (one query). :raises Game.DoesNotExist:"""
    return Game.objects.select_related("tournament", "white", "black").get(pk=game_id)


EVENT_FIELDS = ("id", "game_id", "seq", "kind", "player", "number", "notation", "received_on", "sent_on", "void",
                "variant", "mail", "reason", "days", "note", "supersedes_id", "entered_by_id", "entered_at")


def event_rows(queryset) -> list:
    """Stored events as read-only named tuples with the model's field names.

    A game is read on every request and every night: building model instances
    for hundreds of events costs more than computing their clock.
    """
    return list(queryset.values_list(*EVENT_FIELDS, named=True))


def game_rows(*, game: Game) -> list:
    """All stored events of a game, superseded ones included, in sequence (one query)."""
    return event_rows(GameEvent.objects.filter(game=game).order_by("seq"))


def game_time_get(*, game: Game, as_of: date) -> tuple[GameTime, list[GameEvent]]:
    """The game's clock as of ``as_of`` and its rows (one query for the rows)."""
    rows = game_rows(game=game)
    return game_time(game, rows, as_of), rows


def games_of_user(*, user) -> QuerySet[Game]:
    return (Game.objects.filter(Q(white=user) | Q(black=user))
            .select_related("tournament", "white", "black").order_by("-id"))


def tournaments_of_user(*, user) -> QuerySet[Tournament]:
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        Q(arbiters=user) | Q(games__white=user) | Q(games__black=user)).distinct()


def tournament_clocks(*, tournament: Tournament) -> QuerySet[PlayerClock]:
    """The stored accounts of a tournament's games, soonest deadline first (nulls last)."""
    from django.db.models import F

    return (PlayerClock.objects.filter(game__tournament=tournament)
            .select_related("game", "game__white", "game__black")
            .order_by(F("deadline").asc(nulls_last=True), "remaining_days", "game_id"))
