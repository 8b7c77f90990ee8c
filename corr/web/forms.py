"""Forms of the web pages. Dates: YYYY-MM-DD (the browser's date picker) or DD.MM.YYYY as arbiters write them.

Labels and messages are in words; a refused form comes back with its values and the error next to its field.
"""

from __future__ import annotations

import re
from datetime import date

from dateutil import parser as dateparser
from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from corr import limits as lim
from corr.clock import NoticeReason, PenaltyReason
from corr.models import NOTATION_EXAMPLES, Colour, Mail

def lazy_format(message, **params):
    """``message % params``, translated when it is shown (a form's texts are built once, at import)."""
    return lazy(lambda: str(message) % params, str)()


_DOTTED = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}$")

# The reasons' words, by their stored values (the calculator's enums name them in English).
REASON_WORDS = {
    "impossible_move": _("impossible move"), "illegible_move": _("illegible move"), "repeat": _("repeat"),
    "wrong_repetition": _("wrong repetition"), "unregistered_mail": _("unregistered mail"),
    "address_error": _("address error"), "late_repeat": _("late repeat"),
}
PENALTY_REASONS = [(r.value, REASON_WORDS.get(r.value, r.value.replace("_", " "))) for r in PenaltyReason]
NOTICE_REASONS = [(r.value, REASON_WORDS.get(r.value, r.value.replace("_", " "))) for r in NoticeReason]
POSTAL_MAIL = [("", "-")] + [c for c in Mail.choices if c[0] != "server"]




class DayField(forms.DateField):
    """A date as YYYY-MM-DD, or DD.MM.YYYY (the Russian way: day first, dots), within the calendar window."""

    # An <input type="date"> takes only ISO values (HTML: a "valid date string"); the locale's format
    # (ru 28.11.2026, fr 28/11/2026) is dropped by browsers, so the prefill would vanish and the move be refused.
    widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

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
            raise forms.ValidationError(_("must lie between %(min)s and %(max)s, got %(value)s"),
                                        code="out_of_window",
                                        params={"min": lim.DATE_MIN, "max": lim.DATE_MAX, "value": value})
        return value

    def _fail(self, text):
        raise forms.ValidationError(_("must be a date written YYYY-MM-DD or DD.MM.YYYY, got %(text)s"),
                                    code="invalid", params={"text": repr(text)})


def note_field(required: bool, label=None) -> forms.CharField:
    return forms.CharField(label=label or _("Note"), max_length=lim.NOTE_MAX, required=required,
                           widget=forms.Textarea(attrs={"rows": 2, "cols": 30}))


def move_number_field(label: str, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=lim.MOVES_MAX, required=required)


class PageForm(forms.Form):
    """Every page form: ids unique on the page (``<name>-<field>``), field names as the API's."""

    name = "form"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.name}-%s")
        super().__init__(*args, **kwargs)


CONDITIONAL_TEXT_MAX = lim.CONDITIONAL_NODES_MAX * (2 * lim.NOTATION_MAX + 2 * lim.CONDITIONAL_DEPTH_MAX + 4)
"""The longest conditional line the page's text area takes: 200 branches of the longest moves, deepest indent."""


CONDITIONAL_EXAMPLES = {"chess": ("e5 Nf3", "Nc6 Bb5", "c5 Nf3"), "draughts": ("b6-c5 d4:b6", "a7:c5 b2-c3",
                                                                               "f6-g5 g3-f4"),
                        "go": ("Q4 D16", "R6 C14", "pass pass")}
"""A line of each kind whose trees corr checks: a branch, a deeper one under it, a second branch."""


def conditional_field() -> forms.CharField:
    """A conditional line in text (``corr.web.conditional_text``): the partner's move and one's reply a line."""
    return forms.CharField(
        label=_("Conditional line (optional)"), max_length=CONDITIONAL_TEXT_MAX, required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 30, "autocomplete": "off", "spellcheck": "false"}))


