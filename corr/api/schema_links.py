"""OpenAPI links: where one operation's answer gives another operation its input.

A client (and schemathesis's stateful phase, ``make schemathesis``) follows a
link from a response to the operation it names, with the values the link's
runtime expressions take from that response. Links that follow from the
names alone (a ``201`` with an ``id`` and a path's ``{game_id}``) are inferred
by tools; the ones here say what the names do not: a new tournament's ``id``
is the ``tournament`` of the games created in it.
"""

from __future__ import annotations

LINKS: dict[tuple[str, str], dict[str, dict]] = {
    ("tournaments_create", "201"): {
        "CreateGame": {
            "operationId": "games_create",
            "requestBody": {"tournament": "$response.body#/id"},
            "description": "a game of the new tournament (its players and the rest of the body as usual)",
        },
    },
}
"""(operationId, status) -> the links of that response, by name."""


def links_add(result: dict, generator, request, public) -> dict:
    """drf-spectacular's postprocessing hook: each response of LINKS gets its ``links``.

    :raises KeyError: a link names an operation or a status the schema does not have.
    """
    responses = {op["operationId"]: op["responses"] for path in result["paths"].values() for op in path.values()}
    for (operation_id, status), links in LINKS.items():
        responses[operation_id][status]["links"] = links
        for link in links.values():
            if link["operationId"] not in responses:
                raise KeyError(f"link {operation_id} {status} -> {link['operationId']}: no such operation")
    return result
