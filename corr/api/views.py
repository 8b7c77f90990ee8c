"""The REST API: thin views that validate input, call one service or selector, and serialise.

Paths and fields here are a public contract (see docs/api.md); add beside them.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from accounts.signin import LockedOut, password_sign_in
from accounts.services import user_settings_change
from accounts.tokens import ExpiringTokenAuthentication, token_issue, token_key, token_valid
from corr.feeds.tokens import calendar_feed_get, calendar_url
from corr.games import services
from corr.games.services import leave as leave_services
from corr.games.services.conditional import (
    conditional_cancel, conditional_get, conditional_json, conditional_replace, tree_state,
)
from corr.games.services.trips import trip, usable as trip_usable
from corr.games.services.variants import variant_record
from corr.games import leaves as leave_selectors
from corr.games.clockstate import GameTime, clock_as_of, game_file, instant_text, local_today, moment_text
from corr.games.draws import draw_offer_json
from corr.games.errors import InvalidInput, NotAllowed
from corr.games.plan_selectors import game_latest_send
from corr.games.permissions import can_arbitrate, can_view
from corr.games.timeleft import game_time_left
from corr.web.describe import vacation_texts
from corr.games.turns import game_turns, turns_json
from corr.games.reply_notes import reply_notes
from corr.games.selectors import (
    clock_json, game_clock_view, game_clock_view_json, game_get, game_rows, game_time_get, games_visible,
    tournaments_of_user,
)
from corr.jsonbytes import json_bytes, json_object_join
from corr.rulebooks import cited
from corr.models import Game, GameEvent, Mode, Tournament

from . import serializers as s
from .errors import answer_language
from .idempotency import HEADER as IDEMPOTENCY_HEADER, idempotent
from .move_input import ledger_wanted, move_input


def _game(request, game_id: int) -> Game:
    try:
        game = game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise NotFound(_("no game %(id)s") % {"id": game_id}) from None
    if not can_view(request.user, game):
        raise NotAllowed(_("you are neither a player of this game nor an arbiter of its tournament"))
    return game


def _today(game_or_tournament) -> "date":  # noqa: F821
    tournament = getattr(game_or_tournament, "tournament", game_or_tournament)
    return local_today(tournament, timezone.now())


def game_body(game: Game, time: GameTime, warnings: list[str] | None = None, *, ledger: bool = True,
              draw_offer: dict | None = None) -> dict:
    """The game as the API shows it; ``clock`` is exactly the calculator's JSON result.

    ``ledger`` False: ``clock`` without its ``ledger`` (the move's 201 answer unless asked for), and no
    ``latest_send`` (``corr.games.plan_selectors``: GET's, computed only where the full clock is shown).
    ``draw_offer``: the standing offer (``corr.games.draws``); a move's answer has none, the move lapsed it.
    """
    body = s.game_summary(game)
    body["to_move"] = time.to_move
    pending = time.assembled.pending
    body["pending"] = None if pending is None else pending.as_json()
    body["draw_offer"] = draw_offer
    body["turn"] = turns_json(game_turns(game=game, time=time))
    body["time_left"] = {colour: left.as_json() for colour, left in game_time_left(game=game, time=time).items()}
    if game.tournament.vacation is not None:  # issue 40: the page's sentence, in the answer's language
        body["vacation_text"] = vacation_texts(time.clock.vacation, as_of=moment_text(time.clock.as_of))
    if ledger:  # a server's conditional reply named by its line (issue 28, 50.4.8), as GET says it
        # Planning ahead (issue 41), as GET says it; a move's short answer (no ledger) spares the computations.
        body["latest_send"] = {colour: latest.as_json() for colour, latest in game_latest_send(
            game=game, time=time, now=time.clock.as_of).items()}
        body["clock"] = clock_json(time.clock, reply_notes(game, time))
    else:
        clock = time.clock
        body["clock"] = {"as_of": moment_text(clock.as_of),
                         "players": {pid: account.as_json() for pid, account in clock.accounts.items()}}
    if warnings is not None:  # worded now, in the answer's language (the API's detail's: corr.api.errors)
        body["warnings"] = [cited(str(w)) for w in warnings]
    return body


class TokenView(APIView):
    """POST /api/auth/token/ {"username", "password"} -> {"token"}.

    Throttled per client address (scope ``sign-in``), and locked out per
    username and address by django-axes after ``AXES_FAILURE_LIMIT`` failures
    (429 with ``Retry-After``). The token is valid ``TOKEN_TTL_DAYS`` days.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "sign-in"

    @extend_schema(request=s.TokenRequest, responses={200: s.TokenOut})
    def post(self, request):
        data = s.validated(s.TokenRequest, request.data)
        try:
            user = password_sign_in(request=request, username=data["username"], password=data["password"])
        except LockedOut as locked:
            return Response({"detail": str(_("too many failed sign-ins for this username from this address; try"
                                             " again in %(minutes)s minutes")) % {"minutes": locked.retry_after // 60}},
                            status=429, headers={"Retry-After": str(locked.retry_after)})
        if user is None:
            return Response({"detail": str(_("username or password is wrong")), "field": "password"}, status=400)
        return Response({"token": token_issue(user=user, now=timezone.now()).key})


class UsersView(APIView):
    @extend_schema(request=s.UserCreate, responses={201: s.UserOut})
    @idempotent
    def post(self, request):
        data = s.validated(s.UserCreate, request.data)
        user = services.participant_create(by=request.user, **data)
        return Response({"id": user.pk, "username": user.username, "email": user.email}, status=201)


class MeView(APIView):
    @extend_schema(responses=s.UserOut)
    def get(self, request):
        u = request.user
        # The calendar's address is made the first time it is asked for (one row per user, race-safe).
        feed = calendar_feed_get(user=u)
        return Response({"id": u.pk, "username": u.username, "email": u.email, "is_arbiter": u.is_arbiter,
                         "vision": u.vision, "calendar_url": calendar_url(feed)})

    @extend_schema(request=s.MeChange, responses=s.UserOut)
    def patch(self, request):
        """The user's own settings: ``vision`` (the warnings live games speak, 001 1.7.9)."""
        data = s.validated(s.MeChange, request.data)
        u = user_settings_change(user=request.user, **data)
        return Response({"id": u.pk, "username": u.username, "email": u.email, "is_arbiter": u.is_arbiter,
                         "vision": u.vision})


class TournamentsView(APIView):
    @extend_schema(responses=s.TournamentOut(many=True), operation_id="tournaments_list")
    def get(self, request):
        tournaments = tournaments_of_user(user=request.user).prefetch_related("arbiters")
        return Response([s.TournamentOut(t).data for t in tournaments])

    @extend_schema(request=s.TournamentCreate, responses={201: s.TournamentOut})
    @idempotent
    def post(self, request):
        data = s.validated(s.TournamentCreate, request.data)
        tournament = services.tournament_create(by=request.user, **data)
        return Response(s.TournamentOut(tournament).data, status=201)


class TournamentView(APIView):
    @extend_schema(responses=s.TournamentOut)
    def get(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not tournaments_of_user(user=request.user).filter(pk=tournament.pk).exists():
            raise NotAllowed(_("you neither play in nor arbitrate this tournament"))
        return Response(s.TournamentOut(tournament).data)

    @extend_schema(request=s.TournamentChange, responses={200: s.TournamentOut})
    def patch(self, request, tournament_id: int):
        """Change the rules or clock settings (arbiters): every game's clocks and cases follow at once."""
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not can_arbitrate(request.user, tournament):
            raise NotAllowed(_("only the tournament's arbiters change its rules"))
        data = s.validated(s.TournamentChange, request.data)
        tournament = services.tournament_rules_change(tournament=tournament, by=request.user, now=timezone.now(),
                                                      **data)
        return Response(s.TournamentOut(tournament).data)


class GamesView(APIView):
    @extend_schema(responses=s.GameSummaryOut(many=True), operation_id="games_list", parameters=[s.GamesQuery])
    def get(self, request):
        """The games you play and those of the tournaments you arbitrate; ``?tournament=ID``: that tournament's."""
        query = s.GamesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = games_visible(user=request.user, tournament_id=query.validated_data.get("tournament"))
        return Response([s.game_summary(g) for g in games])

    @extend_schema(request=s.GameCreate, responses={201: s.GameOut})
    @idempotent
    def post(self, request):
        # Permission before any lookup: a participant learns nothing about which tournaments or
        # usernames exist, whatever they send; an arbiter learns usernames only in their tournaments.
        if not request.user.is_arbiter:
            raise NotAllowed(_("only the tournament's arbiters create its games"))
        data = s.validated(s.GameCreate, request.data)
        if data.get("handicap_stones"):
            raise InvalidInput(_("handicap_stones is for live Go games (free handicap placement): this tournament is"
                                 " not a live one"), field="handicap_stones")
        tournament = Tournament.objects.filter(pk=data["tournament"]).first()
        if tournament is None:
            raise InvalidInput(_("no tournament %(id)s"), field="tournament", id=data["tournament"])
        if not can_arbitrate(request.user, tournament):
            raise NotAllowed(_("only the tournament's arbiters create its games"))
        players = {u.username: u for u in User.objects.filter(username__in=[data["white"], data["black"]])}
        for colour in ("white", "black"):
            if data[colour] not in players:
                raise InvalidInput(_("no user %(name)s"), field=colour, name=repr(data[colour]))
        game = services.game_create(by=request.user, tournament=tournament, white=players[data["white"]],
                                    black=players[data["black"]], first=data.get("first"), mode=data.get("mode"),
                                    kind=data.get("kind", ""), today=_today(tournament),
                                    starts_at=data.get("starts_at"))
        time, _rows = game_time_get(game=game, as_of=_today(tournament))
        return Response(game_body(game, time), status=201)


class GameView(APIView):
    """GET /api/games/{id}/: the game and its clock as of today (tournament's time zone)."""

    @extend_schema(responses=s.GameOut)
    def get(self, request, game_id: int):
        # No docstring: the schema takes the class's as the operation's description.
        game = _game(request, game_id)
        if game.mode == Mode.LIVE:  # told by the read the permission needs: no statement to ask (issue 13)
            return self.live_get(request, game)
        as_of = clock_as_of(game, timezone.now())  # today's date; the second under an instant count (issue 22)
        if request.accepted_renderer.format == "json":
            # The clock's part is written as cached, already rendered: a read of a long game renders only its
            # summary, as a short game's does. The summary and that part share no key, so the joined bytes are
            # the renderer's output for their union, to the byte; DRF adds the headers it adds to any answer
            # of this view (Allow, Vary: Accept), and the media type is the renderer's.
            body = json_object_join(json_bytes(s.game_summary(game)), game_clock_view_json(game=game, as_of=as_of))
            if game.tournament.vacation is not None:  # worded in the answer's language: not in the cached part
                body = json_object_join(body, json_bytes({"vacation_text": _vacation_words(game, as_of)}))
            return HttpResponse(body, content_type=request.accepted_renderer.media_type)
        # The browsable API renders the dict (the same cache entry, parsed).
        body = s.game_summary(game) | game_clock_view(game=game, as_of=as_of)
        if game.tournament.vacation is not None:
            body["vacation_text"] = _vacation_words(game, as_of)
        return Response(body)

    def live_get(self, request, game: Game):
        """A live game's clocks: the live service's (``corr.api.live_views.GameView``, the routed view)."""
        raise InvalidInput(_("a live game's clocks are read through the live service"), field="game")


def _vacation_words(game: Game, as_of) -> dict:
    """``vacation_text`` of GET (issue 40): each player's vacation worded as the game page words it, from the
    cached clock view's ``players.<colour>.vacation`` (read only in tournaments with a vacation rule)."""
    clock = game_clock_view(game=game, as_of=as_of)["clock"]
    return vacation_texts({colour: player.get("vacation") for colour, player in clock["players"].items()},
                          as_of=clock["as_of"])


class GameEventsView(APIView):
    """GET /api/games/{id}/events/: the game as a game file for ``manage.py clock``.

    A live game's is the live game file (events at ISO 8601 instants, ``now`` the server's), as the game
    page's download: the correspondence file of a clock in seconds was one the command refuses.
    """

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, game_id: int):
        game = _game(request, game_id)
        if game.mode == Mode.LIVE:  # told by the read the permission needs
            from corr.live.state import live_game_file

            return Response(live_game_file(game))
        return Response(game_file(game, game_rows(game=game), _today(game)))


class GameHistoryView(APIView):
    """GET /api/games/{id}/history/: every stored event, corrections and withdrawals included."""

    @extend_schema(responses=s.HistoryOut(many=True))
    def get(self, request, game_id: int):
        game = _game(request, game_id)
        rows = GameEvent.objects.filter(game=game).select_related("entered_by", "supersedes").order_by("seq")
        return Response([{
            "seq": r.seq, "kind": r.kind, "player": r.player, "number": r.number, "notation": r.notation,
            "received_on": r.received_on and r.received_on.isoformat(),
            "sent_on": r.sent_on and r.sent_on.isoformat(),
            "received_at": instant_text(r.received_at), "sent_at": instant_text(r.sent_at),
            "void": r.void, "variant": r.variant, "mail": r.mail,
            "reason": r.reason, "days": r.days, "note": r.note,
            "supersedes": r.supersedes.seq if r.supersedes else None,
            "entered_by": r.entered_by.username if r.entered_by else None, "entered_at": r.entered_at.isoformat(),
        } for r in rows])


class _GameAction(APIView):
    """A POST that stores one event through one service and answers 201 with the updated game."""

    input = None
    call = None  # the one service it runs: ``call(user, game, data, today)`` (a preview runs it too, issue 41)
    ends_game = False  # only the result changes a game's status; other actions need not reload it

    def act(self, request, game: Game, data: dict, today):  # pragma: no cover - abstract
        raise NotImplementedError

    @idempotent
    def post(self, request, game_id: int):
        game = _game(request, game_id)
        data = s.validated(self.input, request.data)
        today = _today(game)
        result = self.act(request, game, data, today)
        time, warnings = result if isinstance(result, tuple) else (result, None)
        if self.ends_game:
            game.refresh_from_db(fields=["status", "result", "termination"])
        offer = draw_offer_json(game_rows(game=game)) if game.mode == Mode.SERVER else None
        with translation.override(answer_language(request)):
            body = game_body(game, time, warnings, draw_offer=offer)
        return Response(body, status=status.HTTP_201_CREATED)


def _game_action(name: str, input_class, call, *, ends_game: bool = False) -> type[_GameAction]:
    """A game action view: ``call(user, game, data, today)`` is the one service it runs."""

    @extend_schema(request=input_class, responses={201: s.GameOut})
    class View(_GameAction):
        def act(self, request, game, data, today):
            return self.call(request.user, game, data, today)

    View.__name__ = View.__qualname__ = name
    View.input, View.ends_game, View.call = input_class, ends_game, staticmethod(call)
    return View


def _result(user, game, data, today):
    game = services.game_finish(game=game, by=user, today=today, **data)
    return game_time_get(game=game, as_of=today)[0]


class _Unproven(Exception):
    """The game's locking read found no valid token of the caller's key: authenticate as DRF does, then again."""


class MovesView(APIView):
    """POST /api/games/{id}/moves/: the player to move stores their move; 201 with the updated game.

    The request's one path to the database (PostgreSQL): a statement that locks
    the game and reads it with its events, leave and cases (BEGIN sent with
    it) and, for a caller signed in by an API token, that token and its user;
    one that stores the event, the version and both clocks (COMMIT sent
    with it). The answer's ``clock`` carries the ``ledger`` only with ``?ledger=1``.
    """

    def perform_authentication(self, request):
        # A token's lookup was a round trip of its own, a third of a move's (issue 42): where the move takes the
        # two-trip path, the key is read with the game (``_token_deferred``) and the user set from that row.
        if self._token_deferred(request) is None:
            super().perform_authentication(request)

    def check_permissions(self, request):
        if self._token_deferred(request) is None:  # checked in post(), once the user is known
            super().check_permissions(request)

    @staticmethod
    def _token_deferred(request) -> str | None:
        """The key whose token the locking read reads; None where the request authenticates as usual.

        Deferred only on the two-trip path (``trip_usable()``; no ``Idempotency-Key``, whose record opens
        ``atomic``), for a well-formed ``Authorization: Token`` header read first by DRF (the view's first
        authenticator is :class:`ExpiringTokenAuthentication`), and while nothing has authenticated the request
        yet. A malformed header raises DRF's 401 here, as it would have.
        """
        if not hasattr(request, "_corr_token_key"):
            first = request.authenticators[0] if request.authenticators else None
            deferred = (request.method == "POST" and not request.META.get(IDEMPOTENCY_HEADER, "").strip()
                        and isinstance(first, ExpiringTokenAuthentication) and trip_usable()
                        and not hasattr(request, "_user"))
            request._corr_token_key = token_key(request) if deferred else None
        return request._corr_token_key

    @extend_schema(request=s.MoveInput, responses={201: s.GameOut}, parameters=[s.MoveQuery])
    @idempotent
    def post(self, request, game_id: int):
        try:
            return self._post(request, game_id, self._token_deferred(request))
        except _Unproven:
            # Unknown, expired or inactive: DRF's authentication answers 401 and says why (and deletes an
            # expired token), outside the rolled-back transaction. A token valid by now moves as usual.
            request._corr_token_key = None
            self.perform_authentication(request)
            self.check_permissions(request)
            return self._post(request, game_id, None)

    def _post(self, request, game_id: int, key: str | None):
        # Outside any atomic block (PostgreSQL), BEGIN travels with the locking read and COMMIT with the
        # store: two round trips, not four (issue 13). Inside one (an Idempotency-Key's record), atomic.
        with trip() if trip_usable() else transaction.atomic() as current:
            try:
                locked = services.game_lock_read(game_id=game_id, trip=current, token_key=key)
            except Game.DoesNotExist:
                if key is not None:
                    raise _Unproven from None  # no such game, or no such token: the caller first
                raise NotFound(_("no game %(id)s") % {"id": game_id}) from None
            if key is not None:
                if not token_valid(locked.token, now=timezone.now()):
                    raise _Unproven
                request.user, request.auth = locked.token.user, locked.token
                # The authenticator DRF would have recorded: read by permission_denied(), private to DRF's Request.
                request._authenticator = request.authenticators[0]
                self.check_permissions(request)
            if not can_view(request.user, locked.game):
                raise NotAllowed(_("you are neither a player of this game nor an arbiter of its tournament"))
            live = locked.game.mode == Mode.LIVE
            if not live:
                data = move_input(request.data)
                ledger = ledger_wanted(request.query_params)
                time, warnings = services.move_store(locked=locked, by=request.user, today=_today(locked.game),
                                                     **data)
        if live:
            # Told by the same locking read, so a correspondence move pays no statement to ask (issue 13).
            return self.live_move(request, game_id)
        # After COMMIT: the row lock is not held while the answer is built.
        with translation.override(answer_language(request)):
            body = game_body(locked.game, time, warnings, ledger=ledger)
        return Response(body, status=status.HTTP_201_CREATED)

    def live_move(self, request, game_id: int):
        """A live game's press: the live service's (``corr.api.live_views.MovesView``, the routed view)."""
        raise InvalidInput(_("a live game's moves are pressed through the live service"), field="number")


class ConditionalView(APIView):
    """GET/PUT/DELETE /api/games/{id}/conditional/: the caller's own pending conditional moves (issue 28).

    Each player's tree is theirs alone: the partner's request reads, replaces or cancels the partner's
    own, never the owner's, and nothing says whether the other player has one. Arbiters and anyone
    else get 403. PUT only while the partner is to move (409 otherwise: a tree is sent with the move).
    GET warns the owner of a tree that will not fire, the game's position having changed since it was built
    (``changed``, ``warning``: ``tree_state``).
    """

    @extend_schema(responses=s.ConditionalOut)
    def get(self, request, game_id: int):
        game = _game(request, game_id)
        tree = conditional_get(game=game, by=request.user)
        return Response(conditional_json(tree, tree_state(game, tree)))

    @extend_schema(request=s.ConditionalInput, responses={200: s.ConditionalOut})
    def put(self, request, game_id: int):
        game = _game(request, game_id)
        data = s.validated(s.ConditionalInput, request.data)
        tree = conditional_replace(game=game, by=request.user, conditional=data["conditional"], today=_today(game))
        return Response(conditional_json(tree))

    @extend_schema(responses={204: None})
    def delete(self, request, game_id: int):
        game = _game(request, game_id)
        conditional_cancel(game=game, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


VariantsView = _game_action("VariantsView", s.VariantInput, lambda u, g, d, t: variant_record(
    game=g, by=u, today=t, **d))
ReceiptsView = _game_action("ReceiptsView", s.ReceiptInput, lambda u, g, d, t: services.receipt_record(
    game=g, by=u, today=t, **d))
NoticesView = _game_action("NoticesView", s.NoticeInput, lambda u, g, d, t: services.notice_submit(
    game=g, by=u, today=t, **d))
PenaltiesView = _game_action("PenaltiesView", s.PenaltyInput, lambda u, g, d, t: services.penalty_assess(
    game=g, by=u, today=t, **d))
DelaysView = _game_action("DelaysView", s.DelayInput, lambda u, g, d, t: services.delay_assess(
    game=g, by=u, today=t, **d))
StartNoticesView = _game_action("StartNoticesView", s.StartNoticeInput, lambda u, g, d, t: (
    services.start_notice_record(game=g, by=u, today=t, **d)))
CorrectionsView = _game_action("CorrectionsView", s.CorrectionInput, lambda u, g, d, t: services.event_correct(
    game=g, by=u, seq=d.pop("event"), note=d.pop("note"), changes=d, today=t))
WithdrawalsView = _game_action("WithdrawalsView", s.WithdrawalInput, lambda u, g, d, t: services.event_withdraw(
    game=g, by=u, seq=d["event"], note=d["note"], today=t))
ResultView = _game_action("ResultView", s.ResultInput, _result, ends_game=True)
CreditsView = _game_action("CreditsView", s.CreditInput, lambda u, g, d, t: services.credit_give(
    game=g, by=u, today=t, **d))
GiftsView = _game_action("GiftsView", s.GiftInput, lambda u, g, d, t: services.gift_give(
    game=g, by=u, today=t, **d))

PausesView = _game_action("PausesView", s.PauseInput, lambda u, g, d, t: services.pause_take(
    game=g, by=u, until=d["until"], now=timezone.now()))
"""POST /api/games/{id}/pauses/: a player pauses their own clock until an instant (OGS, issue 40)."""
VacationsView = _game_action("VacationsView", s.VacationInput, lambda u, g, d, t: services.vacation_book(
    game=g, by=u, starts=d["starts"], until=d["until"], now=timezone.now()))
"""POST /api/games/{id}/vacations/: a vacation booked ahead or started now (issue 40)."""


def _reopen(user, game, data, today):
    game = services.game_reopen(game=game, by=user, today=today, **data)
    return game_time_get(game=game, as_of=today)[0]


ReopenView = _game_action("ReopenView", s.ReopenInput, _reopen, ends_game=True)


def _players_result(service):
    """A player's resignation or answer to a draw offer (issue 26): ``service``, then the game as of today."""

    def call(user, game, data, today):
        game = service(game=game, by=user, today=today)
        return game_time_get(game=game, as_of=clock_as_of(game, timezone.now()))[0]
    return call


ResignView = _game_action("ResignView", s.NoInput, _players_result(services.game_resign), ends_game=True)
DrawOfferView = _game_action("DrawOfferView", s.NoInput, _players_result(services.draw_offer_make))
DrawAcceptView = _game_action("DrawAcceptView", s.NoInput, _players_result(services.draw_offer_accept),
                              ends_game=True)
DrawDeclineView = _game_action("DrawDeclineView", s.NoInput, _players_result(services.draw_offer_decline))
DrawClaimView = _game_action("DrawClaimView", s.NoInput, _players_result(services.draw_claim), ends_game=True)
LongMoveView = _game_action("LongMoveView", s.NoInput, _players_result(services.long_move_declare))
"""POST /api/games/{id}/long-move/: the player on move's "Use 40+ days" notice (ICCF Playing Rules 3b, issue 40)."""
CalendarView = _game_action("CalendarView", s.CalendarInput, lambda u, g, d, t: game_time_get(
    game=services.calendar_set(game=g, by=u, today=t, now=timezone.now(), **d),
    as_of=clock_as_of(g, timezone.now()))[0])
"""POST /api/games/{id}/calendar/: a player's own weekend and night, before their own clock first runs (issue 40)."""



def _leaves_body(user) -> dict:
    summary = leave_selectors.leave_summary(user=user, now=timezone.now())
    return s.LeavesOut(summary).data


class LeavesView(APIView):
    """GET /api/leaves/: the player's leave, and per tournament the allowance used and left.

    POST /api/leaves/ {"from", "to"}: book leave for every ongoing game whose tournament allows it
    (400 naming the rule broken: ``leave_min_days``, ``leave_book_ahead_days``, ``leave_days``, or
    the overlapping leave). The opponents are e-mailed.
    """

    @extend_schema(responses=s.LeavesOut)
    def get(self, request):
        return Response(_leaves_body(request.user))

    @extend_schema(request=s.LeaveInput, responses={201: s.LeaveOut})
    @idempotent
    def post(self, request):
        data = s.validated(s.LeaveInput, request.data)
        leave = leave_services.leave_book(by=request.user, first=data["from"], last=data["to"], now=timezone.now())
        return Response(s.LeaveOut(leave).data, status=status.HTTP_201_CREATED)


class LeaveView(APIView):
    """DELETE /api/leaves/{id}/: cancel one's own leave that has not begun (204)."""

    @extend_schema(responses={204: None})
    def delete(self, request, leave_id: int):
        leave_services.leave_cancel(by=request.user, leave_id=leave_id, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


SpecialLeaveView = _game_action("SpecialLeaveView", s.SpecialLeaveInput, lambda u, g, d, t: (
    leave_services.special_leave_grant(by=u, game=g, player=d["player"], first=d["from"], last=d["to"],
                                       reason=d["reason"], now=timezone.now())))
