"""The demo as a newcomer meets it (issue 39): ``make run PORT=...`` serves on that port with links to it, a
wrong address shows the site's own 404 (not Django's technical page), and the site has an icon.

The first test runs the README's command itself, on a database file of its own: a real ``make run``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from ..support.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
READY_S = 300
"""How long ``make run`` may take to answer: the migrations and the demo data on a busy machine."""


@pytest.fixture
def demo(tmp_path):
    """``make run PORT=<a free port>`` on its own SQLite file; its address once it answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    log = open(tmp_path / "run.log", "w")
    server = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    address = f"http://127.0.0.1:{port}"
    try:
        # migrate, the demo data and the server's start first: a readiness wait, not a timing. 64 s was seen in
        # CI with the other job beside it (the server answered a second after a one-minute bound), so the
        # bound is a wall deadline of READY_S, far above it.
        deadline = time.monotonic() + READY_S
        while True:
            try:
                requests.get(f"{address}/login/", timeout=2)
                break
            except requests.ConnectionError:
                assert server.poll() is None, (tmp_path / "run.log").read_text()
                if time.monotonic() > deadline:
                    raise AssertionError((tmp_path / "run.log").read_text()) from None
                time.sleep(0.1)
        yield address
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def signed_in(address: str, username: str, password: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{address}/login/")
    answer = session.post(f"{address}/login/", data={"username": username, "password": password,
                                                     "csrfmiddlewaretoken": session.cookies["csrftoken"]},
                          headers={"Referer": f"{address}/login/"}, allow_redirects=False)
    assert answer.status_code == 302, answer.text[:500]
    return session


def test_make_run_on_another_port_writes_links_to_that_port(demo):
    port = demo.rsplit(":", 1)[1]
    anna = signed_in(demo, "anna", "anna-demo-2026")
    me = anna.get(f"{demo}/api/users/me/").json()
    assert me["calendar_url"].startswith(f"http://127.0.0.1:{port}/calendar/")
    account = anna.get(f"{demo}/account/").text
    assert f"http://127.0.0.1:{port}/xfcc/" in account  # the address Scid is told to use
    game = re.search(r'href="/games/(\d+)/"', anna.get(f"{demo}/games/").text).group(1)
    pgn = anna.get(f"{demo}/games/{game}/export/pgn/").text
    assert f'[Site "http://127.0.0.1:{port}/games/{game}/"]' in pgn
    # A wrong address: the site's own page, in the site's frame, not Django's technical one.
    missing = anna.get(f"{demo}/no-such-page/")
    assert missing.status_code == 404
    assert "Nothing here" in missing.text and 'name="viewport"' in missing.text
    assert "NONE,NOARCHIVE" not in missing.text and "URLconf" not in missing.text
    # The API's unknown path stays JSON.
    assert anna.get(f"{demo}/api/no-such-path/").json()["detail"].startswith("no API path")
    # The icon, linked from every page and at the address browsers ask for.
    assert 'rel="icon"' in account
    icon = anna.get(f"{demo}/favicon.ico")
    assert icon.status_code == 200 and icon.headers["Content-Type"].startswith("image/svg+xml")
