"""Invitations on the web (issue 38): the arbiter's form on the tournament page, and the invitee's page.

The invitee's page is the e-mail's link: it shows the game offered and makes the account (username,
password, language) on a click; then the player is signed in and sent to the game. A link that is unknown,
used or expired says so, the same words for all three.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from accounts.forms import AccountCreationForm
from accounts.language import set_language_cookie
from corr.games.errors import ServiceError
from corr.games.services.invitations import invitation_accept, invitation_open, invitation_send

from . import views
from .forms import InvitationForm


@login_required
@require_POST
def invitation_post(request, tournament_id: int):
    tournament = views._arbitrated(request, tournament_id)
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitation = invitation_send(by=request.user, tournament=tournament, now=timezone.now(),
                                         **form.cleaned_data)
        except ServiceError as error:
            views._service_error(form, error)
        else:
            messages.success(request, _("The invitation is on its way to %(email)s.") % {"email": invitation.email})
            return redirect(reverse("tournament", args=[tournament.pk]) + "#invite")
    return views.tournament_page(request, tournament.pk, invitation_form=form)


def _refused(request):
    return render(request, "accounts/link_refused.html", status=400)


@sensitive_post_parameters("password1", "password2")
@never_cache
def invitation_page(request, token: str):
    """GET: the game offered and the account form; POST: the account made, the game paired, the player in."""
    invitation = invitation_open(token=token, now=timezone.now())
    if invitation is None:
        return _refused(request)
    if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
        translation.activate(invitation.language)  # the arbiter wrote to them in it; the switcher overrides
        request.LANGUAGE_CODE = invitation.language
    form = AccountCreationForm(request.POST or None, initial={"language": translation.get_language()})
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)  # saved by invitation_accept, with the invited address
        try:
            game = invitation_accept(token=token, user=user, now=timezone.now())
        except ServiceError:
            return _refused(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        translation.activate(user.language)
        messages.success(request, _("Welcome, %(name)s: here is your game.") % {"name": user.username})
        response = redirect("game", game_id=game.pk)
        set_language_cookie(response, user.language)
        return response
    return render(request, "corr/invitation.html", {"invitation": invitation, "form": form})
