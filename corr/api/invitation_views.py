"""``/api/tournaments/{id}/invitations/``: an arbiter invites an e-mail address to play a game (issue 38).

The answer never holds the link's secret: only the invitee's e-mail does.
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from corr import limits as lim
from corr.games.errors import NotAllowed
from corr.games.permissions import can_arbitrate
from corr.games.services.invitations import invitation_send
from corr.models import Colour, Invitation, Tournament

from .serializers import StrictInput


class InvitationCreate(StrictInput):
    email = serializers.EmailField(max_length=254, help_text="the address the invitation is sent to")
    opponent = serializers.CharField(max_length=lim.USERNAME_MAX, help_text="the username of the player they meet")
    colour = serializers.ChoiceField(choices=Colour.choices, help_text="the invitee's colour")
    language = serializers.ChoiceField(choices=settings.LANGUAGES, required=False,
                                       help_text="of the e-mail and the new account; omitted: the request's")


class InvitationOut(serializers.ModelSerializer):
    opponent = serializers.CharField(source="opponent.username")
    user = serializers.CharField(source="user.username", allow_null=True, default=None,
                                 help_text="the account the invitation made, once accepted")

    class Meta:
        model = Invitation
        fields = ["id", "tournament", "email", "opponent", "colour", "language", "created_at", "expires_at",
                  "accepted_at", "user", "game"]


class InvitationsView(APIView):
    def _tournament(self, request, tournament_id: int) -> Tournament:
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not can_arbitrate(request.user, tournament):
            raise NotAllowed(_("only the tournament's arbiters invite players to it"))
        return tournament

    @extend_schema(responses=InvitationOut(many=True))
    def get(self, request, tournament_id: int):
        """The tournament's invitations, the latest first (arbiters)."""
        tournament = self._tournament(request, tournament_id)
        invitations = tournament.invitations.select_related("opponent", "user")
        return Response(InvitationOut(invitations, many=True).data)

    @extend_schema(request=InvitationCreate, responses={201: InvitationOut})
    def post(self, request, tournament_id: int):
        """Invite an address to play ``opponent`` with ``colour``: it receives a link, good once for
        ``INVITATION_DAYS``, that makes its account and pairs the game."""
        tournament = self._tournament(request, tournament_id)
        data = InvitationCreate(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        invitation = invitation_send(
            by=request.user, tournament=tournament, email=values["email"], opponent=values["opponent"],
            colour=values["colour"], language=values.get("language") or request.LANGUAGE_CODE, now=timezone.now())
        return Response(InvitationOut(invitation).data, status=status.HTTP_201_CREATED)
