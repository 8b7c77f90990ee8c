"""``POST /api/tournaments/{id}/import/``: a server event's stamped PGN into a server tournament (issue 26)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from corr import limits as lim
from corr.games import services
from corr.models import Tournament

from . import serializers as s
from .idempotency import idempotent


class PgnImportInput(s.StrictInput):
    pgn = serializers.CharField(max_length=lim.PGN_IMPORT_MAX, trim_whitespace=False, help_text=(
        "one or many games with a [%ccsnt] stamp on every move; players matched by username"))


class PgnImportOut(serializers.Serializer):
    games = s.GameSummaryOut(many=True)


class PgnImportRefusedOut(serializers.Serializer):
    detail = serializers.CharField()
    field = serializers.CharField(required=False, allow_null=True)
    errors = serializers.JSONField(required=False, help_text=(
        "one line per refused game (a list of strings); DRF's per-field messages for an invalid body"))


class TournamentImportView(APIView):
    """POST {"pgn"}: every game of the PGN created in the tournament with its moves and instants, or none (400)."""

    @extend_schema(request=PgnImportInput, responses={201: PgnImportOut, 400: PgnImportRefusedOut})
    @idempotent
    def post(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        serializer = PgnImportInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            games = services.tournament_pgn_import(tournament=tournament, by=request.user,
                                                   pgn=serializer.validated_data["pgn"], now=timezone.now())
        except services.ImportRefused as refused:
            return Response({"detail": refused.message, "field": refused.field, "errors": refused.lines},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response({"games": [s.game_summary(g) for g in games]}, status=status.HTTP_201_CREATED)
