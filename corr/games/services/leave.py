"""Leave: players book it within their tournaments' rules, arbiters grant special leave (issue 14).

Every booking, cancellation and grant recomputes the stored clocks of the games it stops (each game
locked, in id order, as the nightly job locks them) and adds a line to each game's history.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.models import AllowancePer, EventKind, Game, Leave, Mode, Tournament

from ..cases import history_append
from ..notices import Change, notice_on_commit
from ..clockstate import GameTime, local_today
from ..errors import InvalidInput, NotAllowed, day_word
from ..records import record_text
from ..leaves import days_in_year, games_leave_stops, leave_applies, leave_forget, leave_used, ongoing_games
from .arbiters import colour_checked, ensure_arbiter
from .storage import game_lock, game_recompute


def _check_rules(tournament: Tournament, user: User, first: date, last: date, today: date) -> None:
    """One tournament's rules for a new booking. :raises InvalidInput: naming the rule (the tournament field)."""
    days = (last - first).days + 1
    name = tournament.name
    if days < tournament.leave_min_days:
        raise InvalidInput(_("leave_min_days: %(name)s requires leave of at least %(min)s day(s); %(first)s to"
                             " %(last)s is %(days)s"), field="to", name=name, min=tournament.leave_min_days,
                           first=day_word(first), last=day_word(last), days=days)
    earliest = today + timedelta(days=tournament.leave_book_ahead_days)
    if first < earliest:
        raise InvalidInput(_("leave_book_ahead_days: %(name)s requires leave to be booked %(ahead)s day(s) before"
                             " it begins; the earliest first day now is %(earliest)s"), field="from", name=name,
                           ahead=tournament.leave_book_ahead_days, earliest=day_word(earliest))
    allowance = tournament.leave_days
    if tournament.leave_per == AllowancePer.EVENT:
        used = leave_used(user=user, tournament=tournament, year=None)
        if used + days > allowance:
            raise InvalidInput(_("leave_days: %(name)s allows %(allowance)s day(s) of leave for the event;"
                                 " %(used)s used, %(left)s left, %(asked)s asked"), field="to", name=name,
                               allowance=allowance, used=used, left=allowance - used, asked=days)
        return
    for year in range(first.year, last.year + 1):
        used = leave_used(user=user, tournament=tournament, year=year)
        asked = days_in_year(first, last, year)
        if used + asked > allowance:
            raise InvalidInput(_("leave_days: %(name)s allows %(allowance)s day(s) of leave per calendar year;"
                                 " %(used)s used in %(year)s, %(left)s left, %(asked)s asked"), field="to",
                               name=name, allowance=allowance, used=used, year=year, left=max(0, allowance - used),
                               asked=asked)


@transaction.atomic
def leave_book(*, by: User, first: date, last: date, now: datetime) -> Leave:
    """Book leave ``first``..``last`` for every ongoing game of ``by`` whose tournament allows leave.

    Every such tournament's rules must hold (minimum length, booking ahead, the allowance); the
    booking may not overlap another leave of the player. The games' clocks are recomputed and the
    opponents e-mailed (queued after commit).
    :raises InvalidInput: naming the rule broken (``leave_min_days``, ``leave_book_ahead_days``,
        ``leave_days``) or the overlapping leave.
    """
    if last < first:
        raise InvalidInput(_("to %(last)s is before from %(first)s (both days are included)"), field="to",
                           last=day_word(last), first=day_word(first))
    # Lock the player's row so that two bookings at once cannot both fit the allowance or both miss
    # the other's overlap (their leave rows may not exist yet to be locked).
    User.objects.select_for_update().filter(pk=by.pk).first()
    # An imported game's own leave (issue 37) is that game's record, not a booking the new one could overlap.
    mine = list(Leave.objects.filter(user=by, game__isnull=True).order_by("first"))
    for other in mine:
        if other.first <= last and first <= other.last:
            raise InvalidInput(_("overlaps your leave #%(id)s from %(first)s to %(last)s"), field="from", id=other.pk,
                               first=day_word(other.first), last=day_word(other.last))
    games = games_leave_stops(by)
    if not games:
        raise InvalidInput(_("none of your ongoing games is in a tournament that allows leave"), field="from")
    for tournament in {g.tournament_id: g.tournament for g in games}.values():
        _check_rules(tournament, by, first, last, local_today(tournament, now))
    leave = Leave.objects.create(user=by, first=first, last=last)
    _games_follow(games, leave, by=by, now=now,
                  note=lambda colour: record_text("leave_booked", player=colour, first=first, last=last))
    _opponents_email(games, leave, by)
    return leave


