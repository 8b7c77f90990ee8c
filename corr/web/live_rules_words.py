"""What the arbiter's forms of a live game say of the rules: those of the game's own kind, with its ruleset's numbers.

A chess game's page cited draughts' 15-minute floor and Go's illegal-move rule though its ruleset had neither (the
browser walk of 2026-12-06): each sentence here cites the rulebook of the game's kind (seeds 000 and 001 for
draughts, 002 for chess, 003 for Go) and says the numbers of ``corr.clock.live.rules.LiveRules`` as the tournament set
them, which are the numbers the service applies.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from corr.clock.live.rules import LiveRules
from corr.clock.units import ms_to_seconds
from corr.rulebooks import citation, citations

SANCTION_RULES = {"chess": [("002", "6.10"), ("002", "6.13")], "go": [("003", "17.4")],
                  "draughts": [("000", "12.5"), ("001", "1.7.8")]}
"""Where each kind's rulebook lets the arbiter set a clock (seed, article): FIDE 6.10 and 6.13 (the arbiter's
judgement), Go 17.4 (time given to the opponent, taken from the offender), draughts 12.5 and 1.7.8 (a correction)."""
CALL_RULES = {"chess": [("002", "6.12 b")], "go": [("003", "12.13"), ("003", "17.4")]}
"""A player's call of the arbiter: FIDE 6.12 b (a player may stop the clocks to seek the arbiter's help), Go 12.13
and 17.4; the draughts rules have no article of their own on it, only on a stop (12.11, 1.7.11)."""
DRAUGHTS_FLOOR = [("000", "12.5"), ("001", "1.7.8")]
"""Draughts' 15 minutes a shortened clock keeps to the control (000 12.5, 001 1.7.8)."""


