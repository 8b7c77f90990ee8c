"""The interactive API docs are served by the project itself: they render without internet."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_api_docs_load_their_scripts_from_the_project_not_a_cdn():
    page = Client().get("/api/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(a.startswith("/") for a in assets), assets
    assert not re.search(r"https?://", " ".join(assets))
    for asset in assets:
        if asset.startswith("/static/"):
            response = Client().get(asset)
            assert response.status_code == 200, asset
            b"".join(response.streaming_content if response.streaming else [response.content])