class ConditionalMixin:
    """The form's ``conditional`` text read as the API's tree (``self.line``: tree and line numbers).

    ``for_kind`` is called before the form is validated (``corr.web.views._act``), so that a line refused for its
    shape names an example in the game's notation, not chess's in a Go game (issue 40).
    """

    example = CONDITIONAL_EXAMPLES["chess"][0]

    def for_kind(self, kind: str):
        """The line's help, placeholder and the example of a refusal written in ``kind``'s notation (chess's for a
        kind without trees)."""
        first, deeper, second = CONDITIONAL_EXAMPLES.get(kind, CONDITIONAL_EXAMPLES["chess"])
        self.example = first
        field = self.fields["conditional"]
        field.help_text = _("One branch a line: the partner's move, then your reply; a deeper branch under it,"
                            " indented by two spaces. E.g. \"%(first)s\", and under it \"  %(deeper)s\".") % {
            "first": first, "deeper": deeper}
        field.widget.attrs["placeholder"] = f"{first}\n  {deeper}\n{second}"
        return self

    def clean_conditional(self):
        from .conditional_text import LineError, Parsed, line_parsed

        text = self.cleaned_data.get("conditional") or ""
        try:
            self.line = line_parsed(text, self.example)
        except LineError as error:
            self.line = Parsed()
            raise forms.ValidationError(error.message, code="line") from None
        return text


class ConditionalForm(ConditionalMixin, PageForm):
    """The owner's replacement of their pending line while the partner is to move (empty: cancel it)."""

    name = "conditional"
    conditional = conditional_field()


class MoveForm(ConditionalMixin, PageForm):
    name = "move"
    number = forms.IntegerField(min_value=1, max_value=lim.MOVES_MAX, widget=forms.HiddenInput)
    notation = forms.CharField(label=_("Move"), max_length=lim.NOTATION_MAX, required=False,
                               widget=forms.TextInput(attrs={"autocomplete": "off"}))
    received_on = DayField(label=_("Received on"), required=False,
                           help_text=_("the date you received your partner's move"))

    def for_kind(self, kind: str) -> "MoveForm":
        """The notation's placeholder a move of ``kind`` is written in: the exports read it back (SAN in every
        language: a French "Cf3" is no move python-chess reads; a Go move is a point)."""
        self.fields["notation"].widget.attrs["placeholder"] = _("e.g. %(move)s") % {"move": NOTATION_EXAMPLES.get(
            kind, NOTATION_EXAMPLES["chess"])}
        return super().for_kind(kind)
    sent_on = DayField(label=_("Sent on"), required=False, help_text=_("the date you sent this move"))
    mail = forms.ChoiceField(label=_("Sent by"), choices=POSTAL_MAIL, required=False)
    receipt_change = forms.BooleanField(label=_("Yes: replace the receipt I recorded by this date"), required=False)
    conditional = conditional_field()
    claim_draw = forms.BooleanField(
        label=_("Claim a draw with this move"), required=False,
        help_text=_("threefold repetition (the position after it stands for the third time, FIDE 9.2) or fifty moves"
                    " of each side without a capture or a pawn move (FIDE 9.3); an unfounded claim stores nothing"))


VARIANT_TEXT_MAX = 2 * lim.CONDITIONAL_DEPTH_MAX * (lim.NOTATION_MAX + 6)
"""The longest received variant the page takes as text: its most moves, each with its number and a space."""


