"""The words of a preview's changes (issue 41): one wording for the API, the pages and ``manage.py clock --with``.

Each ``corr.games.whatif.ClockChange`` is one sentence in the active language, built from the pages'
own words: the time left is ``describe.time_left_text``'s, a deadline ``describe.deadline_text``'s.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from corr.games.clockstate import moment_text
from corr.games.errors import colour_word
from corr.games.whatif import ChangeKind, ClockChange
from corr.rulebooks import cited

from .describe import deadline_text, duration_text, time_left_text


def _player(player: str) -> str:
    """A colour in the reader's words; a game file's own player id as it is."""
    return str(colour_word(player)) if player in ("white", "black") else player


def _deadline(value, zone: str) -> str:
    if isinstance(value, datetime):
        return deadline_text(at=value, zone=zone)
    return deadline_text(day=value)


def change_text(change: ClockChange, *, zone: str = "UTC", by_post: bool = True) -> str:
    """``change`` in one sentence: ``white: 12 days left instead of 15 days left``.

    ``zone``: the IANA zone an instant deadline is said in; ``by_post``: time trouble names registered mail
    (50.4.12 is a rule of the post: a server game's time trouble says the days left only).
    """
    values = {"player": _player(change.player)}
    kind = change.kind
    if kind == ChangeKind.TIME_LEFT:
        values |= {"after": time_left_text(change.after), "before": time_left_text(change.before)}
        return _("%(player)s: %(after)s instead of %(before)s") % values
    if kind == ChangeKind.DEADLINE:
        if change.after is None:
            return _("%(player)s: no deadline (now %(before)s)") % (values | {
                "before": _deadline(change.before, zone)})
        if change.before is None:
            return _("%(player)s: deadline %(after)s (none now)") % (values | {"after": _deadline(change.after, zone)})
        return _("%(player)s: deadline %(after)s instead of %(before)s") % (values | {
            "after": _deadline(change.after, zone), "before": _deadline(change.before, zone)})
    if kind == ChangeKind.TIME_TROUBLE:
        values |= {"left": duration_text(change.after), "move": change.move}
        if by_post:
            return cited(_("%(player)s in time trouble (%(left)s left): registered mail from move %(move)s"
                           " (50.4.12)") % values)
        return _("%(player)s in time trouble: %(left)s left") % values
    if kind == ChangeKind.TIME_TROUBLE_ENDS:
        return _("%(player)s out of time trouble") % values
    if kind == ChangeKind.DOUBLE:
        left = change.after
        return ngettext("%(player)s: the days of this move beyond %(after)s count double",
                        "%(player)s: the days of this move beyond %(after)s count double",
                        left.double_after or 0) % (values | {"after": left.double_after})
    if kind == ChangeKind.OVERSTEP:
        over = change.after
        return cited(_("an overstep case would open: %(player)s, control %(control)s, %(used)s of %(allowed)s"
                       " days (50.4.3)") % (values | {"control": over.control, "used": over.used,
                                                       "allowed": over.allowed}))
    if kind == ChangeKind.OVERSTEP_ENDS:
        return _("%(player)s would be back in control %(control)s: its overstep case would be withdrawn") % (
            values | {"control": change.before.control})
    if kind == ChangeKind.CASE_OPENS:
        if change.after == "registered_mail":
            return cited(_("a registered-mail case would open: %(player)s, move %(move)s (50.4.12)") % (
                values | {"move": change.move}))
        return _("a %(kind)s case would open: %(player)s, move %(move)s") % (
            values | {"kind": change.after, "move": change.move})
    if change.before == "registered_mail":
        return cited(_("the registered-mail case of %(player)s's move %(move)s would be withdrawn") % (
            values | {"move": change.move}))
    return _("the %(kind)s case of %(player)s's move %(move)s would be withdrawn") % (
        values | {"kind": change.before, "move": change.move})


def moment_json(value) -> str | None:
    """A deadline as the API writes it: a date ``YYYY-MM-DD``, an instant in RFC 3339 UTC, or None."""
    return None if value is None else moment_text(value)


def changes_text(changes: list[ClockChange], *, zone: str = "UTC", by_post: bool = True) -> list[str]:
    """Every change's sentence, in order."""
    return [change_text(c, zone=zone, by_post=by_post) for c in changes]
