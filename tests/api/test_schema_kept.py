"""``GET /api/schema/`` answers the schema drf-spectacular builds, in the reader's language, built once per process
and language (corr/api/schema_view.py): the schema is public and unthrottled, and each build is a second of CPU."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from corr.api.schema_view import KeptSchemaView

pytestmark = pytest.mark.django_db


@pytest.fixture
def nothing_kept():
    KeptSchemaView._kept.clear()
    yield
    KeptSchemaView._kept.clear()


def built_afresh(language: str) -> dict:
    """The schema as drf-spectacular's own view builds it on each request, in ``language``."""
    with translation.override(language):
        schema = SchemaGenerator().get_schema(request=None, public=True)
        return json.loads(OpenApiJsonRenderer().render(schema))


def test_each_language_is_answered_its_own_schema_in_any_order_and_the_same_again(client, nothing_kept):
    english, russian, french = (built_afresh(language) for language in ("en", "ru", "fr"))
    # The enums' labels are translated: a schema kept for one language would show in another.
    assert len({json.dumps(schema, sort_keys=True) for schema in (english, russian, french)}) == 3
    asked = [("en", {}), ("ru", {"lang": "ru"}), ("en", {}), ("fr", {"HTTP_ACCEPT_LANGUAGE": "fr"}),
             ("ru", {"HTTP_ACCEPT_LANGUAGE": "ru-RU"}), ("ru", {"lang": "ru"})]
    first_built = {}
    for language, how in asked:
        query = {"format": "json", **({"lang": how["lang"]} if "lang" in how else {})}
        headers = {key: value for key, value in how.items() if key != "lang"}
        answer = client.get("/api/schema/", query, **headers)
        assert answer.status_code == 200
        assert answer.json() == {"en": english, "ru": russian, "fr": french}[language], (language, how)
        first_built.setdefault(language, KeptSchemaView._kept[language])
        assert KeptSchemaView._kept[language] is first_built[language]  # the same object: built once, then kept
    assert sorted(KeptSchemaView._kept) == ["en", "fr", "ru"]


def test_a_language_the_project_does_not_speak_and_any_version_are_answered_the_english_schema(client, nothing_kept):
    english = built_afresh("en")
    for query in ({"lang": "zz"}, {"version": "9" * 500}, {"lang": "de", "version": "x"}):
        answer = client.get("/api/schema/", {"format": "json", **query})
        assert answer.status_code == 200
        assert answer.json() == english, query
    assert list(KeptSchemaView._kept) == ["en"]  # nothing one more per string asked


def test_the_yaml_answer_is_the_same_schema(client, nothing_kept):
    import yaml

    answer = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'inline; filename="corr API.yaml"'
    assert yaml.safe_load(answer.content) == built_afresh("en")
