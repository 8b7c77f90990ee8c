"""Pictures of the pages, drawn by the server as SVG with a title and a text equivalent (no JavaScript).

Each function takes computed values (accounts, ledger lines, stored clocks) and
returns safe markup; every number drawn is also said in words, in the SVG's
``<title>``/``<desc>`` and in the text beside it.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from corr.games.turns import TurnState
from corr.templatetags.corr_i18n import word

from corr.clauses import clauses

GREEN, AMBER, RED, GREY = "#2e7d32", "#b26a00", "#c62828", "#9e9e9e"
_ids = iter(range(1, 10**9))


def state_of(account) -> str:
    """``ok``, ``trouble`` (time trouble) or ``over`` (a control exceeded): the gauge's colour."""
    if account.overstepped is not None:
        return "over"
    return "trouble" if account.time_trouble else "ok"


def gauge(*, name: str, used: int, allowed: int, left: int, turn: str, state: str,
          width: int = 320) -> SafeString:
    """A bar of the current control: days used of the days allowed, coloured by state.

    ``name``: whose (a name, or "you"); ``turn``: the player's turn in words (``corr.web.turns.turn_text``:
    "on move, deadline D", "waiting for the partner", ...), said in the bar's title as on the page.
    """
    colour = {"ok": GREEN, "trouble": AMBER, "over": RED}[state]
    words = {"ok": "", "trouble": _(", time trouble"), "over": _(", control exceeded")}[state]
    values = {"player": name, "used": used, "allowed": allowed, "left": left}
    text = clauses([ngettext("%(player)s: %(used)s of %(allowed)s day used, %(left)s left",
                             "%(player)s: %(used)s of %(allowed)s days used, %(left)s left", allowed) % values,
                    turn + words])
    share = 0 if allowed <= 0 else min(max(used, 0) / allowed, 1)
    n = next(_ids)
    return mark_safe(
        f'<svg class="gauge gauge-{state}" viewBox="0 0 {width} 26" width="100%" role="img" '
        f'aria-labelledby="g{n}" preserveAspectRatio="none" style="max-width:{width}px">'
        f'<title id="g{n}">{escape(text)}</title>'
        f'<rect x="0" y="3" width="{width}" height="20" rx="4" fill="#eee" stroke="#bbb"/>'
        f'<rect x="0" y="3" width="{width * share:.1f}" height="20" rx="4" fill="{colour}"/>'
        f'</svg>')


def account_gauge(name: str, account, turn: str) -> SafeString:
    """``gauge`` of a calculator ``Account``, ``turn`` its player's turn in words."""
    c = account.control
    return gauge(name=name, used=c.allowed_days - c.remaining_days, allowed=c.allowed_days,
                 left=c.remaining_days, turn=turn, state=state_of(account))


THINKING = ("move", "void_move", "variant_move", "pending_move", "notice")


def transit_days(events) -> dict[tuple[str, int], int]:
    """Days each move's partner move was in transit: its receipt less the partner's last dispatch."""
    last_sent: dict[str, date] = {}
    out: dict[tuple[str, int], int] = {}
    for event in events:
        player = event.player
        partner = "black" if player == "white" else "white"
        received = getattr(event, "received_on", None)
        number = getattr(event, "number", None)
        if type(event).__name__ == "Move" and received is not None and partner in last_sent and number:
            out[(player, number)] = max((received - last_sent[partner]).days, 0)
        sent = getattr(event, "sent_on", None)
        if sent is not None:
            last_sent[player] = sent
    return out


