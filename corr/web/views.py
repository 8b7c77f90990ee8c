"""Server-rendered pages, usable without JavaScript: my games, a game, a tournament, reports.

Every write goes through one service (STYLE 6). A refused form comes back with what was typed and the error
next to its field, in words; an irreversible action (a result, a confirmed overstep, a long delay) is asked
again on a confirmation page first.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Q, When
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from corr import limits as lim
from corr.clock import ClockError
from corr.clock.assembly import active_events, other
from corr.clock.charging import KIND_VARIANT_MOVE
from corr.games import services
from corr.games.boards import BOARDS, ChessBoard
from corr.games.clockstate import clock_as_of, counts_instants, game_file, local_today
from corr.games.clock_messages import ClockRefusal
from corr.games.draws import draw_offer_of
from corr.games.services.long_move import long_move_limit, long_move_used
from corr.games.records import TEMPLATES
from corr.games.errors import ServiceError
from corr.games.services.conditional import (
    changed_warning, conditional_cancel, conditional_get, conditional_replace, position_now, tree_state,
)
from corr.games.services.variants import variant_record
from corr.games.permissions import can_arbitrate, can_view
from corr.games.selectors import game_clock_view, game_get, game_time_get, games_of_user, next_on_move
from corr.games.timeleft import game_time_left, view_time_left
from corr.games.turns import URGENCY_RANK, Turn, TurnSince, TurnState, game_turns, urgency, view_turns
from corr.games.services.arbiters import CORRECTABLE_BY_KIND
from corr.games.replay import game_replay
from corr.games.services import credits as credit_services
from corr.games.services.ending import claim_founded
from corr.games.services.import_jobs import import_in_background, import_job_create, import_job_json
from corr.games.services.import_names import unmatched
from corr.models import (
    RECORD_KINDS, CaseKind, EventKind, Game, GameEvent, GameKind, GameStatus, Mode, NightlyReport, OverstepCase,
    OverstepStatus, Tournament,
)
from corr.nightly.cases import overstep_confirm, overstep_dismiss
from corr.rulebooks import cited

from corr.templatetags.corr_i18n import word

from corr.clauses import labelled
from .planning_page import plan_context
from . import svg
from .conditional_board import builder_config
from .game_board import board_context
from .conditional_text import line_of, tree_text
from .deadline import reader_zone, shown_deadline
from .live_page import live_game_context
from .server_time_page import gift_form_for, server_time_context
from .ledger_words import ledger_line_words
from .describe import (explain_account, plain, reason_word, time_control_text, time_left_text, vacation_text,
                       time_left_why)
from .records import record_words
from corr.games.clockstate import moment_text as as_of_text
from .turns import turn_sentence, turn_text
from .forms import (
    CaseDecisionForm, ConditionalForm, CorrectionForm, CreditForm, DelayForm, InvitationForm, MoveForm,
    NoticeForm, PenaltyForm, PlayersResultForm, ReceiptForm, ReopenForm, ResultForm, StartNoticeForm, VariantForm,
    WithdrawalForm,
)


def _today(game_or_tournament):
    return local_today(getattr(game_or_tournament, "tournament", game_or_tournament), timezone.now())


def can_rule(user, game: Game) -> bool:
    """The arbiter tools show only to those who may use them: arbiters of the tournament who do not play."""
    return can_arbitrate(user, game.tournament) and game.colour_of(user) is None


# --- my games -------------------------------------------------------------------------------------

def _names(game: Game) -> dict[str, str]:
    return {"white": game.white.username, "black": game.black.username}


@login_required
def my_games(request):
    rows = []
    for game in games_of_user(user=request.user):
        colour = game.colour_of(request.user)
        if game.mode == Mode.LIVE:  # a clock in seconds (issue 16): no days, no deadline
            rows.append(_live_row(game, colour))
            continue
        time, _rows = game_time_get(game=game, as_of=_today(game))  # today's figures, as the game page shows
        mine, theirs = time.clock.accounts[colour], time.clock.accounts[other(colour)]
        turn = game_turns(game=game, time=time)[colour]
        left = game_time_left(game=game, time=time)[colour]  # the game page's time left, the one answer
        zone = reader_zone(request.user, game.tournament)
        words = turn_text(turn, zone=zone, reader=colour, names=_names(game))
        rows.append({"game": game, "colour": colour, "mine": mine, "theirs": theirs, "turn": turn, "left": left,
                     "left_text": time_left_text(left), "left_why": time_left_why(left),
                     "turn_text": words, "on_move": turn.on_move and game.status == GameStatus.ONGOING,
                     "deadline": shown_deadline(turn, game=game, user=request.user,
                                                remaining_seconds=mine.remaining_seconds),
                     "state": svg.state_of(mine), "gauge": svg.account_gauge(_("you"), mine, words),
                     "opponent": game.black if colour == "white" else game.white})
    rows.sort(key=_my_games_order)
    arbitrated = Tournament.objects.all() if request.user.is_superuser else request.user.arbitrated_tournaments.all()
    return render(request, "corr/my_games.html", {"rows": rows, "arbitrated": arbitrated,
                                                  "next_game": next_on_move(user=request.user, now=timezone.now())})


LATEST = (URGENCY_RANK[TurnState.ON_MOVE], datetime.max.replace(tzinfo=UTC))
"""A live game's place among the games on move: it has no deadline, so after every game that has one."""


