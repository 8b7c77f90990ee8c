"""Clauses and labels joined as the reader's language punctuates them.

French sets a space before ":" and ";" (the catalogues write every message so: "Envoyé le : ..."); a label or a
clause joined in code with a bare ": " or "; " read "Envoyé le: La date d'envoi ..." and "cumulé; au plus 40 jours"
on French pages, beside the catalogue's own "Envoyé le :" (the browser walk of 2026-12-06). The joints are messages
of the catalogues, so each language sets its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _


def clauses(parts: Iterable[str]) -> str:
    """``parts`` (each in the reader's language already) as the clauses of one sentence: "a; b; c" in English and
    Russian, "a ; b ; c" in French; the empty ones left out."""
    text = ""
    for part in parts:
        if not part:
            continue
        # Translators: two clauses of one sentence, as your language separates them (French: "%(clause)s ; ...").
        text = _("%(clause)s; %(next)s") % {"clause": text, "next": part} if text else str(part)
    return text


def labelled(label: str, text: str) -> str:
    """``text`` after its ``label``: "Sent on: the date ..." ("Envoyé le : la date ..." in French)."""
    # Translators: a form field's label, then what it says of it, as your language separates them (French: " : ").
    return _("%(label)s: %(text)s") % {"label": label, "text": text}
