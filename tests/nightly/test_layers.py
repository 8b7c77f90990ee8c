"""The e-mail delivery is one layer below the nightly job and the tasks that call it (issue 23).

Lowest first: the SQL helpers and links, the outbox, the games' services, the nightly job, the tasks.
A module may import only from its own layer or a lower one, every import counted (a function's own
imports too), so that the circle tasks -> nightly e-mails -> tasks cannot come back; and neither the
outbox nor the leave service reaches the nightly package or the tasks through any chain of imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

CORR = Path(__file__).resolve().parents[2] / "corr"

# Lowest first; a name stands for that module and every module below it.
LAYERS = ["corr.sql corr.links", "corr.outbox", "corr.games", "corr.nightly", "corr.tasks"]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(CORR.parent).with_suffix("").parts).removesuffix(".__init__")


MODULES = {module_name(p): p for p in CORR.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The corr modules ``name`` imports, anywhere in the file (relative imports resolved)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            targets = [target, *(f"{target}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


def layer_of(name: str) -> int | None:
    for level, layer in enumerate(LAYERS):
        if any(name == top or name.startswith(top + ".") for top in layer.split()):
            return level
    return None


def closure(name: str) -> set[str]:
    seen, todo = set(), [name]
    while todo:
        for target in imports_of(todo.pop()) - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_no_module_imports_from_a_layer_above_its_own():
    upward = [f"{name} imports {target}" for name in MODULES if layer_of(name) is not None
              for target in imports_of(name)
              if layer_of(target) is not None and layer_of(target) > layer_of(name)]
    assert upward == []


def test_the_outbox_and_the_leave_service_reach_neither_the_nightly_job_nor_the_tasks():
    for name in ("corr.outbox", "corr.games.services.leave"):
        above = sorted(m for m in closure(name) if m == "corr.tasks" or m.startswith("corr.nightly"))
        assert above == [], f"{name} reaches {above}"


def test_the_tasks_call_the_nightly_job_and_the_outbox():
    # The parser sees the imports the tests above forbid (else they would pass on nothing).
    assert {"corr.nightly.job", "corr.outbox"} <= imports_of("corr.tasks")
    assert "corr.outbox" in imports_of("corr.games.services.ending")  # a service that e-mails itself


def test_the_services_reach_no_notification_code():
    # STYLE 15: the services queue a notice by the task's name after commit (corr.games.notices); the
    # notifications package reads the games, never the other way round.
    reached = sorted(m for m in closure("corr.games.services") if m.startswith("corr.notify"))
    assert reached == []
