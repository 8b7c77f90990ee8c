"""Deadlines as an iCalendar feed (RFC 5545, written with ``icalendar``).

One all-day event per pending deadline, on the deadline's date (the last day
the move may be sent), with a reminder ``ALARM_DAYS_BEFORE`` days before it.
Its ``UID`` names the game, the player and the move, so when the clock moves
the deadline (a penalty, a correction, a receipt recorded) a calendar that
refreshes the feed moves the same event; ``SEQUENCE`` is the game's event
version, raised by each such change.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from icalendar import Alarm, Calendar, Event

from corr.nightly.flags import absolute_url

from .deadlines import Deadline

ALARM_DAYS_BEFORE = 2
"""The reminder: this many days before the deadline (the nightly e-mail reminders stay as they are)."""

REFRESH = timedelta(hours=6)
"""How often calendar programs are asked to fetch the feed again."""


def event_uid(deadline: Deadline) -> str:
    """Stable for a game, a player and the move they owe, whatever the date: the calendar updates the event."""
    host = urlsplit(settings.SITE_URL).hostname or "corr"
    return f"corr-game-{deadline.game.pk}-{deadline.player}-move-{deadline.number}@{host}"


def deadlines_ics(deadlines: list[Deadline], *, name: str, now: datetime, own: bool) -> bytes:
    """The calendar named ``name`` holding ``deadlines``; ``own``: the reader is the player who owes the moves."""
    calendar = Calendar()
    calendar.add("prodid", "-//corr//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    for deadline in deadlines:
        calendar.add_component(_event(deadline, now=now, own=own))
    return calendar.to_ical()


def _event(deadline: Deadline, *, now: datetime, own: bool) -> Event:
    game = deadline.game
    values = {"game": game.pk, "number": deadline.number, "player": deadline.player,
              "username": deadline.username, "white": game.white.username, "black": game.black.username,
              "deadline": deadline.deadline.isoformat(), "days": deadline.remaining_days}
    if own:
        summary = _("Game #%(game)s: send your move %(number)s (%(white)s - %(black)s)") % values
    else:
        summary = _("Game #%(game)s: %(player)s (%(username)s) owes move %(number)s") % values
    link = absolute_url(reverse("game", args=[game.pk]))
    lines = [ngettext("Last day to send move %(number)s: %(deadline)s; %(days)s day left in the control.",
                      "Last day to send move %(number)s: %(deadline)s; %(days)s days left in the control.",
                      deadline.remaining_days) % values]
    if deadline.time_trouble and game.mode == "postal":
        lines.append(_("Time trouble: send it by registered mail (50.4.12)."))
    lines.append(link)
    event = Event()
    event.add("uid", event_uid(deadline))
    event.add("dtstamp", now)
    event.add("sequence", game.events_version)
    event.add("dtstart", deadline.deadline)
    event.add("dtend", deadline.deadline + timedelta(days=1))
    event.add("summary", summary)
    event.add("description", "\n".join(lines))
    event.add("url", link)
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", timedelta(days=-ALARM_DAYS_BEFORE))
    event.add_component(alarm)
    return event
