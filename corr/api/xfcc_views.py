"""``/api/users/me/xfcc-password/``: the signed-in user's XFCC password for desktop clients (issue 26)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.xfcc import xfcc_password_issue, xfcc_password_revoke

from .serializers import NoInput


class XfccPasswordOut(serializers.Serializer):
    xfcc_password = serializers.CharField(help_text=(
        "the password a desktop client (Scid, ChessBase) sends to /xfcc/xfccbasic.asmx; shown this once, stored"
        " hashed; never the sign-in password"))


class XfccPasswordView(APIView):
    """POST: a new XFCC password (replacing any earlier one), shown once. DELETE: revoke it (204)."""

    # No Idempotency-Key replay here: the replayed answer would be the password, kept in clear.
    @extend_schema(request=NoInput, responses={201: XfccPasswordOut})
    def post(self, request):
        serializer = NoInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        password = xfcc_password_issue(user=request.user, now=timezone.now())
        return Response({"xfcc_password": password}, status=status.HTTP_201_CREATED,
                        headers={"Cache-Control": "no-store"})

    @extend_schema(responses={204: None})
    def delete(self, request):
        xfcc_password_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
