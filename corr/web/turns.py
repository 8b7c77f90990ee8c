"""The words of a player's turn (``corr.games.turns``), in the reader's language: written once, read by
every page, feed, report and e-mail (STYLE 17, issue 25).

``turn_text`` is the state's own words, as a table cell or a card says them:

* on move, deadline D
* on move, over the control (no day is in time)
* waiting: your move is presumed in the post until D (or ``boris's move``)
* waiting for the partner

``turn_sentence`` is the game page's banner: whose move, those words, and why since when.
"""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from corr.games.turns import Turn, TurnSince, TurnState


def _day(value) -> str:
    return date_format(value, "SHORT_DATE_FORMAT")


def when_text(value, zone: str) -> str:
    """A turn's date, or an instant as a time in ``zone`` (IANA) with the zone's name."""
    from datetime import datetime

    from .describe import moment_text
    from corr.zones import zone_name

    if isinstance(value, datetime):
        return _("%(when)s, %(zone)s") % {"when": moment_text(value, zone), "zone": zone_name(zone)}
    return _day(value)


def turn_text(turn: Turn, *, zone: str = "UTC", reader: str | None = None, names: dict | None = None) -> str:
    """The words of ``turn``'s state (module docstring), in the active language.

    ``zone``: the reader's IANA zone, for an instant deadline. ``reader``: the colour of the reader when
    they play the game (``your move`` in the post), else None. ``names``: the players' names by colour.
    """
    state = turn.state
    if state is TurnState.ON_MOVE:
        return _("on move, deadline %(deadline)s") % {"deadline": when_text(turn.until, zone)}
    if state is TurnState.OVER_THE_CONTROL:
        return _("on move, over the control (no day is in time)")
    if state is TurnState.IN_THE_POST:
        until = when_text(turn.until, zone)
        if reader is not None and reader == turn.sender:
            return _("waiting: your move is presumed in the post until %(day)s") % {"day": until}
        name = (names or {}).get(turn.sender, turn.sender)
        return _("waiting: %(name)s's move is presumed in the post until %(day)s") % {"name": name, "day": until}
    if state is TurnState.WAITING:
        return _("waiting for the partner")
    return _("the game is over")


def since_text(turn: Turn, *, zone: str = "UTC", transit_days: int = 0) -> str:
    """Why a player on move is on move, since when: ``received on D``, ``presumed received on D: ...``."""
    if turn.why is TurnSince.START:
        return _("counted from the start, %(day)s") % {"day": when_text(turn.since, zone)}
    if turn.why is TurnSince.PRESUMED:
        return ngettext("presumed received on %(day)s: the partner's dispatch + %(days)s transit day",
                        "presumed received on %(day)s: the partner's dispatch + %(days)s transit days",
                        transit_days) % {"day": when_text(turn.since, zone), "days": transit_days}
    return _("received on %(day)s") % {"day": when_text(turn.since, zone)}


def turn_sentence(turn: Turn, *, zone: str = "UTC", reader: str | None = None, names: dict | None = None,
                  transit_days: int = 0) -> str:
    """The game page's banner for the player to move (or the move in the post): whose move, the state's
    words, and since when. ``reader``: the reader's colour if they play."""
    words = turn_text(turn, zone=zone, reader=reader, names=names)
    if turn.state is TurnState.IN_THE_POST:
        return words[:1].upper() + words[1:] + "."
    values = {"number": turn.number, "words": words, "why": since_text(turn, zone=zone, transit_days=transit_days),
              "name": (names or {}).get(turn.player, turn.player)}
    if reader == turn.player:
        return _("Your move %(number)s: %(words)s (%(why)s).") % values
    return _("%(name)s's move %(number)s: %(words)s (%(why)s).") % values