def _my_games_order(row: dict):
    """The games where it is my move first, the most urgent first (``turns.urgency``: over the control, then the
    nearest deadline), then those where I wait (a move in the post by its arrival), then the finished ones; the
    newest first among equals (issues 25 and 36)."""
    game = row["game"]
    if game.status != GameStatus.ONGOING:
        return (2, LATEST, -game.pk)
    if "live" in row:  # a live game: my move while my clock runs
        return (0 if row["to_move"] == row["colour"] else 1, LATEST, -game.pk)
    turn = row["turn"]
    return (0 if turn.on_move else 1, urgency(turn), -game.pk)


def _live_row(game: Game, colour: str) -> dict:
    """A live game's line of "My games": both clocks as the server has them now, the side to move."""
    from corr.live.state import live_payload

    live = live_payload(game)
    other = "black" if colour == "white" else "white"
    return {"game": game, "colour": colour, "live": live, "mine_ms": live["players"][colour]["remaining_ms"],
            "theirs_ms": live["players"][other]["remaining_ms"], "to_move": live["running"],
            "state": "over" if live["players"][colour]["flag_fallen"] else "",
            "opponent": game.black if colour == "white" else game.white}


# --- a game ---------------------------------------------------------------------------------------

def _game_or_404(request, game_id) -> Game:
    try:
        game = game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404(_("no such game")) from None
    if not can_view(request.user, game):
        raise PermissionDenied(_("you are neither a player of this game nor an arbiter of its tournament"))
    return game


def _history(game: Game, ruling: bool, bound: dict):
    """The history's lines, each with what it did to earlier lines and, for arbiters, its forms."""
    events = list(GameEvent.objects.filter(game=game).select_related("entered_by").order_by("seq"))
    by_id = {e.id: e for e in events}
    replaced_by = {e.supersedes_id: e for e in events if e.supersedes_id}
    lines = []
    for e in events:
        later = replaced_by.get(e.id)
        line = {"e": e, "kind": cited(str(e.get_kind_display())), "record": e.kind in RECORD_KINDS,
                "note": record_words(e.note),
                "reason": reason_word(e.reason) if e.reason and e.kind != EventKind.CREDIT else "",
                "target": by_id.get(e.supersedes_id), "replaced_by": later,
                "withdrawn": later is not None and later.kind == EventKind.WITHDRAWAL,
                "corrected": later is not None and later.kind != EventKind.WITHDRAWAL}
        actionable = (ruling and later is None and e.kind not in RECORD_KINDS and e.kind != EventKind.WITHDRAWAL
                      and game.status == GameStatus.ONGOING)
        if actionable:
            fields = CORRECTABLE_BY_KIND.get(e.kind, ())
            initial = {"event": e.seq, **{name: getattr(e, name) for name in fields}}
            line["correct_form"] = bound.get(("correct", e.seq)) or CorrectionForm(
                initial=initial, fields=fields, seq=e.seq)
            line["withdraw_form"] = bound.get(("withdraw", e.seq)) or WithdrawalForm(
                initial={"event": e.seq}, seq=e.seq)
        lines.append(line)
    return lines


def _moves(rows) -> list[dict]:
    """The moves in force, numbered 1.. without gaps; a corrected move shows what it replaced."""
    by_id = {r.id: r for r in rows}
    out = []
    for r in active_events(rows):
        if r.kind != "move":
            continue
        original = by_id.get(r.supersedes_id)
        while original is not None and original.supersedes_id is not None:
            original = by_id.get(original.supersedes_id)
        out.append({"row": r, "index": len(out) + 1, "original": original})
    return out


CONDITIONAL_REPLY = TEMPLATES["conditional_reply"].split("%")[0]
"""How a server's conditional reply's history line begins (``corr.games.records``)."""


def _conditional_replies(rows) -> dict[tuple[str, int], str]:
    """The server's conditional replies in force (issue 28) by player and move: their history line, which the
    ledger says instead of the calculator's words ("conditional reply from the line sent with move 1")."""
    return {(r.player, r.number): r.note for r in active_events(rows)
            if r.kind == EventKind.MOVE and r.variant == "conditional" and r.note.startswith(CONDITIONAL_REPLY)}


