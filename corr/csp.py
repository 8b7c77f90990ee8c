"""The Content-Security-Policy of every answer (issue 23): scripts only from this site, never inline.

``settings.CONTENT_SECURITY_POLICY`` is the header's value, the same for every page, the API and the
admin. The pages run only ``corr/static`` scripts (the live page's ``live.js``) and the API docs'
Swagger UI from drf-spectacular-sidecar with its start script served apart
(``SpectacularSwaggerSplitView``), so ``script-src 'self'`` holds with no inline script. Styles
may be inline (the pages' templates carry their own ``<style>`` and ``style`` attributes, which run
no code); images may be ``data:`` URIs (Swagger UI's icons). The WebSocket of the live page is
``'self'`` too (``ws:``/``wss:`` to the same host, CSP level 3). A view that sets its own header keeps it.
"""

from __future__ import annotations

from django.conf import settings

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        if self.policy and HEADER not in response:
            response[HEADER] = self.policy
        return response
