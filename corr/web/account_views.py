"""The account page: the user's XFCC password for desktop correspondence clients (issue 26).

The password is shown once, in the answer to the POST that made it (never stored in clear, never
redirected through a session), with the Scid settings to type.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import XfccPassword
from accounts.xfcc import xfcc_password_issue, xfcc_password_revoke
from corr.links import absolute_url


def _context(request, shown: str | None = None) -> dict:
    return {"xfcc": XfccPassword.objects.filter(user=request.user).first(), "shown": shown,
            "xfcc_url": absolute_url(reverse("xfcc"))}


@login_required
def account_page(request):
    return render(request, "corr/account.html", _context(request))


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
