"""make test's order (tests/support/parallel.py): each xdist worker's first tests are the long ones, none lost."""

from __future__ import annotations

import types

from .support.parallel import SLOW_FIRST, pytest_collection_modifyitems


class Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def collected() -> list[Item]:
    return ([Item(f"tests/a/test_{i}.py::t") for i in range(100)] + [Item(f"{m}::x") for m in SLOW_FIRST]
            + [Item("tests/test_readme.py::y")])


def test_the_long_modules_head_the_chunks_worksteal_hands_out_and_no_test_is_lost_or_repeated():
    items = collected()
    before = sorted(item.nodeid for item in items)
    pytest_collection_modifyitems(None, types.SimpleNamespace(workerinput={"workercount": 4}), items)
    assert sorted(item.nodeid for item in items) == before
    # 108 tests cut 27, 27, 27, 27: the modules dealt in turn, longest first.
    heads = [items[start].nodeid.split("::")[0] for start in (0, 27, 54, 81)]
    assert heads == list(SLOW_FIRST[:4])
    assert [item.nodeid for item in items[:3]] == ["tests/test_readme.py::x", "tests/test_readme.py::y",
                                                   f"{SLOW_FIRST[4]}::x"]
    others = [item.nodeid for item in items if not item.nodeid.startswith(SLOW_FIRST)]
    assert others == [f"tests/a/test_{i}.py::t" for i in range(100)]  # the rest in collected order


def test_outside_xdist_the_long_modules_come_first():
    items = collected()
    pytest_collection_modifyitems(None, types.SimpleNamespace(), items)
    assert [item.nodeid.split("::")[0] for item in items[:2]] == ["tests/test_readme.py"] * 2
    assert items[2].nodeid.startswith(SLOW_FIRST[1])
