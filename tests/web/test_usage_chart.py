"""The days chart's move labels (corr.web.svg.usage_chart): a phone draws them larger (base.html), so past 12 moves
only every fifth is named there; the other labels carry the class ``minor`` the phone's style hides."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from corr.web.svg import usage_chart


def chart(moves: int) -> str:
    ledger = [SimpleNamespace(player="white", kind="move", move=number, days=2) for number in range(1, moves + 1)]
    return str(usage_chart(player="white", ledger=ledger, events=[], moves_per_control=10, days_per_control=30))


def move_labels(svg: str) -> dict[int, str]:
    return {int(number): cls for cls, number in re.findall(r'<text class="(move[^"]*)"[^>]*>(\d+)</text>', svg)}


@pytest.mark.parametrize("moves", [1, 12])
def test_up_to_12_moves_every_label_is_shown_everywhere(moves):
    assert move_labels(chart(moves)) == {number: "move" for number in range(1, moves + 1)}


@pytest.mark.parametrize("moves", [13, 40])
def test_past_12_moves_a_phone_names_every_fifth(moves):
    labels = move_labels(chart(moves))
    assert sorted(labels) == list(range(1, moves + 1))  # a wide screen still names each
    assert [n for n, cls in labels.items() if cls == "move"] == [n for n in range(5, moves + 1, 5)]


def test_the_phone_style_enlarges_the_labels_and_hides_the_minor_ones():
    from pathlib import Path

    base = (Path(__file__).parents[2] / "templates" / "base.html").read_text()
    phone = base[base.index("@media (max-width: 40rem)"):]
    assert "svg.usage text { font-size: 16px; }" in phone and "svg.usage text.minor { display: none; }" in phone
