"""The preferences page's form: each kind on or off, the daily digest, the warning hours."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .kinds import Kind

MAX_WARNINGS = 5
MAX_HOURS = 168


class PreferencesForm(forms.Form):
    daily = forms.BooleanField(required=False, label=_("One e-mail a day instead (a daily digest)"),
                               help_text=_("Everything but the warnings before you lose on time waits for one"
                                           " e-mail each morning."))
    warning_hours = forms.CharField(required=False, max_length=40, label=_("Warn me this many hours before my flag"
                                                                           " falls"),
                                    help_text=_("Whole hours separated by commas, e.g. 24, 1 (games counted in"
                                                " instants)."))
    confirm_no_warnings = forms.BooleanField(
        required=False, label=_("I understand: without these warnings I can lose a game on time without being"
                                " told before"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in Kind:
            self.fields[f"kind_{kind.value}"] = forms.BooleanField(required=False, label=kind.label)

    def kind_fields(self):
        return [self[f"kind_{kind.value}"] for kind in Kind]

    def clean_warning_hours(self) -> list[int]:
        text = self.cleaned_data["warning_hours"].strip()
        if not text:
            return []
        try:
            hours = sorted({int(part) for part in text.replace(";", ",").split(",") if part.strip()}, reverse=True)
        except ValueError:
            raise forms.ValidationError(_("warning hours: write whole hours separated by commas, e.g. 24, 1; got"
                                          " %(value)s"), params={"value": text}) from None
        if any(not 1 <= h <= MAX_HOURS for h in hours):
            raise forms.ValidationError(_("warning hours: each must be from 1 to %(max)s hours"),
                                        params={"max": MAX_HOURS})
        if len(hours) > MAX_WARNINGS:
            raise forms.ValidationError(_("warning hours: at most %(max)s warnings per move"),
                                        params={"max": MAX_WARNINGS})
        return hours

    def clean(self):
        data = super().clean()
        warnings_on = data.get(f"kind_{Kind.FLAG_WARNING.value}")
        if "warning_hours" in data and warnings_on and not data["warning_hours"]:
            self.add_error("warning_hours", _("warning hours: give at least one hour, or turn the warnings off"))
        if not warnings_on and self.initial.get(f"kind_{Kind.FLAG_WARNING.value}") and \
                not data.get("confirm_no_warnings"):
            self.add_error("confirm_no_warnings", _("turning off the warnings before you lose on time needs your"
                                                    " confirmation: tick the box"))
        return data
