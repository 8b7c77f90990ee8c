"""The game page's forms for each server's own clock (issue 40): a player's pause (OGS), a vacation booked (chess.com,
OGS, DGS), a player's own calendar (OGS's weekends, DGS's night) and the opponent's "+" (lichess, DGS).

Field names are the API's (``until``, ``starts``, ``time_zone``, ``weekend_days``, ``night_from``,
``night_hours``, ``days``), so a refusal naming a field is shown beside it. An instant is typed in the reader's
own zone in an ``<input type="datetime-local">``, whose value is ISO (``2026-03-07T12:00``) in every language: a
browser drops a value in a locale's format.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import ZoneField, zone_kept

from .forms import PageForm, lazy_format

WEEKDAYS = [("monday", _("Monday")), ("tuesday", _("Tuesday")), ("wednesday", _("Wednesday")),
            ("thursday", _("Thursday")), ("friday", _("Friday")), ("saturday", _("Saturday")),
            ("sunday", _("Sunday"))]
"""The calculator's weekday names (``corr.clock.personal``), each in the page's language."""


class InstantField(forms.Field):
    """A local date and time as ``YYYY-MM-DDTHH:MM`` (what ``datetime-local`` sends), read in the form's zone."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

    def __init__(self, *args, zone: str = "UTC", **kwargs):
        self.zone = zone
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        text = str(value).strip()
        try:
            local = datetime.fromisoformat(text)
        except ValueError:
            local = None
        if local is None or local.tzinfo is not None or "T" not in text:
            raise forms.ValidationError(
                _("write a date and time as YYYY-MM-DDTHH:MM in your time zone (%(zone)s), e.g. 2026-03-07T12:00;"
                  " not %(value)s"), params={"zone": self.zone, "value": text[:40]}, code="invalid")
        return local.replace(tzinfo=ZoneInfo(self.zone))


class _InstantForm(PageForm):
    """A form of instants typed in ``zone`` (the reader's: ``corr.web.deadline.reader_zone``)."""

    def __init__(self, *args, zone: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, InstantField):
                field.zone = zone
                field.help_text = lazy_format(_("your time zone: %(zone)s"), zone=zone)


class PauseForm(_InstantForm):
    """A pause of one's own clock from now until an instant (``POST /api/games/{id}/pauses/``)."""

    name = "pause"
    until = InstantField(label=_("Pause until"))


class VacationForm(_InstantForm):
    """A vacation from now or from ``starts`` until ``until`` (``POST /api/games/{id}/vacations/``)."""

    name = "vacation"
    starts = InstantField(label=_("Vacation starts (empty: now)"), required=False)
    until = InstantField(label=_("Vacation until"))


class CalendarForm(PageForm):
    """One's own weekend and night in this game, before one's first move (``POST /api/games/{id}/calendar/``)."""

    name = "calendar"
    time_zone = ZoneField(label=_("Your time zone for this game"), required=False)
    weekend_days = forms.MultipleChoiceField(label=_("Your weekend days (your clock stands still)"), required=False,
                                             choices=WEEKDAYS, widget=forms.CheckboxSelectMultiple)
    night_from = forms.TimeField(label=_("Your night starts at"), required=False, input_formats=["%H:%M"],
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                                 help_text=_("HH:MM, local time; empty: no night"))
    night_hours = forms.IntegerField(label=_("Hours of your night"), required=False, min_value=1, max_value=23)

    def __init__(self, *args, own_zone: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if own_zone:
            self.fields["time_zone"].offer(zone_kept(self, "time_zone"), empty_label=_("the game's time zone"))
        else:  # the tournament reads calendars in the game's zone: there is nothing to choose
            del self.fields["time_zone"]

    def service_data(self) -> dict:
        """The calendar as ``calendar_set`` takes it (the API's body)."""
        data = self.cleaned_data
        night = data.get("night_from")
        return {"time_zone": data.get("time_zone") or "", "weekend_days": list(data.get("weekend_days") or []),
                "night_from": night.strftime("%H:%M") if night else "", "night_hours": data.get("night_hours")}
