"""The forms of a player's own account: making one, its settings, a new e-mail address, a forgotten password.

Every refusal is a field's error in the reader's language, naming the rule; a refused form stores nothing.
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from corr.zones import zone_name, zones_offered

from .language import user_language
from .models import User
from .usernames import username_lookalike


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA zone name of the tz database (``Europe/Moscow``, ``W-SU``); read once per process."""
    return frozenset(zoneinfo.available_timezones())


def zone_choices(keep: str | None = None):
    """The zones to choose from by the names the page's reader knows (``corr.zones``: "Москва", "Moscou"; the
    IANA name in English; "UTC-1" for ``Etc/GMT+1``), each zone once (``zones_offered``: no alias of another unless
    it is ``keep``, the value already chosen), sorted by that name; the value stays the IANA name."""
    named = sorted(((zone, zone_name(zone)) for zone in zones_offered(zone_names(), keep=[keep] if keep else [])),
                   key=lambda pair: (pair[1].casefold(), pair[0]))
    return [("", _("the tournament's time zone"))] + named


class ZoneField(forms.ChoiceField):
    """A time zone: any IANA zone name of the tz database, aliases included (as the API takes it), though the list
    offers each zone once; ``offer(keep)`` sets the list with ``keep`` in it, so that a value chosen is shown."""

    def valid_value(self, value) -> bool:
        return value in zone_names()

    def offer(self, keep: str | None, *, empty_label=None) -> None:
        choices = zone_choices(keep)
        self.choices = choices if empty_label is None else [("", empty_label)] + choices[1:]


def zone_kept(form: forms.BaseForm, name: str) -> str | None:
    """The zone ``form``'s field ``name`` shows: the one sent (a refused form shows it again), else its initial."""
    if form.is_bound:
        return form.data.get(form.add_prefix(name))
    return form.initial.get(name) or form.fields[name].initial


class AccountCreationForm(UserCreationForm):
    """A new account's username, password (twice, Django's validators) and language.

    Beside Django's case-insensitive "taken", a username that looks like an existing one is refused
    (:mod:`accounts.usernames`: ``аnna`` with a Cyrillic а beside ``anna``), as arbiters' API refuses it.
    """

    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES,
                                 help_text=_("of your pages and of the e-mails corr sends you"))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = translation.get_language()

    def clean_username(self):
        username = super().clean_username()  # None when taken: Django has added its error
        if username is None:
            return None
        lookalike = username_lookalike(username, User.objects.values_list("username", flat=True).iterator())
        if lookalike is not None:
            raise forms.ValidationError(_("This username looks like the existing %(other)s: choose another."),
                                        code="lookalike", params={"other": lookalike})
        return username

    def save(self, commit=True):
        user = super().save(commit=False)
        user.language = self.cleaned_data["language"]
        if commit:
            user.save()
        return user


class SignUpForm(AccountCreationForm):
    """Open sign-up (``SIGNUP_OPEN``): an account and the address its confirmation link is sent to."""

    email = forms.EmailField(label=_("E-mail address"), max_length=254,
                             help_text=_("a link to confirm it is sent there; the account opens when you follow it"))

    field_order = ["username", "email", "password1", "password2", "language"]

    def save(self, commit=True):
        user = super().save(commit=False)
        user.email = self.cleaned_data["email"]
        user.is_active = False  # opened by the e-mailed link (accounts.confirmations)
        if commit:
            user.save()
        return user


class SettingsForm(forms.ModelForm):
    """The language and the time zone of one's pages and e-mails."""

    language = forms.ChoiceField(label=_("Language"), required=False,
                                 choices=[("", _("the browser's language"))] + list(settings.LANGUAGES))
    time_zone = ZoneField(label=_("Time zone"), required=False,
                          help_text=_("deadlines that are a moment are shown in it"))

    class Meta:
        model = User
        fields = ("language", "time_zone")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].offer(zone_kept(self, "time_zone"))


class EmailChangeForm(forms.Form):
    """A new e-mail address, asked with the current password: a session left open cannot take the account."""

    email = forms.EmailField(label=_("New e-mail address"), max_length=254)
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)

    def __init__(self, *args, request, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.request, self.user = request, user

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email.lower() == (self.user.email or "").lower():
            raise forms.ValidationError(_("This is already your e-mail address."), code="same")
        return email

    def clean_password(self):
        password = self.cleaned_data["password"]
        # authenticate(), not check_password(): django-axes counts a wrong password here as at sign-in.
        if authenticate(self.request, username=self.user.get_username(), password=password) is None:
            raise forms.ValidationError(_("This is not your password."), code="password")
        return password


class LanguagePasswordResetForm(PasswordResetForm):
    """Django's reset form, its e-mail in the account's language and its link on ``SITE_URL``.

    Django answers the same whether the address has an account or not (no enumeration) and writes one
    e-mail per active account of that address, each naming its username.
    """

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        # The link is built on SITE_URL, not on the request's Host header: a forged Host cannot
        # make corr mail a link to another site (the "password reset poisoning" of Django's docs).
        context = {**context, "site_url": settings.SITE_URL.rstrip("/")}
        with translation.override(user_language(context["user"])):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)
