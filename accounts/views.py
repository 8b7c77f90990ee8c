"""Pages of one's own account that need no sign-in: a forgotten password, open sign-up, a confirmed address.

Django's own views do the work (``django.contrib.auth.views``); corr adds the e-mail's language, links on
``SITE_URL``, and, after a reset, the end of a django-axes lockout of that username (the person proved the
address; the wrong guesses were someone's, maybe theirs). A link's GET only shows what it will do and asks
for a click: mail scanners that open links must not use a single-use link up.
"""

from __future__ import annotations

import logging

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from .confirmations import LinkRefused, email_change_apply, email_change_read, sign_up_confirm, sign_up_token
from .forms import LanguagePasswordResetForm, SignUpForm
from .language import set_language_cookie, user_language
from .mail import account_mail_send, site_link

log = logging.getLogger(__name__)


class PasswordResetView(auth_views.PasswordResetView):
    """The address to send a reset link to; the same answer whether it has an account or not."""

    form_class = LanguagePasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """"Look in your mailbox", with how long the link works; the same page whatever the address was."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new-password page; the password's save closes the account's live sockets (accounts.signals)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response


def _send_or_say(request, **mail) -> bool:
    """Send an account e-mail; on a mail server's refusal, say so on the page and return False."""
    try:
        account_mail_send(**mail)
    except OSError:  # smtplib's errors are OSErrors too
        log.exception("account e-mail to %s not sent", mail["to"])
        messages.error(request, _("The e-mail could not be sent just now: try again in a few minutes."))
        return False
    return True


@sensitive_post_parameters("password1", "password2")
@never_cache
def sign_up(request):
    """Open sign-up (``SIGNUP_OPEN``): the account is made closed and opened by the link e-mailed to it."""
    if not settings.SIGNUP_OPEN:
        raise Http404("sign-up is closed")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        link = site_link(reverse("sign-up-confirm", args=[sign_up_token(user=user)]))
        sent = _send_or_say(request, to=user.email, language=user_language(user), template="accounts/sign_up",
                            context={"user": user, "link": link, "hours": settings.EMAIL_CONFIRM_HOURS})
        if not sent:
            user.delete()  # nothing kept of a sign-up whose link never left
        else:
            return render(request, "accounts/sign_up_sent.html", {"email": user.email})
    return render(request, "accounts/sign_up.html", {"form": form})


@never_cache
def sign_up_confirm_page(request, token: str):
    """The sign-up link: a button that opens the account and signs it in."""
    if not settings.SIGNUP_OPEN:
        raise Http404("sign-up is closed")
    if request.method == "POST":
        try:
            user = sign_up_confirm(token)
        except LinkRefused:
            return render(request, "accounts/link_refused.html", status=400)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your account is open. Welcome!"))
        response = redirect(settings.LOGIN_REDIRECT_URL)
        if user.language:
            set_language_cookie(response, user.language)
        return response
    return render(request, "accounts/sign_up_confirm.html")


@never_cache
def email_change_confirm_page(request, token: str):
    """The link sent to a new address: shows the change, makes it on a click, then tells the old address."""
    try:
        user, old, new = email_change_read(token)
    except LinkRefused:
        return render(request, "accounts/link_refused.html", status=400)
    if request.method == "POST":
        try:
            user, old = email_change_apply(token)
        except LinkRefused:
            return render(request, "accounts/link_refused.html", status=400)
        if old:  # the old address hears of it: a change it did not ask for is a warning to its owner
            _send_or_say(request, to=old, language=user_language(user), template="accounts/email_changed",
                         context={"user": user, "old": old, "new": user.email,
                                  "reset_link": site_link(reverse("password_reset"))})
        messages.success(request, _("Your e-mail address is now %(email)s.") % {"email": user.email})
        return redirect("account" if request.user.is_authenticated else "login")
    return render(request, "accounts/email_change_confirm.html", {"account": user, "old": old, "new": new})
