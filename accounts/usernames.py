"""Usernames that cannot pass for one another.

A new username is refused when it *looks like* an existing one: ``аrb1`` with
a Cyrillic а beside ``arb1``, ``ANNA`` or ``Іvan`` (Cyrillic І) beside ``anna`` and
``ivan``, ``arbI`` beside ``arb1``. Two names look alike when they share a
key. A name is taken in Unicode NFKC (as Django's ``normalize_username``) and
every character is replaced by the prototype of its confusable class (the
Unicode TR39 confusables, as shipped by ``confusable_homoglyphs``); the keys
are that mapping of the case-folded name, and the case-folded mapping mapped
again: capital I looks like l, its small letter like i, and both must count.

Small capitals (``ᴘ6`` beside ``p6``, issue 23) are their small letter first: TR39 keeps them
apart (``ᴘ`` is confusable with a Greek ``ᴩ``, not with ``p``), but a name in small capitals reads
as the same name at any size a page shows it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

# The library wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
_LRM = "\u200e"


_SMALL_CAPITAL = re.compile(r"^(LATIN|GREEK|CYRILLIC) (?:CAPITAL )?(?:LETTER SMALL CAPITAL|SMALL CAPITAL LETTER) (.+)$")


@lru_cache(maxsize=4096)
def _small_letter(char: str) -> str:
    """The small letter of a small capital (``ᴘ`` -> ``p``, ``ᴫ`` -> ``л``); any other ``char`` itself.

    By the Unicode names: ``LATIN LETTER SMALL CAPITAL P`` is ``LATIN SMALL LETTER P`` written small.
    """
    match = _SMALL_CAPITAL.match(unicodedata.name(char, ""))
    if match is None:
        return char
    try:
        return unicodedata.lookup(f"{match[1]} SMALL LETTER {match[2]}")
    except KeyError:
        return char


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The representative of ``char``'s confusable class (``char`` itself when it has none).

    The library maps a TR39 prototype to its many look-alikes and each
    look-alike to its one prototype; a prototype with a single look-alike maps
    both ways, and then the smaller of the two stands for the pair.
    """
    char = _small_letter(char)
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
