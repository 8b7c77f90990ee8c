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
