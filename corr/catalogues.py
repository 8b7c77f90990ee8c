"""The translation catalogues: compiled from ``locale/<language>/LC_MESSAGES/django.po`` to ``.mo`` files.

Pure Python (polib), so that ``make run`` and ``make test`` work on a machine with only Python: GNU
gettext (``msgfmt``, ``xgettext``) is needed only to extract new messages (``make messages``).
"""

from __future__ import annotations

import os
from pathlib import Path

import polib


def catalogue_paths(locale_dir: Path) -> list[Path]:
    """Every ``django.po`` under ``locale_dir``, sorted."""
    return sorted(Path(locale_dir).glob("*/LC_MESSAGES/django.po"))


def catalogue_problems(path: Path) -> list[str]:
    """What keeps a catalogue from being complete: entries without a translation, fuzzy ones, and
    translations whose placeholders differ from the original's."""
    import re

    placeholders = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
    problems = []
    for entry in polib.pofile(str(path)):
        if entry.obsolete:
            continue
        name = f"{path}: {entry.msgid!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{name} is fuzzy")
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not translations or any(not t for t in translations):
            problems.append(f"{name} has no translation")
            continue
        wanted = set(placeholders.findall(entry.msgid + (entry.msgid_plural or "")))
        for t in translations:
            if not set(placeholders.findall(t)) <= wanted:
                problems.append(f"{name}: the translation {t!r} has placeholders the original has not")
    return problems


def catalogues_compile(locale_dir: Path) -> list[Path]:
    """Write the ``.mo`` file beside each ``.po`` whose ``.mo`` is missing or older; return those written."""
    written = []
    for po in catalogue_paths(locale_dir):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        # Written aside, then renamed over: the test suite's parallel workers compile at once on their start,
        # and none may read another's half-written file (a rename is atomic on one file system).
        partial = mo.with_name(f"{mo.name}.{os.getpid()}.tmp")
        polib.pofile(str(po)).save_as_mofile(str(partial))
        os.replace(partial, mo)
        written.append(mo)
    return written