@transaction.atomic
def leave_cancel(*, by: User, leave_id: int, now: datetime) -> None:
    """Cancel one of ``by``'s own bookings that has not begun; the games' clocks follow.

    :raises NotAllowed: for another player's leave or special leave (the arbiters').
    :raises InvalidInput: for leave that has begun.
    """
    leave = Leave.objects.select_for_update().filter(pk=leave_id, user=by).first()
    if leave is None:
        raise NotAllowed(_("you have no leave #%(id)s"), id=leave_id)
    if leave.special:
        raise NotAllowed(_("special leave is granted and withdrawn by the arbiters"))
    games = [g for g in ongoing_games(by) if leave_applies(leave, g.tournament)]
    tournaments = [g.tournament for g in games]
    today = max((local_today(t, now) for t in tournaments), default=now.date())
    if leave.first <= today:
        raise InvalidInput(_("leave #%(id)s began on %(first)s: only leave that has not begun can be cancelled"),
                           field="id", id=leave.pk, first=day_word(leave.first))
    first, last = leave.first, leave.last
    leave.delete()
    _games_follow(games, None, by=by, now=now,
                  note=lambda colour: record_text("leave_cancelled", player=colour, first=first, last=last))


@transaction.atomic
def special_leave_grant(*, by: User, game: Game, player: str, first: date, last: date, reason: str,
                        now: datetime) -> GameTime:
    """Grant ``player`` of ``game`` special leave in its tournament, beyond the allowance (illness, outage).

    An arbiter of the tournament who plays in none of the player's games there; every ongoing game of
    the player in the tournament gets the leave, a history line with the reason, and new clocks.
    :returns: ``game``'s new time.
    :raises InvalidInput: for reversed dates or an empty reason.
    """
    colour = colour_checked(player)
    if game.mode == Mode.LIVE:  # its clock runs at the board, in seconds: no day of it can be leave
        raise InvalidInput(_("leave is for correspondence games: game %(game)s is live"), field=None, game=game.pk)
    if last < first:
        raise InvalidInput(_("to %(last)s is before from %(first)s (both days are included)"), field="to",
                           last=day_word(last), first=day_word(first))
    if not reason.strip():
        raise InvalidInput(_("reason is required: special leave says why it is granted"), field="reason")
    user = game.user_of(colour)
    games = ongoing_games(user, game.tournament)
    for other in games or [game]:
        ensure_arbiter(other, by)
    leave = Leave.objects.create(user=user, first=first, last=last, tournament=game.tournament, special=True,
                                 reason=reason, granted_by=by)
    def note(colour):
        return record_text("leave_granted", player=colour, first=first, last=last, name=by.username, reason=reason)

    times = _games_follow(games, leave, by=by, now=now, note=note, user=user)
    if game.pk in times:
        return times[game.pk]
    locked, _rows = game_lock(game)
    return game_recompute(locked, by=by, today=local_today(locked.tournament, now), cause=note(colour))


@transaction.atomic
def game_leave_import(*, by: User, game: Game, player: str, first: date, last: date, today: date) -> Leave:
    """Store ``first``..``last`` as the leave of ``player`` in ``game`` alone: the leave an imported game's file
    records (issue 37, ``[%ccleave]``), granted by ``by``, the importing arbiter, as the game's special leave.

    It stops that game's clocks only: the player's other games, in this tournament or any other, keep theirs,
    and no allowance is used (special leave never is). A history line says it; the clocks are recomputed.
    :raises NotAllowed: ``by`` may not rule on the game. :raises InvalidInput: for reversed dates.
    """
    colour = colour_checked(player)
    locked, _rows = game_lock(game)
    ensure_arbiter(locked, by)
    if last < first:
        raise InvalidInput(_("to %(last)s is before from %(first)s (both days are included)"), field="to",
                           last=day_word(last), first=day_word(first))
    text = record_text("leave_imported", player=colour, first=first, last=last, name=by.username)
    leave = Leave.objects.create(user=locked.user_of(colour), first=first, last=last, tournament=locked.tournament,
                                 game=locked, special=True, reason=text, granted_by=by)
    history_append(game=locked, by=by, kind=EventKind.LEAVE, note=text, player=colour)
    game_recompute(locked, by=by, today=today, cause=text)
    leave_forget(game)
    return leave


def _games_follow(games: list[Game], leave: Leave | None, *, by: User, now: datetime, note,
                  user: User | None = None) -> dict[int, GameTime]:
    """Each game (locked in id order): a history line and new clocks. ``note(colour)``: the line's text."""
    user = user or by
    times = {}
    for game in sorted(games, key=lambda g: g.pk):
        locked, _rows = game_lock(game)
        colour = locked.colour_of(user)
        text = note(colour)
        history_append(game=locked, by=by, kind=EventKind.LEAVE, note=text, player=colour or "")
        times[game.pk] = game_recompute(locked, by=by, today=local_today(locked.tournament, now), cause=text)
    return times


def _opponents_email(games: list[Game], leave: Leave, by: User) -> None:
    """The partners of the player on leave are told after commit by the notifications (issue 38), once for the
    booking: each partner one e-mail listing their games it stops (issue 39), in their language, as they chose
    (``corr.notify``; this layer queues the notice by name, with the booking's first game and the leave's id)."""
    notice_on_commit(Change.LEAVE, game_id=games[0].pk, version=leave.pk, colour=games[0].colour_of(by) or "")
