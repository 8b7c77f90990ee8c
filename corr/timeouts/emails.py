"""The e-mails of a time forfeit recorded at the flag (``timeouts: automatic``): to both players and the arbiters."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from accounts.language import user_language
from corr.games.clockstate import instant_text
from corr.models import Colour, Game, GameResult
from corr.outbox import EmailDraft, email_prepare
from corr.nightly.flags import _game_link

from .outcome import Timeout


def timeout_emails(*, game: Game, timeout: Timeout) -> list[EmailDraft]:
    """One e-mail per player and per arbiter, each in their language, keyed by game and version (sent once)."""
    people = [game.white, game.black, *game.tournament.arbiters.all()]
    emails, seen = [], set()
    for person in people:
        if person.pk in seen:
            continue
        seen.add(person.pk)
        with translation.override(user_language(person)):
            subject, body = _timeout_text(game, timeout)
        emails.append(email_prepare(key=f"timeout:{game.pk}:{game.events_version}:{person.pk}",
                                    tournament_id=game.tournament_id,
                                    recipients=[person.email] if person.email else [], subject=subject, body=body))
    return emails


def _timeout_text(game: Game, timeout: Timeout) -> tuple[str, str]:
    """Subject and body in the active language."""
    loser = game.user_of(timeout.player)
    values = {"game": game.pk, "tournament": game.tournament.name, "player": Colour(timeout.player).label,
              "name": loser.username, "at": instant_text(timeout.at), "result": timeout.result}
    if timeout.result == GameResult.DRAW:
        subject = gettext("Game #%(game)s drawn: %(player)s's time ran out") % values
        what = gettext("%(player)s (%(name)s) ran out of time at %(at)s (UTC), but the partner cannot checkmate"
                       " (insufficient material, FIDE 6.9): the game is drawn, %(result)s.") % values
    else:
        subject = gettext("Game #%(game)s: %(player)s lost on time") % values
        what = gettext("%(player)s (%(name)s) ran out of time at %(at)s (UTC): the game is lost on time,"
                       " %(result)s.") % values
    body = (gettext("Game #%(game)s (%(tournament)s):") % values + f" {what}\n"
            + gettext("The tournament records time forfeits automatically; an arbiter can reopen the game.") + "\n"
            + _game_link(game))
    return subject, body
