"""Turn domain errors into HTTP answers that name the field and the rule.

Every error body has ``detail`` (one sentence a person can act on) and, when
one input is at fault, ``field``. DRF's own validation errors keep their
per-field lists under ``errors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from rest_framework import status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.language import user_language
from corr.clock import ClockError
from corr.games.clock_messages import ClockRefusal
from corr.games.errors import ServiceError


def answer_language(request) -> str:
    """The language of ``detail``: the request's ``Accept-Language`` (or language cookie) when it has one,
    else the signed-in user's preference, else English (docs/operations.md, "Languages")."""
    if request is not None and (request.META.get("HTTP_ACCEPT_LANGUAGE")
                                or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)):
        return translation.get_language()
    return user_language(getattr(request, "user", None))


def exception_handler(exc, context):
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is gone: not answered here, where the user's language would be asked of it again (a second
        # wait of DB_POOL_TIMEOUT, issue 42), but by Django's handler500: 503 with Retry-After (http_errors).
        return None
    with translation.override(answer_language(context.get("request"))):
        return _answer(exc, context)


def error_body(exc) -> tuple[int, dict] | None:
    """The status and body an API request failing with ``exc`` answers, in the active language; None for an
    exception the API does not answer (a bug: the caller lets it raise). For answers given outside a request:
    a move sent over the live socket (corr.api.live_socket)."""
    response = _answer(exc, {})
    return None if response is None else (response.status_code, dict(response.data))


def _answer(exc, context):
    if isinstance(exc, ServiceError):
        body = {"detail": exc.message}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=exc.status)
    if isinstance(exc, ClockError):  # the calculator's own, worded by the service (corr.games.clock_messages)
        body = {"detail": ClockRefusal(exc, field=exc.field).message}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError) and isinstance(response.data, dict):
        field, messages = next(iter(response.data.items()))
        first = messages[0] if isinstance(messages, list) and messages else messages
        if isinstance(first, dict):  # nested serializer: take its first field
            inner, inner_messages = next(iter(first.items()))
            field, first = f"{field}.{inner}", inner_messages[0] if isinstance(inner_messages, list) else inner_messages
        response.data = {"detail": f"{field}: {first}", "field": field, "errors": response.data}
    elif response is not None and isinstance(exc, ParseError):  # the body as a whole: no one field
        response.data = {"detail": str(exc.detail), "field": None}
    return response
