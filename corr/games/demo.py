"""Demo data for the embedded run: the same services every user goes through."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction

from accounts.models import User
from corr.models import Game, Tournament

from . import services
from .clockstate import local_today
from .records import record_text

ARBITER = ("arbiter", "arbiter-demo-2026", "arbiter (superuser)")
PLAYERS = (("anna", "anna-demo-2026", "participant"), ("boris", "boris-demo-2026", "participant"))


@dataclass(frozen=True)
class Demo:
    logins: tuple
    game_ids: tuple[int, ...]


@transaction.atomic
def demo_create(*, now: datetime) -> Demo:
    """Create the demo once; a second call finds it and changes nothing."""
    existing = Tournament.objects.filter(name="Demo postal cup").first()
    if existing is not None:
        ids = tuple(Game.objects.filter(tournament__name__startswith="Demo ").values_list("pk", flat=True))
        return Demo(logins=(ARBITER,) + PLAYERS, game_ids=ids)
    arbiter = User.objects.create_superuser(ARBITER[0], "arbiter@example.org", ARBITER[1])
    services.arbiter_grant(user=arbiter)
    anna, boris = (User.objects.create_user(name, f"{name}@example.org", password) for name, password, _ in PLAYERS)

    postal = services.tournament_create(by=arbiter, name="Demo postal cup", mode="postal",
                                        official_start=now.date() - timedelta(days=40), presumed_transit_days=3)
    today = local_today(postal, now)
    start = postal.official_start
    # A few postal moves with their real dates (each transit 3-5 days, never counted: 50.4.3), each
    # entered on the day it happened, as players who keep their game up to date do: no state on the
    # way shows a clock over a control, so the demo starts with no case that its clocks contradict.
    day = lambda n: start + timedelta(days=n)  # noqa: E731
    postal_game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=start)
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=day(2), mail="ordinary",
                         today=day(2))
    services.move_submit(game=postal_game, by=boris, number=1, notation="c5", received_on=day(6), sent_on=day(9),
                         mail="ordinary", today=day(9))
    services.move_submit(game=postal_game, by=anna, number=2, notation="Nf3", received_on=day(13),
                         sent_on=day(15), mail="ordinary", today=day(15))
    services.move_submit(game=postal_game, by=boris, number=2, notation="d6", received_on=day(19),
                         sent_on=day(30), mail="ordinary", today=day(30))
    services.receipt_record(game=postal_game, by=anna, received_on=day(34), today=day(34))
    locked, _ = services.game_lock(postal_game)  # the stored clocks as of today, not of the last entry
    services.game_recompute(locked, by=None, today=today, cause=record_text("cause_demo"))

    server = services.tournament_create(by=arbiter, name="Demo server league", mode="server",
                                        official_start=today, ruleset={"days_per_control": 30})
    server_game = services.game_create(by=arbiter, tournament=server, white=boris, black=anna, today=today)
    # ICCF's webserver way (issue 22): whole 24-hour days, flags recorded at their instant, the deadline a time.
    # Its official start is today in its own zone, not the server's: at 23:23 UTC it is already tomorrow in
    # Moscow, and a start read the other way would charge a day before anyone could move (issue 39).
    moscow_today = now.astimezone(ZoneInfo("Europe/Moscow")).date()
    iccf = services.tournament_create(by=arbiter, name="Demo ICCF server event", mode="server",
                                      official_start=moscow_today, preset="iccf_10_50", time_zone="Europe/Moscow")
    iccf_game = services.game_create(by=arbiter, tournament=iccf, white=anna, black=boris, today=today)
    return Demo(logins=(ARBITER,) + PLAYERS, game_ids=(postal_game.pk, server_game.pk, iccf_game.pk))
