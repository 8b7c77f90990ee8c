"""The user model of corr, custom from the first migration so it can grow."""

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .signals import password_changed

ARBITERS_GROUP = "arbiters"


class Vision(models.TextChoices):
    """A player's sight, for the warnings an arbiter owes them in a live game (draughts rules, seed 001, 1.7.9:
    "Судья обязан предупреждать участника с ограничениями по зрению о наступающем цейтноте")."""

    NONE = "", _("no spoken warnings")
    LOW = "low", _("visually impaired: warned 5 minutes before the control")
    BLIND = "blind", _("totally blind: warned 10 minutes before the control")


VISION_WARNING_S = {Vision.BLIND: 600, Vision.LOW: 300}
"""001 1.7.9: "у тотально незрячего спортсмена остается: 10 минут, а у слабовидящего спортсмена - 5 минут до
контроля"; both are told of the opponent's flag too ("и тем более о падении флажка ... у его противника")."""


def validate_time_zone(value: str) -> None:
    """An IANA zone name (``Europe/Moscow``), or empty. :raises ValidationError: naming the value."""
    if not value:
        return
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(_("%(value)s is not a known time zone"), params={"value": repr(value)}) from None


class User(AbstractUser):
    """A participant or an arbiter.

    Arbiters are the members of the ``arbiters`` group; a superuser is an
    arbiter of every tournament.
    """

    # The language of the user's pages after sign-in and of the e-mails corr sends them; empty:
    # the browser's language on pages, English in e-mails (docs/operations.md, "Languages").
    language = models.CharField(_("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # The IANA zone the user's pages show instant deadlines in (issue 22); empty: the tournament's zone.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="", db_default="",
                                 validators=[validate_time_zone])
    # The warnings a live game's page speaks to this player and its arbiter owes them (issue 24, 001 1.7.9).
    vision = models.CharField(_("vision"), max_length=5, blank=True, default="", db_default="",
                              choices=Vision.choices)
    # The player's ICCF id (issue 37): an imported ICCF event's players are matched to accounts by it.
    iccf_id = models.CharField(_("ICCF id"), max_length=12, blank=True, default="", db_default="", db_index=True)

    @property
    def is_arbiter(self) -> bool:
        if self.is_superuser:
            return True
        cached = getattr(self, "_is_arbiter", None)
        if cached is None:
            cached = self.groups.filter(name=ARBITERS_GROUP).exists()
            self._is_arbiter = cached
        return cached

    def save(self, *args, **kwargs):
        """Save; when the password changed, delete the user's API tokens (token rotation) and send
        :data:`accounts.signals.password_changed` (the live sockets of the user's sessions close on it).

        ``_password`` is Django's own mark of a new password (set by
        ``set_password``, cleared after the save): every way of changing one
        passes here (the admin, ``changepassword``, the password forms, the
        services), while the hash upgrade at sign-in clears the mark first and
        so keeps the token. This is the one hook that sees them all, hence
        logic in ``save()``.
        """
        changed = self._password is not None and self.pk is not None
        super().save(*args, **kwargs)
        if changed:
            from .tokens import tokens_revoke  # tokens import DRF, which needs the app registry ready

            tokens_revoke(user=self)
            password_changed.send(sender=type(self), user=self)


class XfccPassword(models.Model):
    """A user's XFCC password (issue 26): the secret desktop clients send in each SOAP body, never the sign-in one.

    corr makes it (``accounts.xfcc.xfcc_password_issue``) and shows it once; only its SHA-256 is kept.
    A random secret of 192 bits needs no slow hash: a slow hash protects passwords people choose.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="xfcc_password")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the password, hexadecimal.")
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"XFCC password of {self.user}"
