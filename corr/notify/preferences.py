"""A player's notification choices: read (defaults without a row) and changed."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from .kinds import Kind
from .models import Preference


@dataclass(frozen=True, slots=True)
class Choices:
    """What a player chose: the kinds turned off, the daily digest, the warning hours (largest first)."""

    off: frozenset[Kind]
    daily: bool
    warning_hours: tuple[int, ...]

    def wants(self, kind: Kind) -> bool:
        return kind not in self.off


def choices_of(user_id: int) -> Choices:
    """``user_id``'s choices; every kind on, no digest and ``NOTIFY_WARNING_HOURS`` when they chose nothing."""
    row = Preference.objects.filter(user_id=user_id).first()
    if row is None:
        return Choices(frozenset(), False, tuple(settings.NOTIFY_WARNING_HOURS))
    off = frozenset(Kind(k) for k in row.off if k in Kind.values)
    return Choices(off, row.daily, tuple(sorted(set(row.warning_hours), reverse=True)))


def choices_of_many(user_ids) -> dict[int, Choices]:
    """The choices of several players in one query (the warnings' sweep)."""
    rows = {p.user_id: p for p in Preference.objects.filter(user_id__in=set(user_ids))}
    default = Choices(frozenset(), False, tuple(settings.NOTIFY_WARNING_HOURS))
    return {uid: (default if uid not in rows else Choices(
        frozenset(Kind(k) for k in rows[uid].off if k in Kind.values), rows[uid].daily,
        tuple(sorted(set(rows[uid].warning_hours), reverse=True)))) for uid in set(user_ids)}


def preferences_change(*, user_id: int, off, daily: bool, warning_hours) -> Choices:
    """Store ``user_id``'s choices (the preferences page; checked by its form)."""
    Preference.objects.update_or_create(user_id=user_id, defaults={
        "off": sorted(str(k) for k in off), "daily": daily,
        "warning_hours": sorted(set(warning_hours), reverse=True)})
    return choices_of(user_id)


def kinds_turn_off(*, user_id: int, kinds) -> Choices:
    """Turn ``kinds`` off for ``user_id`` (an unsubscribe link), the other choices kept."""
    now = choices_of(user_id)
    return preferences_change(user_id=user_id, off=now.off | set(kinds), daily=now.daily,
                              warning_hours=now.warning_hours)
