"""The words of a notice, in the recipient's language and time zone, from the game page's wording functions.

Nothing here is worded anew that the game page already words (STYLE 17): the turn's banner is
``corr.web.turns.turn_sentence``, the time left ``corr.games.timeleft``'s worded by ``describe.time_left_text``
and ``time_left_why`` (the one answer, issue 39), the deadline ``corr.web.deadline.shown_deadline`` with the
page's "deadline", history notes ``corr.web.records``. Each function is called inside
``translation.override`` of the recipient's language (``in_language``).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from accounts.language import user_language
from corr.clock.assembly import other
from corr.games.clockstate import GameTime
from corr.games.timeleft import game_time_left
from corr.games.turns import game_turns
from corr.links import absolute_url
from corr.models import Colour, Game, GameStatus
from corr.clauses import labelled
from corr.web.deadline import reader_zone, shown_deadline
from corr.web.describe import time_left_text, time_left_why
from corr.web.records import record_words, termination_words
from corr.web.turns import turn_sentence

from .unsubscribe import preferences_url, unsubscribe_url


@contextmanager
def in_language(user):
    """Word what follows in ``user``'s language (``User.language``, else the site's default)."""
    with translation.override(user_language(user)):
        yield


@dataclass(frozen=True, slots=True)
class Worded:
    """A notice's subject and its block of text (the game, what happened, the state of the recipient's clock)."""

    subject: str
    text: str


def names(game: Game) -> dict[str, str]:
    return {"white": game.white.username, "black": game.black.username}


def game_line(game: Game) -> str:
    """``Game #12 (Spring cup): anna – boris``, as the game page's title names it."""
    return gettext("Game #%(game)s (%(tournament)s): %(white)s – %(black)s") % {
        "game": game.pk, "tournament": game.tournament.name, "white": game.white.username,
        "black": game.black.username}


def game_link(game: Game) -> str:
    return absolute_url(f"/games/{game.pk}/")


def clock_lines(*, game: Game, time: GameTime, user, colour: str) -> list[str]:
    """The recipient's clock as the game page says it: the turn's banner, the time left (and why it differs from
    the control's days, where it does), the deadline. Nothing once the game is over."""
    if game.status != GameStatus.ONGOING or not time.to_move:
        return []
    zone = reader_zone(user, game.tournament)
    turns = game_turns(game=game, time=time)
    lines = [turn_sentence(turns[time.to_move], zone=zone, reader=colour, names=names(game),
                           transit_days=game.tournament.presumed_transit_days)]
    account = time.clock.accounts[colour]
    left = game_time_left(game=game, time=time)[colour]
    shown = shown_deadline(turns[colour], game=game, user=user, remaining_seconds=account.remaining_seconds)
    lines.append(time_left_text(left) + ".")  # "2 d 03 h 12 min left.", as the page's card says it
    if why := time_left_why(left):
        lines.append(why)
    if shown is not None:
        lines.append(labelled(gettext("deadline"), shown.text))
    return lines


def block(game: Game, what: list[str], clock: list[str]) -> str:
    return "\n".join([game_line(game), *what, *clock, game_link(game)])