def _game_context(request, game: Game, bound: dict | None = None) -> dict:
    bound = bound or {}
    today = _today(game)
    time, rows = game_time_get(game=game, as_of=today)
    colour = game.colour_of(request.user)
    ruling = can_rule(request.user, game)
    postal = game.mode == Mode.POSTAL
    rules = game.tournament.ruleset
    periods = rules.time_control is None
    zone = reader_zone(request.user, game.tournament)
    names = _names(game)
    turns = game_turns(game=game, time=time)  # who is on move, since and until when: the one answer
    left = game_time_left(game=game, time=time)  # the time left, XFCC's, My games' and the feed's too
    accounts = []
    for pid, account in time.clock.accounts.items():
        c = account.control
        turn = turns[pid]
        shown = shown_deadline(turn, game=game, user=request.user, remaining_seconds=account.remaining_seconds)
        words = turn_text(turn, zone=zone, reader=colour, names=names)
        accounts.append({
            "player": pid, "user": game.user_of(pid), "a": account, "left": left[pid],
            "left_text": time_left_text(left[pid]), "left_why": time_left_why(left[pid]),
            "vacation_text": vacation_text(None if time.clock.vacation is None else time.clock.vacation[pid],
                                           as_of=as_of_text(time.clock.as_of)),
            "used": c.allowed_days - c.remaining_days,
            "deadline": shown, "turn": turn, "turn_text": words,
            "state": svg.state_of(account), "gauge": svg.account_gauge(word(pid), account, words),
            "chart": svg.usage_chart(player=pid, ledger=time.clock.ledger, events=time.assembled.game.events,
                                     moves_per_control=rules.moves_per_control if periods else None,
                                     days_per_control=rules.days_per_control if periods else None),
            "why": explain_account(account, rules, by_post=postal, shown=shown)})
    pending = time.assembled.pending
    recorded_receipt = pending.received_on if pending and not pending.presumed else None
    my_turn = colour is not None and time.to_move == colour and game.status == GameStatus.ONGOING
    banner = None
    if game.status == GameStatus.ONGOING and time.to_move:
        banner = turn_sentence(turns[time.to_move], zone=zone, reader=colour, names=names,
                               transit_days=game.tournament.presumed_transit_days)
    replies = _conditional_replies(rows)
    ledger = [{"line": line, **_ledger_words(line, replies)} for line in time.clock.ledger]
    offer = draw_offer_of(rows) if game.mode == Mode.SERVER else None
    # Conditional moves (issue 28): server chess and draughts games; a player sees their own line only, never the
    # partner's.
    conditional_shown = game.mode == Mode.SERVER and game.kind_in_force in BOARDS
    my_line = conditional_get(game=game, by=request.user) if conditional_shown and colour else None
    # A line is built, replaced or cancelled while the partner is to move (it answers their next move), once the
    # player has made a move: a line is "sent with move N" (50.4.8), and the page offers none before the first.
    line_open = (conditional_shown and colour is not None and game.status == GameStatus.ONGOING
                 and time.to_move not in (None, colour) and time.assembled.made[colour] > 0)
    position = position_now(game) if my_line is not None or line_open else None  # read once, for both below
    # A line built for a position the game no longer has (a move corrected or withdrawn, the game reopened)
    # will not fire: its owner is warned, and may replace or cancel it.
    line_changed = tree_state(game, my_line, position)
    replay = game_replay(game, rows)  # read once: the diagram, the board to move on, a claim on one's turn
    return board_context(game=game, rows=rows, colour=colour, my_turn=my_turn, replay=replay) | {
        "next_game": next_on_move(user=request.user, now=timezone.now(), excluding=game.pk) if colour else None,
        "conditional_shown": conditional_shown, "my_line": my_line, "line_changed": line_changed,
        "line_warning": changed_warning(my_line, line_changed) if my_line else None,
        "can_replace_line": my_line is not None and line_open,
        "can_build_line": my_line is None and line_open,
        # Chess: the line is built on a board diagram too (the text path stays, for draughts and without script).
        "line_board": (builder_config(position, colour, my_line.tree if my_line and not line_changed else None)
                       if line_open and isinstance(position, ChessBoard) else None),
        "conditional_form": (bound.get("conditional") or ConditionalForm(
            initial={"conditional": tree_text(my_line.tree) if my_line else ""})).for_kind(game.kind_in_force),
        "game": game, "time": time, "accounts": accounts, "ledger": ledger, "moves": _moves(rows),
        "file_url": reverse("game-file", args=[game.pk]),
        "history": _history(game, ruling, bound), "pending": pending, "colour": colour, "today": today,
        "my_turn": my_turn, "postal": postal, "recorded_receipt": recorded_receipt, "banner": banner,
        "receipt_hint": _receipt_hint(turns[colour]) if my_turn and postal else "",
        "control_text": time_control_text(rules),
        # Server games counted by the instant (issue 22): moves and deadlines as times in the reader's zone.
        "instants": counts_instants(game), "reader_zone": zone,
        # The page's heartbeat (issue 38): a player viewing the game is not e-mailed about its moves.
        "presence_seconds": settings.NOTIFY_PRESENCE_SECONDS,
        "is_arbiter": can_arbitrate(request.user, game.tournament), "ruling": ruling,
        "can_see_tournament": can_see_tournament(request.user, game.tournament),
        "delay_confirm_days": lim.DELAY_CONFIRM_DAYS,
        "move_form": (bound.get("move") or MoveForm(initial={
            "number": pending.number if pending else None, "received_on": recorded_receipt, "sent_on": today}
        )).for_kind(game.kind_in_force),
        "receipt_form": bound.get("receipt") or ReceiptForm(initial={"received_on": today}),
        "variant_form": bound.get("variant") or VariantForm(),
        "notice_form": bound.get("notice") or NoticeForm(initial={"sent_on": today}),
        "penalty_form": bound.get("penalty") or PenaltyForm(),
        "delay_form": bound.get("delay") or DelayForm(),
        "start_notice_form": bound.get("start-notice") or StartNoticeForm(),
        "result_form": bound.get("result") or ResultForm(),
        "reopen_form": bound.get("reopen") or ReopenForm(over=lost_on_time(game)),
        # Issue 39: time given back by the arbiter, and a player's gift where the tournament allows it.
        "credit_form": bound.get("credit") or CreditForm(seconds=credit_services.exact(game)),
        "gift_form": (bound.get("gift") or gift_form_for(game)
                      if colour is not None and game.mode == Mode.SERVER and game.status == GameStatus.ONGOING
                      and (game.tournament.gift_max_days > 0 or game.tournament.gifts is not None) else None),
        "gift_max": game.tournament.gift_max_days,
        "refused": bool(bound),
        # Players' results in server games (issue 26): resign at any time; offer a draw after one's move;
        # the player to move answers the partner's offer.
        "players_result": colour is not None and game.mode == Mode.SERVER and game.status == GameStatus.ONGOING,
        "draw_offer": offer, "offer_mine": offer is not None and offer.by == colour,
        "can_offer": offer is None and colour is not None and time.to_move not in (None, colour),
        # ICCF Playing Rules 3b (issue 40): the player on move in a game whose tournament limits one move.
        "can_long_move": (colour is not None and my_turn and game.mode == Mode.SERVER
                          and game.status == GameStatus.ONGOING and long_move_limit(game) is not None
                          and not long_move_used(rows, colour, time.assembled.made[colour] + 1)),
        "can_answer": offer is not None and offer.by != colour and my_turn,
        # Issue 36: chess server games; a draw is claimed with the move (the move form's box) or, when the position
        # founds it now, on one's turn (FIDE 9.2, 9.3).
        "claim_shown": game.mode == Mode.SERVER and game.kind_in_force == GameKind.CHESS,
        "can_claim": my_turn and game.mode == Mode.SERVER and claim_founded(replay),
    } | plan_context(request, game, time, zone=zone) | server_time_context(  # planning ahead (issue 41)
        game, colour=colour, bound=bound, zone=zone, time=time, rows=rows)  # each server's own clock (issue 40)


