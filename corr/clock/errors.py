"""Errors of the calculator: each names what is wrong in words a person can act on.

A refusal that a person can cause (a date out of order, a move out of turn, a ruleset value out of range)
carries a ``code`` naming the rule and the ``params`` its words are filled from: the calculator stays
free of Django and speaks English (``MESSAGES``, what the terminal prints), and the service says the same in
the reader's language from the code and the parameters (``corr.games.clock_messages``), naming things the
way its pages do (the history's #, the player's name). A parameter named ``event`` is the index of an
event in the game's event list, as ``EventError.index`` is.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # Events in their sequence (corr.clock.charging).
    "notice_after_as_of": "%(field)s %(day)s is after the as-of date %(as_of)s: a notice of the start cannot be"
                          " counted before it arrives (50.4.6)",
    "start_after_last_date": "%(field)s %(day)s plus %(days)s day(s) (50.4.6) falls after %(last)s, the last date"
                             " there is",
    "unknown_player": "unknown player %(value)s (players: %(known)s)",
    "days_not_whole": "days must be a whole number >= 0, got %(value)s",
    "credit_not_whole": "a credit's %(name)s must be a whole number >= 0, got %(value)s",
    "credit_seconds_not_exact": "a credit's seconds count only where the clock counts seconds (time_control.count"
                                " exact): give whole days, got %(value)s seconds",
    "credit_nothing": "a credit gives back nothing: its days (or seconds) must be more than 0",
    "number_not_whole": "number must be a whole number, got %(value)s",
    "second_pending_move": "a second pending move for %(player)s (move %(number)s is pending since event"
                           " %(event)s); only one move can be pending",
    "pending_move_not_last": "%(player)s has a pending move %(number)s (event %(event)s); a pending move must be"
                             " the player's last move",
    "number_out_of_sequence": "number %(number)s is out of sequence: %(player)s has made %(made)s move(s), so the"
                              " next is %(expected)s",
    "variant_dated": "a variant move carries no dates (50.4.8)",
    "variant_void": "a variant move cannot be void",
    "received_required": "received_on is required on every move but the player's first",
    "void_unsent": "a void move must have been sent: sent_on is required",
    "sent_on_leave": "sent_on %(day)s falls on %(player)s's leave (%(first)s to %(last)s), and the ruleset refuses"
                     " moves on leave days (ruleset.move_on_leave: refused)",
    "answers_again": "%(player)s answers again with no move of %(partner)s's since %(player)s's %(what)s (event"
                     " %(event)s): %(partner)s's reply to it is missing",
    "move_not_whole": "move must be a whole number, got %(value)s",
    "move_out_of_range": "move %(move)s must lie between 1 and %(last)s (%(player)s's made moves + 1)",
    "before_dispatch": "%(field)s %(day)s is before %(partner)s sent what it answers on %(dispatched)s (event"
                       " %(event)s); a move cannot arrive before it is sent (50.4.4)",
    "received_after_as_of": "received_on %(day)s is after the as-of date %(as_of)s",
    "sent_after_as_of": "sent_on %(day)s is after the as-of date %(as_of)s",
    "sent_before_received": "sent_on %(sent)s is before received_on %(received)s",
    # A player's own calendar, vacation, pauses and time given (corr.clock.personal, .vacation, .gifts; issue 40).
    "calendar_not_object": "%(field)s must be an object {time_zone, weekend_days, night}",
    "calendar_unknown_key": "%(field)s is not a calendar field (known: %(known)s)",
    "night_not_object": '%(field)s must be an object {"from": "HH:MM", "hours": N}, got %(value)s',
    "night_from": "%(field)s must be a time of day HH:MM (00:00 to 23:59), got %(value)s",
    "night_hours": "%(field)s must be a whole number of hours from 1 to 23 (some of each day must count),"
                   " got %(value)s",
    "calendar_not_allowed": "%(field)s: this ruleset keeps no player calendars (ruleset.player_calendars: none)",
    "calendar_zone_not_allowed": "%(field)s: this ruleset reads players' calendars in the game's zone"
                                 " (ruleset.player_calendars: game_zone), so a calendar names no zone",
    "night_needs_instants": "%(field)s: a night needs a count of instants (time_control.count whole_days or"
                            " exact); a date has no hours",
    "spans_need_instants": "%(field)s: %(key)s are instants and need a count of instants (time_control.count"
                           " whole_days or exact); under dates book leave",
    "spans_not_list": '%(field)s must be a list of {"from": instant, "to": instant} objects',
    "span_not_object": "%(field)s must be an object with from and to (allowed keys: %(known)s), got %(value)s",
    "span_reversed": "%(where)s: to is not after from",
    "span_overlaps": "%(where)s begins before the one before it ends: give them in order, apart",
    "span_by": "%(field)s must be a player id, got %(value)s",
    "flag_beyond_reach": "%(field)s: the player's calendar leaves no time to count",
    "gift_days": "a gift's days must be a whole number of at least 1, got %(value)s",
    "gift_after_as_of": "at %(day)s is after the as-of moment %(as_of)s",
    "vacation_not_allowed": "%(field)s: this ruleset has no vacation (ruleset.vacation)",
    "vacation_too_short": "%(field)s: a vacation lasts at least %(hours)s hour(s) (ruleset.vacation.min_hours),"
                          " this one %(taken)s",
    "vacation_over_allowance": "%(field)s: %(player)s's vacation of %(taken)s is more than the allowance left"
                               " then, %(left)s (ruleset.vacation)",
    "pauses_not_allowed": "%(field)s: this ruleset has no pauses (ruleset.pauses_per_game)",
    "pauses_over_budget": "%(field)s: %(player)s started %(count)s pause(s) in this game, more than the"
                          " %(budget)s each player has (ruleset.pauses_per_game, OGS pauses_left)",
    "gifts_not_allowed": "%(field)s: this ruleset lets no one give time (ruleset.gifts)",
    "gift_not_days": "%(field)s: a gift is exactly %(days)s day(s) under this ruleset (lichess's \"+\"), got"
                     " %(value)s",
    "gift_over_max": "%(field)s: at most %(maximum)s day(s) can be given at once (ruleset.gifts.max_days, DGS"
                     " MAX_ADD_DAYS), got %(value)s",
    "gift_not_moretimeable": "%(field)s: %(player)s has %(left)s left, not under %(bound)s (a move's %(allowance)s"
                             " less %(hours)s hour(s)): no time can be given yet (lichess moretimeable)",
    "gift_bound_needs_per_move": "%(field)s bounds a gift by a move's time: it needs days per move counted"
                                 " exactly (system per_move, count exact)",
    # Accounts (corr.clock.account).
    "live_unit": "ruleset.time_control.unit seconds is a live clock: the correspondence calculator counts days"
                 " (use corr.clock.live)",
    "deadline_after_last_date": "%(field)s: %(player)s's deadline would fall after %(last)s, the last date there"
                                " is (check the official start, the events' dates and the ruleset's days)",
    # Dates and instants (corr.clock.calendar, corr.clock.counts, corr.clock.instants).
    "date_format": "%(field)s must be a date written YYYY-MM-DD, got %(value)s",
    "date_unreal": "%(field)s is not a real date: %(value)s",
    "ranges_not_list": '%(field)s must be a list of {"from": date, "to": date} objects',
    "range_not_object": '%(field)s must be an object with exactly "from" and "to", got %(value)s',
    "range_reversed": "%(where)s: to %(last)s is before from %(first)s (both ends are included)",
    "weekdays_not_list": "%(field)s must be a list of weekday names (%(known)s)",
    "weekday_unknown": "%(field)s: unknown weekday %(value)s (known: %(known)s)",
    "weekdays_all": "%(field)s names every day of the week: no day would count",
    "instant_format": "%(field)s must be an RFC 3339 date-time with an offset, to the second"
                      " (2019-04-11T19:29:00Z or 2019-04-11T22:29:00+03:00), got %(value)s",
    "instant_unreal": "%(field)s is not a real date-time: %(value)s",
    "zone_format": "time_zone must be an IANA zone name (Europe/Moscow, UTC), got %(value)s",
    "zone_unknown": "time_zone %(value)s is not a known IANA zone name (Europe/Moscow, UTC)",
    "instant_needed": "%(field)s must be an instant under the %(count)s count",
    "event_date_not_instant": "%(key)s %(day)s is a date: the %(count)s count needs the instant, %(at)s"
                              " (RFC 3339: 2019-04-11T19:29:00Z)",
    # Rulesets and time controls (corr.clock.rules, corr.clock.systems, corr.clock.units, corr.clock.presets).
    "not_object": "%(field)s must be an object",
    "unknown_option": "%(field)s: unknown option %(value)s (known: %(known)s)",
    "unknown_ruleset_field": "%(field)s is not a ruleset field (known: %(known)s)",
    "unknown_system_field": "%(field)s is not a field of this system (known: %(known)s)",
    "required": "%(field)s is required",
    "not_whole": "%(field)s must be a whole number, got %(value)s",
    "not_whole_days": "%(field)s must be a whole number of days, got %(value)s",
    "at_least": "%(field)s must be at least %(minimum)s, got %(value)s",
    "seconds_at_least": "%(field)s must be %(least)s seconds, got %(value)s",
    "not_seconds": "%(field)s must be a number of seconds, got %(value)s",
    "seconds_range": "%(field)s must be between 0 and %(maximum)s seconds, got %(value)s",
    "seconds_fraction": "%(field)s must be whole milliseconds (at most 3 decimals), got %(value)s",
    "not_boolean": "%(field)s must be true or false, got %(value)s",
    "one_of": "%(field)s must be one of %(known)s, got %(value)s",
    "unit_unknown": "%(field)s must be days or seconds, got %(value)s",
    "system_missing": "%(field)s must be an object with a 'system'",
    "main_not_stages": "%(field)s must be whole days or a non-empty list of {moves, time}",
    "stages_not_list": "%(field)s must be a non-empty list of {moves, time}",
    "stage_not_object": "%(field)s must be an object {moves, time}",
    "stage_rest_not_last": "%(field)s may be null (the rest of the game) only in the last stage",
    "stage_increment_and_delay": "%(where)s: a stage has an increment or a delay, not both (FIDE 6.2)",
    "repeat_needs_moves": "%(field)s needs a last stage with a number of moves",
    "last_stage_open": "%(field)s: the last stage must cover the rest of the game (moves: null) or be repeated"
                       " (repeat_last: true)",
    "count_with_seconds": "%(field)s is a correspondence rule: a live clock (unit seconds) counts its own"
                          " milliseconds",
    "double_after_with_seconds": "%(field)s is a correspondence rule (ICCF double days): not with unit seconds",
    "live_rule_needs_seconds": "%(field)s is a rule of live play: it needs unit seconds",
}
"""The English words of every coded refusal, ``%(name)s`` filled from its ``params``: what the terminal prints."""


def message_of(code: str, params: dict[str, Any]) -> str:
    """The English words of ``code`` with ``params`` (``MESSAGES``). :raises KeyError: for an unknown code."""
    return MESSAGES[code] % params


class ClockError(ValueError):
    """A game cannot be computed as given.

    ``field`` names the offending input (``"ruleset.days_per_control"``,
    ``"events[3].sent_on"``) so that an API can point at it; ``str(error)``
    is one line fit for a person. ``code`` (a key of ``MESSAGES``, "" for a
    refusal no person causes) and ``params`` say the same for a translator.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str = "",
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
        self.params: dict[str, Any] = {} if params is None else params


