"""The worked examples of docs/time_controls.md run (STYLE 12)."""

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "time_controls.md"


def test_every_worked_example_of_the_time_controls_doc_runs():
    result = doctest.testfile(str(DOC), module_relative=False)
    assert result.attempted >= 10 and result.failed == 0


def test_the_calculator_package_docstring_example_runs():
    import corr.clock

    result = doctest.testmod(corr.clock)
    assert result.attempted > 0 and result.failed == 0
