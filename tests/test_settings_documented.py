"""The settings table of docs/operations.md names every environment variable that corr/settings.py reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
SETTINGS = (ROOT / "corr" / "settings.py").read_text()


def test_the_operations_page_documents_every_setting_read_from_the_environment():
    names = set(re.findall(r'(?:env_int|env_bool|env_list|env_rate|os\.environ\.get)\("([A-Z][A-Z0-9_]*)"', SETTINGS))
    table = OPERATIONS.split("\n## Settings (environment)\n", 1)[1].split("\n## ", 1)[0]
    assert len(names) > 30  # the pattern still finds the settings
    assert sorted(name for name in names if f"`{name}`" not in table) == []
