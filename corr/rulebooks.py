"""The rulebooks corr implements, and how a rule is cited to a reader: "Correspondence rules 50.4.7",
"FIDE Laws 6.9", "Go rules 12.16", "Russian draughts rules 12.5" (STYLE 17, issue 25 finding 5).

The one table of rulebooks: each seed of ``shared/seeds/`` (the federations' own texts, README there) by
its number, with the name a reader can look up, in the reader's language. The project's seed numbers
("002 6.9", "000 12.5, 001 1.7.8") stay in the code and the rule texts' file names; pages, the history,
the ledger, terminations, e-mails and exports cite the rulebook by name (``citation``, ``cited``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from corr.clauses import clauses


@dataclass(frozen=True)
class Rulebook:
    """One seed: its file in ``shared/seeds/``, the language it is written in, the name it is cited by."""

    seed: str
    file: str
    language: str
    name: object  # a lazy translation: the rulebook's name in the reader's language


RULEBOOKS: dict[str, Rulebook] = {
    "004": Rulebook("004", "004_19bf04b782374289.txt", "ru",
                    # Translators: the Russian correspondence chess rules, article 50.4 "Time for reflection".
                    _("Correspondence rules")),
    "000": Rulebook("000", "000_b88bcf193d1e8d78.txt", "ru",
                    # Translators: the Russian draughts (checkers) rules, section 12 "Control clocks".
                    _("Russian draughts rules")),
    "001": Rulebook("001", "001_24591428f42f34d9.txt", "ru",
                    # A later edition of the same rules (section 1.7): its articles never share a number with 000's.
                    _("Russian draughts rules")),
    "002": Rulebook("002", "002_426b3d37ec9c0e47.txt", "fr",
                    # Translators: the FIDE Laws of Chess, article 6 "The chess clock".
                    _("FIDE Laws")),
    "003": Rulebook("003", "003_05ad2132f79c6769.txt", "ru",
                    # Translators: the rules of Go, articles 12-17 (the clock, illegal moves, sanctions).
                    _("Go rules")),
}
"""Every rulebook by its seed number."""

CORRESPONDENCE = "004"
"""The seed of article 50.4, the core of the service: a bare ``50.4.x`` is one of its articles."""


def citation(seed: str, *articles: str) -> str:
    """``articles`` of rulebook ``seed`` as a reader cites them: ``Correspondence rules 50.4.9, 50.4.10``."""
    return f"{RULEBOOKS[seed].name} {', '.join(articles)}"


def citations(pairs) -> str:
    """Several ``(seed, article)`` as one citation, each rulebook named once, in the order given:
    ``(000, 12.5), (001, 1.7.8)`` is ``Russian draughts rules 12.5, 1.7.8``."""
    books: dict[str, list[str]] = {}
    for seed, article in pairs:
        books.setdefault(str(RULEBOOKS[seed].name), []).append(article)
    return clauses(f"{name} {', '.join(articles)}" for name, articles in books.items())


_ARTICLE = r"\d+(?:\.\d+)*(?:[-/]\d+(?:\.\d+)*)?"
_SEEDED = re.compile(rf"\b(00[0-4]) ({_ARTICLE})((?:,? (?:00[0-4] )?{_ARTICLE})*)")
_FIDE = re.compile(r"\bFIDE (6(?:\.\d+)+)")
_BARE_50_4 = re.compile(r"(?<![\w.])(50\.4(?:\.\d+)+)((?:(?:,| and) 50\.4(?:\.\d+)+)*)")


def cited(text: str) -> str:
    """``text`` (English, from the calculator, the live engine or a stored note) with its rule references
    by rulebook: ``(002 6.9)`` becomes ``(FIDE Laws 6.9)``, ``000 12.5, 001 1.7.8`` becomes ``Russian draughts
    rules 12.5, 1.7.8``, and a bare ``50.4.3`` becomes ``Correspondence rules 50.4.3``; the rest is left as is.
    """
    if not text:
        return text

    def seeded(match: re.Match) -> str:
        pairs = [(match[1], match[2])]
        seed = match[1]
        for part in re.findall(rf"(?:(00[0-4]) )?({_ARTICLE})", match[3]):
            seed = part[0] or seed
            pairs.append((seed, part[1]))
        return citations(pairs)

    text = _SEEDED.sub(seeded, text)
    text = _FIDE.sub(lambda m: citation("002", m[1]), text)  # "FIDE 6.9", as the timeouts' words have it
    # A bare article of 50.4 (the calculator's ledger rules, "(50.4.3)" in a termination) is the core rulebook's.
    name = str(RULEBOOKS[CORRESPONDENCE].name)
    return _BARE_50_4.sub(lambda m: f"{name} {m[1]}{m[2]}" if not _after_name(text, m.start(), name) else m[0],
                          text)


def _after_name(text: str, at: int, name: str) -> bool:
    """The reference at ``at`` follows the rulebook's name already (``Correspondence rules 50.4.4``)."""
    return text[:at].rstrip().endswith(name)


def cited_in_english(text: str) -> str:
    """``cited`` in English whatever the request's language: the fixed words of the export files."""
    from django.utils import translation

    with translation.override("en"):
        return cited(text)
