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
