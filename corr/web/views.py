"""Server-rendered pages, usable without JavaScript: my games, a game, a tournament for arbiters."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Case, When
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from corr.clock import ClockError
from corr.clock.text import explain_account
from corr.games import services
from corr.games.clockstate import local_today
from corr.games.errors import ServiceError
from corr.games.permissions import can_arbitrate, can_view
from corr.games.selectors import game_get, game_time_get, games_of_user, tournament_clocks
from corr.limits import NOTE_MAX
from corr.models import Game, Mode, NightlyReport, OverstepCase, OverstepStatus, PlayerClock, Tournament
from corr.nightly.cases import overstep_confirm, overstep_dismiss

from .forms import DelayForm, MoveForm, NoticeForm, PenaltyForm, ReceiptForm


@login_required
def my_games(request):
    games = list(games_of_user(user=request.user))
    clocks = {(c.game_id, c.player): c for c in PlayerClock.objects.filter(game__in=games)}
    rows = []
    for g in games:
        colour = g.colour_of(request.user)
        rows.append({"game": g, "colour": colour, "mine": clocks.get((g.pk, colour)),
                     "theirs": clocks.get((g.pk, "black" if colour == "white" else "white"))})
    arbitrated = Tournament.objects.all() if request.user.is_superuser else request.user.arbitrated_tournaments.all()
    return render(request, "corr/my_games.html", {"rows": rows, "arbitrated": arbitrated})


def _game_or_404(request, game_id) -> Game:
    try:
        game = game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if not can_view(request.user, game):
        raise PermissionDenied("you are neither a player of this game nor an arbiter of its tournament")
    return game


@login_required
def game_page(request, game_id: int):
    game = _game_or_404(request, game_id)
    today = local_today(game.tournament, timezone.now())
    time, rows = game_time_get(game=game, as_of=today)
    colour = game.colour_of(request.user)
    accounts = []
    for pid, account in time.clock.accounts.items():
        accounts.append({"player": pid, "user": game.user_of(pid), "a": account,
                         "why": explain_account(account, game.tournament.ruleset,
                                                by_post=game.mode == Mode.POSTAL)})
    pending = time.assembled.pending
    moves = [r for r in rows if r.kind == "move"]
    context = {
        "game": game, "time": time, "accounts": accounts, "ledger": time.clock.ledger, "rows": rows,
        "moves": moves, "pending": pending, "colour": colour, "today": today,
        "my_turn": colour is not None and time.to_move == colour,
        "is_arbiter": can_arbitrate(request.user, game.tournament),
        "move_form": MoveForm(initial={"number": pending.number if pending else None,
                                       "received_on": pending.received_on if pending and not pending.presumed
                                       else None, "sent_on": today}),
        "receipt_form": ReceiptForm(initial={"received_on": today}),
        "notice_form": NoticeForm(initial={"sent_on": today}),
        "penalty_form": PenaltyForm(), "delay_form": DelayForm(),
    }
    return render(request, "corr/game.html", context)


def _act(request, game_id, form_class, call):
    game = _game_or_404(request, game_id)
    form = form_class(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{field}: {error}")
        return redirect("game", game_id=game.pk)
    today = local_today(game.tournament, timezone.now())
    try:
        result = call(game, form.cleaned_data, today)
    except (ServiceError, ClockError) as error:  # the calculator's own (a deadline past year 9999) too
        messages.error(request, f"{error.field}: {error.message}" if error.field else error.message)
    else:
        messages.success(request, "saved")
        for warning in (result[1] if isinstance(result, tuple) else []):
            messages.warning(request, warning)
    return redirect("game", game_id=game.pk)


@login_required
@require_POST
def move_post(request, game_id: int):
    def call(game, data, today):
        if game.mode == "server":
            data = {"number": data["number"], "notation": data["notation"]}
        return services.move_submit(game=game, by=request.user, today=today, **data)
    return _act(request, game_id, MoveForm, call)


def _service_post(form_class, service):
    """A POST page action: validate ``form_class``, call ``service`` for the signed-in user, go back."""

    @login_required
    @require_POST
    def post(request, game_id: int):
        return _act(request, game_id, form_class,
                    lambda game, data, today: service(game=game, by=request.user, today=today, **data))

    return post


receipt_post = _service_post(ReceiptForm, services.receipt_record)
notice_post = _service_post(NoticeForm, services.notice_submit)
penalty_post = _service_post(PenaltyForm, services.penalty_assess)
delay_post = _service_post(DelayForm, services.delay_assess)


@login_required
def tournament_page(request, tournament_id: int):
    tournament = _arbitrated(request, tournament_id)
    clocks = list(tournament_clocks(tournament=tournament))
    flagged = [c for c in clocks if c.flagged]
    all_cases = OverstepCase.objects.filter(game__tournament=tournament)
    # Open cases first; withdrawn ones (the facts no longer show them) live in each game's history.
    cases = all_cases.exclude(status=OverstepStatus.WITHDRAWN).select_related(
        "game", "game__white", "game__black", "decided_by").order_by(
        Case(When(status=OverstepStatus.OPEN, then=0), default=1), "-opened_on", "id")
    withdrawn = all_cases.filter(status=OverstepStatus.WITHDRAWN).count()
    reports = tournament.nightly_reports.order_by("-date").values_list("date", flat=True)[:30]
    return render(request, "corr/tournament.html", {"tournament": tournament, "clocks": clocks, "flagged": flagged,
                                                    "cases": cases, "withdrawn": withdrawn, "reports": reports})


def _arbitrated(request, tournament_id) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_arbitrate(request.user, tournament):
        raise PermissionDenied("only the tournament's arbiters see this page")
    return tournament


@login_required
@require_POST
def case_decide(request, case_id: int):
    case = get_object_or_404(OverstepCase.objects.select_related("game__tournament"), pk=case_id)
    now = timezone.now()
    if len(request.POST.get("reason", "")) > NOTE_MAX:
        messages.error(request, f"reason: must have at most {NOTE_MAX} characters")
        return redirect("tournament", tournament_id=case.game.tournament_id)
    try:
        if request.POST.get("decision") == "confirm":
            overstep_confirm(case=case, by=request.user, now=now, today=local_today(case.game.tournament, now))
        else:
            overstep_dismiss(case=case, by=request.user, reason=request.POST.get("reason", ""), now=now)
    except ServiceError as error:
        messages.error(request, f"{error.field}: {error.message}" if error.field else error.message)
    else:
        messages.success(request, f"case {case.pk} {request.POST.get('decision', 'dismiss')}ed")
    return redirect("tournament", tournament_id=case.game.tournament_id)


REPORT_SECTIONS = ("deadlines_soon", "time_trouble", "overstep_cases")


@login_required
def report_page(request, tournament_id: int, on: str):
    tournament = _arbitrated(request, tournament_id)
    report = get_object_or_404(NightlyReport, tournament=tournament, date=on)
    sections = [(name.replace("_", " "), report.data.get(name, [])) for name in REPORT_SECTIONS]
    return render(request, "corr/report.html", {"tournament": tournament, "report": report, "sections": sections})


@login_required
def report_csv(request, tournament_id: int, on: str):
    tournament = _arbitrated(request, tournament_id)
    report = get_object_or_404(NightlyReport, tournament=tournament, date=on)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="corr-report-{tournament.pk}-{on.isoformat()}.csv"'
    writer = csv.writer(response)
    writer.writerow(["section", "game", "player", "username", "deadline", "remaining_days"])
    for name in REPORT_SECTIONS:
        for item in report.data.get(name, []):
            writer.writerow([name, item["game"], item["player"], item["username"], item["deadline"] or "",
                             item["remaining_days"]])
    return response
