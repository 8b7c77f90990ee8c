"""The account page: the player's settings (issue 38) and their XFCC password for desktop clients (issue 26).

Language and time zone change at once; a new e-mail address only once the link sent to it is followed
(``accounts.confirmations``). The XFCC password is shown once, in the answer to the POST that made it (never
stored in clear, never redirected through a session), with the Scid settings to type.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from accounts.confirmations import email_change_token
from accounts.forms import EmailChangeForm, SettingsForm
from accounts.language import set_language_cookie
from accounts.mail import account_mail_send, site_link
from accounts.models import XfccPassword
from accounts.xfcc import xfcc_password_issue, xfcc_password_revoke
from corr.links import absolute_url

NOTIFICATIONS_PATH = "/account/notifications/"
"""The e-mail preferences page (issue 38's notifications, a page of its own), linked from this one."""


def _context(request, shown: str | None = None, settings_form=None, email_form=None) -> dict:
    return {"xfcc": XfccPassword.objects.filter(user=request.user).first(), "shown": shown,
            "xfcc_url": absolute_url(reverse("xfcc")), "notifications_path": NOTIFICATIONS_PATH,
            "settings_form": settings_form or SettingsForm(instance=request.user),
            "email_form": email_form or EmailChangeForm(request=request, user=request.user)}


@login_required
def account_page(request):
    return render(request, "corr/account.html", _context(request))


@login_required
@require_POST
def settings_post(request):
    """Language and time zone; a refused value comes back beside its field and nothing is changed."""
    form = SettingsForm(request.POST, instance=request.user)
    if not form.is_valid():
        request.user.refresh_from_db(fields=["language", "time_zone"])  # the form wrote them on the instance
        return render(request, "corr/account.html", _context(request, settings_form=form), status=400)
    user = form.save()
    response = redirect("account")
    if user.language:  # the page answers in the language chosen, as the switcher does
        translation.activate(user.language)
        set_language_cookie(response, user.language)
    messages.success(request, _("Your settings are saved."))
    return response


@login_required
@require_POST
@sensitive_post_parameters("password")
def email_change_post(request):
    """Send the confirmation link to the new address; the account keeps the old one until it is followed."""
    form = EmailChangeForm(request.POST, request=request, user=request.user)
    if not form.is_valid():
        return render(request, "corr/account.html", _context(request, email_form=form), status=400)
    new = form.cleaned_data["email"]
    link = site_link(reverse("email-change-confirm", args=[email_change_token(user=request.user, new_email=new)]))
    try:
        account_mail_send(to=new, language=translation.get_language(), template="accounts/email_change",
                          context={"user": request.user, "link": link, "new": new,
                                   "hours": settings.EMAIL_CONFIRM_HOURS})
    except OSError:  # smtplib's errors are OSErrors too
        messages.error(request, _("The e-mail could not be sent just now: try again in a few minutes."))
        return redirect("account")
    messages.success(request, _("A link is on its way to %(new)s: your address changes when you follow it."
                                " Until then it stays %(old)s.") % {"new": new, "old": request.user.email or "-"})
    return redirect(reverse("account") + "#email")


@login_required
@require_POST
def xfcc_password_post(request):
    password = xfcc_password_issue(user=request.user, now=timezone.now())
    response = render(request, "corr/account.html", _context(request, shown=password))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def xfcc_password_revoke_post(request):
    if xfcc_password_revoke(user=request.user):
        messages.success(request, _("Your XFCC password is revoked: desktop clients can no longer sign in with it."))
    return redirect("account")
