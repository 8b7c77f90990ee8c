"""A time zone by the name its reader knows: ``Europe/Moscow`` reads "Москва" on a Russian page, "Moscou" on a
French one (issue 39). English pages keep the IANA name, the one the tournament's settings and the API use.

The names are the Unicode CLDR's exemplar cities, through Babel (bundled data: no network). A zone Babel does
not know, a language it has no data for, or a process without Babel (a virtualenv not yet rebuilt:
``tests/i18n/test_walk.py`` fails on it) keeps its IANA name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
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


_POSIX_OFFSET = re.compile(r"^Etc/GMT(?P<sign>[+-])(?P<hours>[0-9]{1,2})$")


def zone_name(zone: str) -> str:
    """``zone`` (IANA) in the active language: the city CLDR names it by; the IANA name itself in English.

    A fixed-offset zone of the tz database's ``Etc`` area is its offset from UTC in every language: ``Etc/GMT+1``
    reads "UTC-1". Its sign is POSIX's, the reverse of ISO 8601's (tz database, ``etcetera``: "Etc/GMT-14 is 14
    hours ahead of UTC"), and CLDR writes it "GMT+1", which a reader takes for an hour ahead: a deadline at 05:46
    there was read as two hours early.
    """
    offset = _POSIX_OFFSET.match(zone or "")
    if offset and int(offset["hours"]):
        return f"UTC{'-' if offset['sign'] == '+' else '+'}{int(offset['hours'])}"
    language = (get_language() or "en").split("-")[0]
    if not zone or language == "en" or zone == "UTC":
        return zone
    return _city(zone, language)


def zones_offered(zones: Iterable[str], keep: Iterable[str] = ()) -> list[str]:
    """``zones`` less those CLDR calls aliases of another (``W-SU``, ``US/Eastern``: the same rules as
    ``Europe/Moscow`` and ``America/New_York`` under a second name), and ``keep`` among them: a list to choose from
    where each zone is named once. CLDR names an alias by the city of its zone, so a list of every name showed
    "Москва" twice and "GMT" ten times on ru and fr pages (97 labels twice or more); without the aliases no two
    zones share a name in en, ru or fr (tests/accounts/test_account_settings.py)."""
    zones = list(zones)
    aliases, kept, known = _aliases(), set(keep), set(zones)
    # An alias stays when its zone is missing here: the host's tz database may be older than Babel's CLDR
    # (Europe/Kiev before tz 2022b named Europe/Kyiv).
    return [zone for zone in zones if zone in kept or aliases.get(zone) not in known]


@lru_cache(maxsize=1)
def _aliases() -> dict[str, str]:
    """The zones CLDR names as aliases of another, with that zone (``W-SU``: ``Europe/Moscow``); none without Babel."""
    try:
        from babel.core import get_global
    except ImportError:
        return {}
    return dict(get_global("zone_aliases"))
