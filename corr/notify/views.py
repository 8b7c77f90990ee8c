"""The notification pages: the player's preferences, the unsubscribe link, the game page's presence heartbeat."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User
from corr.games.permissions import can_view
from corr.models import Game

from .forms import PreferencesForm
from .kinds import Kind
from .preferences import choices_of, kinds_turn_off, preferences_change
from .presence import presence_clear, presence_mark
from .unsubscribe import token_read


def _initial(user_id: int) -> dict:
    choices = choices_of(user_id)
    initial = {f"kind_{k.value}": choices.wants(k) for k in Kind}
    return initial | {"daily": choices.daily, "warning_hours": ", ".join(str(h) for h in choices.warning_hours)}


@login_required
def preferences_page(request):
    """GET the player's choices; POST changes them (a refused form comes back with its errors beside the fields)."""
    initial = _initial(request.user.pk)
    form = PreferencesForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            hours = data["warning_hours"] or choices_of(request.user.pk).warning_hours
            preferences_change(user_id=request.user.pk, off=[k for k in Kind if not data[f"kind_{k.value}"]],
                               daily=data["daily"], warning_hours=hours)
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notify-preferences")
        return render(request, "notify/preferences.html", {"form": form}, status=400)
    return render(request, "notify/preferences.html", {"form": form})


@csrf_exempt  # RFC 8058: the mail client POSTs with no session and no form of ours; the signed token is the proof
def unsubscribe(request, token: str):
    """GET: a page that asks (never unsubscribes: link scanners GET every link); POST: the kinds are turned off."""
    read = token_read(token)
    user = None if read is None else User.objects.filter(pk=read[0]).first()
    if user is None:
        return render(request, "notify/unsubscribe.html", {"invalid": True}, status=404)
    kinds = read[1]
    context = {"kinds": [k.label for k in kinds], "warnings": Kind.FLAG_WARNING in kinds, "token": token}
    if request.method == "POST":
        kinds_turn_off(user_id=user.pk, kinds=kinds)
        return render(request, "notify/unsubscribe.html", context | {"done": True})
    return render(request, "notify/unsubscribe.html", context)


@login_required
@require_POST
def presence(request, game_id: int):
    """The game page's heartbeat (``presence.js``): the player has it open; ``left=1`` when the page is left."""
    game = Game.objects.filter(pk=game_id).select_related("tournament").first()
    if game is None or not can_view(request.user, game):
        return HttpResponse(status=404)
    if request.POST.get("left"):
        presence_clear(user_id=request.user.pk, game_id=game_id)
    else:
        presence_mark(user_id=request.user.pk, game_id=game_id)
    return HttpResponse(status=204)
