"""System checks of corr: what ``manage.py check --deploy`` refuses before a server starts."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def secret_key_configured(app_configs, **kwargs):
    """Production serves only with a configured ``SECRET_KEY`` (commands run without one)."""
    if getattr(settings, "SECRET_KEY_MISSING", False):
        return [Error("SECRET_KEY is required when DEBUG is off", hint="set SECRET_KEY in the environment",
                      id="corr.E001")]
    return []
