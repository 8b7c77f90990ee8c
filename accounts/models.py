"""The user model of corr, custom from the first migration so it can grow."""

from django.contrib.auth.models import AbstractUser

ARBITERS_GROUP = "arbiters"


class User(AbstractUser):
    """A participant or an arbiter.

    Arbiters are the members of the ``arbiters`` group; a superuser is an
    arbiter of every tournament.
    """

    @property
    def is_arbiter(self) -> bool:
        if self.is_superuser:
            return True
        cached = getattr(self, "_is_arbiter", None)
        if cached is None:
            cached = self.groups.filter(name=ARBITERS_GROUP).exists()
            self._is_arbiter = cached
        return cached
