"""Warnings of one date: time-trouble notices and deadline reminders, each once; cases announced once.

``flags_collect`` is pure: from computed accounts it lists what should exist.
Cases are opened and withdrawn by ``corr.games.cases`` as the facts change;
the nightly run announces (``cases_announce``) the open cases its re-check
still finds, once each.
``flags_store`` inserts them all with ON CONFLICT DO NOTHING RETURNING: the
rows returned, and only those, are new and this caller's to announce (STYLE 7). Running twice, or two runs at
once, creates and sends nothing twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from accounts.language import user_language

from corr.clock.calendar import Exclusions
from corr.games.clockstate import GameTime, counts_instants
from corr.games.timeleft import TimeLeft, account_time_left
from corr.games.turns import Turn, TurnState, game_turns
from corr.models import CaseKind, Colour, DeadlineReminder, Game, Mode, OverstepCase, OverstepStatus, TimeTroubleNotice
from corr.links import absolute_url
from corr.rulebooks import cited
from corr.web.deadline import reader_zone
from corr.web.describe import time_left_text, time_left_why
from corr.web.turns import turn_text
from corr.outbox import email_prepare
from corr.sql import bound_cursor, ids_in, insert_new


class Notice(NamedTuple):
    """A time-trouble notice the re-check calls for (50.4.12); ``pk`` once stored."""

    game: Game
    player: str
    control_number: int
    remaining_days: int
    deadline: date | None
    noticed_on: date
    pk: int | None = None
    turn: Turn | None = None
    """The player's turn that night (``corr.games.turns``): its words are the e-mail's."""
    left: TimeLeft | None = None
    """The one answer to the time left that night (``corr.games.timeleft``), as the game page says it: with a cap
    on a move's days it differs from the control's ``remaining_days`` (the e-mail walk of 2026-12-06: "4 days
    left" in the e-mail, "3 d 00 h 00 min left" on the page)."""

    @property
    def game_id(self) -> int:
        return self.game.pk


class Reminder(NamedTuple):
    """A deadline reminder ``days_before`` the deadline; ``pk`` once stored."""

    game: Game
    player: str
    deadline: date
    days_before: int
    reminded_on: date
    pk: int | None = None
    turn: Turn | None = None
    """The player's turn that night: on move with a day in time (``corr.games.turns``)."""

    @property
    def game_id(self) -> int:
        return self.game.pk


@dataclass
class Flags:
    """What a set of games should have recorded on a date (not stored yet)."""

    notices: list[Notice] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)


def reminder_threshold(days_left: int, thresholds: list[int]) -> int | None:
    """The tightest reminder threshold (days before the deadline) that ``days_left`` has reached.

    With thresholds 7 and 2: 7..3 days left -> 7; 2..0 -> 2; 8 or more, or a
    deadline already passed -> None. A run that missed a day still reminds.
    """
    if days_left < 0:
        return None
    reached = [t for t in thresholds if days_left <= t]
    return min(reached) if reached else None


def flags_collect(*, game: Game, time: GameTime, on: date, flags: Flags) -> None:
    """Add to ``flags`` what the accounts of ``game`` as of ``on`` call for.

    A player gets no warning on a day that does not count for them (their leave, a holiday, a
    weekend day, issue 14): the clock is stopped; the next counted day's run warns (a run that
    missed a day still reminds).
    """
    calculated = time.clock.game
    turns = game_turns(game=game, time=time)  # the game page's answer: who is on move, until when
    for colour, account in time.clock.accounts.items():
        if account.overstepped is not None:
            continue  # 50.4.3: a case for the arbiters (corr.games.cases), no more warnings
        player = next(p for p in calculated.players if p.id == colour)
        stopped = Exclusions.of(player.leave, calculated.ruleset)
        if stopped is not None and stopped.reason(on) is not None:
            continue
        turn = turns[colour]
        if account.time_trouble:
            left = account_time_left(account, instants=counts_instants(game),
                                     time_control=game.tournament.ruleset.time_control)
            flags.notices.append(Notice(game, colour, account.control.number, account.remaining_days,
                                        account.deadline, on, turn=turn, left=left))
        if turn.state is TurnState.ON_MOVE and account.deadline is not None:  # a reminder of a day in time
            threshold = reminder_threshold((account.deadline - on).days, settings.REMINDER_DAYS)
            if threshold is not None:
                flags.reminders.append(Reminder(game, colour, account.deadline, threshold, on, turn=turn))


@dataclass
class Stored:
    """The rows this call created (the others existed already), with their ids."""

    notices: list[Notice]
    reminders: list[Reminder]


