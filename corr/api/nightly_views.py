"""The API of the nightly work: reports and overstep cases for arbiters."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from corr.clock import ClockError, parse_date
from corr.games.clock_messages import ClockRefusal
from corr.games.clockstate import local_today
from corr.games.errors import InvalidInput, NotAllowed
from corr.limits import NOTE_MAX, date_window_error
from corr.models import NightlyReport, OverstepCase, OverstepStatus, Tournament
from corr.nightly.cases import overstep_confirm, overstep_dismiss

from .idempotency import idempotent
from .serializers import StrictInput


def arbitrated_tournaments(user):
    if user.is_superuser:
        return Tournament.objects.all()
    if not user.is_arbiter:
        raise NotAllowed(_("only arbiters see nightly reports and overstep cases"))
    return Tournament.objects.filter(arbiters=user)


class NightlyReportsView(APIView):
    """GET /api/reports/nightly/?date=YYYY-MM-DD: the reports of the arbiter's tournaments for a date."""

    @extend_schema(parameters=[OpenApiParameter("date", OpenApiTypes.DATE, description="default: today")],
                   responses=OpenApiTypes.OBJECT)
    def get(self, request):
        text = request.query_params.get("date")
        try:
            on = parse_date(text, "date") if text else timezone.localdate()
        except ClockError as error:
            raise ClockRefusal(error, field="date") from None
        if (error := date_window_error(on, "date")) is not None:
            raise InvalidInput(error, field="date")
        tournaments = arbitrated_tournaments(request.user)
        reports = NightlyReport.objects.filter(date=on, tournament__in=tournaments).order_by("tournament_id")
        return Response({"date": on.isoformat(),
                         "tournaments": [{k: v for k, v in r.data.items() if k != "date"} for r in reports]})


def case_json(case: OverstepCase) -> dict:
    return {"id": case.pk, "kind": case.kind, "game": case.game_id, "tournament": case.game.tournament_id,
            "player": case.player,
            "username": case.game.user_of(case.player).username, "control": case.control_number,
            "through_move": case.through_move, "allowed_days": case.allowed_days, "used_days": case.used_days,
            "deadline": case.deadline.isoformat() if case.deadline else None,
            "opened_on": case.opened_on.isoformat(), "status": case.status,
            "checked_on": case.checked_on.isoformat() if case.checked_on else None,
            "announced_on": case.announced_on.isoformat() if case.announced_on else None,
            "event": case.event_seq, "withdrawn_reason": case.withdrawn_reason,
            "decided_by": case.decided_by.username if case.decided_by else None,
            "decision_reason": case.decision_reason}


class OverstepCaseOut(serializers.Serializer):
    """The shape of :func:`case_json`, for the schema."""

    id = serializers.IntegerField()
    game = serializers.IntegerField()
    tournament = serializers.IntegerField()
    player = serializers.CharField()
    username = serializers.CharField()
    control = serializers.IntegerField()
    through_move = serializers.IntegerField()
    allowed_days = serializers.IntegerField()
    used_days = serializers.IntegerField()
    deadline = serializers.DateField(allow_null=True)
    opened_on = serializers.DateField()
    status = serializers.ChoiceField(choices=OverstepStatus.choices)
    decided_by = serializers.CharField(allow_null=True)
    decision_reason = serializers.CharField()


class OverstepDecisionOut(OverstepCaseOut):
    game_result = serializers.CharField()
    termination = serializers.CharField()


class OverstepCasesView(APIView):
    """GET /api/overstep-cases/?status=open: the cases of the arbiter's tournaments."""

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=OverstepStatus.values)],
                   responses=OverstepCaseOut(many=True))
    def get(self, request):
        cases = OverstepCase.objects.filter(game__tournament__in=arbitrated_tournaments(request.user)).select_related(
            "game", "game__white", "game__black", "decided_by")
        status = request.query_params.get("status")
        if status:
            if status not in OverstepStatus.values:
                raise InvalidInput(_("status must be one of %(allowed)s"), field="status",
                                   allowed=", ".join(OverstepStatus.values))
            cases = cases.filter(Q(status=status))
        return Response([case_json(c) for c in cases.order_by("-opened_on", "id")])


class DismissInput(StrictInput):
    reason = serializers.CharField(max_length=NOTE_MAX)


def _case(request, case_id: int) -> OverstepCase:
    case = OverstepCase.objects.select_related("game", "game__tournament", "game__white", "game__black").filter(
        pk=case_id).first()
    if case is None:
        raise NotFound(gettext("no overstep case %(id)s") % {"id": case_id})
    return case


class OverstepConfirmView(APIView):
    """POST /api/overstep-cases/{id}/confirm/: the game is lost on time."""

    @extend_schema(request=None, responses=OverstepDecisionOut)
    @idempotent
    def post(self, request, case_id: int):
        case = _case(request, case_id)
        case = overstep_confirm(case=case, by=request.user, now=timezone.now(),
                                today=local_today(case.game.tournament, timezone.now()))
        case.game.refresh_from_db()
        return Response(case_json(case) | {"game_result": case.game.result, "termination": case.game.termination})


class OverstepDismissView(APIView):
    """POST /api/overstep-cases/{id}/dismiss/ {"reason"}."""

    @extend_schema(request=DismissInput, responses=OverstepCaseOut)
    @idempotent
    def post(self, request, case_id: int):
        serializer = DismissInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        case = overstep_dismiss(case=_case(request, case_id), by=request.user,
                                reason=serializer.validated_data["reason"], now=timezone.now())
        return Response(case_json(case))
