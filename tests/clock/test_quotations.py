"""Every rule text quoted in the calculator's docs and docstrings is in the seeds, word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
# The pages of docs/ that quote the rules (docs/operations.md quotes an API answer in Russian, not a rule).
SOURCES = [ROOT / "docs" / "time_controls.md", ROOT / "docs" / "live.md",
           *sorted((ROOT / "corr" / "clock").rglob("*.py"))]
# A quotation: text in double quotes holding a Cyrillic letter or a French accent or apostrophe.
QUOTE = re.compile(r'"([^"\n]*(?:\n[^"\n]*){0,6})"')
# French elisions begin a word ("d'échecs", "l'horloge"); an English possessive ("period's") is not one.
FOREIGN = re.compile(r"[А-Яа-яЁё]|[éèàçêù]|\bl'|\bd'")


def normal(text: str) -> str:
    text = re.sub(r"^\s*(#|>>>|\.\.\.)?\s*", " ", text, flags=re.M)  # doc comment and doctest prefixes
    return re.sub(r"\s+", " ", text.replace("–", "-").replace("\u00a0", " ")).strip()


def quotations() -> list[tuple[str, str]]:
    out = []
    for path in SOURCES:
        for match in QUOTE.finditer(path.read_text()):
            text = match.group(1)
            if FOREIGN.search(text) and "{" not in text:
                out.append((path.name, text))
    return out


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds are beside the project only in the workshop")
@pytest.mark.parametrize("source, quoted", quotations())
def test_the_quotation_is_in_a_seed(source, quoted):
    seeds = normal(" ".join(p.read_text() for p in SEEDS.glob("0*.txt")))
    for part in normal(quoted).split("..."):
        assert part.strip(" .") in seeds, f"{source}: {part!r} is not in seeds/"


def test_there_are_quotations_to_check():
    assert len(quotations()) >= 10
