"""Warnings before a flag falls, for server games counted in instants (``whole_days``, ``exact``).

Each player on move whose stored clock has a ``flag_at`` is warned at each of their chosen hours before it
(``Preference.warning_hours``, default ``NOTIFY_WARNING_HOURS``: 24 and 1). The beat's sweep
(every ``NOTIFY_SWEEP_SECONDS``) finds the warnings whose instant has come; each is a notice keyed by the
game, the player, the move awaited and the hour, so it is sent once whatever the sweeps and their
redeliveries. A sweep that comes late (a worker down over both instants) sends the latest warning only.
A move made stops the warnings of the move it answered: the clock is no longer on move, and the next
move's key is another. Dates games keep the nightly reminders (``corr.nightly.flags``), in days.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from corr.games.clockstate import clock_as_of, counts_instants
from corr.games.selectors import game_time_get
from corr.models import GameStatus, Mode, PlayerClock

from . import compose
from .compose import in_language
from .kinds import Kind
from .models import Notice
from .pace import notice_send_alone
from .preferences import choices_of_many

HORIZON = timedelta(hours=168)
"""The longest warning a player can choose: clocks whose flag is further off are not read."""


def warnings_due(*, now: datetime, limit: int = 2000) -> list[str]:
    """Send the flag warnings whose instant has come by ``now``; :returns: the keys of the notices sent."""
    clocks = list(PlayerClock.objects.filter(
        on_move=True, flag_at__gt=now, flag_at__lte=now + HORIZON, game__status=GameStatus.ONGOING,
        game__mode=Mode.SERVER).select_related("game__tournament", "game__white", "game__black")
        .order_by("flag_at")[:limit])
    users = {c.game.user_of(c.player).pk: c.game.user_of(c.player) for c in clocks}
    choices = choices_of_many(users)
    sent = []
    for clock in clocks:
        game, user = clock.game, clock.game.user_of(clock.player)
        mine = choices[user.pk]
        if not mine.wants(Kind.FLAG_WARNING) or not counts_instants(game):
            continue
        passed = [h for h in mine.warning_hours if clock.flag_at - timedelta(hours=h) <= now]
        if not passed:
            continue
        hours = min(passed)  # the latest instant passed: an earlier warning missed is not sent late
        key = f"warn:{game.pk}:{clock.player}:{clock.made + 1}:{hours}:{user.pk}"
        if Notice.objects.filter(key=key).exists():
            continue
        time, _rows = game_time_get(game=game, as_of=clock_as_of(game, now))
        if time.to_move != clock.player:
            continue  # moved since the clocks were read
        with in_language(user):
            worded = compose.flag_warning(game=game, time=time, user=user, colour=clock.player, hours=hours)
        try:
            with transaction.atomic():
                notice = Notice.objects.create(key=key, user=user, game=game, colour=clock.player,
                                               kind=Kind.FLAG_WARNING, subject=worded.subject[:200],
                                               text=worded.text, created_at=now)
                notice_send_alone(user=user, notice=notice)
        except IntegrityError:
            continue  # another sweep stored it first
        sent.append(key)
    return sent
