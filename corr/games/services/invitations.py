"""Invitations: an arbiter invites an e-mail address to play a game of a tournament (issue 38).

``invitation_create`` stores the invitation with the SHA-256 of a 256-bit secret and returns the secret,
which only the e-mail carries (``invitation_mail_send``, after commit). ``invitation_accept`` takes the
secret once, within ``INVITATION_DAYS``: one conditional UPDATE claims it (two clicks make one account), then
the new account is saved and the game paired, all in one transaction (a refused game leaves no account).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.mail import account_mail_send, site_link
from accounts.models import User
from corr.models import Colour, Game, Invitation, Mode, Tournament

from ..clockstate import local_today
from ..errors import InvalidInput, NotAllowed, ServiceError
from ..permissions import can_arbitrate
from .setup import game_create

LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def invitation_create(*, by: User, tournament: Tournament, email: str, opponent: str, colour: str,
                      language: str, now: datetime) -> tuple[Invitation, str]:
    """Invite ``email`` to play ``opponent`` (a username) with ``colour`` in ``tournament`` (its arbiters only).

    Returns the invitation and the secret of its link, which is not stored (``invitation_send`` mails it).
    :raises NotAllowed: for anyone but the tournament's arbiters.
    :raises InvalidInput: naming ``email``, ``opponent``, ``colour`` or ``language``.
    """
    if not can_arbitrate(by, tournament):
        raise NotAllowed(_("only the tournament's arbiters invite players to it"))
    if tournament.mode == Mode.LIVE:
        raise InvalidInput(_("a live tournament's games are paired with starts_at: invite to a correspondence"
                             " tournament"), field="tournament")
    email = User.objects.normalize_email((email or "").strip())
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidInput(_("email must be an e-mail address, got %(value)s"), field="email",
                           value=repr(email)) from None
    rival = User.objects.filter(username=opponent, is_active=True).first()
    if rival is None:
        raise InvalidInput(_("opponent must be the username of an account, got %(value)s"), field="opponent",
                           value=repr(opponent))
    if colour not in Colour.values:
        raise InvalidInput(_("colour must be white or black, got %(value)s"), field="colour", value=repr(colour))
    if language not in LANGUAGE_CODES:
        raise InvalidInput(_("language must be one of %(allowed)s, got %(value)s"), field="language",
                           allowed=", ".join(LANGUAGE_CODES), value=repr(language))
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        tournament=tournament, email=email, language=language, opponent=rival, colour=colour, invited_by=by,
        digest=_digest(token), created_at=now, expires_at=now + timedelta(days=settings.INVITATION_DAYS))
    return invitation, token


class MailUnavailable(ServiceError):
    """The mail server refused or could not be reached; nothing was stored (503)."""

    status = 503


def invitation_send(*, now: datetime, **values) -> Invitation:
    """``invitation_create`` and its e-mail: an invitation is kept only once its e-mail has left.

    Not one transaction: the e-mail leaves after the invitation is committed (a rolled-back invitation
    would have mailed a dead link), and a refused e-mail deletes it.
    :raises MailUnavailable: when the mail server refuses the e-mail. See ``invitation_create`` for the rest.
    """
    invitation, token = invitation_create(now=now, **values)
    try:
        invitation_mail_send(invitation=invitation, token=token)
    except OSError:  # smtplib's errors are OSErrors too
        invitation.delete()
        raise MailUnavailable(_("the invitation's e-mail could not be sent: nothing was stored; try again"),
                              field="email") from None
    return invitation


def invitation_link(token: str) -> str:
    return site_link(reverse("invitation", args=[token]))


def invitation_mail_send(*, invitation: Invitation, token: str) -> None:
    """The invitation's e-mail, in its language. :raises OSError: when the mail server refuses it."""
    account_mail_send(to=invitation.email, language=invitation.language, template="corr/emails/invitation",
                      context={"invitation": invitation, "link": invitation_link(token),
                               "days": settings.INVITATION_DAYS})


def invitation_open(*, token: str, now: datetime) -> Invitation | None:
    """The unused, unexpired invitation of this secret, or None (unknown, used, expired: told apart to nobody)."""
    return (Invitation.objects.select_related("tournament", "opponent")
            .filter(digest=_digest(token), accepted_at__isnull=True, expires_at__gt=now).first())


@transaction.atomic
def invitation_accept(*, token: str, user: User, now: datetime) -> Game:
    """Save ``user`` (validated, not yet saved) as the invitee's account, with the invited address, and pair the
    invitation's game. :raises InvalidInput: naming ``token`` when the link is unknown, used or expired.
    """
    invitation = invitation_open(token=token, now=now)
    # The claim: of two acceptances at once, one UPDATE finds the row unused; the other stores nothing.
    if invitation is None or not Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
            accepted_at=now):
        raise InvalidInput(_("this invitation is unknown, used already or expired: ask the arbiter for another"),
                           field="token")
    user.email = invitation.email
    user.save()
    white, black = (user, invitation.opponent) if invitation.colour == Colour.WHITE else (invitation.opponent, user)
    tournament = invitation.tournament
    game = game_create(by=invitation.invited_by, tournament=tournament, white=white, black=black,
                       today=local_today(tournament, now))
    Invitation.objects.filter(pk=invitation.pk).update(user=user, game=game)
    return game
