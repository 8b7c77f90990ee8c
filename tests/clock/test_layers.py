"""The calculator's modules import in one direction (issue 22, "the calculator's shape").

Units and rules at the bottom, then events, the systems, charging, the account on top: each module may
import only from its own layer or a lower one, every import counted (a function's own imports too), so
that a count is one small module the others need not know and no circle can come back.
"""

from __future__ import annotations

import ast
from pathlib import Path

CLOCK = Path(__file__).resolve().parents[2] / "corr" / "clock"

# Lowest first. A module of a layer may import the modules of its own layer and of the layers below.
LAYERS = [
    {"errors", "build"},
    {"units", "counts", "calendar", "presets"},
    {"verdicts", "live.rules"},
    {"systems.base"},
    {"systems.periods", "systems.fischer", "systems.per_move", "systems.delay", "systems.byoyomi",
     "systems.canadian"},
    {"systems"},
    {"rules"},
    {"events", "live.events"},
    {"instants", "gamefile", "assembly", "live.lag", "live.clock", "live.gamefile"},
    {"charging", "live.text", "live"},
    {"control"},
    {"flagtime"},
    {"account"},
    {"text", "batch", "mypyc_build"},
]


def imports_of(path: Path) -> set[str]:
    """The calculator modules ``path`` imports (relative imports, resolved), wherever in the file."""
    name = ".".join(path.relative_to(CLOCK).with_suffix("").parts)
    package = name.removesuffix("__init__").rstrip(".") if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".") if package else []
            base = base[:len(base) - node.level + 1]
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:  # "from . import assembly" names a module
                if f"{target}.{alias.name}".strip(".") in ALL:
                    found.add(f"{target}.{alias.name}".strip("."))
            if target in ALL:
                found.add(target)
    return found


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(CLOCK).with_suffix("").parts).removesuffix(".__init__")


ALL = {module_name(p) for p in CLOCK.rglob("*.py")} - {"__init__"}


def test_every_module_of_the_calculator_has_a_layer():
    layered = set().union(*LAYERS)
    assert ALL == layered, (ALL - layered, layered - ALL)


def test_no_module_imports_from_a_layer_above_its_own():
    level = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    upward = []
    for path in CLOCK.rglob("*.py"):
        name = module_name(path)
        if name == "__init__":
            continue  # the package's front door re-exports everything
        for target in imports_of(path):
            if target != name and level[target] > level[name]:
                upward.append(f"{name} imports {target}")
    assert upward == []