def your_move(*, game: Game, time: GameTime, user, colour: str, move) -> Worded:
    """The partner's ``move`` (its stored row) made ``colour`` the player to move."""
    values = {"game": game.pk, "name": game.user_of(other(colour)).username, "number": move.number,
              "move": move.notation, "next": time.assembled.made[colour] + 1}
    what = [gettext("%(name)s played move %(number)s: %(move)s.") % values]
    if move.variant == "conditional" and move.note:
        what.append(record_words(move.note) + ".")
    return Worded(gettext("Game #%(game)s: your move %(next)s (%(name)s played %(move)s)") % values,
                  block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def line_fired(*, game: Game, time: GameTime, user, colour: str, reply, answered, pending: str) -> Worded:
    """``colour``'s conditional line played ``reply`` (a row) to the partner's ``answered`` (a row); ``pending``:
    the rest of the line (``tree_text``), "" when nothing is left."""
    values = {"game": game.pk, "name": game.user_of(other(colour)).username, "move": answered.notation,
              "number": answered.number, "reply": reply.notation}
    what = [gettext("%(name)s played move %(number)s: %(move)s.") % values,
            gettext("Your conditional line replied %(reply)s for you.") % values + " "
            + record_words(reply.note) + "."]
    what.append(gettext("Still pending in your line: %(line)s") % {"line": pending} if pending
                else gettext("Nothing is left pending in your line."))
    return Worded(gettext("Game #%(game)s: your conditional line played %(reply)s") % values,
                  block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def game_started(*, game: Game, time: GameTime, user, colour: str) -> Worded:
    values = {"game": game.pk, "white": game.white.username, "black": game.black.username,
              "colour": Colour(colour).label, "partner": game.user_of(other(colour)).username}
    what = [gettext("A new game: you play %(colour)s against %(partner)s.") % values]
    return Worded(gettext("Game #%(game)s has started: %(white)s – %(black)s") % values,
                  block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def draw_news(*, change: str, game: Game, time: GameTime, user, colour: str) -> Worded:
    """The partner offered a draw (``draw_offer``), or accepted or declined ``colour``'s (``draw_accept``, ...)."""
    values = {"game": game.pk, "name": game.user_of(other(colour)).username, "result": game.result}
    subject, line = {
        "draw_offer": (gettext("Game #%(game)s: %(name)s offers a draw"),
                       gettext("%(name)s offers a draw: accept or decline it on the game page, or move.")),
        "draw_accept": (gettext("Game #%(game)s: %(name)s accepted your draw offer"),
                        gettext("%(name)s accepted your draw offer: the game is drawn (%(result)s).")),
        "draw_decline": (gettext("Game #%(game)s: %(name)s declined your draw offer"),
                         gettext("%(name)s declined your draw offer: the game goes on.")),
    }[change]
    return Worded(subject % values, block(game, [line % values],
                                          clock_lines(game=game, time=time, user=user, colour=colour)))


def result_news(*, change: str, game: Game, time: GameTime, user, colour: str) -> Worded:
    """The partner resigned (``resign``), an arbiter recorded a result (``result``) or reopened the game."""
    values = {"game": game.pk, "name": game.user_of(other(colour)).username, "result": game.result}
    if change == "resign":
        subject = gettext("Game #%(game)s: %(name)s resigned") % values
        what = [gettext("%(name)s resigned: the game is over (%(result)s).") % values]
    elif change == "reopen":
        subject = gettext("Game #%(game)s: an arbiter reopened the game") % values
        what = [gettext("An arbiter reopened the game: it goes on.")]
    else:
        subject = gettext("Game #%(game)s: an arbiter recorded the result %(result)s") % values
        what = [gettext("An arbiter recorded the result %(result)s.") % values]
        if game.termination:
            what.append(termination_words(game.termination))
    return Worded(subject, block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def leave_news(*, games: list[Game], leave, by) -> Worded:
    """The partner ``by`` booked ``leave``, which stops ``games`` (the recipient's games with them): one notice
    for the booking, its days as the recipient's pages write dates, each game named with its link."""
    values = {"player": by.username, "first": date_format(leave.first, "SHORT_DATE_FORMAT"),
              "last": date_format(leave.last, "SHORT_DATE_FORMAT"), "count": len(games)}
    if len(games) == 1:
        subject = gettext("Game #%(game)s: %(player)s is on leave from %(first)s to %(last)s") % {
            **values, "game": games[0].pk}
    else:
        subject = ngettext("%(player)s is on leave from %(first)s to %(last)s in %(count)s game",
                           "%(player)s is on leave from %(first)s to %(last)s in %(count)s games",
                           len(games)) % values
    intro = ngettext("%(player)s has booked leave from %(first)s to %(last)s (both days included). Their clock"
                     " does not run on those days in this game; yours runs as usual when it is your move.",
                     "%(player)s has booked leave from %(first)s to %(last)s (both days included). Their clock"
                     " does not run on those days in these %(count)s games; yours runs as usual when it is your"
                     " move.", len(games)) % values
    return Worded(subject, "\n\n".join([intro, *(game_line(g) + "\n" + game_link(g) for g in games)]))


def flag_warning(*, game: Game, time: GameTime, user, colour: str, hours: int) -> Worded:
    values = {"game": game.pk, "hours": hours}
    subject = ngettext("Game #%(game)s: your flag falls in %(hours)s hour", "Game #%(game)s: your flag falls in"
                       " %(hours)s hours", hours) % values
    what = [gettext("Move before your deadline, or the game is lost on time.")]
    return Worded(subject, block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def silence_reminder(*, game: Game, time: GameTime, user, colour: str, days: int, final: bool,
                     limit: int | None) -> Worded:
    """``colour`` has not moved for ``days`` days (ICCF Webserver guide 7.1); ``final``: the last reminder; ``limit``:
    the days one move may take (``max_per_move``), after which the game may be scored lost (Playing Rules 3b)."""
    values = {"game": game.pk, "days": days, "limit": limit}
    if final:
        subject = ngettext("Game #%(game)s: final reminder, no move from you for %(days)s day",
                           "Game #%(game)s: final reminder, no move from you for %(days)s days", days) % values
    else:
        subject = ngettext("Game #%(game)s: no move from you for %(days)s day",
                           "Game #%(game)s: no move from you for %(days)s days", days) % values
    what = [ngettext("You have not moved in this game for %(days)s day.",
                     "You have not moved in this game for %(days)s days.", days) % values]
    if limit is not None:
        what.append(ngettext("After %(limit)s day without a move the game may be scored as lost, unless you tell the"
                             " tournament director and your opponent that your move will take longer: use the"
                             " \"Use 40+ days\" notice on the game page (ICCF Playing Rules 3b).",
                             "After %(limit)s days without a move the game may be scored as lost, unless you tell"
                             " the tournament director and your opponent that your move will take longer: use the"
                             " \"Use 40+ days\" notice on the game page (ICCF Playing Rules 3b).", limit) % values)
    return Worded(subject, block(game, what, clock_lines(game=game, time=time, user=user, colour=colour)))


def long_move_news(*, game: Game, time: GameTime, user, colour: str, by: str, number: int) -> Worded:
    """The partner ``by`` (a colour) used the "Use 40+ days" notice on their move ``number``; ``colour``: the
    recipient's ("" for an arbiter, who is told without a clock of their own)."""
    values = {"game": game.pk, "name": game.user_of(by).username, "number": number}
    subject = gettext("Game #%(game)s: %(name)s's move %(number)s will take more than 40 days") % values
    what = [gettext("%(name)s used the \"Use 40+ days\" notice: their move %(number)s will take more than 40 days"
                    " (ICCF Playing Rules 3b). Their clock runs as usual.") % values]
    clock = clock_lines(game=game, time=time, user=user, colour=colour) if colour else []  # an arbiter: no clock
    return Worded(subject, block(game, what, clock))


def footer(*, user_id: int, kinds) -> str:
    """Why the recipient gets it and how to stop it: the preferences page and the unsubscribe link."""
    return "\n-- \n" + "\n".join([
        gettext("Your notification settings: %(url)s") % {"url": preferences_url()},
        gettext("Stop e-mails like this one: %(url)s") % {"url": unsubscribe_url(user_id=user_id, kinds=kinds)}])


def digest_subject(count: int) -> str:
    return ngettext("%(count)s game needs you", "%(count)s games need you", count) % {"count": count}


def digest_intro() -> str:
    return gettext("Since your last e-mail from corr:")
