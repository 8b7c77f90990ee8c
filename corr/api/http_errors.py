"""Django's error handlers: JSON ``{"detail"}`` under ``/api/``, Django's HTML pages elsewhere.

They answer what never reaches a DRF view or escapes it: an unknown path
(404), an uncaught exception (500) and a database that cannot be reached
(503 with ``Retry-After``, for pages too: a restart of PostgreSQL is not a
bug; for XFCC a SOAP fault, which is what its clients parse). Django calls
``handler500`` inside the ``except`` block of the failed request, so the
exception is still at hand in ``sys.exc_info()``.
"""

from __future__ import annotations

import sys

from django.utils.translation import gettext as _
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.views import defaults

# Seconds a client should wait before retrying while the database is unreachable.
DATABASE_RETRY_AFTER = 30


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def handler400(request, exception=None):
    if _is_api(request):
        return JsonResponse({"detail": _("bad request")}, status=400)
    return defaults.bad_request(request, exception)


def handler403(request, exception=None):
    if _is_api(request):
        return JsonResponse({"detail": _("you may not do this")}, status=403)
    return defaults.permission_denied(request, exception)


def handler404(request, exception=None):
    if _is_api(request):
        return JsonResponse({"detail": _("no API path %(path)s") % {"path": request.path}}, status=404)
    return defaults.page_not_found(request, exception)


def handler500(request):
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    if _is_api(request):
        return JsonResponse({"detail": _("internal server error")}, status=500)
    return defaults.server_error(request)


def unavailable_detail() -> str:
    """The words of a 503 for a database that is down, in the active language (HTTP, XFCC and the socket)."""
    return _("the database is unavailable; try again shortly")


def database_unavailable(request) -> HttpResponse:
    """503 with ``Retry-After``: the database is down or unreachable (a connection or a query failed).

    JSON under ``/api/``, a SOAP fault (``ServerError``, the word XfccBasic clients react to) under
    ``/xfcc/``, plain text elsewhere.
    """
    detail = unavailable_detail()
    if request.path.startswith("/xfcc/"):
        from corr.xfcc.soap import SoapFault, fault_answer
        from corr.xfcc.views import CONTENT_TYPE

        fault = SoapFault(f"ServerError: {detail}", status=503, code="Server")
        response = HttpResponse(fault_answer(fault), status=503, content_type=CONTENT_TYPE)
    elif _is_api(request):
        response = JsonResponse({"detail": detail}, status=503)
    else:
        response = HttpResponse(detail, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


class SiteNotFoundMiddleware:
    """A 404 is the site's own, with ``DEBUG`` on too: JSON under ``/api/``, the site's page elsewhere.

    With ``DEBUG`` on (``make run``) Django answers an unknown path, or a view's ``Http404``, with its
    technical HTML page (980 px wide, the URL list of the project) and never calls ``handler404``: an API
    client developing against the embedded run gets the production answer instead, and a newcomer
    trying the demo on a phone the page production shows (issue 39). A page's own 404 (a template of
    its own) is kept: only Django's technical page, marked ``NONE,NOARCHIVE``, is replaced.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and response.get("Content-Type", "").startswith("text/html"):
            if _is_api(request) or (not response.streaming and _TECHNICAL in response.content):
                return handler404(request)
        return response


_TECHNICAL = b'<meta name="robots" content="NONE,NOARCHIVE">'
"""The mark of Django's technical (``DEBUG``) pages: never in the site's own."""
