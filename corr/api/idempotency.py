"""``Idempotency-Key``: a retried POST gets the first response back and stores nothing new.

The first response is stored in the same transaction as what the request
wrote, under a unique (user, key) constraint. Two requests racing with one key
both run, but only one can commit its record: the loser's transaction is
rolled back whole and it answers with the winner's response.
"""

from __future__ import annotations

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
                    IdempotencyRecord.objects.create(user=request.user, key=key, method=request.method,
                                                     path=request.path, status_code=response.status_code,
                                                     body=response.data)
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
    record = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
    if record is None:
        return None
    if record.path != request.path or record.method != request.method:
        return Response({"detail": f"Idempotency-Key {key!r} was used for {record.method} {record.path}",
                         "field": "Idempotency-Key"}, status=422)
    response = Response(record.body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response
