"""Prefilled dates survive in every language (issue 39): a date input carries an ISO value, so the postal move
and receipt forms, submitted as the browser fills them, are accepted in ru and fr without retyping.

The browser is the judge of a date input's value: HTML's ``<input type="date">`` takes only a "valid date
string" (YYYY-MM-DD) and shows any other value as empty. ``browser_fields`` reads a form as the browser
submits it, dropping a non-ISO date value, so a page that writes ``value="28.11.2026"`` fails here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from corr.models import GameEvent

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class _Form(HTMLParser):
    """The inputs of the form with ``id`` as a browser submits them: name -> value (date inputs ISO or empty)."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id, self.inside, self.fields, self.dates = form_id, False, {}, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        elif self.inside and tag == "input" and attrs.get("name"):
            value = attrs.get("value") or ""
            if attrs.get("type") == "date":
                self.dates[attrs["name"]] = value
                value = value if ISO_DATE.match(value) else ""  # what the browser keeps of it
            if attrs.get("type") not in ("checkbox", "radio") or "checked" in attrs:
                self.fields[attrs["name"]] = value

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def browser_fields(html: str, form_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """(the fields the browser submits, the date inputs' values as the server wrote them)."""
    parser = _Form(form_id)
    parser.feed(html)
    assert parser.fields, f"no form #{form_id} on the page"
    return parser.fields, parser.dates


def signed_in(user, password: str, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.post("/login/", {"username": user.username, "password": password}).status_code == 302
    return client


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_postal_move_form_is_accepted_as_the_browser_fills_it(postal_game, anna, language):
    client = signed_in(anna, "anna-pass-1", language)
    fields, dates = browser_fields(client.get(f"/games/{postal_game.pk}/").content.decode(), "move-form")
    assert dates["sent_on"] == TODAY.isoformat()
    response = client.post(f"/games/{postal_game.pk}/move/", {**fields, "notation": "e4"})
    assert response.status_code == 302, response.content.decode()[:2000]
    move = GameEvent.objects.get(game=postal_game, kind="move", number=1, player="white")
    assert (move.notation, move.sent_on) == ("e4", TODAY)


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_the_receipt_form_keeps_its_date_in_the_language(api, postal_game, anna, boris, language):
    assert api(anna).post(f"/api/games/{postal_game.pk}/moves/",
                          {"number": 1, "notation": "e4", "sent_on": TODAY.isoformat()},
                          format="json").status_code == 201
    client = signed_in(boris, "boris-pass-1", language)
    fields, dates = browser_fields(client.get(f"/games/{postal_game.pk}/").content.decode(), "receipt-form")
    assert dates == {"received_on": TODAY.isoformat()}
    assert client.post(f"/games/{postal_game.pk}/receipt/", fields).status_code == 302
    assert GameEvent.objects.filter(game=postal_game, kind="receipt", received_on=TODAY).exists()
