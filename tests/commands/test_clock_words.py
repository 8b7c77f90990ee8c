"""``manage.py clock``'s table in words (issue 39): no stored code (``impossible_move``, ``late_repeat``,
``void_move``, ``cumulative True``) in what an arbiter reads; the codes stay in ``--json``."""

from __future__ import annotations

import json
import re

from corr.clock.presets import PRESETS

from .test_clock_command import ROOT, clock

GAMES = ROOT / "tests" / "clock" / "example_games.json"
CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b(?:True|False)\b")


def test_the_table_says_kinds_reasons_and_states_in_words(tmp_path):
    postal, = json.loads(GAMES.read_text())[:1]
    iccf = {"ruleset": {"time_control": PRESETS["iccf_10_50"]["time_control"]}, "official_start": "2026-01-10",
            "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "received_at": "2026-01-10T00:00:00Z",
                        "sent_at": "2026-01-12T10:00:00Z"}]}
    shown = []
    for name, game in (("postal", postal), ("iccf", iccf)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(game))
        done = clock(str(path), "--as-of", "2026-02-20")
        assert done.returncode == 0, done.stderr
        assert CODE.findall(done.stdout) == [], done.stdout
        shown.append(done.stdout)
        assert clock(str(path), "--json", "--as-of", "2026-02-20").returncode == 0
    postal_table, iccf_table = shown
    assert "notice or repeat 2 d, 3 excluded (50.4.7) impossible move notice:" in postal_table
    assert "delay 4 d (50.4.11) late repeat: whole delay added by the arbiter" in postal_table
    assert "void move (impossible or illegible) 3 d" in postal_table
    assert "cumulative yes" in iccf_table and "stage first move 1" in iccf_table
    # The JSON keeps the codes, for programs.
    data = json.loads(clock(str(tmp_path / "postal.json"), "--json", "--as-of", "2026-02-20").stdout)
    assert {"void_move", "notice", "delay"} <= {line["kind"] for line in data["ledger"]}
