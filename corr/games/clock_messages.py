"""The calculator's refusals in the reader's language (issue 25, finding 4).

The calculator (``corr.clock``) refuses with a code and parameters (``corr.clock.errors.MESSAGES``: its
English, for the terminal). The service says the same here, in the reader's language, naming things the
way its pages do: the history's # of the event at fault (not the calculator's index of it), the player by
name and colour, dates as the page writes them, fields in words, the rule by its rulebook, and what to do
next. Every code has its words (``MESSAGES``; a test compares the two tables).

The text is made when it is read (``ClockRefusal.message``), in the language active then: the API's
``Accept-Language`` or the user's, the page's.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from corr.clock import ClockError, EventError
from corr.rulebooks import CORRESPONDENCE, citation

from .errors import InvalidInput


MESSAGES = {
    # A player's own calendar, vacation, pauses and time given (issue 40).
    "gift_bound_needs_per_move": _("%(field)s bounds time given by a move's time: it needs days per move counted"
                                   " exactly"),
    "calendar_not_object": _("%(field)s must be an object with time_zone, weekend_days and night"),
    "calendar_unknown_key": _("%(field)s is not a field of a calendar (known: %(known)s)"),
    "night_not_object": _("%(field)s must be a night with from (HH:MM) and hours, got %(value)s"),
    "night_from": _("%(field)s must be a time of day from 00:00 to 23:59, got %(value)s"),
    "night_hours": _("%(field)s must be from 1 to 23 hours, got %(value)s"),
    "calendar_not_allowed": _("%(field)s: this tournament keeps no players' own calendars"),
    "calendar_zone_not_allowed": _("%(field)s: this tournament reads players' calendars in the game's time zone,"
                                   " so a calendar names no zone"),
    "night_needs_instants": _("%(field)s: a night needs a clock counted in instants; a date has no hours"),
    "spans_need_instants": _("%(field)s: %(key)s need a clock counted in instants; book leave instead"),
    "spans_not_list": _("%(field)s must be a list of stretches with from and to"),
    "span_not_object": _("%(field)s must have from and to (allowed: %(known)s), got %(value)s"),
    "span_reversed": _("%(field)s: the end is not after the beginning"),
    "span_overlaps": _("%(field)s begins before the one before it ends"),
    "span_by": _("%(field)s must be a player of the game, got %(value)s"),
    "flag_beyond_reach": _("%(field)s: the player's calendar leaves no time to count"),
    "gift_days": _("the days given must be a whole number of at least 1, got %(value)s"),
    "gift_after_as_of": _("time given at %(day)s is after now, %(as_of)s"),
    "vacation_not_allowed": _("%(field)s: this tournament has no vacation"),
    "vacation_too_short": _("%(field)s: a vacation lasts at least %(hours)s hours, this one %(taken)s"),
    "vacation_over_allowance": _("%(field)s: %(player)s's vacation of %(taken)s is more than the %(left)s left"),
    "pauses_not_allowed": _("%(field)s: this tournament has no pauses"),
    "pauses_over_budget": _("%(field)s: %(player)s started %(count)s pauses, more than the %(budget)s each player has"),
    "gifts_not_allowed": _("%(field)s: in this tournament no one may give time"),
    "gift_not_days": _("%(field)s: exactly %(days)s day(s) can be given here, got %(value)s"),
    "gift_over_max": _("%(field)s: at most %(maximum)s days can be given at once, got %(value)s"),
    "gift_not_moretimeable": _("%(player)s has %(left)s left, not under %(bound)s: no time can be given yet"),
    # Events in their sequence.
    "notice_after_as_of": _("%(player)s's notice of the start is dated %(day)s, after today: it is counted only"
                            " once it has arrived (%(rule_50_4_6)s)."),
    "start_after_last_date": _("%(player)s's start, %(day)s plus %(days)s days (%(rule_50_4_6)s), falls after the"
                               " last date there is."),
    "unknown_player": _("the player %(value)s is not a player of this game (%(known)s)"),
    "days_not_whole": _("the days must be a whole number of at least 0, got %(value)s"),
    "credit_not_whole": _("the %(name)s of a credit must be a whole number of at least 0, got %(value)s"),
    "credit_seconds_not_exact": _("a credit's seconds count only where the clock counts seconds (an exact count):"
                                  " give whole days, got %(value)s seconds"),
    "credit_nothing": _("a credit must give back more than 0 days or seconds"),
    "number_not_whole": _("the move number must be a whole number, got %(value)s"),
    "second_pending_move": _("%(player)s already has move %(number)s pending (%(event)s): only one move can be"
                             " pending"),
    "pending_move_not_last": _("%(player)s has move %(number)s pending (%(event)s): a pending move must be the"
                               " player's last"),
    "number_out_of_sequence": _("move %(number)s is out of sequence: %(player)s has made %(made)s, so the next"
                                " is %(expected)s"),
    "variant_dated": _("a variant move carries no dates (%(rule_50_4_8)s)"),
    "variant_void": _("a variant move cannot be void"),
    "received_required": _("the received date is required on every move of %(player)s but the first"),
    "void_unsent": _("a void move must have been sent: the sent date is required"),
    "sent_on_leave": _("the sent date %(day)s falls on %(player)s's leave (%(first)s to %(last)s), and the"
                       " tournament refuses moves on leave days"),
    "answers_again": _("%(player)s answers again with no reply of %(partner)s since %(event)s: %(partner)s's reply"
                       " is missing"),
    "move_not_whole": _("the move charged must be a whole number, got %(value)s"),
    "move_out_of_range": _("the move charged, %(move)s, must lie between 1 and %(last)s (the moves %(player)s has"
                           " made, plus 1)"),
    "before_dispatch": _("%(field)s %(day)s is before %(partner)s sent what it answers, on %(dispatched)s"
                         " (%(event)s): a move cannot arrive before it is sent (%(rule_50_4_4)s)"),
    "received_after_as_of": _("the received date %(day)s is after today (%(as_of)s)"),
    "sent_after_as_of": _("the sent date %(day)s is after today (%(as_of)s)"),
    "sent_before_received": _("the sent date %(sent)s is before the received date %(received)s"),
    # Accounts.
    "live_unit": _("a time control in seconds is a live clock: correspondence games count days"),
    "deadline_after_last_date": _("%(player)s's deadline would fall after %(last)s, the last date there is: check"
                                  " the official start, the dates of the moves and the tournament's days"),
    # Dates and instants.
    "date_format": _("%(field)s must be a date written YYYY-MM-DD, got %(value)s"),
    "date_unreal": _("%(field)s is not a real date: %(value)s"),
    "ranges_not_list": _('%(field)s must be a list of {"from": date, "to": date} objects'),
    "range_not_object": _('%(field)s must be an object with exactly "from" and "to", got %(value)s'),
    "range_reversed": _("%(where)s: the end %(last)s is before the beginning %(first)s (both are included)"),
    "weekdays_not_list": _("%(field)s must be a list of weekday names (%(known)s)"),
    "weekday_unknown": _("%(field)s: unknown weekday %(value)s (known: %(known)s)"),
    "weekdays_all": _("%(field)s names every day of the week: no day would count"),
    "instant_format": _("%(field)s must be an RFC 3339 date-time with an offset, to the second"
                        " (2019-04-11T19:29:00Z or 2019-04-11T22:29:00+03:00), got %(value)s"),
    "instant_unreal": _("%(field)s is not a real date-time: %(value)s"),
    "zone_format": _("the time zone must be an IANA zone name (Europe/Moscow, UTC), got %(value)s"),
    "zone_unknown": _("the time zone %(value)s is not a known IANA zone name (Europe/Moscow, UTC)"),
    "instant_needed": _("%(field)s must be an instant under the %(count)s count"),
    "event_date_not_instant": _("%(key)s %(day)s is a date: the %(count)s count needs the instant, %(at)s"),
    # Rulesets and time controls (their fields are the API's keys, named as sent).
    "not_object": _("%(field)s must be an object"),
    "unknown_option": _("%(field)s: unknown option %(value)s (known: %(known)s)"),
    "unknown_ruleset_field": _("%(field)s is not a ruleset field (known: %(known)s)"),
    "unknown_system_field": _("%(field)s is not a field of this system (known: %(known)s)"),
    "required": _("%(field)s is required"),
    "not_whole": _("%(field)s must be a whole number, got %(value)s"),
    "not_whole_days": _("%(field)s must be a whole number of days, got %(value)s"),
    "at_least": _("%(field)s must be at least %(minimum)s, got %(value)s"),
    "seconds_at_least": _("%(field)s must be %(least)s seconds, got %(value)s"),
    "not_seconds": _("%(field)s must be a number of seconds, got %(value)s"),
    "seconds_range": _("%(field)s must be between 0 and %(maximum)s seconds, got %(value)s"),
    "seconds_fraction": _("%(field)s must be whole milliseconds (at most 3 decimals), got %(value)s"),
    "not_boolean": _("%(field)s must be true or false, got %(value)s"),
    "one_of": _("%(field)s must be one of %(known)s, got %(value)s"),
    "unit_unknown": _("%(field)s must be days or seconds, got %(value)s"),
    "system_missing": _("%(field)s must be an object with a 'system'"),
    "main_not_stages": _("%(field)s must be whole days or a non-empty list of {moves, time}"),
    "stages_not_list": _("%(field)s must be a non-empty list of {moves, time}"),
    "stage_not_object": _("%(field)s must be an object {moves, time}"),
    "stage_rest_not_last": _("%(field)s may be null (the rest of the game) only in the last stage"),
    "stage_increment_and_delay": _("%(where)s: a stage has an increment or a delay, not both (%(rule_6_2)s)"),
    "repeat_needs_moves": _("%(field)s needs a last stage with a number of moves"),
    "last_stage_open": _("%(field)s: the last stage must cover the rest of the game (moves: null) or be repeated"
                         " (repeat_last: true)"),
    "count_with_seconds": _("%(field)s is a correspondence rule: a live clock (unit seconds) counts its own"
                            " milliseconds"),
    "double_after_with_seconds": _("%(field)s is a correspondence rule (ICCF double days): not with unit seconds"),
    "live_rule_needs_seconds": _("%(field)s is a rule of live play: it needs unit seconds"),
}
"""The page's words of every code of ``corr.clock.errors.MESSAGES``."""

