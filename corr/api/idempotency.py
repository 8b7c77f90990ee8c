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

import hashlib
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext
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
        try:
            digest = request_fingerprint(request)
        except Exception as exc:  # noqa: BLE001 - a body that does not parse: the view's own 400, nothing kept
            return view.handle_exception(exc)
        replay = _replay(request, key, digest)
        if replay is not None:
            return replay
        try:
            with transaction.atomic():
                response = _run(handler, view, request, *args, **kwargs)
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                else:
                    record(user=request.user, key=key, method=request.method, path=request.path,
                           status=response.status_code, body=response.data, digest=digest)
                return response
        except IntegrityError:
            replay = _replay(request, key, digest)
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


def _replay(request, key: str, digest: str):
    found = recorded(user=request.user, key=key, method=request.method, path=request.path, digest=digest)
    if found is None:
        return None
    status, body, replayed = found
    response = Response(body, status=status)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def fingerprint(fields: Any) -> str:
    """The SHA-256 (hex) of a request's fields as canonical JSON: keys sorted, no spacing, so the same fields in
    another order or spacing give the same digest. A form's field sent once is its value, a repeated one its list;
    an uploaded file counts by its name and its bytes."""
    if hasattr(fields, "lists"):  # a QueryDict: a form or multipart body
        fields = {name: values[0] if len(values) == 1 else values for name, values in fields.lists()}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_file_digest)
    return hashlib.sha256(text.encode()).hexdigest()


def _file_digest(value: Any) -> str:
    if hasattr(value, "chunks") and hasattr(value, "seek"):  # an uploaded file
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return f"file {getattr(value, 'name', '')} {digest.hexdigest()}"
    return str(value)


def request_fingerprint(request) -> str:
    """:func:`fingerprint` of an API request's parsed fields (its query string's too: a key names the whole
    request). :raises ParseError: (or another of the parser's errors) the body does not parse; the caller answers it
    as the view would (DRF keeps no data after a failed parse, so the view must not parse it again)."""
    return fingerprint({"body": request.data, "query": request.query_params})


def recorded(*, user, key: str, method: str, path: str, digest: str = "",
             name: str = "Idempotency-Key") -> tuple[int, Any, bool] | None:
    """The first answer to ``user``'s ``key``: ``(status, body, True)``; ``(422, body naming the rule, False)``
    when the key was used for another method or path, or with other fields (``digest`` differs from the first
    request's, both known); None when the key is new. ``name``: what the client calls the key (the error's
    ``field`` and wording: ``move_id`` on the live socket)."""
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        return None
    if record.path != path or record.method != method:
        return 422, {"detail": gettext("%(name)s %(key)s was used for %(method)s %(path)s: a new request needs a "
                                       "new key") % {"name": name, "key": repr(key[:64]), "method": record.method,
                                                     "path": record.path},
                     "field": name}, False
    if digest and record.request_digest and digest != record.request_digest:
        return 422, {"detail": gettext("%(name)s %(key)s was used with other fields: a retry sends the same "
                                       "fields, a new request needs a new key") % {"name": name,
                                                                                  "key": repr(key[:64])},
                     "field": name}, False
    return record.status_code, record.body, True


def record(*, user, key: str, method: str, path: str, status: int, body: Any, digest: str = "") -> None:
    """Keep the first answer to ``user``'s ``key`` and the digest of its fields (call in the transaction of what
    the request wrote, so that a write and its record commit together). :raises IntegrityError: the key was
    recorded meanwhile."""
    IdempotencyRecord.objects.create(user=user, key=key, method=method, path=path, status_code=status, body=body,
                                     request_digest=digest)
