"""The leave page: a player books and cancels leave and sees what is used and left (issue 14)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from corr.games.errors import ServiceError
from corr.games.leaves import leave_summary
from corr.games.services.leave import leave_book, leave_cancel

from .forms import DayField


class LeaveForm(forms.Form):
    first = DayField(label=gettext_lazy("From"))
    last = DayField(label=gettext_lazy("To (included)"))


@login_required
def leave_page(request):
    """GET: the player's leave and allowances with the booking form; POST: book."""
    form = LeaveForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            leave_book(by=request.user, first=form.cleaned_data["first"], last=form.cleaned_data["last"],
                       now=timezone.now())
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, gettext("Leave booked; your opponents have been told."))
            return redirect("leave")
    summary = leave_summary(user=request.user, now=timezone.now())
    return render(request, "corr/leave.html", {"form": form, **summary, "today": timezone.now().date()})


@login_required
@require_POST
def leave_cancel_post(request, leave_id: int):
    try:
        leave_cancel(by=request.user, leave_id=leave_id, now=timezone.now())
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Leave cancelled."))
    return redirect("leave")