def _receipt_hint(turn: Turn) -> str:
    """What the player to move of a postal game may do about a presumed receipt: record the real date."""
    if turn.state is TurnState.IN_THE_POST:
        return _("If it has arrived, record the date below.")
    if turn.why is TurnSince.PRESUMED:
        return _("Record the real date below.")
    return ""


def _ledger_words(line, replies: dict) -> dict:
    """A ledger line's kind, note and rule as the page (and the CSV) word them (``corr.web.ledger_words``)."""
    words = ledger_line_words(kind=line.kind, note=line.note, rule=line.rule,
                              reply=replies.get((line.player, line.move)) if line.kind == KIND_VARIANT_MOVE else None)
    return {"kind": words.kind, "note": words.note, "rule": words.rule}


@login_required
def game_page(request, game_id: int):
    game = _game_or_404(request, game_id)
    try:
        if game.mode == "live":  # issue 16: clocks in seconds over a WebSocket (corr/web/live_page.py)
            context = live_game_context(request, game) | {
                "can_see_tournament": can_see_tournament(request.user, game.tournament),
                "control_text": time_control_text(game.tournament.ruleset)}
            return render(request, "corr/game.html", context)
        context = _game_context(request, game)
    except ClockError as error:
        # Rows stored before a rule of the calculator existed (or restored from elsewhere) that it now
        # refuses: say so and how to fix it, rather than a server error.
        refusal = ClockRefusal(error, field=error.field, game=game)
        return render(request, "corr/game_broken.html", {"game": game, "error": refusal.message}, status=409)
    return render(request, "corr/game.html", context)


def _refused(request, game, key, form, status: int = 400):
    """The game page again, with ``form`` as typed and its errors beside its fields (and summed up on top)."""
    summary = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for error in errors:
            summary.append(labelled(field.label or plain(name), error) if field is not None and name != "__all__"
                           else error)
    context = _game_context(request, game, {key: form})
    context["error_summary"] = summary
    return render(request, "corr/game.html", context, status=status)


def _service_error(form, error: ServiceError | ClockError) -> None:
    if not isinstance(error, ServiceError):  # the calculator's own, in the page's words
        error = ClockRefusal(error, field=error.field)
    message = plain(error.message)
    field = error.field if error.field in form.fields and not form.fields[error.field].widget.is_hidden else None
    form.add_error(field, message)


def _act(request, game_id, form, call, *, key=None, confirm=None):
    """Validate ``form``, maybe ask for confirmation, call the service; back to the game page either way."""
    game = _game_or_404(request, game_id)
    key = key or form.name
    if hasattr(form, "for_kind"):  # its words in the game's notation, the refusals of its fields' shape too
        form.for_kind(game.kind_in_force)
    if not form.is_valid():
        return _refused(request, game, key, form)
    if confirm is not None and not form.cleaned_data.get("confirmed"):
        question = confirm(game, form.cleaned_data)
        if question is not None:
            return render(request, "corr/confirm.html", {"game": game, "question": question,
                                                         "data": request.POST, "action": request.path})
    try:
        result = call(game, form.cleaned_data, _today(game))
    except (ServiceError, ClockError) as error:  # the calculator's own (a deadline past year 9999) too
        _service_error(form, error)
        return _refused(request, game, key, form, status=getattr(error, "status", 400))
    messages.success(request, _("Saved."))
    for warning in (result[1] if isinstance(result, tuple) else []):
        messages.warning(request, cited(str(warning)))
    return redirect("game", game_id=game.pk)


def _by(request, game, data, service, **extra):
    return service(game=game, by=request.user, today=_today(game), **data, **extra)


@login_required
@require_POST
def move_post(request, game_id: int):
    form = MoveForm(request.POST)

    def call(game, data, today):
        data = dict(data)
        change = data.pop("receipt_change")
        text = data.pop("conditional")
        if text.strip():
            data["conditional"] = form.line.tree
        if game.mode == Mode.SERVER:
            data = {"number": data["number"], "notation": data["notation"], "conditional": data.get("conditional"),
                    "claim_draw": data["claim_draw"]}
        else:
            if data.pop("claim_draw"):  # said by the service, in the reader's words, naming claim_draw
                data["claim_draw"] = True
            time, _rows = game_time_get(game=game, as_of=today)
            pending = time.assembled.pending
            recorded = pending.received_on if pending and not pending.presumed else None
            typed = data.get("received_on")
            if recorded and typed and typed != recorded and not change:
                raise ServiceError(
                    _("You recorded receiving %(name)s's move on %(recorded)s; this says %(typed)s. Tick the box"
                      " below to replace the recorded receipt, or correct the date."), field="received_on",
                    name=game.user_of(other(pending.player)).username,
                    recorded=date_format(recorded, "SHORT_DATE_FORMAT"), typed=date_format(typed, "SHORT_DATE_FORMAT"))
        try:
            return services.move_submit(game=game, by=request.user, today=today, **data)
        except ServiceError as error:
            raise _line_refusal(error, form.line.lines) from None
    return _act(request, game_id, form, call)


