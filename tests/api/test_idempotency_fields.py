"""An ``Idempotency-Key`` names one request (issue 42's review): a retry with the same fields replays the first
answer, the same key with other fields is refused (422, naming the key, in the reader's language) and stores
nothing, as a key reused on another path already was."""

from __future__ import annotations

import json

import pytest

from corr.api.idempotency import fingerprint
from corr.models import IdempotencyRecord

from ..conftest import clock_events

OTHER_FIELDS = {
    "en": "Idempotency-Key 'k-9' was used with other fields: a retry sends the same fields, a new request needs a new"
          " key",
    "ru": "Idempotency-Key 'k-9' уже использован с другими полями: повтор отправляет те же поля, новому запросу нужен"
          " новый ключ",
    "fr": "Idempotency-Key 'k-9' a déjà servi avec d'autres champs : une nouvelle tentative envoie les mêmes champs,"
          " une nouvelle requête demande une nouvelle clé",
}
OTHER_PATH = {
    "en": "Idempotency-Key 'k-8' was used for POST /api/games/{id}/moves/: a new request needs a new key",
    "ru": "Idempotency-Key 'k-8' уже использован для POST /api/games/{id}/moves/: новому запросу нужен новый ключ",
    "fr": "Idempotency-Key 'k-8' a déjà servi pour POST /api/games/{id}/moves/ : une nouvelle requête demande une"
          " nouvelle clé",
}
"""What the client receives, written out: the catalogue's words, not read back from it."""


def test_the_fingerprint_is_the_fields_not_their_order_nor_spacing():
    assert fingerprint({"number": 1, "sent_on": "2026-01-12"}) == fingerprint({"sent_on": "2026-01-12", "number": 1})
    assert fingerprint({"number": 1}) != fingerprint({"number": 2})
    assert fingerprint({"number": 1}) != fingerprint({"number": "1"})


def test_a_retry_with_the_same_fields_in_another_order_and_spacing_replays(api, postal_game, anna):
    client = api(anna)
    url = f"/api/games/{postal_game.pk}/moves/"
    first = client.post(url, '{"number": 1, "sent_on": "2026-01-12"}', content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="k-7")
    again = client.post(url, '{"sent_on":"2026-01-12","number":1}', content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="k-7")
    assert first.status_code == again.status_code == 201, again.content
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert clock_events().count() == 1


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_same_key_with_other_fields_is_refused_in_the_readers_language_and_stores_nothing(api, postal_game, anna,
                                                                                            language):
    client = api(anna)
    url = f"/api/games/{postal_game.pk}/moves/"
    first = client.post(url, {"number": 1, "sent_on": "2026-01-12"}, format="json", HTTP_IDEMPOTENCY_KEY="k-9")
    assert first.status_code == 201
    other = client.post(url, {"number": 1, "sent_on": "2026-01-13"}, format="json", HTTP_IDEMPOTENCY_KEY="k-9",
                        HTTP_ACCEPT_LANGUAGE=language)
    assert other.status_code == 422
    assert other.json() == {"detail": OTHER_FIELDS[language], "field": "Idempotency-Key"}
    assert "Idempotent-Replayed" not in other
    assert clock_events().count() == 1
    assert IdempotencyRecord.objects.get(key="k-9").body == first.json()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_key_used_on_another_path_is_refused_in_the_readers_language(api, postal_game, anna, language):
    client = api(anna)
    client.post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"}, format="json",
                HTTP_IDEMPOTENCY_KEY="k-8")
    r = client.post(f"/api/games/{postal_game.pk}/receipts/", {"received_on": "2026-01-12"}, format="json",
                    HTTP_IDEMPOTENCY_KEY="k-8", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 422
    assert r.json() == {"detail": OTHER_PATH[language].format(id=postal_game.pk), "field": "Idempotency-Key"}


def test_a_record_kept_before_the_digest_is_replayed_whatever_the_fields(api, postal_game, anna):
    client = api(anna)
    url = f"/api/games/{postal_game.pk}/moves/"
    first = client.post(url, {"number": 1, "sent_on": "2026-01-12"}, format="json", HTTP_IDEMPOTENCY_KEY="k-old")
    IdempotencyRecord.objects.filter(key="k-old").update(request_digest="")  # as migration 0033 left old records
    again = client.post(url, {"number": 1, "sent_on": "2026-01-14"}, format="json", HTTP_IDEMPOTENCY_KEY="k-old")
    assert again.status_code == 201 and again.json() == first.json()
    assert clock_events().count() == 1


def test_a_malformed_body_with_a_key_is_refused_as_without_one_and_keeps_nothing(api, postal_game, anna):
    client = api(anna)
    url = f"/api/games/{postal_game.pk}/moves/"
    plain = client.post(url, '{"number": 1,', content_type="application/json")
    first = client.post(url, '{"number": 1,', content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-bad")
    again = client.post(url, '{"number": 1,', content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-bad")
    assert plain.status_code == first.status_code == again.status_code == 400
    assert "JSON parse error" in json.loads(first.content)["detail"]  # the parser's words, not a field's
    assert json.loads(first.content) == json.loads(plain.content) == json.loads(again.content)
    assert "Idempotent-Replayed" not in again
    assert clock_events().count() == 0 and not IdempotencyRecord.objects.exists()