class RulesetError(ClockError):
    """A ruleset value breaks its rule (not a whole number, or out of range)."""


class EventError(ClockError):
    """One event of a game is malformed or out of sequence.

    ``index`` is the event's 0-based position in the game's event list and
    ``kind`` its type; both appear at the start of the message.
    """

    def __init__(self, index: int, kind: str, message: str, *, field: str | None = None, code: str = "",
                 params: dict[str, Any] | None = None) -> None:
        self.index = index
        self.kind = kind
        self.detail = message
        path = f"events[{index}]" + (f".{field}" if field else "")
        super().__init__(f"event {index} ({kind}): {message}", field=path, code=code, params=params)


def clock_error(code: str, *, field: str | None = None, **params: Any) -> ClockError:
    """A ``ClockError`` of ``code``, its English words from ``MESSAGES`` (``field`` is also ``%(field)s``)."""
    params.setdefault("field", field)
    return ClockError(message_of(code, params), field=field, code=code, params=params)


def ruleset_error(code: str, *, field: str | None = None, **params: Any) -> RulesetError:
    """A ``RulesetError`` of ``code``, its English words from ``MESSAGES`` (``field`` is also ``%(field)s``)."""
    params.setdefault("field", field)
    return RulesetError(message_of(code, params), field=field, code=code, params=params)


def event_error(index: int, kind: str, code: str, *, field: str | None = None, **params: Any) -> EventError:
    """An ``EventError`` of event ``index`` (of type ``kind``) and ``code``, its words from ``MESSAGES``.

    ``field`` is the event's field at fault (``sent_on``), also ``%(field)s`` of the words.
    """
    params.setdefault("field", field)
    return EventError(index, kind, message_of(code, params), field=field, code=code, params=params)
