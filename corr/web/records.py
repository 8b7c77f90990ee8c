"""The history's record lines and the terminations in the reader's language (issue 25, finding 5).

corr stores them as English made from one template each (``corr.games.records.TEMPLATES``); this module
reads a stored text back through the same template and says it in the active language: colours, kinds
and reasons in words, dates as the page writes them, nested reasons worded the same way, and every rule
by its rulebook (``corr.rulebooks.cited``: "Correspondence rules 50.4.3", "FIDE Laws 6.9"). A text no
template made (a note or a termination an arbiter typed) keeps its words, its rule numbers cited.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import cache

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from corr.games.records import CAUSES, LINES, LIVE_LOG, TEMPLATES, TERMINATIONS, WHYS
from corr.rulebooks import cited
from corr.templatetags.corr_i18n import word

from .describe import _duration_words, reason_word

NESTED = {"why": WHYS, "cause": CAUSES, "termination": TERMINATIONS}
"""Parameters that are texts of the templates themselves, and which templates they are."""

KINDS = {
    "overstep": _("overstep"), "registered mail": _("registered mail"),
    "move": _("move"), "notice": _("notice"), "penalty": _("penalty"), "delay": _("delay"),
    "start notice": _("notice of the start"), "receipt": _("receipt"),
}
"""The kinds a record names (a case's, an event's), in words."""


@cache
def _patterns(codes: tuple[str, ...]) -> list[tuple[re.Pattern, str]]:
    """The templates ``codes`` as patterns of their stored English, the longest literal first (``result X: Y``
    before ``result X``), with their placeholders as named groups (a name said twice, the same value)."""
    out = []
    for code in codes:
        template = TEMPLATES[code]
        parts = re.split(r"%\((\w+)\)s", template)
        seen: set[str] = set()
        regex = ""
        for i, part in enumerate(parts):
            if i % 2 == 0:
                regex += re.escape(part)
            else:
                regex += f"(?P={part})" if part in seen else f"(?P<{part}>.+?)"
                seen.add(part)
        literal = sum(len(p) for p in parts[::2])
        out.append((literal, re.compile(regex + r"\Z", re.S), template))
    out.sort(key=lambda item: -item[0])
    return [(pattern, template) for _literal, pattern, template in out]


def record_words(text: str, among: tuple[str, ...] = LINES) -> str:
    """A stored text made from one of the templates ``among`` (by default a history line) in the reader's
    language; another text (typed by a person) with its rule numbers cited."""
    if not text:
        return text
    for pattern, template in _patterns(among):
        match = pattern.match(text)
        if match is not None:
            params = {name: _param(name, value) for name, value in match.groupdict().items()}
            return cited(gettext(template) % params)
    return cited(text)


def is_typed(text: str, among: tuple[str, ...] = LINES) -> bool:
    """Whether ``text`` was typed by a person (no template of ``among`` made it): words in their language."""
    return bool(text) and not any(pattern.match(text) for pattern, _template in _patterns(among))


def _param(name: str, value: str) -> str:
    if name in NESTED:
        return record_words(value, NESTED[name])
    if name in ("amount", "bound"):
        return amount_words(value)
    if name in ("player", "partner"):
        return str(word(value))
    if name == "kind":
        return str(KINDS.get(value, value))
    if name == "reason" and re.fullmatch(r"[a-z]+( [a-z]+)*", value):
        words = reason_word(value.replace(" ", "_"))
        return words if words != value else value
    if name in ("day", "first", "last") and re.fullmatch(r"\d{4}-\d\d-\d\d", value):
        return date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT")
    if name in ("start", "end") and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", value):
        # An instant (RFC 3339 UTC, ``instant_text``) as the page writes its instants: in the page's zone.
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
        return date_format(timezone.localtime(at), "SHORT_DATETIME_FORMAT")
    return value


def amount_words(text: str) -> str:
    """An amount of time the history stored (``corr.games.records.amount_text``) in the page's language."""
    match = re.fullmatch(r"(\d+) days?", text)
    if match is not None:
        return ngettext("%(days)s day", "%(days)s days", int(match[1])) % {"days": match[1]}
    return _duration_words(text)


def termination_words(text: str) -> str:
    """A game's termination as the page says it (corr writes its own from the templates; an arbiter types one)."""
    return record_words(text, TERMINATIONS)


def with_termination_text(payload: dict) -> dict:
    """A live payload (``corr.live.state.live_payload``) with ``termination_text``: how the game ended in the
    active language, its rules cited by rulebook ("FIDE Laws 6.9"), for the live page to show; the stored
    ``termination`` beside it stays as the API gives it. The page's and the socket's payloads carry it."""
    ended = payload.get("termination")
    return {**payload, "termination_text": termination_words(ended) if ended else None}


def live_log_words(text: str) -> str:
    """A live history line's reason as the page says it (a result's is its termination; a pause's was typed)."""
    return record_words(text, LIVE_LOG + TERMINATIONS)


def why_words(text: str) -> str:
    """Why a case was withdrawn, as the page says it."""
    return record_words(text, WHYS)
