"""``Idempotency-Key``: a retried POST gets the first response back and stores nothing new.

The first response is stored in the same transaction as what the request
wrote, under a unique (user, key) constraint. Two requests racing with one key
both run, but only one can commit its record: the loser's transaction is
rolled back whole and it answers with the winner's response. A write whose
answer was lost (the database stopped after its COMMIT, the connection cut) is
therefore replayed by a retry with its key (201), never refused as a second
move (409). The live page's socket keeps its move ids in the same records
(:mod:`corr.api.live_socket`, method ``WS``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from corr.models import IdempotencyRecord

HEADER = "HTTP_IDEMPOTENCY_KEY"


def idempotent(handler):
    """Wrap a POST view method so that a repeated ``Idempotency-Key`` replays the first answer."""

    def wrapper(view, request, *args, **kwargs):
        key = request.META.get(HEADER, "").strip()
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > 200:
            return Response({"detail": gettext("Idempotency-Key must be at most 200 characters"),
                             "field": "Idempotency-Key"}, status=400)
        replay = _replay(request, key)
        if replay is not None:
            return replay
        try:
            with transaction.atomic():
                response = _run(handler, view, request, *args, **kwargs)
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                else:
                    record(user=request.user, key=key, method=request.method, path=request.path,
                           status=response.status_code, body=response.data)
                return response
        except IntegrityError:
            replay = _replay(request, key)
            if replay is None:
                raise
            return replay

    wrapper.__name__ = handler.__name__
    wrapper.__doc__ = handler.__doc__
    return wrapper


def _run(handler, view, request, *args, **kwargs):
    # Errors are answered here (not by DRF's handler later) so that they are recorded and replayed too.
    try:
        return handler(view, request, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - DRF's handler answers it or re-raises it
        return view.handle_exception(exc)


def _replay(request, key: str):
    found = recorded(user=request.user, key=key, method=request.method, path=request.path)
    if found is None:
        return None
    status, body, replayed = found
    response = Response(body, status=status)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def recorded(*, user, key: str, method: str, path: str) -> tuple[int, Any, bool] | None:
    """The first answer to ``user``'s ``key``: ``(status, body, True)``; ``(422, body naming the first use, False)``
    when the key was used for another method or path; None when the key is new."""
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        return None
    if record.path != path or record.method != method:
        return 422, {"detail": f"Idempotency-Key {key!r} was used for {record.method} {record.path}",
                     "field": "Idempotency-Key"}, False
    return record.status_code, record.body, True


def record(*, user, key: str, method: str, path: str, status: int, body: Any) -> None:
    """Keep the first answer to ``user``'s ``key`` (call in the transaction of what the request wrote, so that
    a write and its record commit together). :raises IntegrityError: the key was recorded meanwhile."""
    IdempotencyRecord.objects.create(user=user, key=key, method=method, path=path, status_code=status, body=body)
