"""Every answer carries the Content-Security-Policy: scripts from this site only, never inline (issue 23).

The browser tests (tests/browser/test_content_security_policy.py) show the pages work under it.
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


@pytest.mark.parametrize("path", ["/login/", "/games/", "/api/docs/", "/api/docs/?script=", "/api/games/",
                                  "/api/schema/", "/admin/login/", "/no-such-page/", "/api/no-such-endpoint/"])
def test_every_answer_has_the_policy(path):
    policy = directives(Client().get(path))
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]


def test_the_api_docs_have_no_inline_script():
    html = Client().get("/api/docs/").content.decode()
    assert "<script>" not in html and '<script src="/api/docs/?script="></script>' in html