def flags_store(*, flags: Flags, run=None) -> Stored:
    """Insert the flags, skipping those that exist; return the ones this call created.

    One ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` per batch and kind: the
    unique constraints (one notice per control, one reminder per deadline and
    threshold) decide, and the returned rows are this caller's to announce.
    Must run inside a transaction (the caller's chunk).
    """
    claim, now = uuid.uuid4(), timezone.now()
    run_id = run.pk if run is not None else None
    made = insert_new(TimeTroubleNotice, NOTICE_COLUMNS, [
        (n.game_id, n.player, n.control_number, n.remaining_days, n.deadline, n.noticed_on, run_id, claim, now)
        for n in flags.notices], returning=("id", "game_id", "player", "control_number"))
    ids = {(game_id, player, control): pk for pk, game_id, player, control in made}
    notices = [n._replace(pk=ids[(n.game_id, n.player, n.control_number)]) for n in flags.notices
               if (n.game_id, n.player, n.control_number) in ids]
    made = insert_new(DeadlineReminder, REMINDER_COLUMNS, [
        (r.game_id, r.player, r.deadline, r.days_before, r.reminded_on, run_id, claim, now)
        for r in flags.reminders], returning=("id", "game_id", "player", "days_before"))
    # A player has one deadline per run, so (game, player, threshold) names the reminder.
    ids = {(game_id, player, days): pk for pk, game_id, player, days in made}
    reminders = [r._replace(pk=ids[(r.game_id, r.player, r.days_before)]) for r in flags.reminders
                 if (r.game_id, r.player, r.days_before) in ids]
    return Stored(notices, reminders)


NOTICE_COLUMNS = ("game", "player", "control_number", "remaining_days", "deadline", "noticed_on", "run", "claim",
                  "created_at")
REMINDER_COLUMNS = ("game", "player", "deadline", "days_before", "reminded_on", "run", "claim", "created_at")


def cases_announce(*, game_ids: list[int], on: date) -> list[OverstepCase]:
    """Mark the open, never announced cases of these (locked) games announced on ``on``; return them.

    Called after the chunk's re-check, so only cases that the facts still show
    are announced; a case opened and withdrawn during the day never is. One
    conditional UPDATE ... RETURNING: only the rows this statement marked are
    this caller's to announce.
    """
    if not game_ids:
        return []
    among, ids = ids_in("game_id", game_ids)  # PostgreSQL: one array, not a placeholder per game
    with bound_cursor() as cursor:
        cursor.execute(f"UPDATE corr_overstepcase SET announced_on = %s WHERE status = %s AND announced_on IS NULL"
                       f" AND {among} RETURNING id", [on, OverstepStatus.OPEN, *ids])
        marked = [pk for (pk,) in cursor.fetchall()]
    if not marked:
        return []
    return list(OverstepCase.objects.filter(pk__in=marked)
                .select_related("game", "game__tournament", "game__white", "game__black").order_by("id"))


# Article 50.4.12 in its original Russian (the rules of correspondence chess of Russia), quoted in the
# time-trouble e-mail; a reader in another language gets the translation beside it.
ARTICLE_50_4_12_RU = ("50.4.12. Участник, находящийся в цейтноте, у которого до конца очередного контроля остается"
                      " пять или менее дней независимо от количества сделанных ходов, должен посылать свои ответы"
                      " заказной корреспонденцией.")


def _day(value: date) -> str:
    return date_format(value, "SHORT_DATE_FORMAT")


def _rule_50_4_12() -> str:
    """The article quoted in Russian, its translation beside it when the reader's language is another."""
    if translation.get_language() == "ru":
        return ARTICLE_50_4_12_RU + "\n"
    return ARTICLE_50_4_12_RU + "\n" + gettext(
        "(Article 50.4.12: a player in time trouble, with five or fewer days left until the end of the control"
        " whatever the number of moves made, must send replies by registered mail.)") + "\n"


class Person(NamedTuple):
    """What a warning e-mail reads of its recipient: no model instance per player (a night has thousands)."""

    username: str
    email: str
    language: str
    time_zone: str
    """The zone the recipient reads instants in ("" for the tournament's: ``corr.web.deadline.reader_zone``)."""


def people_of(games) -> dict[int, Person]:
    """The players of ``games`` by user id (one plain statement: name, address, language)."""
    ids = sorted({g.white_id for g in games} | {g.black_id for g in games})
    if not ids:
        return {}
    where, params = ids_in("id", ids)
    with bound_cursor() as cursor:
        cursor.execute(f"SELECT id, username, email, language, time_zone FROM accounts_user WHERE {where}", params)
        return {pk: Person(*row) for pk, *row in cursor.fetchall()}


def _recipient(flag, people: dict[int, Person]) -> Person:
    game = flag.game
    return people[game.white_id if flag.player == Colour.WHITE else game.black_id]


