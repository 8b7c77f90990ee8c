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


def doc_section(heading: str) -> str:
    """The text of ``## heading`` in docs/time_controls.md, up to the next heading of its level."""
    text = DOC.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def test_the_conditional_replies_examples_run_on_their_own_under_days_fischer_and_byoyomi():
    """Issue 28: the worked examples of 50.4.8's conditional replies are there and run with their own imports."""
    text = doc_section("Conditional replies (50.4.8)")
    test = doctest.DocTestParser().get_doctest(text, {}, "conditional replies", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda _text: None)
    assert result.attempted >= 10 and result.failed == 0
    for system in ("**Days (50.4, seed 004)**", "**Fischer 10 + 3**", "**Byo-yomi"):
        assert system in text