class VariantForm(PageForm):
    """A received postal variant (50.4.8): the proposer's line as received and the last of one's moves accepted.

    ``line`` is read into the API's list of moves (``clean_line``): moves apart by spaces or commas, move
    numbers (``2...``, ``3.``) left out. The moves are not checked here: the service decides (``variant_record``).
    """

    name = "variant"
    line = forms.CharField(
        label=_("Variant received"), max_length=VARIANT_TEXT_MAX,
        help_text=_("your next move first, then your partner's reply, and so on, as you received it; move numbers"
                    " may be written"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false",
                                      "placeholder": "2... Nc6 3. Bb5 a6 4. Ba4"}))
    accepted_through = move_number_field(_("Accepted through your move"), required=True)

    def clean_line(self) -> list[str]:
        from corr.games.services.variants import LINE_MAX

        from .conditional_text import _NUMBER

        text = self.cleaned_data.get("line") or ""
        moves = [m for m in (_NUMBER.sub("", token) for token in re.split(r"[\s,;]+", text)) if m]
        if not moves:
            raise forms.ValidationError(_("write the moves of the variant, e.g. %(example)s"), code="empty",
                                        params={"example": "2... Nc6 3. Bb5 a6 4. Ba4"})
        if len(moves) > LINE_MAX:
            raise forms.ValidationError(
                _("a variant is recorded with at most %(max)s moves, yours and your partner's, got %(count)s"),
                code="long", params={"max": LINE_MAX, "count": len(moves)})
        long = next((m for m in moves if len(m) > lim.NOTATION_MAX), None)
        if long is not None:
            raise forms.ValidationError(_("%(move)s is no move: a move is written in at most %(max)s characters"),
                                        code="move", params={"move": long, "max": lim.NOTATION_MAX})
        return moves


class ReceiptForm(PageForm):
    name = "receipt"
    received_on = DayField(label=_("Received on"))


class NoticeForm(PageForm):
    name = "notice"
    reason = forms.ChoiceField(label=_("Reason"), choices=NOTICE_REASONS)
    received_on = DayField(label=_("Received on"))
    sent_on = DayField(label=_("Sent on"))