def _line_refusal(error: ServiceError, lines: dict[str, int]) -> ServiceError:
    """A refusal of a conditional line (the service names a branch by its path, ``conditional[0].next[1].then``)
    naming the line of the page's text instead, and the text area as its field."""
    if not (error.field or "").startswith("conditional"):
        return error
    params = dict(error.params)
    number = line_of(error.field, lines)
    if number is None:
        text = error.message
    else:
        where = _("line %(number)s") % {"number": number}
        if "other" in params and line_of(params["other"], lines) is not None:
            params["other"] = _("line %(number)s") % {"number": line_of(params["other"], lines)}
        if "path" in params:
            params["path"] = where
            text = str(error._message) % params
        else:
            text = labelled(where, str(error._message) % params if params else str(error._message))
    return type(error)("%(text)s", field="conditional", text=text)


@login_required
@require_POST
def conditional_post(request, game_id: int):
    """The owner's replacement of their pending line while the partner is to move (empty: cancelled)."""
    form = ConditionalForm(request.POST)

    def call(game, data, today):
        try:
            return conditional_replace(game=game, by=request.user, conditional=form.line.tree, today=today)
        except ServiceError as error:
            raise _line_refusal(error, form.line.lines) from None
    return _act(request, game_id, form, call)


@login_required
@require_POST
def conditional_cancel_post(request, game_id: int):
    """The owner cancels their pending line (``conditional_cancel``), then the game page."""
    game = _game_or_404(request, game_id)
    try:
        conditional_cancel(game=game, by=request.user)
    except ServiceError as error:
        messages.error(request, plain(error.message))
    else:
        messages.success(request, _("Your conditional line is cancelled."))
    return redirect("game", game_id=game.pk)


@login_required
@require_POST
def variant_post(request, game_id: int):
    """A received postal variant accepted through one's own move (50.4.8): ``variant_record``, the service of
    ``POST /api/games/{id}/variants/``; a refusal names its field and cites the rule, in the page's language."""
    form = VariantForm(request.POST)

    def call(game, data, today):
        try:
            return variant_record(game=game, by=request.user, line=data["line"],
                                  accepted_through=data["accepted_through"], today=today)
        except ServiceError as error:
            raise type(error)("%(text)s", field=error.field, text=cited(plain(error.message))) from None
    return _act(request, game_id, form, call)


@login_required
@require_POST
def receipt_post(request, game_id: int):
    return _act(request, game_id, ReceiptForm(request.POST),
                lambda game, data, today: _by(request, game, data, services.receipt_record))


@login_required
@require_POST
def notice_post(request, game_id: int):
    return _act(request, game_id, NoticeForm(request.POST),
                lambda game, data, today: _by(request, game, data, services.notice_submit))


@login_required
@require_POST
def penalty_post(request, game_id: int):
    return _act(request, game_id, PenaltyForm(request.POST),
                lambda game, data, today: _by(request, game, data, services.penalty_assess))


def _delay_question(game, data):
    if data["days"] <= lim.DELAY_CONFIRM_DAYS:
        return None
    return _("Add a delay of %(days)s days to %(player)s (%(name)s)? That is more than %(limit)s days:"
             " check the number.") % {"days": data["days"], "player": word(data["player"]),
                                     "name": game.user_of(data["player"]).username, "limit": lim.DELAY_CONFIRM_DAYS}


@login_required
@require_POST
def delay_post(request, game_id: int):
    def call(game, data, today):
        data = {k: v for k, v in data.items() if k != "confirmed"}
        return _by(request, game, data, services.delay_assess)
    return _act(request, game_id, DelayForm(request.POST), call, confirm=_delay_question)


def lost_on_time(game) -> bool:
    """Whether a finished game ended on time (a confirmed overstep case, or a flag's termination): its reopening
    asks what to do with the overstep (issue 39)."""
    return (game.status != GameStatus.ONGOING
            and (OverstepCase.objects.filter(game=game, kind=CaseKind.OVERSTEP, status=OverstepStatus.CONFIRMED)
                 .exists() or " lost on time" in game.termination))


@login_required
@require_POST
def credit_post(request, game_id: int):
    form = CreditForm(request.POST, seconds=credit_services.exact(_game_or_404(request, game_id)))

    def call(game, data, today):
        return credit_services.credit_give(game=game, by=request.user, player=data["player"], reason=data["reason"],
                                           today=today, **form.amount())
    return _act(request, game_id, form, call)


@login_required
@require_POST
def gift_post(request, game_id: int):
    form = gift_form_for(_game_or_404(request, game_id), request.POST)
    return _act(request, game_id, form, lambda game, data, today: credit_services.gift_give(
        game=game, by=request.user, today=today, **form.amount()))


@login_required
@require_POST
def start_notice_post(request, game_id: int):
    return _act(request, game_id, StartNoticeForm(request.POST),
                lambda game, data, today: _by(request, game, data, services.start_notice_record))


def _result_question(game, data):
    result = data["result"] + (": " + data["termination"] if data["termination"] else "")
    return _("Record the result %(result)s in game #%(game)s? The game ends: no move, penalty or delay is taken"
             " until an arbiter reopens it.") % {"result": result, "game": game.pk}


