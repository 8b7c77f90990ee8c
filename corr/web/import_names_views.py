"""The import page's names (issue 37): the arbiter matches the PGN's players to accounts before the games are made.

An ICCF export names players as people (``Mäkinen, Eero``). The tournament page's upload of such a PGN is kept as
an import job waiting for names (``corr.games.services.import_jobs``); this page lists each name that is no
username with the accounts it may be (``corr.games.services.import_names.candidates``: full name in either order,
e-mail, ICCF id), and for each the arbiter picks one, types another account's username, or creates an account
for the player. Nothing is chosen for the arbiter, even a single candidate: it is preselected, never submitted
unseen. When every name is matched the job is queued and the page goes back to the tournament's imports.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from corr.games.permissions import can_arbitrate
from corr.games.services.import_jobs import import_job_names_set
from corr.games.services.import_names import account_for, unmatched
from corr.models import ImportJob, ImportStatus

NEW = "__new__"
"""The choice that creates an account for the player."""


def _job(request, tournament_id: int, job_id: int) -> ImportJob:
    job = get_object_or_404(ImportJob.objects.select_related("tournament"), pk=job_id, tournament_id=tournament_id)
    if not can_arbitrate(request.user, job.tournament):
        raise PermissionDenied(_("only the tournament's arbiters see its imports"))
    return job


def _rows(job: ImportJob, posted=None) -> list[dict]:
    """One row a name still to match: its candidates (full names shown), what was chosen or typed, its error."""
    rows = []
    for index, entry in enumerate(unmatched(job.pgn, job.players)):
        people = {u.username: u for u in User.objects.filter(username__in=entry["candidates"])}
        choice = posted.get(f"choice-{index}", "") if posted is not None else (
            entry["candidates"][0] if len(entry["candidates"]) == 1 else "")
        rows.append({"index": index, "name": entry["name"], "iccf_id": entry["iccf_id"],
                     "candidates": [(name, people[name].get_full_name()) for name in entry["candidates"]],
                     "choice": choice, "typed": posted.get(f"username-{index}", "").strip() if posted else "",
                     "error": ""})
    return rows


@login_required
def import_names(request, tournament_id: int, job_id: int):
    """GET: the names to match; POST: the arbiter's matches (every name), then the job is queued."""
    job = _job(request, tournament_id, job_id)
    back = redirect(reverse("tournament", args=[job.tournament_id]) + "#import")
    if job.status != ImportStatus.NAMES:
        return back
    if request.method != "POST":
        return render(request, "corr/import_names.html", {"job": job, "rows": _rows(job), "new": NEW})
    rows = _rows(job, request.POST)
    players, creations = dict(job.players), []
    for row in rows:
        if row["typed"]:
            if not User.objects.filter(username=row["typed"]).exists():
                row["error"] = _("No account %(username)s.") % {"username": row["typed"]}
                continue
            players[row["name"]] = row["typed"]
        elif row["choice"] == NEW:
            creations.append(row)
        elif row["choice"] in {name for name, _full in row["candidates"]}:
            players[row["name"]] = row["choice"]
        else:
            row["error"] = _("Choose the account of %(name)s, or create one.") % {"name": row["name"]}
    if any(row["error"] for row in rows):
        return render(request, "corr/import_names.html", {"job": job, "rows": rows, "new": NEW}, status=400)
    with transaction.atomic():
        for row in creations:
            players[row["name"]] = account_for(row["name"], row["iccf_id"]).username
        import_job_names_set(job=job, by=request.user, players=players)
    messages.success(request, _("Import #%(job)s of %(total)s games started: its progress is shown below, and you"
                                " will be e-mailed when it ends.") % {"job": job.pk, "total": job.total})
    return back
