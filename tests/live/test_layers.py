"""The live service's modules import in one direction (issue 27: services, gaps, schedule, sweep and tasks
imported each other in a circle).

The state and its snapshot at the bottom, the writes above it, the services that write above those,
the timers and the sweep above the services, the tasks and the socket's routing on top. A write
announces the next check through a signal (corr.live.timers) rather than importing the timers.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.layers import modules, upward_imports

LIVE = Path(__file__).resolve().parents[2] / "corr" / "live"

# Lowest first. A module of a layer may import the modules of its own layer and of the layers below.
LAYERS = [
    {"known"},
    {"timesource", "position", "stopstate", "timers", "trips", "layer", "frames"},
    {"decide", "state"},
    {"push", "pushtext", "sessions"},
    {"write"},
    {"gaps"},
    {"services"},
    {"stops", "sweep"},
    {"beat"},
    {"schedule", "consumers", "socketauth", "unavailable"},
    {"tasks"},
]


def test_every_module_of_the_live_service_has_a_layer():
    layered = set().union(*LAYERS)
    assert modules(LIVE) == layered, (modules(LIVE) - layered, layered - modules(LIVE))


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports(LIVE, LAYERS) == []


def test_a_module_that_imports_upward_is_caught(tmp_path):
    """The check itself: a write importing the timers is reported."""
    for name in ("write", "schedule"):
        (tmp_path / f"{name}.py").write_text("from . import schedule\n" if name == "write" else "")
    assert upward_imports(tmp_path, [{"write"}, {"schedule"}]) == ["write imports schedule"]
