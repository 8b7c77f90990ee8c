"""The user's language: chosen with the switcher, remembered on the account, applied at sign-in.

Pages follow the language cookie that Django's ``set_language`` writes, then the browser's
``Accept-Language``, then English (``LocaleMiddleware``). Signing in writes the cookie from the
account's ``language``; choosing a language while signed in stores it on the account, which the
e-mails and the API (without ``Accept-Language``) read.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from .signin import BoundedAuthenticationForm

SUPPORTED = {code for code, _ in settings.LANGUAGES}


def user_language(user) -> str:
    """The language to write to ``user`` in (e-mails, API errors): their preference, else the default."""
    language = getattr(user, "language", "") or ""
    return language if language in SUPPORTED else settings.LANGUAGE_CODE


def set_language_cookie(response, language: str) -> None:
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                        samesite=settings.LANGUAGE_COOKIE_SAMESITE)


class LoginView(auth_views.LoginView):
    """Django's sign-in page, which then switches to the account's language when it has one."""

    authentication_form = BoundedAuthenticationForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "signup_open": settings.SIGNUP_OPEN}

    def form_valid(self, form):
        response = super().form_valid(form)
        language = form.get_user().language
        if language in SUPPORTED:
            translation.activate(language)
            set_language_cookie(response, language)
        return response


@require_POST
def language_set(request):
    """Django's ``set_language`` (cookie and redirect), and for a signed-in user their preference too."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if language in SUPPORTED and request.user.is_authenticated and request.user.language != language:
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response
