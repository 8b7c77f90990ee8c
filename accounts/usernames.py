"""Usernames that cannot pass for one another.

A new username is refused when it *looks like* an existing one: ``аrb1`` with
a Cyrillic а beside ``arb1``, ``ANNA`` or ``Іvan`` (Cyrillic І) beside ``anna`` and
``ivan``, ``arbI`` beside ``arb1``. Two names look alike when they share a
key. A name is taken in Unicode NFKC (as Django's ``normalize_username``) and
every character is replaced by the prototype of its confusable class (the
Unicode TR39 confusables, as shipped by ``confusable_homoglyphs``); the keys
are that mapping of the case-folded name, and the case-folded mapping mapped
again: capital I looks like l, its small letter like i, and both must count.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

# The library wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
_LRM = "\u200e"


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The representative of ``char``'s confusable class (``char`` itself when it has none).

    The library maps a TR39 prototype to its many look-alikes and each
    look-alike to its one prototype; a prototype with a single look-alike maps
    both ways, and then the smaller of the two stands for the pair.
    """
    entries = confusables_data.get(char)
    if not entries or len(entries) > 1:
        return char
    other = entries[0]["c"].replace(_LRM, "")
    if len(confusables_data.get(other) or ()) > 1:
        return other
    return min(char, other)


def _mapped(text: str) -> str:
    return "".join(_prototype(char) for char in text)


def username_keys(username: str) -> frozenset[str]:
    """The forms under which two look-alike usernames meet (see the module's docstring)."""
    normal = unicodedata.normalize("NFKC", username)
    return frozenset((_mapped(unicodedata.normalize("NFKC", normal.casefold())),
                      _mapped(unicodedata.normalize("NFKC", _mapped(normal).casefold()))))


def username_lookalike(username: str, existing) -> str | None:
    """The first of ``existing`` (an iterable of usernames) that looks like ``username``, or None.

    Every existing name is keyed on each call: about 20 µs a name, so a
    federation of 100,000 members pays two seconds per account created.
    """
    keys = username_keys(username)
    for other in existing:
        if keys & username_keys(other):
            return other
    return None