class PenaltyForm(PageForm):
    name = "penalty"
    player = forms.ChoiceField(label=_("Player"), choices=Colour.choices)
    reason = forms.ChoiceField(label=_("Reason"), choices=PENALTY_REASONS)
    move = move_number_field(_("Charged to move"), required=False)
    note = note_field(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["move"].help_text = _("empty: the player's next move")


class DelayForm(PageForm):
    """50.4.11: the whole delay of a late repeat, CHARGED to the player (issue 39: the form says so; time given
    back is the credit's form)."""

    name = "delay"
    player = forms.ChoiceField(label=_("Player charged"), choices=Colour.choices)
    days = forms.IntegerField(label=_("Days charged"), min_value=lim.DELAY_DAYS_MIN, max_value=lim.DELAY_DAYS_MAX,
                              help_text=lazy_format(_("added to the player's time used; more than %(days)s asks you"
                                                      " to confirm"), days=lim.DELAY_CONFIRM_DAYS))
    move = move_number_field(_("Charged to move"), required=False)
    note = note_field(required=False)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


class CreditForm(PageForm):
    """An arbiter's credit (issue 39): days back, or under an exact count hours and minutes; a reason."""

    name = "credit"
    player = forms.ChoiceField(label=_("Player given time"), choices=Colour.choices)
    days = forms.IntegerField(label=_("Days given back"), min_value=0, max_value=lim.DELAY_DAYS_MAX, required=False)
    hours = forms.IntegerField(label=_("Hours given back"), min_value=0, max_value=lim.DELAY_DAYS_MAX * 24,
                               required=False)
    minutes = forms.IntegerField(label=_("Minutes given back"), min_value=0, max_value=59, required=False)
    reason = note_field(required=True, label=_("Why (required)"))

    def __init__(self, *args, seconds: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not seconds:  # a clock of days takes whole days only
            del self.fields["hours"], self.fields["minutes"]

    def amount(self) -> dict:
        """``{"days": n}`` or, where hours or minutes were given, ``{"seconds": n}`` (the service checks both)."""
        data = self.cleaned_data
        hours, minutes = data.get("hours") or 0, data.get("minutes") or 0
        if hours or minutes:
            return {"seconds": (data.get("days") or 0) * 86400 + hours * 3600 + minutes * 60}
        return {"days": data.get("days")}


class GiftForm(CreditForm):
    """A player's gift of time to the partner (issue 39), where the tournament allows gifts."""

    name = "gift"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["player"], self.fields["reason"]
        self.fields["days"].label = _("Days given")


class StartNoticeForm(PageForm):
    name = "start-notice"
    player = forms.ChoiceField(label=_("Player"), choices=Colour.choices)
    received_on = DayField(label=_("Notice of the start received on"))


class ResultForm(PageForm):
    name = "result"
    result = forms.ChoiceField(label=_("Result"), choices=[("1-0", _("1-0 (white won)")), ("0-1", _("0-1 (black won)")),
                                                         ("1/2-1/2", _("½-½ (draw)"))])
    termination = forms.CharField(label=_("How it ended"), max_length=lim.TERMINATION_MAX, required=False,
                                  widget=forms.TextInput(attrs={"placeholder": _("e.g. black resigned")}))
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


class PlayersResultForm(PageForm):
    """A player's resignation or answer to a draw offer (issue 26): nothing to type; resigning asks first."""

    name = "players-result"
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


class ReopenForm(PageForm):
    name = "reopen"
    note = note_field(required=True, label=_("Why reopen it"))
    overstep = forms.ChoiceField(label=_("The overstep"), required=False, widget=forms.RadioSelect, choices=[
        ("credit", _("credit the time that puts the player back in the control (the time over it and one day)")),
        ("keep", _("keep it: the case stays open for the arbiter"))])

    def __init__(self, *args, over: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not over:  # nobody over the control: nothing to ask
            del self.fields["overstep"]


class CorrectionForm(PageForm):
    """A correction of one event: only the fields its kind has are shown; the note is required."""

    name = "correct"
    event = forms.IntegerField(min_value=1, max_value=lim.INT_MAX, widget=forms.HiddenInput)
    number = move_number_field(_("Move number"))
    notation = forms.CharField(label=_("Move"), max_length=lim.NOTATION_MAX, required=False)
    received_on = DayField(label=_("Received on"), required=False)
    sent_on = DayField(label=_("Sent on"), required=False)
    mail = forms.ChoiceField(label=_("Sent by"), choices=[("", "-")] + list(Mail.choices), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=lim.REASON_MAX, required=False)
    days = forms.IntegerField(label=_("Days"), min_value=lim.DELAY_DAYS_MIN, max_value=lim.DELAY_DAYS_MAX,
                              required=False)
    note = note_field(required=True, label=_("Why (required)"))

    def __init__(self, *args, fields: tuple[str, ...] = (), seq: int | None = None, **kwargs):
        kwargs.setdefault("auto_id", f"correct-{seq}-%s")
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in (*fields, "event", "note"):
                del self.fields[name]


class WithdrawalForm(PageForm):
    event = forms.IntegerField(min_value=1, max_value=lim.INT_MAX, widget=forms.HiddenInput)
    note = note_field(required=True, label=_("Why (required)"))

    def __init__(self, *args, seq: int | None = None, **kwargs):
        kwargs.setdefault("auto_id", f"withdraw-{seq}-%s")
        super().__init__(*args, **kwargs)


class CaseDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("confirm", _("confirm")), ("dismiss", _("dismiss"))])
    reason = forms.CharField(label=_("reason"), max_length=lim.NOTE_MAX, required=False)  # named so in a refusal
    confirmed = forms.BooleanField(required=False)


class InvitationForm(forms.Form):
    """The tournament page's invitation: the address, the opponent (a username), the invitee's colour."""

    email = forms.EmailField(label=_("E-mail address"), max_length=254)
    opponent = forms.CharField(label=_("Opponent (username)"), max_length=150)
    colour = forms.ChoiceField(label=_("Their colour"), choices=Colour.choices)
    language = forms.ChoiceField(label=_("Language of the e-mail"), choices=settings.LANGUAGES)
