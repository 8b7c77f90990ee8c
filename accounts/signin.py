"""Sign-in with a password for the API, counted by django-axes like the sign-in pages.

Axes counts failures through ``authenticate(request=...)`` (its backend and
its ``user_login_failed`` receiver), whichever page or endpoint calls it:
``AXES_FAILURE_LIMIT`` failures for one username from one address lock that
pair out for ``AXES_COOLOFF_TIME``.
"""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


class LockedOut(Exception):
    """Too many failed sign-ins for this username from this address; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("too many failed sign-ins")
        self.retry_after = retry_after


def password_sign_in(*, request, username: str, password: str):
    """The user with this username and password, or None when they are wrong.

    :raises LockedOut: when the username is locked out for this client address
        (a right password does not open it before the cool-off ends).
    """
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            raise LockedOut(int(settings.AXES_COOLOFF_TIME.total_seconds()))
        return None
    # The pages reset the count at login() (AXES_RESET_ON_SUCCESS); the API issues a
    # token and never calls login() (no session to create), so it resets the count here.
    ip_address = getattr(request, "axes_ip_address", None)
    if ip_address:
        axes_reset(ip=ip_address, username=username)
    return user


class BoundedAuthenticationForm(AuthenticationForm):
    """Django's sign-in form with the username's length checked on the server, not only in the browser.

    Django gives the field the column's ``max_length`` after building it, which writes the
    ``maxlength`` attribute but adds no validator: a longer name reached ``authenticate`` and
    django-axes, whose varchar(255) PostgreSQL refuses (a 500, issue 23). Here it is the form's
    error and nothing is counted.
    """

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


class BoundedAdminAuthenticationForm(AdminAuthenticationForm, BoundedAuthenticationForm):
    """The admin's sign-in form with the same bound."""
