"""``POST /api/tournaments/{id}/import/``: a server event's stamped PGN into a server tournament (issue 26), at once
or, for more than ``IMPORT_INLINE_GAMES`` games, as a background job (issue 37): ``GET /api/import-jobs/{id}/``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from corr import limits as lim
from corr.games import services
from corr.games.errors import NotAllowed
from corr.games.permissions import can_arbitrate
from corr.games.services.import_jobs import import_in_background, import_job_create, import_job_json
from corr.games.services.import_names import mapping_checked, unmatched
from corr.models import ImportJob, ImportStatus, Tournament

from . import serializers as s
from .idempotency import idempotent


class PgnImportInput(s.StrictInput):
    pgn = serializers.CharField(max_length=lim.PGN_IMPORT_MAX, trim_whitespace=False, help_text=(
        "one or many games with a [%ccsnt] stamp on every move; players matched by username, or by `players`"))
    players = serializers.JSONField(required=False, default=dict, help_text=(
        "issue 37: the PGN's names that are no username, each matched to an account's username by the arbiter:"
        " {\"Mäkinen, Eero\": \"eero\"}; a name left unmatched refuses the import (400 naming `players`, with"
        " `unmatched`: each name and the accounts it may be)"))


class PgnImportOut(serializers.Serializer):
    games = s.GameSummaryOut(many=True)


class UnmatchedOut(serializers.Serializer):
    name = serializers.CharField(help_text="as the PGN writes it")
    iccf_id = serializers.CharField(help_text="the ICCF id its tags give (blank: none)")
    candidates = serializers.ListField(child=serializers.CharField(), help_text=(
        "usernames of the accounts it may be: by full name in either order, e-mail or ICCF id"))


class PgnImportRefusedOut(serializers.Serializer):
    detail = serializers.CharField()
    field = serializers.CharField(required=False, allow_null=True)
    errors = serializers.JSONField(required=False, help_text=(
        "one line per refused game (a list of strings); DRF's per-field messages for an invalid body"))
    unmatched = UnmatchedOut(many=True, required=False)


class ImportJobOut(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ImportStatus.choices, help_text=(
        "names: waiting for the arbiter to match the PGN's names to accounts (the import page); queued: waiting"
        " for a worker; running: importing; done: every game imported (games); refused: nothing imported"
        " (refusals: one line per refused game)"))
    status_text = serializers.CharField(help_text="the status in the reader's language")
    total = serializers.IntegerField(help_text="games in the PGN")
    done = serializers.IntegerField(allow_null=True, help_text="games read so far (null: not known yet)")
    refused_so_far = serializers.IntegerField(allow_null=True, help_text="games refused so far (null: not known)")
    games = serializers.ListField(child=serializers.IntegerField(), help_text="the games made, once done")
    refusals = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PgnImportJobOut(serializers.Serializer):
    job = ImportJobOut()


class TournamentImportView(APIView):
    """POST {"pgn"}: every game of the PGN created in the tournament with its moves and instants, or none (400).

    A PGN of more than ``IMPORT_INLINE_GAMES`` games (20 unless set) is imported in the background: the answer
    is 202 at once with the job (``Location``: ``/api/import-jobs/{id}/``), which ends ``done`` or ``refused``,
    all or nothing as here, and the uploader is e-mailed.
    """

    @extend_schema(request=PgnImportInput,
                   responses={201: PgnImportOut, 202: PgnImportJobOut, 400: PgnImportRefusedOut})
    @idempotent
    def post(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        serializer = PgnImportInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        pgn = serializer.validated_data["pgn"]
        services.import_checked(tournament, request.user)
        players = mapping_checked(serializer.validated_data["players"])
        missing = unmatched(pgn, players)  # issue 37: a name is matched by the arbiter, never guessed
        background = import_in_background(pgn)
        if missing and background:  # refused before a job is made: the arbiter matches the names first
            return Response({"detail": str(_("%(count)s name(s) of the PGN are no account: match each to an"
                                             " account's username in players") % {"count": len(missing)}),
                             "field": "players", "unmatched": missing,
                             "errors": [_unmatched_line(entry) for entry in missing]},
                            status=status.HTTP_400_BAD_REQUEST)
        if background:
            job = import_job_create(tournament=tournament, by=request.user, pgn=pgn, now=timezone.now(),
                                    players=players)
            return Response({"job": import_job_json(job)}, status=status.HTTP_202_ACCEPTED,
                            headers={"Location": f"/api/import-jobs/{job.pk}/"})
        try:
            games = services.tournament_pgn_import(tournament=tournament, by=request.user, pgn=pgn,
                                                   now=timezone.now(), players=players)
        except services.ImportRefused as refused:
            body = {"detail": refused.message, "field": refused.field, "errors": refused.lines}
            if missing:  # the games' lines name the unknown players; these say whom they may be
                body["unmatched"] = missing
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response({"games": [s.game_summary(g) for g in games]}, status=status.HTTP_201_CREATED)


def _unmatched_line(entry: dict) -> str:
    """``'Mäkinen, Eero' is no account (it may be: eero)``, in the reader's language."""
    if entry["candidates"]:
        return str(_("%(name)s is no account (it may be: %(candidates)s)")) % {
            "name": repr(entry["name"]), "candidates": ", ".join(entry["candidates"])}
    return str(_("%(name)s is no account, and none has that name, e-mail or ICCF id")) % {"name": repr(entry["name"])}


class ImportJobView(APIView):
    """GET: a background import's state (its tournament's arbiters): the games read and refused so far while it
    runs, then the games made or the refusals."""

    @extend_schema(responses={200: ImportJobOut})
    def get(self, request, job_id: int):
        job = get_object_or_404(ImportJob.objects.select_related("tournament"), pk=job_id)
        if not can_arbitrate(request.user, job.tournament):
            raise NotAllowed(_("only the tournament's arbiters see its imports"))
        return Response(import_job_json(job))
