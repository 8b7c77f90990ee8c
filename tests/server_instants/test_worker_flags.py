"""A real Celery worker records a server game's flag within 60 s of flag_at, with nobody connected (issue 22).

The game's moves are made in this process under an injected clock (time
travel: white's move is placed a day before the machine's present, less a few
seconds), so black's flag falls a few seconds from now by the machine's clock,
the clock the worker reads. The check is queued at ``flag_at`` (``eta``) when
the move commits; nothing reads the game until the case and its e-mail are there.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
import time_machine

from corr.games import services
from corr.models import EmailStatus, Game, OutboundEmail, OverstepCase

from ..nightly.test_worker_integration import worker, written  # noqa: F401 - the real worker's fixture
from .conftest import instant_tournament, move_at

pytestmark = pytest.mark.django_db(transaction=True)

LEAD = timedelta(seconds=8)
"""How far ahead of the present black's flag falls: time for the worker to take the queued task."""


def wait_for(predicate, until: float) -> bool:
    while time.time() < until:
        if predicate():
            return True
        time.sleep(0.25)
    return predicate()


def test_a_real_worker_records_the_flag_within_a_minute_with_nobody_connected(worker, arbiter, anna, boris, api):  # noqa: F811
    arbiter.email = "arbiter@example.org"
    arbiter.save()
    flag = datetime.now(timezone.utc).replace(microsecond=0) + LEAD
    sent = flag - timedelta(days=1)  # white's first move, the day the tournament starts: in time
    tournament = instant_tournament(arbiter, official_start=sent.astimezone(ZoneInfo("Europe/Moscow")).date())
    with time_machine.travel(sent - timedelta(hours=1), tick=False):
        game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris,
                                    today=sent.date())
    assert move_at(api(anna), game, 1, "e4", sent).status_code == 201
    assert not OverstepCase.objects.exists()
    assert wait_for(lambda: OverstepCase.objects.filter(game=game).exists(), flag.timestamp() + 60), \
        "no case within 60 s of flag_at"
    case = OverstepCase.objects.get(game=game)
    assert case.player == "black" and case.announced_on is not None
    # The e-mail goes out from the worker too: its file backend wrote the arbiters' message.
    assert wait_for(lambda: OutboundEmail.objects.filter(status=EmailStatus.SENT, key__startswith="overstep:").exists(),
                    flag.timestamp() + 60)
    assert f"Subject: Overstep case in game #{game.pk}: black exceeded control 1" in written(worker)
    email = OutboundEmail.objects.get(key__startswith="overstep:")  # beside the players' notices (issue 38)
    assert email.created_at - flag < timedelta(seconds=60)
    assert email.created_at >= flag  # not before the flag fell
    assert Game.objects.get(pk=game.pk).status == "ongoing"  # timeouts arbiter: the arbiter decides
