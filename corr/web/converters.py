"""URL converters of the pages."""

from __future__ import annotations

from datetime import date

from corr.limits import date_in_window


class DateConverter:
    """A calendar date ``YYYY-MM-DD`` in a path, within the calendar window; anything else is a 404.

    Django treats a ``ValueError`` from ``to_python`` as "no match", so
    ``reports/garbage/`` and ``reports/2026-13-45.csv`` are not found rather
    than a server error.
    """

    regex = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> date:
        day = date.fromisoformat(value)  # ValueError for 2026-13-45
        if not date_in_window(day):
            raise ValueError(f"{value} is outside the calendar window")
        return day

    def to_url(self, value: date | str) -> str:
        return value.isoformat() if isinstance(value, date) else value