@login_required
@require_POST
def result_post(request, game_id: int):
    def call(game, data, today):
        return services.game_finish(game=game, by=request.user, today=today, result=data["result"],
                                    termination=data["termination"])
    return _act(request, game_id, ResultForm(request.POST), call, confirm=_result_question)


@login_required
@require_POST
def reopen_post(request, game_id: int):
    form = ReopenForm(request.POST, over=lost_on_time(_game_or_404(request, game_id)))

    def call(game, data, today):
        return services.game_reopen(game=game, by=request.user, today=today, note=data["note"],
                                    overstep=data.get("overstep") or None)
    return _act(request, game_id, form, call)


def _resign_question(game, user) -> str:
    partner = game.user_of(other(game.colour_of(user))).username
    return _("Resign game #%(game)s? %(partner)s wins; the game ends and only an arbiter can reopen it.") % {
        "game": game.pk, "partner": partner}


def _draw_accept_question(game, user) -> str:
    return _("Accept the draw in game #%(game)s? The game ends ½-½; only an arbiter can reopen it.") % {
        "game": game.pk}


def _draw_claim_question(game, user) -> str:
    return _("Claim a draw in game #%(game)s? The position founds it (FIDE 9.2, 9.3): the game ends ½-½ at once;"
             " only an arbiter can reopen it.") % {"game": game.pk}


def _draw_offer_question(game, user) -> str:
    partner = game.user_of(other(game.colour_of(user))).username
    return _("Offer a draw in game #%(game)s? %(partner)s may accept it until your next move, and the game then"
             " ends ½-½.") % {"game": game.pk, "partner": partner}


def _players_result_post(request, game_id: int, service, question=None):
    """A player's result through its one service (``corr.games.services.results``), back to the game page.

    ``question(game, user)``: what the confirmation page asks first: resigning, accepting and offering (an
    offer binds its maker: the partner may end the game by accepting it). Declining is not asked: it ends nothing.
    """
    confirm = None if question is None else (lambda game, data: question(game, request.user))
    return _act(request, game_id, PlayersResultForm(request.POST),
                lambda game, data, today: service(game=game, by=request.user, today=today), confirm=confirm)


@login_required
@require_POST
def resign_post(request, game_id: int):
    return _players_result_post(request, game_id, services.game_resign, _resign_question)


@login_required
@require_POST
def draw_offer_post(request, game_id: int):
    return _players_result_post(request, game_id, services.draw_offer_make, _draw_offer_question)


@login_required
@require_POST
def long_move_post(request, game_id: int):
    """The "Use 40+ days" notice from the game page (ICCF Playing Rules 3b): its service, back to the page."""
    return _players_result_post(request, game_id, services.long_move_declare)


@login_required
@require_POST
def draw_claim_post(request, game_id: int):
    return _players_result_post(request, game_id, services.draw_claim, _draw_claim_question)


@login_required
@require_POST
def draw_accept_post(request, game_id: int):
    return _players_result_post(request, game_id, services.draw_offer_accept, _draw_accept_question)


@login_required
@require_POST
def draw_decline_post(request, game_id: int):
    return _players_result_post(request, game_id, services.draw_offer_decline)


def _target(game, seq):
    return GameEvent.objects.filter(game=game, seq=seq).first()


@login_required
@require_POST
def correct_post(request, game_id: int):
    game = _game_or_404(request, game_id)
    seq = request.POST.get("event", "")
    target = _target(game, int(seq)) if seq.isdigit() and int(seq) <= lim.INT_MAX else None
    fields = CORRECTABLE_BY_KIND.get(target.kind, ()) if target else ()
    form = CorrectionForm(request.POST, fields=fields, seq=target.seq if target else None)

    def call(game, data, today):
        if target is None:
            raise ServiceError(_("no such event in this game"), field="event")
        changes = {name: data[name] for name in fields
                   if name in data and data[name] not in (None, "") and data[name] != getattr(target, name)}
        return services.event_correct(game=game, by=request.user, seq=target.seq, changes=changes,
                                      note=data["note"], today=today)
    return _act(request, game_id, form, call, key=("correct", target.seq if target else 0))


@login_required
@require_POST
def withdraw_post(request, game_id: int):
    seq = request.POST.get("event", "")
    form = WithdrawalForm(request.POST, seq=seq if seq.isdigit() else None)
    key = ("withdraw", int(seq)) if seq.isdigit() else ("withdraw", 0)
    return _act(request, game_id, form, lambda game, data, today: services.event_withdraw(
        game=game, by=request.user, seq=data["event"], note=data["note"], today=today), key=key)


