"""Named rulesets a tournament can choose: the rules of the seeds and of the leading servers.

Each preset is a game file ``ruleset`` object; keys given beside a preset
override it. Sources: article 50.4 (seed 004); ICCF's playing rules (10 moves
in 50 days, double time beyond 20 days, 40 days of silence; Fischer 30 + 3);
SchemingMind's standard control (30 days + 1 per move, capped at 45);
lichess's days per move; Dragon Go Server's Japanese byo-yomi.
"""

from __future__ import annotations

from typing import Any

from .errors import RulesetError

PRESETS: dict[str, dict[str, Any]] = {
    "rus_50_4": {},  # the defaults are article 50.4: 10 moves in 30 days, cumulative
    "iccf_10_50": {"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 50}],
                                    "repeat_last": True, "cumulative": True,
                                    "double_after": 20, "max_per_move": 40}},
    "iccf_fischer_30_3": {"time_control": {"system": "fischer", "initial": 30, "increment": 3,
                                           "max_per_move": 40}},
    "schemingmind_standard": {"time_control": {"system": "fischer", "initial": 30, "increment": 1, "max": 45}},
    "days_per_move_3": {"time_control": {"system": "per_move", "time": 3}},
    "dgs_byoyomi": {"time_control": {"system": "byoyomi", "main": 30, "periods": 5, "period_time": 1}},
    "dgs_canadian": {"time_control": {"system": "canadian", "main": 30, "moves": 10, "period_time": 15}},
}


def preset_ruleset(name: str | None, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """The ruleset object of a preset with ``overrides`` on top. :raises RulesetError: for an unknown name."""
    if name is None:
        return dict(overrides or {})
    if name not in PRESETS:
        raise RulesetError(f"preset must be one of {', '.join(PRESETS)}, got {name!r}", field="preset")
    return {**PRESETS[name], **(overrides or {})}
