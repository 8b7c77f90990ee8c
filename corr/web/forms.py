"""Forms of the web pages. Dates: YYYY-MM-DD (the browser's date picker) or DD.MM.YYYY as arbiters write them."""

from __future__ import annotations

import re
from datetime import date

from dateutil import parser as dateparser
from django import forms

from corr import limits as lim
from corr.clock import NoticeReason, PenaltyReason
from corr.models import Colour, Mail

_DOTTED = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}$")


class DayField(forms.DateField):
    """A date as YYYY-MM-DD, or DD.MM.YYYY (the Russian way: day first, dots), within the calendar window."""

    widget = forms.DateInput(attrs={"type": "date"})

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, date):
            return value
        text = str(value).strip()
        try:
            if _DOTTED.match(text):
                value = dateparser.parse(text, dayfirst=True).date()
            else:
                value = date.fromisoformat(text) if len(text) == 10 else self._fail(text)
        except (ValueError, OverflowError):
            self._fail(text)
        if not lim.date_in_window(value):
            raise forms.ValidationError(f"must lie between {lim.DATE_MIN} and {lim.DATE_MAX}, got {value}",
                                        code="out_of_window")
        return value

    def _fail(self, text):
        raise forms.ValidationError(f"must be a date written YYYY-MM-DD or DD.MM.YYYY, got {text!r}",
                                    code="invalid")


class MoveForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=lim.MOVES_MAX, widget=forms.HiddenInput)
    notation = forms.CharField(max_length=lim.NOTATION_MAX, required=False)
    received_on = DayField(required=False, help_text="the date you received your partner's move")
    sent_on = DayField(required=False, help_text="the date you sent this move")
    mail = forms.ChoiceField(choices=[("", "-")] + [c for c in Mail.choices if c[0] != "server"], required=False)


class ReceiptForm(forms.Form):
    received_on = DayField()


class NoticeForm(forms.Form):
    reason = forms.ChoiceField(choices=[(r.value, r.value.replace("_", " ")) for r in NoticeReason])
    received_on = DayField()
    sent_on = DayField()


class PenaltyForm(forms.Form):
    player = forms.ChoiceField(choices=Colour.choices)
    reason = forms.ChoiceField(choices=[(r.value, r.value.replace("_", " ")) for r in PenaltyReason])


class DelayForm(forms.Form):
    player = forms.ChoiceField(choices=Colour.choices)
    days = forms.IntegerField(min_value=lim.DELAY_DAYS_MIN, max_value=lim.DELAY_DAYS_MAX)
