"""The OpenAPI schema documents list shapes and every error answer with its ``{"detail", "field"?}`` shape."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(api, anna):
    response = api(anna).get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def body_schema(schema, path, method, code):
    return schema["paths"][path][method]["responses"][code]["content"]["application/json"]["schema"]


def test_the_overstep_cases_are_documented_as_a_list(schema):
    listed = body_schema(schema, "/api/overstep-cases/", "get", "200")
    assert listed["type"] == "array"
    assert listed["items"] == {"$ref": "#/components/schemas/OverstepCaseOut"}
    assert "deadline" in schema["components"]["schemas"]["OverstepCaseOut"]["properties"]


def test_the_error_shape_is_detail_with_an_optional_field(schema):
    error = schema["components"]["schemas"]["ErrorOut"]
    assert error["required"] == ["detail"]
    assert {"detail", "field"} <= set(error["properties"])


@pytest.mark.parametrize("path, method, codes", [
    ("/api/auth/token/", "post", {"400", "429", "503"}),
    ("/api/games/", "post", {"400", "401", "403", "503"}),
    ("/api/games/{game_id}/moves/", "post", {"400", "401", "403", "404", "409", "503"}),
    ("/api/games/{game_id}/", "get", {"401", "403", "404", "503"}),
    ("/api/overstep-cases/", "get", {"400", "401", "403", "503"}),
    ("/api/users/me/", "get", {"401", "403", "503"}),
])
def test_each_operation_documents_the_errors_it_can_answer(schema, path, method, codes):
    responses = schema["paths"][path][method]["responses"]
    errors = {code for code in responses if code >= "400"}
    assert errors == codes
    for code in codes:
        assert body_schema(schema, path, method, code) == {"$ref": "#/components/schemas/ErrorOut"}


def test_every_default_of_a_request_body_is_one_of_its_own_choices(schema):
    # A default outside its enum is a value the schema tells clients to send and the API refuses
    # (a move's mail and variant "" were 400 '"" is not a valid choice'; schemathesis, issue 23).
    components = schema["components"]["schemas"]

    def choices(prop) -> set | None:
        if "enum" in prop:
            return set(prop["enum"])
        if "$ref" in prop:
            return choices(components[prop["$ref"].rsplit("/", 1)[1]])
        parts = prop.get("allOf") or prop.get("oneOf") or prop.get("anyOf")
        if parts:
            found = [choices(part) for part in parts]
            return set().union(*found) if all(f is not None for f in found) else None
        return None

    wrong = [(name, field, prop["default"]) for name, component in components.items()
             for field, prop in component.get("properties", {}).items()
             if "default" in prop and choices(prop) is not None and prop["default"] not in choices(prop)]
    assert wrong == []


def test_a_request_body_that_refuses_undeclared_keys_says_so(schema):
    components = schema["components"]["schemas"]
    assert components["MoveInput"]["additionalProperties"] is False
    assert components["TournamentCreate"]["additionalProperties"] is False
    ruleset = components["TournamentCreate"]["properties"]["ruleset"]
    assert ruleset["additionalProperties"] is False
    keys = {"days_per_control", "time_control", "holidays", "weekend_days", "move_on_leave"}
    assert keys <= set(ruleset["properties"])
    assert "additionalProperties" not in components["GameOut"]  # answers may grow


def test_a_new_tournaments_id_links_to_the_games_created_in_it(schema):
    links = schema["paths"]["/api/tournaments/"]["post"]["responses"]["201"]["links"]
    assert links["CreateGame"]["operationId"] == "games_create"
    assert links["CreateGame"]["requestBody"] == {"tournament": "$response.body#/id"}
