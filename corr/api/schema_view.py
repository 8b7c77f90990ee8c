"""The API schema's view: drf-spectacular's, with the schema built once per process and language.

drf-spectacular builds the whole schema on every request: about 1 s of CPU here, 6 s for a process's first. The
schema is public and unthrottled, so each anonymous ``GET /api/schema/`` held a server worker for that second. The
schema changes only with the code, so a process keeps what it built, one per language it has been asked for.
"""
import threading

from django.conf import settings
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response


class KeptSchemaView(SpectacularAPIView):
    """``GET /api/schema/``: the schema built at a process's first request in each language, then kept.

    Contract: the answer is the one drf-spectacular's own view gives for the same language (``?lang=``, then the
    request's language as LocaleMiddleware chose it), in YAML or JSON by content negotiation as before. The kept
    schemas are bounded by ``settings.LANGUAGES``: a language the project does not speak is answered in
    ``LANGUAGE_CODE``'s, as Django's translation falls back. ``?version=`` is ignored (the API has one version,
    ``SPECTACULAR_SETTINGS["VERSION"]``): any string there used to be written into the schema and would have been
    one more schema to build and keep.
    """

    _kept: dict[str, dict] = {}
    _building = threading.Lock()

    def _get_version_parameter(self, request):
        return None

    def _get_schema_response(self, request):
        language = _spoken(translation.get_language())
        schema = self._kept.get(language)
        if schema is None:
            with self._building, translation.override(language):  # one build at a time: each costs a second
                schema = self._kept.get(language)
                if schema is None:
                    generator = self.generator_class(urlconf=self.urlconf, api_version=self.api_version,
                                                     patterns=self.patterns)
                    schema = self._kept[language] = generator.get_schema(request=request, public=self.serve_public)
        return Response(data=schema, headers={
            "Content-Disposition": f'inline; filename="{self._get_filename(request, self.api_version)}"'})


def _spoken(language: str | None) -> str:
    """The project's language ``language`` is answered in: itself or its base (``ru-RU``: ``ru``), else the default."""
    try:
        return translation.get_supported_language_variant(language or settings.LANGUAGE_CODE)
    except LookupError:
        return settings.LANGUAGE_CODE
