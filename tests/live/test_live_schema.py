"""A live game's answers match the OpenAPI schema (issue 42: its history did not): real responses validated against
the generated schema (``GET /api/schema/``) with jsonschema, its ``$ref``s resolved and OpenAPI 3.0's ``nullable``
read as JSON Schema's ``null`` type."""

from __future__ import annotations

import jsonschema
import pytest

from .conftest import FISCHER_5_2, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db


def as_json_schema(node):
    """OpenAPI 3.0's schema object as JSON Schema: ``nullable: true`` becomes a ``null`` alternative."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: as_json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


def response_schema(api, user, path: str) -> dict:
    schema = api(user).get("/api/schema/?format=json").json()
    body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return as_json_schema({**body, "components": schema["components"]})


@pytest.mark.parametrize("path, template", [("/api/games/{game_id}/", "/api/games/{id}/"),
                                            ("/api/games/{game_id}/history/", "/api/games/{id}/history/")])
def test_a_live_games_answer_matches_its_schema(api, arbiter, anna, boris, clock, create_game, path, template):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 3 * S)
    assert api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "e4"},
                          format="json").status_code == 201
    answer = api(anna).get(template.format(id=game_id))
    assert answer.status_code == 200
    body = answer.json()
    if "history" in path:
        assert [row["kind"] for row in body] == ["start", "move"]  # the live events, with their instants
    jsonschema.validate(body, response_schema(api, anna, path))