def flag_emails(stored: Stored) -> list:
    """The e-mails announcing newly created warnings (unsaved), each in its recipient's language.

    Grouped by language, and each text translated once per language and count
    (``_Texts``): a night of thousands of e-mails switches language a few
    times and looks each sentence up a few times, not once per e-mail.
    """
    flags = (*stored.notices, *stored.reminders)
    people = people_of({f.game.pk: f.game for f in flags}.values())
    by_language: dict[str, list] = {}
    for flag in flags:
        by_language.setdefault(user_language(_recipient(flag, people)), []).append(flag)
    emails = []
    for language, batch in by_language.items():
        with translation.override(language):
            texts = _Texts()
            for flag in batch:
                user = _recipient(flag, people)
                names = {Colour.WHITE: people[flag.game.white_id].username,
                         Colour.BLACK: people[flag.game.black_id].username}
                emails.append(_notice_email(flag, user, texts, names) if isinstance(flag, Notice)
                              else _reminder_email(flag, user, texts))
    return emails


class _Texts:
    """The warning e-mails' sentences in the active language, each looked up once (per count for plurals)."""

    def __init__(self) -> None:
        self.article = _rule_50_4_12()
        self.registered = gettext(" — use registered mail")
        # Translators: after the days left of a time-trouble e-mail, the player's turn: "on move, deadline D".
        self.then = gettext("; %(turn)s")
        self.link = gettext("Game page: %(url)s")
        self.site = absolute_url(_game_path())
        self._cache: dict = {}

    def _memo(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def day(self, value: date) -> str:
        return self._memo(("day", value), lambda: _day(value))

    def turn(self, turn: Turn, game: Game, names: dict, reader: Person) -> str:
        """The player's turn in the pages' words (``corr.web.turns.turn_text``), in ``reader``'s zone as the pages
        say it (``reader_zone``: their own, else the tournament's; the e-mail walk of 2026-12-06 read Moscow's
        time in New York's e-mail).

        Worded once per distinct wording: ``turn_text`` reads the state, the day or instant, the sender and
        the sender's name, the reader and the zone, and a night's thousands of turns share a few deadlines
        (formatting each day again was a tenth of the job's Python, issue 42)."""
        zone = reader_zone(reader, game.tournament)
        key = ("turn", turn.state, turn.until, turn.sender, turn.player, zone, names.get(turn.sender))
        return self._memo(key, lambda: turn_text(turn, zone=zone, reader=turn.player, names=names))

    def game_link(self, game_id: int) -> str:
        return self.link % {"url": self.site.format(game_id)} + "\n"

    def notice(self, days: int) -> tuple[str, str]:
        """The subject and the body's first sentence of a time-trouble notice, for ``days`` left."""
        return self._memo(("notice", days), lambda: (
            ngettext("Time trouble in game #%(game)s: %(days)s day left",
                     "Time trouble in game #%(game)s: %(days)s days left", days),
            ngettext("%(name)s, as of %(day)s in game #%(game)s (%(tournament)s) you have %(days)s day left"
                     " in control %(control)s",
                     "%(name)s, as of %(day)s in game #%(game)s (%(tournament)s) you have %(days)s days left"
                     " in control %(control)s", days)))

    def reminder(self, days: int) -> tuple[str, str]:
        """The subject and body of a deadline reminder, ``days`` before the deadline."""
        return self._memo(("reminder", days), lambda: (
            ngettext("Game #%(game)s: your move is due by %(deadline)s (%(days)s day)",
                     "Game #%(game)s: your move is due by %(deadline)s (%(days)s days)", days),
            ngettext("%(name)s, your move %(number)s in game #%(game)s (%(tournament)s): %(turn)s, in %(days)s"
                     " day.",
                     "%(name)s, your move %(number)s in game #%(game)s (%(tournament)s): %(turn)s, in %(days)s"
                     " days.", days)))


def _notice_email(n: Notice, user: Person, texts: _Texts, names: dict):
    """The e-mail of a time-trouble notice to ``user``, in the active language; ``names``: the players'."""
    postal = n.game.mode == Mode.POSTAL
    values = {"game": n.game_id, "days": n.remaining_days, "name": user.username, "day": texts.day(n.noticed_on),
              "tournament": n.game.tournament.name, "control": n.control_number}
    subject, body = texts.notice(n.remaining_days)
    subject, body = subject % values, body % values
    if postal:
        subject += texts.registered
    if n.turn is not None:  # on move, deadline D; or the move in the post: what the game page says
        body += texts.then % {"turn": texts.turn(n.turn, n.game, names, user)}
    body += ".\n"
    if n.left is not None:  # the game page's card and its reason, word for word
        why = time_left_why(n.left)
        body += time_left_text(n.left) + "." + (f" {why}" if why else "") + "\n"
    body += (texts.article if postal else "") + texts.game_link(n.game_id)
    return email_prepare(key=f"time_trouble:{n.pk}", tournament_id=n.game.tournament_id,
                         recipients=[user.email] if user.email else [], subject=subject, body=body)


def _reminder_email(r: Reminder, user: Person, texts: _Texts):
    """The e-mail of a deadline reminder to ``user``, in the active language."""
    left = (r.deadline - r.reminded_on).days
    values = {"game": r.game_id, "days": left, "deadline": texts.day(r.deadline), "name": user.username,
              "tournament": r.game.tournament.name, "number": r.turn.number if r.turn else "",
              "turn": texts.turn(r.turn, r.game, {}, user) if r.turn else texts.day(r.deadline)}
    subject, body = texts.reminder(left)
    return email_prepare(key=f"reminder:{r.pk}", tournament_id=r.game.tournament_id,
                         recipients=[user.email] if user.email else [], subject=subject % values,
                         body=body % values + "\n" + texts.game_link(r.game_id))


def _case_email(c: OverstepCase) -> tuple[str, str]:
    """The subject and body announcing case ``c``, in the active language."""
    tid = c.game.tournament_id
    values = {"game": c.game_id, "player": Colour(c.player).label, "name": c.game.user_of(c.player).username,
              "move": c.through_move, "control": c.control_number, "used": c.used_days,
              "allowed": c.allowed_days, "days": c.allowed_days - c.used_days,
              "day": _day(c.checked_on or c.opened_on), "tournament": c.game.tournament.name}
    if c.kind == CaseKind.REGISTERED_MAIL:
        subject = gettext("Registered mail case in game #%(game)s: %(player)s's move %(move)s") % values
        what = ngettext("%(player)s (%(name)s) sent move %(move)s by ordinary mail or e-mail with %(days)s day"
                        " left in control %(control)s (50.4.12).",
                        "%(player)s (%(name)s) sent move %(move)s by ordinary mail or e-mail with %(days)s days"
                        " left in control %(control)s (50.4.12).", values["days"]) % values
        what += "\n" + gettext("Confirm (a penalty, 50.4.9.3) or dismiss it with a reason:") + "\n"
    else:
        subject = gettext("Overstep case in game #%(game)s: %(player)s exceeded control %(control)s") % values
        what = gettext("%(player)s (%(name)s) used %(used)s days through move %(move)s, %(allowed)s allowed"
                       " (50.4.3), as re-checked on %(day)s.") % values
        what += "\n" + gettext("Confirm (the game is lost on time) or dismiss it with a reason:") + "\n"
    body = (gettext("Game #%(game)s (%(tournament)s):") % values + f" {cited(what)}"
            f"{absolute_url(reverse('tournament', args=[tid]))}\n{_game_link(c.game)}")
    return subject, body


def case_emails(cases: list[OverstepCase]) -> list:
    """The arbiters' e-mails of newly announced cases (unsaved): one per case and language of its arbiters.

    The arbiters who read the default language (or have no preference) share the e-mail keyed by the case
    alone; each other language gets its own, keyed by the case and the language.
    """
    emails = []
    arbiters_of: dict[int, dict[str, list[str]]] = {}
    for c in cases:
        tid = c.game.tournament_id
        if tid not in arbiters_of:  # one query per tournament, not per case
            groups: dict[str, list[str]] = {}
            for a in c.game.tournament.arbiters.all():
                if a.email:
                    groups.setdefault(user_language(a), []).append(a.email)
            arbiters_of[tid] = groups or {settings.LANGUAGE_CODE: []}
        for language, recipients in sorted(arbiters_of[tid].items(),
                                           key=lambda item: item[0] != settings.LANGUAGE_CODE):
            with translation.override(language):
                subject, body = _case_email(c)
            key = f"overstep:{c.pk}" if language == settings.LANGUAGE_CODE else f"overstep:{c.pk}:{language}"
            emails.append(email_prepare(key=key, tournament_id=tid, recipients=recipients, subject=subject,
                                        body=body))
    return emails


def _game_path() -> str:
    """The game page's path with ``{}`` for the id: reverse() once per process, not per e-mail."""
    global _GAME_PATH
    if _GAME_PATH is None:
        _GAME_PATH = reverse("game", args=[0]).replace("/0/", "/{}/")
    return _GAME_PATH


def _game_link(game: Game) -> str:
    return gettext("Game page: %(url)s") % {"url": absolute_url(_game_path().format(game.pk))} + "\n"


_GAME_PATH: str | None = None