HINTS = {
    "before_dispatch": _("Check the date: it is on or after %(dispatched)s; if that move's date is wrong, an"
                         " arbiter corrects %(event_seq)s."),
    "sent_before_received": _("Enter a sent date on or after the received date."),
    "received_after_as_of": _("Enter the date it arrived, today at the latest."),
    "sent_after_as_of": _("Enter the date it was sent, today at the latest."),
    "notice_after_as_of": _("Record the notice once it has arrived."),
    "number_out_of_sequence": _("The next move of %(player)s is %(expected)s."),
    "answers_again": _("Record %(partner)s's reply first, or an arbiter corrects or withdraws %(event_seq)s."),
    "move_out_of_range": _("Charge it to a move from 1 to %(last)s, or leave the move empty for the player's"
                           " next."),
    "pending_move_not_last": _("Record the pending move %(number)s first."),
    "second_pending_move": _("Record the pending move %(number)s first."),
    "sent_on_leave": _("Send it on a day that is not leave, or cancel the leave first."),
    "received_required": _("Enter the date the partner's move was received."),
}
"""What to do next, for the refusals a player or an arbiter meets entering a game's facts."""

STORED = _("With this entry, %(event)s would no longer hold: %(problem)s")
"""An event already stored that the new one would make wrong (a penalty charged to a move a notice voids)."""