@login_required
def game_file_download(request, game_id: int):
    """The game as a game file for ``manage.py clock``, downloaded as ``game-ID.json``."""
    game = _game_or_404(request, game_id)
    if game.mode == Mode.LIVE:  # the live game file (events at ISO 8601 instants) manage.py clock reads too
        from corr.live.state import live_game_file

        data = live_game_file(game)
    else:
        today = _today(game)
        _time, rows = game_time_get(game=game, as_of=today)
        data = game_file(game, rows, today)
    response = HttpResponse(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response


# --- a tournament ---------------------------------------------------------------------------------

def can_see_tournament(user, tournament) -> bool:
    if can_arbitrate(user, tournament):
        return True
    return user.is_authenticated and tournament.games.filter(Q(white=user) | Q(black=user)).exists()


def _live_games(tournament: Tournament, user, arbiter: bool) -> list[dict]:
    """The ongoing live games one may follow, each with its clocks as of now."""
    from corr.live.state import live_payload

    games = tournament.games.filter(status=GameStatus.ONGOING).select_related("white", "black")
    if not arbiter:
        games = games.filter(Q(white=user) | Q(black=user))
    return [{"game": game, "live": live_payload(game)} for game in games.order_by("pk")]


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """One player of an ongoing game on the tournament page: their turn, in words, and today's figures."""

    game: Game
    player: str
    name: str
    turn: Turn
    words: str
    remaining_days: int
    time_trouble: bool
    overstepped_control: int | None
    shown: object  # the ShownDeadline of a player on move in time, else None
    left: object  # the time left (corr.games.timeleft.TimeLeft), the one answer

    @property
    def left_text(self) -> str:
        return time_left_text(self.left)

    @property
    def left_why(self) -> str:
        return time_left_why(self.left)

    @property
    def flagged(self) -> bool:
        return self.time_trouble or self.overstepped_control is not None

    @property
    def order(self) -> tuple:
        """Over the control first, then on move by deadline, then the moves in the post, then the waiting."""
        return (*urgency(self.turn), self.remaining_days, self.game.pk, self.player)


def deadline_rows(games, *, user, now: datetime) -> list[DeadlineRow]:
    """Every player of ``games`` (ongoing correspondence games) with their turn as the game page says it today.

    Each game's clock view (``game_clock_view``: cached per game version and day, the calculator's answer
    that the game page, the API and the feeds show), not the stored ``PlayerClock`` rows, which hold a
    move still in the post as of its arrival (the nightly job selects by them).
    """
    rows = []
    for game in games:
        view = game_clock_view(game=game, as_of=clock_as_of(game, now))
        names = _names(game)
        zone = reader_zone(user, game.tournament)
        reader = game.colour_of(user)
        left = view_time_left(game=game, players=view["clock"]["players"])
        for colour, turn in view_turns(view).items():
            account = view["clock"]["players"][colour]
            over = account["overstepped"]
            rows.append(DeadlineRow(
                game=game, player=colour, name=names[colour], turn=turn,
                words=turn_text(turn, zone=zone, reader=reader, names=names),
                remaining_days=account["control"]["remaining_days"], time_trouble=account["time_trouble"],
                overstepped_control=None if over is None else over["control"],
                shown=shown_deadline(turn, game=game, user=user, remaining_seconds=account["remaining_seconds"]),
                left=left[colour]))
    return sorted(rows, key=lambda r: r.order)


def _deadlines(tournament: Tournament, user, arbiter: bool, today: date) -> dict:
    """A correspondence tournament's players by deadline, their timeline and, for arbiters, cases and reports."""
    # Finished games have no deadline and raise no flag: they leave the deadline list.
    games = tournament.games.filter(status=GameStatus.ONGOING).select_related("tournament", "white", "black")
    if not arbiter:
        games = games.filter(Q(white=user) | Q(black=user))
    rows = deadline_rows(games.order_by("pk"), user=user, now=timezone.now())
    context = {"clocks": rows, "timeline": svg.deadline_timeline(rows=rows, today=today)}
    if arbiter:
        all_cases = OverstepCase.objects.filter(game__tournament=tournament)
        # Open cases first; withdrawn ones (the facts no longer show them) live in each game's history.
        context["cases"] = list(all_cases.exclude(status=OverstepStatus.WITHDRAWN).select_related(
            "game", "game__white", "game__black", "decided_by").order_by(
            Case(When(status=OverstepStatus.OPEN, then=0), default=1), "-opened_on", "id"))
        for case in context["cases"]:
            case.name = case.game.user_of(case.player).username
        context["withdrawn"] = all_cases.filter(status=OverstepStatus.WITHDRAWN).count()
        context["flagged"] = [r for r in rows if r.flagged]
        context["reports"] = tournament.nightly_reports.order_by("-date").values_list("date", flat=True)[:30]
    return context


@login_required
def tournament_page(request, tournament_id: int, invitation_form=None):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_see_tournament(request.user, tournament):
        raise PermissionDenied(_("only the tournament's arbiters and players see this page"))
    arbiter = can_arbitrate(request.user, tournament)
    today = _today(tournament)
    context = {"tournament": tournament, "arbiter": arbiter, "today": today,
               "control_text": time_control_text(tournament.ruleset),
               "finished": tournament.games.filter(status=GameStatus.FINISHED).count()}
    if arbiter:  # issue 37: the background imports, the latest first; the page refreshes itself while one runs
        jobs = [import_job_json(job) for job in tournament.import_jobs.order_by("-pk")[:5]]
        context.update(import_jobs=jobs, import_running=any(j["status"] in ("queued", "running") for j in jobs))
        if tournament.mode != Mode.LIVE:  # issue 38: invite an address to play a game of it
            context.update(invitation_form=invitation_form or InvitationForm(
                initial={"language": translation.get_language()}),
                invitations=tournament.invitations.select_related("opponent", "user")[:20])
    if tournament.mode == Mode.LIVE:  # issue 16: clocks in seconds, no deadline; listed with both clocks now
        context["live_games"] = _live_games(tournament, request.user, arbiter)
    else:  # days, deadlines, cases and the nightly reports: correspondence play only
        context.update(_deadlines(tournament, request.user, arbiter, today))
    return render(request, "corr/tournament.html", context, status=400 if invitation_form is not None else 200)


@login_required
@require_POST
def tournament_import_post(request, tournament_id: int):
    """The tournament page's PGN import (``services.tournament_pgn_import``): a line per refused game, or the count."""
    tournament = _arbitrated(request, tournament_id)
    back = redirect(reverse("tournament", args=[tournament.pk]) + "#import")
    upload = request.FILES.get("pgn")
    if upload is None or upload.size > lim.PGN_IMPORT_MAX:
        messages.error(request, _("Choose a PGN file of at most %(max)s bytes.") % {"max": lim.PGN_IMPORT_MAX})
        return back
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        messages.error(request, _("The file is not UTF-8 text: save the PGN as UTF-8."))
        return back
    try:
        if unmatched(text, {}):  # issue 37: names that are no username: the arbiter matches them first
            job = import_job_create(tournament=tournament, by=request.user, pgn=text, now=timezone.now(),
                                    names_pending=True)
            return redirect("import-names", tournament_id=tournament.pk, job_id=job.pk)
        if import_in_background(text):  # issue 37: a worker imports it; this page shows its progress
            job = import_job_create(tournament=tournament, by=request.user, pgn=text, now=timezone.now())
            messages.success(request, _("Import #%(job)s of %(total)s games started: its progress is shown below,"
                                        " and you will be e-mailed when it ends.") % {"job": job.pk,
                                                                                     "total": job.total})
            return back
        games = services.tournament_pgn_import(tournament=tournament, by=request.user, pgn=text, now=timezone.now())
    except services.ImportRefused as refused:
        messages.error(request, plain(refused.message))
        for line in refused.lines:
            messages.error(request, line)
        return back
    except ServiceError as error:
        messages.error(request, plain(error.message))
        return back
    messages.success(request, ngettext("%(count)s game imported.", "%(count)s games imported.", len(games))
                     % {"count": len(games)})
    return back


def _arbitrated(request, tournament_id) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_arbitrate(request.user, tournament):
        raise PermissionDenied(_("only the tournament's arbiters see this page"))
    return tournament


@login_required
@require_POST
def case_decide(request, case_id: int):
    case = get_object_or_404(OverstepCase.objects.select_related("game__tournament", "game__white", "game__black"),
                             pk=case_id)
    if not can_arbitrate(request.user, case.game.tournament):
        raise PermissionDenied(_("only the tournament's arbiters decide its cases"))
    back = redirect("tournament", tournament_id=case.game.tournament_id)
    form = CaseDecisionForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, labelled(form.fields[field].label or plain(field), error)
                               if field in form.fields else error)
        return back
    data = form.cleaned_data
    now = timezone.now()
    if data["decision"] == "confirm" and not data["confirmed"]:
        if case.kind == "overstep":
            loser = case.game.user_of(case.player).username
            question = _("Confirm case %(case)s: %(player)s (%(name)s) lost game #%(game)s on time (%(used)s of"
                         " %(allowed)s days in control %(control)s)? The game ends with this result; only a"
                         " reopening by an arbiter undoes it.") % {
                "case": case.pk, "player": word(case.player), "name": loser, "game": case.game_id,
                "used": case.used_days, "allowed": case.allowed_days, "control": case.control_number}
        else:
            question = cited(_("Confirm case %(case)s: %(player)s sent move %(move)s by ordinary mail in time"
                               " trouble? A penalty is added (50.4.9.3).") % {
                "case": case.pk, "player": word(case.player), "move": case.through_move})
        return render(request, "corr/confirm.html", {"game": case.game, "question": question,
                                                     "data": request.POST, "action": request.path})
    try:
        if data["decision"] == "confirm":
            overstep_confirm(case=case, by=request.user, now=now, today=local_today(case.game.tournament, now))
        else:
            overstep_dismiss(case=case, by=request.user, reason=data["reason"], now=now)
    except ServiceError as error:
        messages.error(request, plain(error.message))
    else:
        messages.success(request, (_("Case %(case)s confirmed.") if data["decision"] == "confirm"
                                   else _("Case %(case)s dismissed.")) % {"case": case.pk})
    return back


