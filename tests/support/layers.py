"""Import direction of a package (STYLE: imports in one direction): which modules a module imports.

Shared by the calculator's and the live service's layer tests (tests/clock/test_layers.py,
tests/live/test_layers.py): every relative import counted, a function's own imports too.
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    """``path``'s dotted name inside the package at ``root`` (``systems.base``; ``""`` for ``__init__``)."""
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix("__init__").rstrip(".")


def modules(root: Path) -> set[str]:
    """Every module of the package at ``root``, its ``__init__`` left out."""
    return {module_name(root, p) for p in root.rglob("*.py")} - {""}


def imports_of(root: Path, path: Path) -> set[str]:
    """The modules of the package at ``root`` that ``path`` imports (relative imports, resolved)."""
    everything = modules(root)
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".") if package else []
            base = base[:len(base) - node.level + 1]
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:  # "from . import assembly" names a module
                if f"{target}.{alias.name}".strip(".") in everything:
                    found.add(f"{target}.{alias.name}".strip("."))
            if target in everything:
                found.add(target)
    return found


def upward_imports(root: Path, layers: list[set[str]]) -> list[str]:
    """``"a imports b"`` for each import of a module from a layer above its own (``layers`` lowest first)."""
    level = {name: i for i, layer in enumerate(layers) for name in layer}
    upward = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(root, path)
        if not name:
            continue  # the package's front door re-exports everything
        for target in imports_of(root, path):
            if target != name and level[target] > level[name]:
                upward.append(f"{name} imports {target}")
    return upward