STORED_HINT = _("Correct or withdraw %(event_seq)s first (an arbiter, from its line of the history), then enter"
                " this again.")

FIELDS = {
    "received_on": _("the received date"), "sent_on": _("the sent date"),
    "received_at": _("the received time"), "sent_at": _("the sent time"),
}
"""A game event's fields as the pages name them."""

# Rule citations some of the words carry, by their placeholder.
_RULES = {"rule_50_4_4": (CORRESPONDENCE, "50.4.4"), "rule_50_4_6": (CORRESPONDENCE, "50.4.6"),
          "rule_50_4_8": (CORRESPONDENCE, "50.4.8"), "rule_6_2": ("002", "6.2")}


class ClockRefusal(InvalidInput):
    """A calculator's ``ClockError`` as the service's refusal (400), worded when read in the active language.

    ``field``: the input named (the API's ``field``). ``game``: the game the events are of (its players' names,
    its tournament's zone); ``rows``, ``sources``
    and ``new_seqs``: the stored rows, the seq behind each calculator event (``Assembled.sources``) and the
    seqs of the rows being added, so that an event is named by its history #.
    """

    def __init__(self, error: ClockError, *, field: str | None, game=None, rows=(), sources=(),
                 new_seqs=frozenset()) -> None:
        super().__init__(error.message, field=field)
        self.error, self.game = error, game
        self.by_seq = {row.seq: row for row in rows}
        self.sources, self.new_seqs = tuple(sources), frozenset(new_seqs)

    @property
    def message(self) -> str:
        error = self.error
        words = MESSAGES.get(error.code)
        if words is None:  # a refusal no person causes (a malformed file): the calculator's own words
            return error.message
        params = self._params(error.params)
        text = str(words) % params
        if not _named_first(str(words), error.params):  # a sentence begins with a capital, not a name or a key
            text = _capital(text)
        seq = self._seq(error.index) if isinstance(error, EventError) else None
        if seq is not None and seq not in self.new_seqs:  # a stored event that the new one would break
            values = {"event": self._event(seq), "problem": str(words) % params, "event_seq": _number(seq)}
            return _capital(str(STORED) % values) + ". " + str(STORED_HINT) % values
        hint = HINTS.get(error.code)
        end = "" if text.endswith(".") else "."
        return text + end + (" " + str(hint) % params if hint is not None else "")

    # --- the parameters, as the page names them ---

    def _params(self, raw: dict) -> dict:
        out = {}
        for key, value in raw.items():
            if key in ("player", "partner"):
                out[key] = self._player(value)
            elif key == "event":
                seq = self._seq(value)
                out[key] = self._event(seq) if seq is not None else gettext("the pending move")
                out["event_seq"] = _number(seq) if seq is not None else gettext("the pending move")
            elif key == "field":
                out[key] = str(FIELDS.get(_leaf(value), value or ""))
            elif isinstance(value, (date, datetime)):
                out[key] = self._when(value)
            else:
                out[key] = value
        out.setdefault("event_seq", "")
        for key, (seed, article) in _RULES.items():
            out[key] = citation(seed, article)
        return out

    def _seq(self, index) -> int | None:
        if not isinstance(index, int) or not 0 <= index < len(self.sources):
            return None
        return self.sources[index]

    def _player(self, colour) -> str:
        """A player by name, as the pages call them; by colour when the game is not known."""
        from corr.models import Colour

        if colour not in Colour.values:
            return str(colour)
        if self.game is None:
            return str(Colour(colour).label)
        return self.game.user_of(colour).username

    def _event(self, seq: int) -> str:
        """``#9, anna's penalty charged to move 4``: a history line as its # and what it is."""
        row = self.by_seq.get(seq)
        if row is None:
            return _number(seq)
        values = {"seq": seq, "player": self._player(row.player) if row.player else "", "number": row.number}
        kind = row.kind
        if kind == "move":
            return gettext("#%(seq)s, %(player)s's move %(number)s") % values
        if kind == "penalty":
            return gettext("#%(seq)s, %(player)s's penalty charged to move %(number)s") % values
        if kind == "delay":
            return gettext("#%(seq)s, %(player)s's delay charged to move %(number)s") % values
        if kind == "notice":
            return gettext("#%(seq)s, %(player)s's notice (move %(number)s)") % values
        if kind == "receipt":
            return gettext("#%(seq)s, %(player)s's receipt") % values
        return _number(seq)

    def _when(self, value) -> str:
        if isinstance(value, datetime) and self.game is not None:
            zone = self.game.tournament.time_zone
            # The pages' words of an instant (corr.web.describe.moment_text), in the tournament's zone.
            words = date_format(value.astimezone(ZoneInfo(zone)), pgettext("deadline instant", "D j M Y, H:i"))
            return f"{words}, {zone}"
        if isinstance(value, datetime):
            return value.isoformat()
        return date_format(value, "SHORT_DATE_FORMAT") if date.min < value < date.max else value.isoformat()


def _named_first(words: str, params: dict) -> bool:
    """The words begin with a user's name, or with a field named by its key (``ruleset.days_per_control``):
    left as written."""
    if words.startswith(("%(player)s", "%(partner)s")):
        return True
    return words.startswith("%(field)s") and _leaf(params.get("field")) not in FIELDS


def _number(seq: int) -> str:
    """A line of the history by its number, as the history writes it: ``#9``."""
    return pgettext("a line of the history", "#%(seq)s") % {"seq": seq}


def _leaf(field) -> str:
    return str(field or "").rsplit(".", 1)[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
