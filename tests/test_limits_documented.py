"""The "Input limits" of docs/security.md state the numbers of corr.limits."""

from __future__ import annotations

from pathlib import Path

from corr import limits

SECURITY = (Path(__file__).resolve().parent.parent / "docs" / "security.md").read_text()


def test_the_security_page_states_every_limit():
    section = SECURITY.split("\n## Input limits\n", 1)[1].split("\n## ", 1)[0]
    expected = [f"{limits.DATE_MIN} .. {limits.DATE_MAX}", f"{limits.DELAY_DAYS_MIN} .. {limits.DELAY_DAYS_MAX}",
                f"1 .. {limits.MOVES_MAX}", f"0 .. {limits.PRESUMED_TRANSIT_DAYS_MAX}", f"1 .. {limits.INT_MAX}",
                f"nested at most {limits.JSON_DEPTH_MAX} deep", f"at most {limits.TIME_CONTROL_NUMBER_MAX}",
                f"at most {limits.TIME_CONTROL_ITEMS_MAX}", f"at most {limits.TIME_CONTROL_SECONDS_MAX} (a week)",
                f"at most {limits.CONDITIONAL_DEPTH_MAX} replies deep and {limits.CONDITIONAL_NODES_MAX} branches",
                f"1 .. {limits.PREVIEW_EVENTS_MAX} events"]
    expected += [f"`{name}` | {low} .. {high}" for name, (low, high) in limits.RULESET_RANGES.items()
                 if name in ("moves_per_control", "days_per_control")]
    expected += [f"`termination` {limits.TERMINATION_MAX}", f"`note` and a dismissal's `reason` {limits.NOTE_MAX}",
                 f"`notation` {limits.NOTATION_MAX}", f"`name` {limits.NAME_MAX}"]
    missing = [text for text in expected if text not in section]
    assert missing == []
