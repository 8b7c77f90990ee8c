"""Deadlines as an iCalendar feed (RFC 5545, written with ``icalendar``).

One all-day event per pending deadline, on the deadline's date (the last day
the move may be sent), with a reminder ``ALARM_DAYS_BEFORE`` days before it.
An instant deadline (a server game counted by the instant, issue 22) is instead
an event at the flag's own time in UTC (``DTSTART:20261203T110500Z``) lasting
``INSTANT_EVENT``, reminded ``ALARM_BEFORE_INSTANT`` before: a calendar shows
it at the reader's local time, and its text says it in the reader's zone.
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
from icalendar import Alarm, Calendar, Event, vDuration, vText

from corr.links import absolute_url
from corr.web.deadline import reader_zone
from corr.rulebooks import cited
from corr.web.describe import time_left_text, time_left_why
from corr.web.turns import turn_text

from .deadlines import Deadline

ALARM_DAYS_BEFORE = 2
"""The reminder: this many days before the deadline (the nightly e-mail reminders stay as they are)."""

INSTANT_EVENT = timedelta(minutes=15)
"""How long an instant deadline's event lasts: a mark at the time, not a span to plan in."""

ALARM_BEFORE_INSTANT = timedelta(hours=2)
"""The reminder of an instant deadline. Days-per-move games (lichess, chess.com: 1 to 14 days) give a
move a day or less of time: a reminder days before would ring before the move even arrived."""

REFRESH = timedelta(hours=6)
"""How often calendar programs are asked to fetch the feed again."""


def event_uid(deadline: Deadline) -> str:
    """Stable for a game, a player and the move they owe, whatever the date: the calendar updates the event."""
    host = urlsplit(settings.SITE_URL).hostname or "corr"
    return f"corr-game-{deadline.game.pk}-{deadline.player}-move-{deadline.number}@{host}"


def deadlines_ics(deadlines: list[Deadline], *, name: str, now: datetime, own: bool, reader=None) -> bytes:
    """The calendar named ``name`` holding ``deadlines``; ``own``: the reader is the player who owes the moves.

    ``reader``: the feed's user, whose ``time_zone`` words instant deadlines (else each tournament's zone).
    """
    calendar = Calendar()
    calendar.add("prodid", "-//corr//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    # vText escapes line breaks: a raw X- property would carry a newline of the tournament's name into the
    # feed's lines (icalendar refuses that with an error, a 500 for every arbiter; issue 23).
    calendar.add("x-wr-calname", vText(name))
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    # An X- property has no type of its own in icalendar: given a timedelta it writes str() of it
    # ("6:00:00"), which no reader takes for a duration (issue 37). vDuration writes RFC 5545's PT6H.
    calendar.add("x-published-ttl", vDuration(REFRESH))
    for deadline in deadlines:
        calendar.add_component(_event(deadline, now=now, own=own, reader=reader))
    return calendar.to_ical()


def _event(deadline: Deadline, *, now: datetime, own: bool, reader=None) -> Event:
    game = deadline.game
    values = {"game": game.pk, "number": deadline.number, "player": deadline.player,
              "username": deadline.username, "white": game.white.username, "black": game.black.username,
              "deadline": deadline.deadline.isoformat(), "days": deadline.remaining_days}
    if own:
        summary = _("Game #%(game)s: send your move %(number)s (%(white)s - %(black)s)") % values
    else:
        summary = _("Game #%(game)s: %(player)s (%(username)s) owes move %(number)s") % values
    link = absolute_url(reverse("game", args=[game.pk]))
    # The turn's own words, as the game page says them (corr.web.turns): "on move, deadline D".
    values["turn"] = turn_text(deadline.turn, zone=reader_zone(reader, game.tournament))
    # The one answer to the time left, as the game page words it (corr.games.timeleft), and why it differs
    # from the control's days where it does.
    values["left"] = time_left_text(deadline.left)
    lines = [_("Move %(number)s: %(turn)s; %(left)s.") % values]
    if why := time_left_why(deadline.left):
        lines.append(why)
    if deadline.time_trouble and game.mode == "postal":
        lines.append(cited(_("Time trouble: send it by registered mail (50.4.12).")))
    lines.append(link)
    event = Event()
    event.add("uid", event_uid(deadline))
    event.add("dtstamp", now)
    event.add("sequence", game.events_version)
    if deadline.flag_at is not None:  # at its time, in UTC: the calendar shows it in the reader's zone
        event.add("dtstart", deadline.flag_at)
        event.add("dtend", deadline.flag_at + INSTANT_EVENT)
    else:  # the last day the move may be sent, all day
        event.add("dtstart", deadline.deadline)
        event.add("dtend", deadline.deadline + timedelta(days=1))
    event.add("summary", summary)
    event.add("description", "\n".join(lines))
    event.add("url", link)
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", -ALARM_BEFORE_INSTANT if deadline.flag_at is not None else timedelta(days=-ALARM_DAYS_BEFORE))
    event.add_component(alarm)
    return event
