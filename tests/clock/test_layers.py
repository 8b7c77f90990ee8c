"""The calculator's modules import in one direction (issue 22, "the calculator's shape").

Units and rules at the bottom, then events, the systems, charging, the account on top: each module may
import only from its own layer or a lower one, every import counted (a function's own imports too), so
that a count is one small module the others need not know and no circle can come back.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.layers import modules, upward_imports

CLOCK = Path(__file__).resolve().parents[2] / "corr" / "clock"

# Lowest first. A module of a layer may import the modules of its own layer and of the layers below.
LAYERS = [
    {"errors", "build"},
    {"units", "counts", "calendar", "presets", "personal", "allowances"},
    {"verdicts", "live.rules", "live.grace", "live.handicap"},
    {"systems.base"},
    {"systems.periods", "systems.fischer", "systems.per_move", "systems.delay", "systems.byoyomi",
     "systems.canadian"},
    {"systems"},
    {"rules"},
    {"events", "live.events"},
    {"instants", "gamefile", "assembly", "live.lag", "live.clock", "live.gamefile", "vacation", "gifts"},
    {"charging", "live.text", "live"},
    {"control"},
    {"flagtime"},
    {"account"},
    {"text", "batch", "mypyc_build"},
]


ALL = modules(CLOCK)


def test_every_module_of_the_calculator_has_a_layer():
    layered = set().union(*LAYERS)
    assert ALL == layered, (ALL - layered, layered - ALL)


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports(CLOCK, LAYERS) == []
