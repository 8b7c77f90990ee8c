"""XFCC's own throttles (issue 37): a user's calls with a right password, an address's wrong ones.

An XFCC client sends its password with every call: counted in the sign-in throttle of the pages and
the API token (``SIGN_IN_RATE``, 10 a minute per address), a retrieval every few seconds and a move
per game, with the sign-ins a player makes on the site from the same address, were refused with an
HTTP 429 that Scid does not read, and its moves were silently not sent. That throttle slows password
guessing; the XFCC password is 192 random bits, and is guarded apart:

* :class:`XfccUserThrottle`: one user's calls with a right XFCC password, ``XFCC_USER_RATE`` (300 a
  minute unless set): no client reaches it; it bounds what a leaked password or a looping client
  costs the server, and one user's client never slows another's behind the same address.
* :class:`XfccFailureThrottle`: one address's calls with a wrong username or XFCC password, at
  ``SIGN_IN_RATE`` in a count of its own: past it, the address's calls are refused before any
  password is checked. django-axes' lockout (``AXES_FAILURE_LIMIT`` failures for one username from
  one address) still counts XFCC with the pages and the token (``accounts.xfcc.xfcc_sign_in``).

Both are DRF's sliding windows (``SimpleRateThrottle``: its cache, per server process like the
sign-in's, and its ``timer``), read and counted apart: a window is read before the call and counted
once the call's outcome decides which window it belongs to.
"""

from __future__ import annotations

import math

from django.conf import settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle


class _Window(SimpleRateThrottle):
    """The sliding window of ``scope`` for one ``ident``: ``wait_for`` reads it, ``count`` adds a call."""

    setting = ""

    def __init__(self, ident: str) -> None:
        super().__init__()
        self.key = self.cache_format % {"scope": self.scope, "ident": ident}

    def get_rate(self) -> str:
        # Read when used, not when the class is defined: the rate as the settings say now.
        return getattr(settings, self.setting)

    def _read(self) -> None:
        """The window's calls still counted, newest first, in ``history``; the time in ``now``."""
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()

    def wait_for(self) -> int | None:
        """Whole seconds (at least 1) until the window takes one more call, or None when it takes one now."""
        self._read()
        if len(self.history) < self.num_requests:
            return None
        # The oldest call still counted leaves the window first. (DRF's own wait() spreads the wait over
        # the calls left, and says None for a window that another process's calls put past its rate.)
        return max(1, math.ceil(self.history[-1] + self.duration - self.now))

    def count(self) -> None:
        """Count one call now."""
        self._read()  # read again: the call was checked before its password, and others came meanwhile
        self.throttle_success()

    def wait_for_or_count(self) -> int | None:
        """``wait_for``, and when the window takes the call, count it (DRF's ``allow_request``)."""
        wait = self.wait_for()
        if wait is None:
            self.throttle_success()
        return wait


class XfccUserThrottle(_Window):
    """A user's XFCC calls with a right password (``ident``: the user's id), ``XFCC_USER_RATE``."""

    scope = "xfcc-user"
    setting = "XFCC_USER_RATE"


class XfccFailureThrottle(_Window):
    """An address's XFCC calls with a wrong username or password (``ident``: the client address), ``SIGN_IN_RATE``."""

    scope = "xfcc-failure"
    setting = "SIGN_IN_RATE"

    @classmethod
    def of(cls, request) -> "XfccFailureThrottle":
        """The window of ``request``'s client address, as DRF's throttles read it (``NUM_PROXIES``)."""
        return cls(BaseThrottle().get_ident(request))  # it reads only request.META
