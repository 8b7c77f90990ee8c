"""The longest real content of the correspondence pages, for the layout tests at 1280 and 390 px.

Long names (no space to break at), a long tournament name, open cases of both kinds, a dismissed case with
a long reason, corrected and withdrawn history lines with long notes, penalties and a delay: what an
arbiter's tournament page and a game page hold in the middle of a season.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.utils import timezone

from accounts.models import User
from corr.games import services
from corr.models import Game, GameEvent, OverstepCase, Tournament
from corr.nightly.cases import overstep_dismiss

LONG_NOTE = ("the postcard of this move carries two postmarks, 12 and 14 of the month; the player's scoresheet and"
             " the partner's copy agree on the move itself, so the earlier date is kept as the sent date")
LONG_REASON = ("the postmark on the envelope shows the move was posted within the control; the post office's"
               " delivery certificate number RR123456789FR was sent to the arbiter")


@dataclass
class Crowded:
    tournament: Tournament
    cases_game: Game
    history_game: Game
    white: User
    black: User


def crowded_create(*, arbiter, today: date | None = None) -> Crowded:
    """A postal tournament, as of ``today`` (the real date by default), with every long thing its pages show."""
    today = today or timezone.localdate()
    day = lambda n: today - timedelta(days=n)  # noqa: E731
    white = User.objects.create_user("Konstantin.Rozhdestvensky-Volkonsky", "k@example.org", "konstantin-pass-1")
    black = User.objects.create_user("Anne-Marie.Vandenberghe-Delacroix", "am@example.org", "annemarie-pass-1")
    t = services.tournament_create(by=arbiter, name="Championnat de France par correspondance 2026, groupe final B",
                                   official_start=day(60), mode="postal", presumed_transit_days=3)
    # An overstep case: white has not moved in the 60 days since the start (30 allowed).
    cases_game = services.game_create(by=arbiter, tournament=t, white=white, black=black, today=today)
    # A registered-mail case (50.4.12): black sent move 1 by ordinary mail with 3 days left.
    mail_game = services.game_create(by=arbiter, tournament=t, white=black, black=white, today=today)
    services.move_submit(game=mail_game, by=black, number=1, notation="e4", sent_on=day(60), mail="ordinary",
                         today=today)
    services.move_submit(game=mail_game, by=white, number=1, notation="e5", received_on=day(57), sent_on=day(30),
                         mail="ordinary", today=today)
    # A dismissed case with a long reason, and a game whose history holds corrections and penalties.
    history_game = services.game_create(by=arbiter, tournament=t, white=white, black=black, today=today)
    services.move_submit(game=history_game, by=white, number=1, notation="e4", sent_on=day(58), mail="ordinary",
                         today=today)
    services.move_submit(game=history_game, by=black, number=1, notation="c5", received_on=day(55),
                         sent_on=day(50), mail="ordinary", today=today)
    services.move_submit(game=history_game, by=white, number=2, notation="Nf3", received_on=day(46),
                         sent_on=day(44), mail="registered", today=today)
    first = GameEvent.objects.get(game=history_game, kind="move", player="white", number=1)
    services.event_correct(game=history_game, by=arbiter, seq=first.seq, changes={"notation": "d4"},
                           note=LONG_NOTE, today=today)
    services.penalty_assess(game=history_game, by=arbiter, player="black", reason="address_error",
                            note=LONG_NOTE, today=today)
    services.delay_assess(game=history_game, by=arbiter, player="white", days=2, note=LONG_NOTE, today=today)
    delay = GameEvent.objects.get(game=history_game, kind="delay")
    services.event_withdraw(game=history_game, by=arbiter, seq=delay.seq, note=LONG_NOTE, today=today)
    dismissed = OverstepCase.objects.filter(game=history_game, status="open").first()
    if dismissed is not None:
        overstep_dismiss(case=dismissed, by=arbiter, reason=LONG_REASON, now=timezone.now())
    return Crowded(tournament=t, cases_game=cases_game, history_game=history_game, white=white, black=black)
