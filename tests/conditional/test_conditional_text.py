"""The game page's conditional line in text (issue 28): lines of SAN into the API's tree, errors by line."""

from __future__ import annotations

import pytest

from corr.web.conditional_text import LineError, line_of, line_parsed, tree_text

RUY_TEXT = "e5 Nf3\n  Nc6 Bb5\n    a6 Ba4\n  Nf6 Nxe5\nc5 Nf3\n"
RUY = [{"if": "e5", "then": "Nf3", "next": [
           {"if": "Nc6", "then": "Bb5", "next": [{"if": "a6", "then": "Ba4", "next": []}]},
           {"if": "Nf6", "then": "Nxe5", "next": []}]},
       {"if": "c5", "then": "Nf3", "next": []}]


def test_indented_lines_are_the_api_tree_with_each_branch_s_line():
    parsed = line_parsed(RUY_TEXT)
    assert parsed.tree == RUY
    assert parsed.lines == {"conditional[0]": 1, "conditional[0].next[0]": 2, "conditional[0].next[0].next[0]": 3,
                            "conditional[0].next[1]": 4, "conditional[1]": 5}


def test_empty_text_is_an_empty_tree_and_blank_lines_and_move_numbers_are_left_out():
    assert line_parsed("").tree == [] and line_parsed("  \n\n").tree == []
    parsed = line_parsed("1... e5 2. Nf3\n\n  2...Nc6 3.Bb5\r\n")
    assert parsed.tree == [{"if": "e5", "then": "Nf3", "next": [{"if": "Nc6", "then": "Bb5", "next": []}]}]
    assert parsed.lines == {"conditional[0]": 1, "conditional[0].next[0]": 3}


def test_the_text_area_shows_the_tree_as_it_was_typed():
    assert tree_text(RUY) == RUY_TEXT.rstrip("\n")
    assert line_parsed(tree_text(RUY)).tree == RUY
    assert tree_text([]) == ""


@pytest.mark.parametrize(("text", "words"), [
    ("e5", "line 1: write the partner's move and your reply, two moves written as the game writes them (e.g. e5"
           " Nf3), got e5"),
    ("e5 Nf3\n  Nc6 Bb5 a6", "line 2: write the partner's move and your reply"),
    ("e5 Nf3\n    Nc6 Bb5", "line 2 is indented deeper than a branch under the line above it"),
    ("  e5 Nf3", "line 1 is indented deeper"),
    ("e5 Nf3\n Nc6 Bb5", "line 2: indent a deeper branch by two spaces"),
    ("e5 Nf3\n\tNc6 Bb5", "line 2: indent a deeper branch by two spaces"),
    ("e5 Nf3\n\n\nc5 " + "N" * 65, "line 4: write the partner's move"),
])
def test_a_line_that_is_no_branch_is_refused_by_its_number(text, words):
    with pytest.raises(LineError) as refused:
        line_parsed(text)
    assert words in refused.value.message


def test_a_service_path_names_its_line():
    lines = line_parsed(RUY_TEXT).lines
    assert line_of("conditional[0].next[0].next[0].then", lines) == 3
    assert line_of("conditional[1].if", lines) == 5
    assert line_of("conditional[0].next[1]", lines) == 4
    assert line_of("conditional[0].next[0].next", lines) == 2
    assert line_of("conditional", lines) is None and line_of("", lines) is None
