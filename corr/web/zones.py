"""A time zone by the name its reader knows: ``Europe/Moscow`` reads "Москва" on a Russian page, "Moscou" on a
French one (issue 39). English pages keep the IANA name, the one the tournament's settings and the API use.

The names are the Unicode CLDR's exemplar cities, through Babel (bundled data: no network). A zone Babel does
not know, a language it has no data for, or a process without Babel (a virtualenv not yet rebuilt:
``tests/i18n/test_walk.py`` fails on it) keeps its IANA name.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language


@lru_cache(maxsize=512)
def _city(zone: str, language: str) -> str:
    try:
        from babel.core import UnknownLocaleError
        from babel.dates import get_timezone_location
    except ImportError:  # an environment not yet rebuilt from requirements.txt: a name, not a failed e-mail
        return zone

    try:
        return get_timezone_location(zone, locale=language.replace("-", "_"), return_city=True) or zone
    except (LookupError, UnknownLocaleError, ValueError):
        return zone


def zone_name(zone: str) -> str:
    """``zone`` (IANA) in the active language: the city CLDR names it by; the IANA name itself in English."""
    language = (get_language() or "en").split("-")[0]
    if not zone or language == "en" or zone == "UTC":
        return zone
    return _city(zone, language)
