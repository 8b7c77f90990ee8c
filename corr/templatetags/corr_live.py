"""Filters of the live page (templates/corr/_live.html)."""

from django import template

register = template.Library()


@register.filter
def clock_ms(value) -> str:
    """Milliseconds left as a clock shows them: ``1:05:09``, ``4:59``, ``9.3`` (tenths under 10 s).

    Rounded down, as the page's countdown (live.js ``formatClock``) rounds: ``0.0`` is a fallen flag.
    """
    try:
        ms = max(0, int(value))
    except (TypeError, ValueError):
        return ""
    if ms < 10_000:
        return f"{ms // 1000}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@register.filter
def seconds_signed(delta_ms) -> str:
    """An adjustment in seconds with its sign: ``+120 s``, ``-30.5 s``."""
    try:
        seconds = int(delta_ms) / 1000
    except (TypeError, ValueError):
        return ""
    return f"{seconds:+g} s"


@register.filter
def instant_ms(at_ms) -> str:
    """A server instant (ms since the epoch) in the current time zone, to the tenth of a second, its date as the
    page writes dates (``30.11.2026 10:00:00.2`` in Russian, ``2026-11-30 10:00:00.2`` in English)."""
    from datetime import datetime, timezone

    from django.utils import timezone as dj_timezone
    from django.utils.formats import date_format

    try:
        moment = datetime.fromtimestamp(int(at_ms) / 1000, tz=timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return ""
    local = dj_timezone.localtime(moment)
    return f"{date_format(local, 'SHORT_DATE_FORMAT')} {local:%H:%M:%S}.{local.microsecond // 100_000}"
