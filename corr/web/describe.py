"""Words for the pages, in the page's language: a tournament's real time control, the ledger's kinds and
notes, why a player's figures are what they are.

The calculator (corr.clock) is pure and speaks English (its ledger notes, ``corr.clock.text`` for the
terminal); the pages say the same things here with ``gettext``, from the same computed values.
"""

from __future__ import annotations

import re

from django.utils.formats import date_format, number_format
from django.utils.translation import ngettext
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from corr.rulebooks import cited
from corr.templatetags.corr_i18n import word

from corr.clauses import clauses


def _days(n) -> str:
    return ngettext("%(days)s day", "%(days)s days", n) % {"days": n} if isinstance(n, int) else str(n)


def _duration(seconds) -> str:
    """An amount of a time control in seconds as a person reads it: ``1 h 30 min``, ``30 s``, ``0.25 s``.

    Hours, minutes and seconds with their symbols (no plural in any language of the site); a fraction
    of a second (the JSON allows milliseconds) in the language's decimal form.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return str(seconds)
    ms = round(seconds * 1000)
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    parts = []
    if hours:
        parts.append(_("%(hours)s h") % {"hours": hours})
    if minutes:
        parts.append(_("%(minutes)s min") % {"minutes": minutes})
    if rest or not parts:
        value = rest // 1000 if rest % 1000 == 0 else rest / 1000
        parts.append(_("%(seconds)s s") % {"seconds": number_format(value)})
    return " ".join(parts)


def _stages(stages, amount) -> str:
    """Stages of a control (``periods``, a byo-yomi's main time in moves): ``40 moves in 1 h 30 min, then the
    rest of the game in 30 min``, with a stage's increment or delay after it."""
    out = []
    for s in stages:
        if s.get("moves") is None:
            text = _("the rest of the game in %(days)s") % {"days": amount(s.get("time"))}
        else:
            text = _("%(moves)s moves in %(days)s") % {"moves": s.get("moves"), "days": amount(s.get("time"))}
        if s.get("increment"):
            text += _(" + %(increment)s a move") % {"increment": amount(s["increment"])}
        if s.get("delay"):
            text += _(" (%(delay)s delay a move)") % {"delay": amount(s["delay"])}
        out.append(text)
    return _(", then ").join(out)


def time_control_text(ruleset) -> str:
    """The time control a tournament's games actually get, in one line (any system or preset).

    Amounts are days, or durations for a live control (``"unit": "seconds"``: ``1 h 30 min``, ``30 s``).
    """
    tc = ruleset.time_control
    if tc is None:
        return cited(_("%(moves)s moves in %(days)s, accumulated (50.4.3); time trouble at %(trouble)s left") % {
            "moves": ruleset.moves_per_control, "days": _days(ruleset.days_per_control),
            "trouble": _days(ruleset.time_trouble_days)})
    data = tc if isinstance(tc, dict) else tc.as_json()
    amount = _duration if data.get("unit") == "seconds" else _days

    def main(value) -> str:  # a byo-yomi's main time: an amount, or stages in moves (Go 12.2)
        return _stages(value, amount) if isinstance(value, list) else amount(value)

    system = data.get("system", "")
    extras = []
    if data.get("max_per_move"):
        extras.append(_("at most %(days)s a move") % {"days": amount(data["max_per_move"])})
    if data.get("double_after"):
        extras.append(_("days count double beyond %(days)s") % {"days": data["double_after"]})
    if system == "periods":
        text = _stages(data.get("stages", []), amount) + (_(", repeated") if data.get("repeat_last") else "") + (
            _(", accumulated") if data.get("cumulative", True) else "")
    elif system == "fischer":
        text = _("Fischer: %(initial)s + %(increment)s a move") % {
            "initial": amount(data.get("initial")), "increment": amount(data.get("increment"))}
        if data.get("max"):
            text += _(", at most %(max)s on the clock") % {"max": amount(data["max"])}
    elif system == "per_move":
        text = _("%(days)s a move") % {"days": amount(data.get("time"))}
    elif system == "byoyomi":
        periods = data.get("periods")
        text = ngettext("Japanese byo-yomi: %(main)s, then %(periods)s period of %(period)s",
                        "Japanese byo-yomi: %(main)s, then %(periods)s periods of %(period)s",
                        periods if isinstance(periods, int) else 2) % {
            "main": main(data.get("main")), "periods": periods, "period": amount(data.get("period_time"))}
    elif system == "canadian":
        text = _("Canadian byo-yomi: %(main)s, then %(moves)s moves in %(period)s") % {
            "main": main(data.get("main")), "moves": data.get("moves"), "period": amount(data.get("period_time"))}
    elif system == "sudden_death":
        text = _("sudden death: %(days)s for the game") % {"days": amount(data.get("time"))}
    elif system == "delay":
        text = _("FIDE delay: %(main)s, %(delay)s free a move") % {
            "main": amount(data.get("initial", data.get("main"))), "delay": amount(data.get("delay"))}
    else:
        text = system.replace("_", " ") or _("custom control")
    return cited(clauses([text, *extras]))


def moment_text(at, zone: str) -> str:
    """An instant as a day and a time in ``zone`` (IANA), in the page's language: ``Thu 3 Dec 2026, 14:05``.

    The words of every instant the pages show (deadlines, moves sent and received); the zone's name is
    the caller's to add. Minutes, cut: a move's seconds are in the API and the game file.
    """
    from zoneinfo import ZoneInfo

    # Translators: a deadline's day and time in Django's date format letters (D: day, j: day of the
    # month, M/E/F: month, Y: year, H:i: hours and minutes), as the language writes them.
    return date_format(at.astimezone(ZoneInfo(zone)), pgettext("deadline instant", "D j M Y, H:i"))


def deadline_text(*, day=None, at=None, zone: str = "") -> str:
    """The deadline of a pending move, in the page's language: the one wording of every page and feed.

    ``at`` (an aware instant: the account's ``flag_at`` under ``whole_days`` or ``exact``) is worded
    as a time in ``zone``, the reader's IANA zone, named in the page's language (``corr.zones``):
    ``send before Thu 3 Dec 2026, 14:05, Europe/Moscow`` ("…, Москва" in Russian).
    Otherwise ``day`` (the last date the move may be sent, the ``dates`` count) is the date alone, in the
    locale's short form, as the pages have always shown it; "" when neither is given.

    The minutes are cut, not rounded: a flag at 14:05:36 reads "before 14:05", a little stricter than the
    rule, never later than it.
    """
    if at is not None:
        from corr.zones import zone_name

        return _("send before %(when)s, %(zone)s") % {"when": moment_text(at, zone), "zone": zone_name(zone)}
    if day is not None:
        return date_format(day, "SHORT_DATE_FORMAT")
    return ""


def countdown_patterns() -> dict[str, str]:
    """The countdown's words, for the server's text and for ``corr/static/corr/countdown.js`` alike.

    ``long`` (a day or more, to the minute), ``short`` (under a day, to the second), each with
    ``%(name)s`` placeholders the script fills the same way; ``up`` once the time is over.
    """
    return {"long": _("%(days)s d %(hours)s h %(minutes)s min left"),
            "short": _("%(hours)s h %(minutes)s min %(seconds)s s left"),
            "up": _("time is up")}


def countdown_text(seconds: int) -> str:
    """The time left before an instant deadline, ``2 d 03 h 12 min left`` (what the script shows first)."""
    words = countdown_patterns()
    if seconds <= 0:
        return words["up"]
    days, rest = divmod(int(seconds), 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    if days:
        return words["long"] % {"days": days, "hours": f"{hours:02d}", "minutes": f"{minutes:02d}"}
    return words["short"] % {"hours": f"{hours:02d}", "minutes": f"{minutes:02d}", "seconds": f"{secs:02d}"}


def duration_text(left) -> str:
    """A ``corr.games.timeleft.TimeLeft``'s time as a span: ``34 d 21 h 05 min`` under a count of instants,
    ``49 days`` under dates (a part of a day is no time the rules count there)."""
    if not left.instants:
        return ngettext("%(days)s day", "%(days)s days", left.days) % {"days": left.days}
    values = {"days": left.days, "hours": f"{left.hours:02d}", "minutes": f"{left.minutes:02d}"}
    if left.days:
        return _("%(days)s d %(hours)s h %(minutes)s min") % values
    return _("%(hours)s h %(minutes)s min") % values


def time_left_text(left) -> str:
    """The one answer to "how much time do I have" (``corr.games.timeleft``), as every page and e-mail says it."""
    if left.over:
        over = -left.control_days
        return ngettext("%(days)s day over the control", "%(days)s days over the control", over) % {"days": over}
    if left.instants and left.seconds <= 0:
        return _("time is up")
    return _("%(time)s left") % {"time": duration_text(left)}


def time_left_why(left) -> str:
    """Why the time left differs from the control's days, in one sentence; "" when they agree."""
    values = {"control": left.control_days, "after": left.double_after, "time": duration_text(left)}
    if left.why == "double":
        return ngettext("%(control)s day left in the control; the days of one move beyond %(after)s count double,"
                        " so this move can take up to %(time)s.",
                        "%(control)s days left in the control; the days of one move beyond %(after)s count double,"
                        " so this move can take up to %(time)s.", left.control_days) % values
    if left.why == "per_move":
        return ngettext("%(control)s day left in the control; the time control limits a single move, so this move"
                        " can take up to %(time)s.",
                        "%(control)s days left in the control; the time control limits a single move, so this move"
                        " can take up to %(time)s.", left.control_days) % values
    if left.why == "not_counted":
        return ngettext("%(control)s day left in the control; days that are not counted (leave, weekends,"
                        " holidays) come before the deadline, so this move can take up to %(time)s.",
                        "%(control)s days left in the control; days that are not counted (leave, weekends,"
                        " holidays) come before the deadline, so this move can take up to %(time)s.",
                        left.control_days) % values
    return ""


LEDGER_KINDS = {
    "move": gettext_lazy("move"),
    "void_move": gettext_lazy("void move (impossible or illegible)"),
    "variant_move": gettext_lazy("variant move"),
    "pending_move": gettext_lazy("thinking now (move not sent yet)"),
    "notice": gettext_lazy("notice or repeat"),
    "penalty": gettext_lazy("penalty"),
    "delay": gettext_lazy("delay"),
    "credit": gettext_lazy("time given back"),
    "gift": gettext_lazy("time given by the opponent"),
}


def vacation_text(vacation: dict | None, *, as_of: str) -> str:
    """A player's vacation as of ``as_of`` (RFC 3339) in the page's language (issue 40); "" when on none.

    ``vacation``: the calculator's ``players.<colour>.vacation`` (``left_hours``, ``taken``). An automatic one
    (chess.com: "if you are about to time out, vacation will automatically be turned on") is said so."""
    if not vacation:
        return ""
    for span in vacation.get("taken", ()):
        if span["from"] <= as_of < span["to"]:
            values = {"start": _when_words(span["from"]), "end": _when_words(span["to"]),
                      "hours": vacation["left_hours"]}
            if span.get("automatic"):
                return _("on automatic vacation since %(start)s, until a move or %(end)s at the latest; %(hours)s"
                         " hours of vacation left") % values
            return _("on vacation from %(start)s to %(end)s; %(hours)s hours of vacation left") % values
    return ""


def vacation_texts(vacations: dict | None, *, as_of: str) -> dict[str, str | None]:
    """Each player's vacation as of ``as_of`` in the reader's language (``vacation_text``; None when on none): the
    game page's sentence and the API's ``vacation_text``, one wording. ``vacations``: the calculator's
    ``players.<colour>.vacation`` by colour (None: the tournament has no vacation, every player None)."""
    return {colour: (vacation_text((vacations or {}).get(colour), as_of=as_of) or None)
            for colour in ("white", "black")}


def ledger_kind(kind: str) -> str:
    return str(LEDGER_KINDS.get(kind, kind.replace("_", " ")))


_HOW = re.compile(r"(-?\d+ d \d\d h \d\d min(?: \d\d s)?): (?:(\d+) whole day\(s\) \(ICCF 2\.4\.2\)|(counted exactly))"
                  r"(?:, (.+?) beyond (.+?) doubled: (.+))?")
"""How a move of an instant count was counted (``corr.clock.charging.how_counted``)."""
_DURATION = re.compile(r"(-?\d+) d (\d\d) h (\d\d) min(?: (\d\d) s)?")


def _duration_words(text: str) -> str:
    """``25 d 11 h 01 min`` (``corr.clock.counts.duration_text``) in the page's language."""
    match = _DURATION.fullmatch(text)
    if match is None:
        return text
    values = {"days": match[1], "hours": match[2], "minutes": match[3], "seconds": match[4]}
    if match[4]:
        return _("%(days)s d %(hours)s h %(minutes)s min %(seconds)s s") % values
    return _("%(days)s d %(hours)s h %(minutes)s min") % values


def _how_words(text: str) -> str:
    """``25 d 11 h 01 min: 25 whole day(s) (ICCF 2.4.2), 5 beyond 20 doubled: 30`` in the page's language."""
    match = _HOW.fullmatch(text)
    if match is None:
        return text
    took = _duration_words(match[1])
    if match[2] is not None:
        out = ngettext("%(took)s: %(days)s whole day (ICCF 2.4.2)", "%(took)s: %(days)s whole days (ICCF 2.4.2)",
                       int(match[2])) % {"took": took, "days": match[2]}
    else:
        out = _("%(took)s: counted exactly") % {"took": took}
    if match[4]:
        out += _(", %(beyond)s beyond %(double)s doubled: %(charged)s") % {
            "beyond": _duration_words(match[4]), "double": _duration_words(match[5]),
            "charged": _duration_words(match[6])}
    return out


def _when_words(text: str) -> str:
    """A note's date (``2026-01-16``) as the page writes dates, an instant (``...T21:00:00Z``) in UTC."""
    from datetime import date, datetime

    if re.fullmatch(r"\d{4}-\d\d-\d\d", text):
        return date_format(date.fromisoformat(text), "SHORT_DATE_FORMAT")
    if re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", text):
        return moment_text(datetime.fromisoformat(text.replace("Z", "+00:00")), "UTC") + " UTC"
    return text


_EXCLUDED = {"leave": gettext_lazy("%(days)s of leave"), "holiday": gettext_lazy("%(days)s of holidays"),
             "weekend": gettext_lazy("%(days)s of weekends")}


_EXCLUDED_TIME = {"leave": gettext_lazy("%(time)s of leave"), "holiday": gettext_lazy("%(time)s of holidays"),
                  "weekend": gettext_lazy("%(time)s of weekends"), "night": gettext_lazy("%(time)s of night"),
                  "vacation": gettext_lazy("%(time)s of vacation"), "pause": gettext_lazy("%(time)s of pause")}
"""A player's own night, vacation or pause under an exact count (issue 40, ``corr.clock.charging._excluded_text``):
each reason's duration."""
_EXCLUDED_DURATION = re.compile(r"(-?\d+ d \d\d h \d\d min(?: \d\d s)?) (leave|holiday|weekend|night|vacation|pause)")


def _excluded_part(part: str) -> str:
    """``2 leave`` (``corr.clock.calendar.excluded_note``), ``0 d 09 h 00 min night``, in the page's language."""
    timed = _EXCLUDED_DURATION.fullmatch(part)
    if timed is not None:
        return str(_EXCLUDED_TIME[timed[2]]) % {"time": _duration_words(timed[1])}
    number, _space, why = part.partition(" ")
    words = _EXCLUDED.get(why)
    return str(words) % {"days": number} if words is not None and number.isdigit() else part


# The calculator's ledger notes (corr.clock.charging), one pattern per clause; clauses are joined by "; ".
_NOTES = [
    (re.compile(r"accepted from the partner's variant: later time is charged here"),
     lambda m: _("accepted from the partner's variant: later time is charged here")),
    (re.compile(r"played from the player's own conditional variant: costs nothing"),
     lambda m: _("played from the player's own conditional variant: costs nothing")),
    (re.compile(r"void move (\d+): its days count, but it is not a move made"),
     lambda m: _("void move %(number)s: its days count, but it is not a move made") % {"number": m[1]}),
    (re.compile(r"(\d+) day\(s\) before the player's start (\d{4}-\d\d-\d\d) not counted( \(late notice, 50.4.6\))?"),
     lambda m: ngettext("%(days)s day before the player's start %(day)s not counted",
                        "%(days)s days before the player's start %(day)s not counted", int(m[1]))
     % {"days": m[1], "day": _when_words(m[2])} + (_(" (late notice, 50.4.6)") if m[3] else "")),
    (re.compile(r"charged to accepted variant move (\d+) \(move (\d+) sent\)"),
     lambda m: _("charged to accepted variant move %(variant)s (move %(number)s sent)")
     % {"variant": m[1], "number": m[2]}),
    (re.compile(r"(\w+) notice: (\d+) day\(s\) from (\S+) to (\S+), of which up to (\d+) are not counted"),
     lambda m: ngettext("%(reason)s notice: %(days)s day from %(start)s to %(end)s, of which up to %(grace)s are not"
                        " counted",
                        "%(reason)s notice: %(days)s days from %(start)s to %(end)s, of which up to %(grace)s are"
                        " not counted", int(m[2]))
     % {"reason": reason_word(m[1]), "days": m[2], "start": _when_words(m[3]), "end": _when_words(m[4]),
        "grace": m[5]}),
    (re.compile(r"(\w+): first penalty in this game"),
     lambda m: _("%(reason)s: first penalty in this game") % {"reason": reason_word(m[1])}),
    (re.compile(r"(\w+): repeated penalty in this game"),
     lambda m: _("%(reason)s: repeated penalty in this game") % {"reason": reason_word(m[1])}),
    (re.compile(r"(\w+): whole delay added by the arbiter"),
     lambda m: _("%(reason)s: whole delay added by the arbiter") % {"reason": reason_word(m[1])}),
    (re.compile(r"time given back: (\d+) day\(s\)"),
     lambda m: ngettext("time given back: %(days)s day", "time given back: %(days)s days", int(m[1]))
     % {"days": m[1]}),
    (re.compile(r"time given back: (-?\d+ d \d\d h \d\d min(?: \d\d s)?)"),
     lambda m: _("time given back: %(time)s") % {"time": _duration_words(m[1])}),
    (re.compile(r"move (\d+) running since (\S+?)(?:: (.+?))?(, charged to accepted variant move (\d+))?"),
     lambda m: _("move %(number)s running since %(day)s") % {"number": m[1], "day": _when_words(m[2])}
     + (": " + _how_words(m[3]) if m[3] else "")
     + (_(", charged to accepted variant move %(variant)s") % {"variant": m[5]} if m[4] else "")),
    (_HOW, lambda m: _how_words(m[0])),
    (re.compile(r"(\d+) day\(s\) not counted: (.+)"),
     lambda m: ngettext("%(days)s day not counted: %(why)s", "%(days)s days not counted: %(why)s", int(m[1]))
     % {"days": m[1], "why": ", ".join(_excluded_part(part) for part in m[2].split(", "))}),
    (re.compile(r"(-?\d+ d \d\d h \d\d min(?: \d\d s)?) not counted: (.+)"),
     lambda m: _("%(time)s not counted: %(why)s") % {
         "time": _duration_words(m[1]), "why": ", ".join(_excluded_part(part) for part in m[2].split(", "))}),
    (re.compile(r"time given by the opponent at (\S+): (\d+) day\(s\)"),
     lambda m: ngettext("time given by the opponent at %(when)s: %(days)s day",
                        "time given by the opponent at %(when)s: %(days)s days", int(m[2]))
     % {"when": _when_words(m[1]), "days": m[2]}),
    (re.compile(r"(\d+) day\(s\) beyond (\d+) count double"),
     lambda m: ngettext("%(days)s day beyond %(double)s counts double", "%(days)s days beyond %(double)s count double",
                        int(m[1])) % {"days": m[1], "double": m[2]}),
    (re.compile(r"(\d+) day\(s\), those beyond (\d+) count double: (\d+)"),
     lambda m: ngettext("%(raw)s day, those beyond %(double)s count double: %(days)s",
                        "%(raw)s days, those beyond %(double)s count double: %(days)s", int(m[1]))
     % {"raw": m[1], "double": m[2], "days": m[3]}),
]


def reason_word(value: str) -> str:
    from .forms import REASON_WORDS  # the forms' words for the calculator's reasons

    return str(REASON_WORDS.get(value, value.replace("_", " ")))


def ledger_note(note: str) -> str:
    """A ledger note of the calculator (English, its reasons as stored values) in the page's language, its
    reasons in words (``impossible_move`` is "impossible move") and its rules by rulebook; "" when empty.
    A clause no pattern knows stays as written."""
    if not note:
        return ""
    out = []
    for clause in note.split("; "):
        for pattern, say in _NOTES:
            match = pattern.fullmatch(clause)
            if match:
                out.append(say(match))
                break
        else:
            out.append(clause)
    return cited(clauses(out))


def explain_account(account, ruleset, *, by_post: bool = True, shown=None) -> str:
    """Why a player's figures are what they are, in one paragraph, in the page's language.

    The same facts as ``corr.clock.text.explain_account`` (the terminal's English), from the same account.
    ``shown``: the page's ``ShownDeadline`` of the player's turn (``corr.web.deadline``), None when they have
    no deadline (not on move with a day in time, ``corr.games.turns``); an instant one is said as the card
    says it, a date one as the date. Time trouble is said only within the control: over it, the
    overstep says what is left.
    """
    c = account.control
    values = {"left": c.remaining_days, "thinking": account.thinking_days, "penalty": account.penalty_days,
              "delay": account.delay_days, "number": c.number, "through": c.through_move,
              "allowed": c.allowed_days, "trouble": ruleset.time_trouble_days}
    if account.clock is not None:
        values.update(system=system_word(account.clock["system"]), state=system_state_text(account.clock),
                      move=account.next_charge_number)
        parts = [ngettext("%(system)s control: %(state)s; %(left)s day left for move %(move)s (%(thinking)s"
                          " thinking, %(penalty)s penalty, %(delay)s delay in all).",
                          "%(system)s control: %(state)s; %(left)s days left for move %(move)s (%(thinking)s"
                          " thinking, %(penalty)s penalty, %(delay)s delay in all).", c.remaining_days) % values]
    else:
        values.update(first=c.through_move - ruleset.moves_per_control + 1, used=c.allowed_days - c.remaining_days)
        parts = [ngettext("Control %(number)s (moves %(first)s-%(through)s, accumulated) allows %(allowed)s day;"
                          " %(used)s charged so far (%(thinking)s thinking, %(penalty)s penalty,"
                          " %(delay)s delay in all): %(left)s left (50.4.3).",
                          "Control %(number)s (moves %(first)s-%(through)s, accumulated) allows %(allowed)s days;"
                          " %(used)s charged so far (%(thinking)s thinking, %(penalty)s penalty,"
                          " %(delay)s delay in all): %(left)s left (50.4.3).", c.allowed_days) % values]
    if shown is not None and shown.at is not None:
        parts.append(_("The pending move: %(deadline)s.") % {"deadline": shown.text})
    elif shown is not None:
        parts.append(_("The pending move must be sent by %(day)s at the latest.")
                     % {"day": date_format(shown.day, "SHORT_DATE_FORMAT")})
    if account.overstepped is not None or c.remaining_days < 0:
        pass  # over the control: no "time trouble" with days below zero; the overstep says it below
    elif account.time_trouble and by_post:
        parts.append(ngettext("%(left)s <= %(trouble)s day left: replies must go by registered mail (50.4.12).",
                              "%(left)s <= %(trouble)s days left: replies must go by registered mail (50.4.12).",
                              ruleset.time_trouble_days) % values)
    elif account.time_trouble:
        parts.append(ngettext("%(left)s <= %(trouble)s day left: time trouble.",
                              "%(left)s <= %(trouble)s days left: time trouble.", ruleset.time_trouble_days) % values)
    if account.overstepped is not None:
        o = account.overstepped
        over = {"move": o.through_move, "used": o.used_days, "allowed": o.allowed_days, "control": o.control}
        if o.reason == "max_per_move":
            parts.append(ngettext("Move %(move)s took %(used)s day, over the limit of %(allowed)s for a single move.",
                                  "Move %(move)s took %(used)s days, over the limit of %(allowed)s for a single move.",
                                  o.used_days) % over)
        elif account.clock is not None and account.clock["system"] not in ("periods", "sudden_death"):
            parts.append(ngettext("The flag fell on move %(move)s: %(used)s day used, %(allowed)s on the clock.",
                                  "The flag fell on move %(move)s: %(used)s days used, %(allowed)s on the clock.",
                                  o.used_days) % over)
        else:
            parts.append(ngettext("Control %(control)s was exceeded: %(used)s day used through move %(move)s,"
                                  " %(allowed)s allowed.",
                                  "Control %(control)s was exceeded: %(used)s days used through move %(move)s,"
                                  " %(allowed)s allowed.", o.used_days) % over)
    return cited(" ".join(parts))


SYSTEM_WORDS = {
    "periods": gettext_lazy("Periods"), "sudden_death": gettext_lazy("Sudden death"),
    "fischer": gettext_lazy("Fischer"), "delay": gettext_lazy("FIDE delay"),
    "byoyomi": gettext_lazy("Japanese byo-yomi"), "canadian": gettext_lazy("Canadian byo-yomi"),
    "per_move": gettext_lazy("Days per move"),
}
"""The calculator's time-control systems (``time_control.system``) by name."""

STATE_WORDS = {
    "main": gettext_lazy("main time"), "main_moves_left": gettext_lazy("moves left in the main time"),
    "periods_left": gettext_lazy("byo-yomi periods left"), "period": gettext_lazy("a period"),
    "in_byoyomi": gettext_lazy("in byo-yomi"), "in_overtime": gettext_lazy("in overtime"),
    "moves_per_block": gettext_lazy("moves per block"), "block_moves_left": gettext_lazy("moves left in the block"),
    "block": gettext_lazy("left in the block"), "delay": gettext_lazy("delay a move"),
    "delay_left": gettext_lazy("delay left"), "clock": gettext_lazy("on the clock"),
    "increment": gettext_lazy("increment a move"), "max": gettext_lazy("at most on the clock"),
    "stage": gettext_lazy("stage"), "stage_first_move": gettext_lazy("the stage's first move"),
    "stage_last_move": gettext_lazy("the stage's last move"), "allowed": gettext_lazy("allowed"),
    "used": gettext_lazy("used"), "remaining": gettext_lazy("left"), "cumulative": gettext_lazy("accumulated"),
    "move_left": gettext_lazy("left for the move"), "per_move": gettext_lazy("a move"),
}
"""The words of a system's state (``Account.clock``), by its key without the unit (``period_days``: period)."""

_UNIT = re.compile(r"_(days|seconds|ms)(?=_|$)")
_LEADING_UNIT = re.compile(r"(days|seconds|ms)_")


def system_word(system: str) -> str:
    return str(SYSTEM_WORDS.get(system, system.replace("_", " ")))


def _amount(clock: dict, name: str) -> str | None:
    """The amount of ``name`` in ``clock`` (``main_days``, ``main_seconds``, ``block_days_left``...), worded with
    its unit."""
    for key in (f"{name}_{unit}{tail}" for tail in ("", "_left") for unit in ("days", "seconds", "ms")):
        unit = key.removeprefix(f"{name}_").removesuffix("_left")
        value = clock.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _days(int(value)) if unit == "days" else _duration(value / 1000 if unit == "ms" else value)
    return None


def _overtime_text(clock: dict) -> str | None:
    """Japanese and Canadian byo-yomi in a sentence (Go rules 12.6-12.9): "main time: 30 days left; then 5
    periods of 1 day", as a player reads the clock; None for a state of another shape."""
    main, period = _amount(clock, "main"), _amount(clock, "period")
    if main is None or period is None:
        return None
    if "periods_left" in clock and "in_byoyomi" in clock:
        periods = clock["periods_left"]
        if clock["in_byoyomi"]:
            return ngettext("byo-yomi: %(periods)s period of %(period)s left",
                            "byo-yomi: %(periods)s periods of %(period)s left", periods) % {
                "periods": periods, "period": period}
        return ngettext("main time: %(main)s left; then %(periods)s period of %(period)s",
                        "main time: %(main)s left; then %(periods)s periods of %(period)s", periods) % {
            "main": main, "periods": periods, "period": period}
    if "in_overtime" in clock and "moves_per_block" in clock:
        if clock["in_overtime"]:
            moves = clock.get("block_moves_left", clock["moves_per_block"])
            return ngettext("overtime: %(moves)s move to make in the %(left)s left of this block",
                            "overtime: %(moves)s moves to make in the %(left)s left of this block", moves) % {
                "moves": moves, "left": _amount(clock, "block") or period}
        moves = clock["moves_per_block"]
        return ngettext("main time: %(main)s left; then %(moves)s move in each %(period)s",
                        "main time: %(main)s left; then %(moves)s moves in each %(period)s", moves) % {
            "main": main, "moves": moves, "period": period}
    return None


def system_state_text(clock: dict) -> str:
    """A system's state in words. Byo-yomi in a sentence (``_overtime_text``: "main time: 30 days left; then 5
    periods of 1 day"); another system each key named (its unit said with the amount), yes and no for true
    and false, "-" for none."""
    sentence = _overtime_text(clock)
    if sentence is not None:
        return sentence
    parts = []
    for key, value in clock.items():
        if key == "system":
            continue
        unit = _UNIT.search(key)
        name = _UNIT.sub("", key)
        lead = _LEADING_UNIT.match(name)
        if unit is None and lead:  # days_per_move; seconds_per_move under an exact count
            name, unit = name[lead.end():], lead
        label = STATE_WORDS.get(name, name.replace("_", " "))
        if isinstance(value, bool):
            said = _("yes") if value else _("no")
        elif value is None:
            said = "-"
        elif unit is not None and unit.group(1) == "days" and isinstance(value, int):
            said = _days(value)
        elif unit is not None and unit.group(1) in ("seconds", "ms") and isinstance(value, (int, float)):
            said = _duration(value / 1000 if unit.group(1) == "ms" else value)
        else:
            said = str(value)
        parts.append(f"{label} {said}")
    return ", ".join(parts)


FIELD_WORDS = {
    "received_on": gettext_lazy("the received date"), "sent_on": gettext_lazy("the sent date"),
    "number": gettext_lazy("the move number"), "notation": gettext_lazy("the move"), "days": gettext_lazy("the days"),
    "move": gettext_lazy("the move charged"), "note": gettext_lazy("the note"), "reason": gettext_lazy("the reason"),
    "mail": gettext_lazy("the mail"), "player": gettext_lazy("the player"), "event": gettext_lazy("the event"),
    "termination": gettext_lazy("how the game ended"), "result": gettext_lazy("the result"),
    "accepted_through": gettext_lazy("the last move you accept"),
}


def plain(message: str) -> str:
    """A service's message with its field names in words: ``sent_on 2026-01-15 is before received_on ...``
    becomes ``the sent date 2026-01-15 is before the received date ...``."""
    text = re.sub(r"\b(" + "|".join(k for k in FIELD_WORDS if "_" in k) + r")\b",
                  lambda m: str(FIELD_WORDS[m.group(1)]), message)
    return text[:1].upper() + text[1:]


__all__ = ["countdown_patterns", "countdown_text", "deadline_text", "explain_account", "ledger_kind", "ledger_note",
           "moment_text", "plain", "time_control_text", "word"]