def usage_chart(*, player: str, ledger, events, moves_per_control: int | None, days_per_control: int | None,
                width: int = 640, height: int = 180) -> SafeString:
    """Per move: thinking days (charged) beside transit days (never charged), penalties and delays on top,
    and, under a 50.4-style control, the cumulative days charged against the control lines."""
    per_move: dict[int, dict[str, int]] = defaultdict(lambda: {"thinking": 0, "penalty": 0, "delay": 0})
    for line in ledger:
        if line.player != player:
            continue
        part = "penalty" if line.kind == "penalty" else "delay" if line.kind == "delay" else "thinking"
        per_move[line.move][part] += line.days
    transit = {number: days for (who, number), days in transit_days(events).items() if who == player}
    numbers = sorted(set(per_move) | set(transit))
    n = next(_ids)
    if not numbers:
        return mark_safe('<p class="why">' + escape(_("%(player)s: no days charged yet.") % {"player": word(player)})
                         + "</p>")
    cumulative, total = [], 0
    for number in numbers:
        total += sum(per_move[number].values())
        cumulative.append(total)
    top = max([cumulative[-1]] + [transit.get(k, 0) for k in numbers] + [1])
    if moves_per_control and days_per_control:
        top = max(top, days_per_control * ((numbers[-1] - 1) // moves_per_control + 1))
    left_pad, bottom_pad = 34, 22
    plot_w, plot_h = width - left_pad - 6, height - bottom_pad - 8
    slot = plot_w / len(numbers)
    bar = max(min(slot * 0.38, 18), 1.5)
    y = lambda days: 8 + plot_h - plot_h * days / top  # noqa: E731
    parts = [f'<line x1="{left_pad}" y1="{y(0):.1f}" x2="{width - 6}" y2="{y(0):.1f}" stroke="#999"/>',
             f'<text x="{left_pad - 4}" y="{y(top) + 4:.1f}" text-anchor="end" font-size="10">{top}</text>',
             f'<text x="{left_pad - 4}" y="{y(0):.1f}" text-anchor="end" font-size="10">0</text>']
    lines = []
    for i, number in enumerate(numbers):
        x = left_pad + i * slot + slot / 2
        parts_of = per_move[number]
        base = 0
        for part, colour in (("thinking", "#1565c0"), ("penalty", RED), ("delay", "#6a1b9a")):
            days = parts_of[part]
            if days:
                parts.append(f'<rect class="{part}" x="{x - bar:.1f}" y="{y(base + days):.1f}" width="{bar:.1f}" '
                             f'height="{y(base) - y(base + days):.1f}" fill="{colour}"><title>'
                             f'{escape(_part_days(part, number, days))}</title></rect>')
                base += days
        if transit.get(number):
            parts.append(f'<rect class="transit" x="{x:.1f}" y="{y(transit[number]):.1f}" width="{bar:.1f}" '
                         f'height="{y(0) - y(transit[number]):.1f}" fill="{GREY}" opacity=".6"><title>'
                         f'{escape(_part_days("transit", number, transit[number]))}</title></rect>')
        if len(numbers) <= 40 or number % 5 == 0:
            # A phone draws the labels larger (base.html): there only every fifth move is named past 12 moves.
            minor = " minor" if len(numbers) > 12 and number % 5 else ""
            parts.append(f'<text class="move{minor}" x="{x:.1f}" y="{height - 6}" text-anchor="middle" font-size="10">'
                         f'{number}</text>')
        values = {"number": number, "thinking": parts_of["thinking"], "transit": transit.get(number, 0),
                  "penalty": parts_of["penalty"], "delay": parts_of["delay"]}
        lines.append(_("move %(number)s: %(thinking)s thinking, %(transit)s transit") % values
                     + (_(", %(penalty)s penalty") % values if parts_of["penalty"] else "")
                     + (_(", %(delay)s delay") % values if parts_of["delay"] else ""))
    if moves_per_control and days_per_control:
        points = " ".join(f"{left_pad + i * slot + slot / 2:.1f},{y(c):.1f}" for i, c in enumerate(cumulative))
        parts.append(f'<polyline points="{points}" fill="none" stroke="#333" stroke-width="1.5">'
                     "<title>" + escape(_("days charged so far")) + "</title></polyline>")
        control = 1
        while days_per_control * control <= top:
            level = y(days_per_control * control)
            parts.append(f'<line class="control" x1="{left_pad}" y1="{level:.1f}" x2="{width - 6}" y2="{level:.1f}" '
                         f'stroke="{RED}" stroke-dasharray="4 3"><title>'
                         + escape(_("control %(control)s: %(days)s days through move %(move)s") % {
                             "control": control, "days": days_per_control * control,
                             "move": moves_per_control * control}) + '</title></line>')
            control += 1
    desc = clauses(lines)
    title = _("%(player)s: days per move, thinking against transit") % {"player": word(player)}
    return mark_safe(
        f'<svg class="usage" viewBox="0 0 {width} {height}" width="100%" style="max-width:{width}px" role="img" '
        f'aria-labelledby="u{n}t u{n}d"><title id="u{n}t">{escape(title)}</title>'
        f'<desc id="u{n}d">{escape(desc)}</desc>{"".join(parts)}</svg>')


def _part_days(part: str, number: int, days: int) -> str:
    """``move 3: 2 thinking days`` in the page's language (``part``: thinking, penalty, delay, transit)."""
    values = {"number": number, "days": days}
    if part == "thinking":
        return ngettext("move %(number)s: %(days)s thinking day", "move %(number)s: %(days)s thinking days",
                        days) % values
    if part == "penalty":
        return ngettext("move %(number)s: %(days)s penalty day", "move %(number)s: %(days)s penalty days",
                        days) % values
    if part == "delay":
        return ngettext("move %(number)s: %(days)s delay day", "move %(number)s: %(days)s delay days",
                        days) % values
    return ngettext("move %(number)s: %(days)s transit day, not charged",
                    "move %(number)s: %(days)s transit days, not charged", days) % values


LABEL_CHARS = 12
"""The most characters of a timeline row's label (``#12 name``) that fit its 114 units at 14: a longer name
is cut with an ellipsis, and said whole in the row's title and in the picture's description."""


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def deadline_timeline(*, rows, today: date, days: int = 28, width: int = 520) -> SafeString:
    """The deadlines of the next ``days`` days, one line per player on move; over the control at the left edge.

    ``rows``: the tournament page's ``DeadlineRow``s (a player's ``turn``, its ``words`` and flags); only
    players on move are drawn, each said in the row's title with the turn's own words.
    """
    due = [r for r in rows if r.turn.state is TurnState.OVER_THE_CONTROL
           or (r.turn.deadline is not None and r.turn.deadline <= today + timedelta(days=days))]
    n = next(_ids)
    if not due:
        return mark_safe("<p>" + escape(ngettext("No deadline in the next %(days)s day.",
                                                 "No deadline in the next %(days)s days.", days) % {"days": days})
                         + "</p>")
    row_h, left_pad, top_pad = 26, 120, 24
    height = top_pad + row_h * len(due) + 6
    plot_w = width - left_pad - 22
    x = lambda day: left_pad + plot_w * min(max((day - today).days, 0), days) / days  # noqa: E731
    parts = []
    # Translators: a day on the deadline timeline's axis in Django's date format letters (m: month, d: day),
    # the short form of the language's dates (English pages are ISO: 12-29; 29.12; 29/12).
    axis = pgettext("timeline axis day", "m-d")
    for week in range(0, days + 1, 7):
        wx = left_pad + plot_w * week / days
        label = escape(date_format(today + timedelta(days=week), axis))
        # The last label ends at its line, so it never runs past the picture's edge on a phone.
        anchor = "end" if week + 7 > days else "middle"
        parts.append(f'<line x1="{wx:.1f}" y1="{top_pad - 4}" x2="{wx:.1f}" y2="{height}" stroke="#ddd"/>'
                     f'<text x="{wx:.1f}" y="14" text-anchor="{anchor}" font-size="13">{label}</text>')
    words = []
    for i, r in enumerate(due):
        cy = top_pad + i * row_h + row_h / 2
        over = r.turn.state is TurnState.OVER_THE_CONTROL
        colour = RED if over else AMBER if r.time_trouble else GREEN
        end = x(today if over else r.turn.deadline)
        label = _short(f"#{r.game.pk} {r.name}", LABEL_CHARS)
        said = ngettext("game %(game)s, %(name)s (%(player)s): %(turn)s, %(left)s day left",
                        "game %(game)s, %(name)s (%(player)s): %(turn)s, %(left)s days left",
                        r.remaining_days) % {"game": r.game.pk, "name": r.name, "player": word(r.player),
                                             "turn": r.words, "left": r.remaining_days}
        words.append(said)
        parts.append(f'<a href="/games/{r.game.pk}/"><title>{escape(said)}</title><text x="{left_pad - 6}" '
                     f'y="{cy + 4:.1f}" text-anchor="end" font-size="14">{escape(label)}</text></a>'
                     f'<line x1="{left_pad}" y1="{cy:.1f}" x2="{end:.1f}" y2="{cy:.1f}" stroke="{colour}" '
                     f'stroke-width="4"/><circle cx="{end:.1f}" cy="{cy:.1f}" r="5" fill="{colour}">'
                     f'<title>{escape(said)}</title></circle>')
    title = ngettext("Deadlines of the next %(days)s day, from %(day)s",
                     "Deadlines of the next %(days)s days, from %(day)s", days) % {
                         "days": days, "day": date_format(today, "SHORT_DATE_FORMAT")}
    return mark_safe(
        f'<svg class="timeline" viewBox="0 0 {width} {height}" width="100%" style="max-width:{width}px" role="img" '
        f'aria-labelledby="t{n}t t{n}d"><title id="t{n}t">{escape(title)}</title>'
        f'<desc id="t{n}d">{escape(clauses(words))}</desc>{"".join(parts)}</svg>')