REPORT_SECTIONS = ("deadlines_soon", "time_trouble", "overstep_cases", "long_moves")
REPORT_TITLES = {"deadlines_soon": gettext_lazy("deadlines soon"), "time_trouble": gettext_lazy("time trouble"),
                 "overstep_cases": gettext_lazy("overstep cases"),
                 # ICCF Playing Rules 3b: the notice lifts the silence limit; an exceeded time limit is the arbiter's.
                 "long_moves": gettext_lazy("\"Use 40+ days\" notices: moves that may take more than 40 days, for"
                                            " the arbiter to judge (ICCF Playing Rules 3b)")}


@login_required
def report_page(request, tournament_id: int, on):
    tournament = _arbitrated(request, tournament_id)
    report = get_object_or_404(NightlyReport, tournament=tournament, date=on)
    ids = {item["game"] for name in REPORT_SECTIONS for item in report.data.get(name, [])}
    games = Game.objects.select_related("white", "black").in_bulk(ids)
    sections = [(REPORT_TITLES[name], [_report_item(item, games.get(item["game"]))
                                       for item in report.data.get(name, [])])
                for name in REPORT_SECTIONS]
    return render(request, "corr/report.html", {"tournament": tournament, "report": report, "sections": sections})


def _report_item(item: dict, game: Game | None) -> dict:
    """A report's line with its dates as dates and the player's turn that night in words (``turn_text``)."""
    deadline = date.fromisoformat(item["deadline"]) if item.get("deadline") else None
    until = date.fromisoformat(item["until"]) if item.get("until") else None
    state = item.get("state")
    words = ""
    if state:  # reports written before issue 25 carry no state
        post = state == TurnState.IN_THE_POST
        turn = Turn(item["player"], TurnState(state), until=until if post else deadline,
                    sender=other(item["player"]) if post else None)
        words = turn_text(turn, names=_names(game) if game is not None else None)
    return {**item, "deadline": deadline, "words": words}


@login_required
def report_csv(request, tournament_id: int, on):
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

