"""Filters that put the stored values of the domain (``white``, ``registered``, ``ongoing``) into words
of the page's language; the stored values themselves, and the API, keep them as they are."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from corr.models import Colour, GameStatus, Mail, Mode

register = template.Library()

VARIANTS = {"accepted": _("accepted"), "conditional": _("conditional")}
WORDS = {
    **{c.value: c.label for c in Colour}, **{s.value: s.label for s in GameStatus},
    **{m.value: m.label for m in Mail}, **VARIANTS,
    # Short forms of the modes for tables (the long labels say what each means). The live mode's word has a context
    # of its own: the page's connection status "live" is another word in Russian ("в эфире", on air).
    Mode.SERVER.value: _("server"), Mode.POSTAL.value: _("postal"), Mode.LIVE.value: pgettext_lazy("game mode", "live"),
}


@register.filter
def word(value):
    """A stored value (colour, status, mail, variant, mode) in the page's language; anything else as it is."""
    if value is None:
        return ""
    return WORDS.get(str(value), value)


@register.filter
def moment(value, zone):
    """An aware instant (a server move's ``sent_at``) as a day and time in ``zone``: ``Thu 3 Dec 2026, 14:05``.

    ``corr.web.describe.moment_text``'s words (imported here when used: it imports this module's ``word``).
    """
    if value is None:
        return ""
    from corr.web.describe import moment_text

    return moment_text(value, zone)


@register.filter
def zone(value):
    """A time zone (IANA) by the name the page's reader knows it (``corr.zones.zone_name``)."""
    from corr.zones import zone_name

    return zone_name(str(value)) if value else value


@register.filter
def cited(value):
    """A text's rule references by rulebook, in the page's language: ``(50.4.12)`` reads ``(Correspondence rules
    50.4.12)``, ``(002 6.9)`` reads ``(FIDE Laws 6.9)`` (``corr.rulebooks.cited``)."""
    from corr.rulebooks import cited as cite

    return cite(str(value)) if value else value


@register.filter
def record(value, what: str = "line"):
    """A stored record text in the page's language (``corr.web.records``): ``what`` is ``line`` (a history
    line), ``why`` (a withdrawn case's reason), ``termination`` or ``live`` (a live history line's reason)."""
    from corr.web import records

    if not value:
        return value
    words = {"why": records.why_words, "termination": records.termination_words,
             "live": records.live_log_words}.get(what, records.record_words)
    return words(str(value))