def span_text(ms: int) -> str:
    """A ruleset's span in words, exactly as the service applies it: whole minutes as minutes ("2 minutes"), else
    seconds, to the millisecond where the ruleset gives them so ("90 seconds", "1,5 seconds" on a French page)."""
    if ms and ms % 60_000 == 0:
        return ngettext("%(count)s minute", "%(count)s minutes", ms // 60_000) % {"count": ms // 60_000}
    seconds = ms_to_seconds(ms)
    # ngettext's count is whole: a part of a second takes the plural ("1,5 seconds"), as English and French do.
    return ngettext("%(count)s second", "%(count)s seconds", seconds if isinstance(seconds, int) else 2) % {
        "count": number_format(seconds)}


def live_rules_of(game) -> LiveRules:
    """The live rules of ``game``'s tournament, the defaults where its ruleset sets none."""
    control = game.tournament.ruleset.time_control
    return control.live if control is not None and control.live is not None else LiveRules()


def warnings_owed_title(kind: str) -> str:
    """The title of the warnings a player's sight is owed: draughts' rule (001 1.7.9) where it applies."""
    if kind == "draughts":
        return _("Warnings owed (%(rules)s)") % {"rules": citation("001", "1.7.9")}
    return _("Warnings owed")


def adjust_why(kind: str, rules: LiveRules) -> str:
    """The "Adjust a clock" form's rule: a sanction or a correction, the floor a shortened clock keeps."""
    parts = [_("Seconds added (or taken with a minus sign): a sanction or a correction (%(rules)s).")
             % {"rules": citations(SANCTION_RULES.get(kind, SANCTION_RULES["chess"]))}]
    if kind == "go":
        parts.append(_("In byo-yomi they go to the current period (%(rules)s).") % {"rules": citation("003", "12.14")})
    if rules.min_after_correction_ms:
        source = citations(DRAUGHTS_FLOOR) if kind == "draughts" else _("this tournament's ruleset")
        parts.append(_("A shortened clock keeps at least %(span)s to the control (%(source)s) and never reaches zero.")
                     % {"span": span_text(rules.min_after_correction_ms), "source": source})
    else:
        parts.append(_("A shortened clock never reaches zero."))
    return " ".join(parts)


def illegal_why(kind: str, rules: LiveRules) -> str:
    """The "Illegal move" form's rule: the time the opponent is given, and the illegal move that loses."""
    source = citation("003", "13.4") if kind == "go" else _("this tournament's ruleset")
    given = rules.illegal_move_limit - 1
    if given == 0:
        return _("An illegal move loses the game (%(source)s).") % {"source": source}
    values = {"count": given, "limit": rules.illegal_move_limit, "source": source}
    if not rules.illegal_move_ms:
        return ngettext("An illegal move is recorded the first time, with no time to the opponent; illegal move"
                        " %(limit)s loses the game (%(source)s).",
                        "An illegal move is recorded the first %(count)s times, with no time to the opponent; illegal"
                        " move %(limit)s loses the game (%(source)s).", given) % values
    return ngettext("An illegal move gives the opponent %(span)s the first time; illegal move %(limit)s loses the"
                    " game (%(source)s).",
                    "An illegal move gives the opponent %(span)s the first %(count)s times; illegal move %(limit)s"
                    " loses the game (%(source)s).", given) % {**values, "span": span_text(rules.illegal_move_ms)}


def ruling_why(kind: str, rules: LiveRules) -> str:
    """The "Ruling on a player's stop" form's rule: a call of the arbiter, and a stop of the clocks, which claims a
    draw where the ruleset says so (``stop_claims_draw``, any kind: the service reads the ruleset, corr.live.stops)."""
    if kind in CALL_RULES:
        call = _("A call of the arbiter: justified, a warning, or a penalty of time (%(rules)s: seconds taken from"
                 " the caller with a minus sign, or given to the partner).") % {"rules": citations(CALL_RULES[kind])}
    else:
        call = _("A call of the arbiter: justified, a warning, or a penalty of time (seconds taken from the caller"
                 " with a minus sign, or given to the partner).")
    if rules.stop_claims_draw:
        source = (citations([("000", "12.11"), ("001", "1.7.11"), ("001", "1.7.13")]) if kind == "draughts"
                  else _("this tournament's ruleset"))
        stop = _("A stop: a misunderstanding is a warning and the game goes on; a draw claimed in a game to the end"
                 " is confirmed or ruled a resignation (%(rules)s).") % {"rules": source}
    elif kind == "draughts":
        stop = _("A stop: a misunderstanding is a warning and the game goes on; otherwise it is a resignation"
                 " (%(rules)s).") % {"rules": citations([("000", "12.11"), ("001", "1.7.11")])}
    else:
        stop = _("A stop: a misunderstanding is a warning and the game goes on; otherwise it is a resignation.")
    return f"{call} {stop}"


def pause_why(kind: str) -> str:
    """The "Clocks" form's rule: FIDE 6.12 and 6.13 in chess; the other rulebooks have no article of their own."""
    if kind == "chess":
        return _("Stop both clocks and start them again (FIDE Laws 6.12, 6.13).")
    return _("Stop both clocks and start them again.")


LATE_RULES = {"chess": [("002", "6.6")], "go": [("003", "12.7")]}
"""The default time of a late arrival: FIDE 6.6 (an hour), Go 12.7 (half the main time); not in the draughts rules."""


def late_why(kind: str) -> str:
    """The "Late arrival excused" form's rule."""
    if kind in LATE_RULES:
        return _("A player who has not moved within the default time loses, unless the arbiter decides otherwise"
                 " (%(rules)s): excusing the late player reopens the game that forfeit ended; their clock has run on"
                 " meanwhile.") % {"rules": citations(LATE_RULES[kind])}
    return _("A player who has not moved within the default time loses, unless the arbiter decides otherwise:"
             " excusing the late player reopens the game that forfeit ended; their clock has run on meanwhile.")


def arbiter_words(game, kind: str) -> dict[str, str]:
    """The template's ``rules_words``: every rule sentence of the arbiter's forms for ``game``."""
    rules = live_rules_of(game)
    return {"owed_title": warnings_owed_title(kind), "pause": pause_why(kind), "adjust": adjust_why(kind, rules),
            "illegal": illegal_why(kind, rules), "late": late_why(kind), "ruling": ruling_why(kind, rules)}
