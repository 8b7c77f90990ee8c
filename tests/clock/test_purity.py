"""The calculator is a pure package: importing it loads neither Django nor Celery."""

import subprocess
import sys


def test_importing_the_calculator_loads_no_django_module():
    code = ("import sys, corr.clock, corr.clock.text, corr.clock.batch; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'rest_framework')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_calculator_never_reads_the_system_clock():
    from pathlib import Path

    import corr.clock

    for path in Path(corr.clock.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert "date.today(" not in text and "datetime.now(" not in text, path.name
