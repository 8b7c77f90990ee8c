"""The words of the history's record lines, the reasons of withdrawn cases and the terminations corr writes.

Each is stored as English text (the history is append-only: an API client and an export read it as it
was written), made from one template of ``TEMPLATES`` by ``record_text``; the pages read it back through
the same template and say it in the reader's language (``corr.web.records.record_words``). A template is
written once, here: the stored English and the pages' words cannot drift apart. Parameters named
``player``/``partner`` are colours, ``kind`` a case's kind, ``reason`` a rule's reason, and ``why``,
``cause`` and ``termination`` are texts of this table themselves (or words a person typed).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from corr.clock.counts import DAY_SECONDS, duration_text

TEMPLATES: dict[str, str] = {
    # History record lines.
    "mail_case_confirmed": gettext_noop("registered mail case %(case)s confirmed: penalty (50.4.9.3)"),
    "overstep_case_confirmed": gettext_noop("overstep case %(case)s confirmed: %(used)s of %(allowed)s days in control"
                                    " %(control)s"),
    "case_dismissed": gettext_noop("%(kind)s case %(case)s dismissed: %(reason)s"),
    "case_withdrawn": gettext_noop("%(kind)s case %(case)s withdrawn: %(why)s"),
    "result_ended": gettext_noop("result %(result)s: %(termination)s"),
    "result": gettext_noop("result %(result)s"),
    "reopened": gettext_noop("reopened (was %(was)s): %(note)s"),
    # Issue 39: reopening a game lost on time says what became of the overstep; time given back (a credit).
    # ``amount`` and ``bound`` are amounts of time (``amount_text``), ``note`` what the arbiter typed.
    "reopened_kept": gettext_noop("reopened (was %(was)s), %(player)s's overstep kept: %(note)s"),
    "case_reopened": gettext_noop("%(kind)s case %(case)s reopened with the game"),
    "credit_given": gettext_noop("%(amount)s given back to %(player)s by the arbiter: %(note)s"),
    "credit_reopen": gettext_noop("%(amount)s given back to %(player)s on reopening, back in control %(control)s:"
                                  " %(note)s"),
    "credit_gift": gettext_noop("%(amount)s given to %(player)s by %(partner)s (gifts allowed: up to %(bound)s"
                                " a game)"),
    # Issue 39: an outage of the service given back in a server game counted in instants (corr.games.services.
    # outages); ``start`` and ``end`` are instants in RFC 3339 UTC, read back in the reader's zone.
    "outage_credit": gettext_noop("the service was down from %(start)s to %(end)s: %(amount)s given back to"
                                  " %(player)s"),
    # Issue 40: a server's own clock stops and time given (corr.games.services.server_time); ``start``/``end``
    # instants in RFC 3339 UTC, ``calendar`` the game file's calendar object as JSON.
    "time_given": gettext_noop("%(amount)s given to %(player)s by %(partner)s"),
    "pause_taken": gettext_noop("%(player)s paused their clock from %(start)s to %(end)s"),
    "vacation_booked": gettext_noop("%(player)s's vacation booked from %(start)s to %(end)s"),
    "calendar_set": gettext_noop("%(player)s's own calendar set: %(calendar)s"),
    "rules_changed": gettext_noop("tournament rules changed: %(text)s"),
    "admin_changed": gettext_noop("changed in the admin: %(text)s"),
    "void": gettext_noop("void: %(player)s reported it as %(reason)s"),
    "conditional_reply": gettext_noop("conditional reply from the line sent with move %(number)s (50.4.8)"),
    # The players' own endings and offers in a server game (corr.games.services.results).
    "resigned": gettext_noop("%(player)s resigned: %(result)s"),
    "draw_offered": gettext_noop("%(player)s offers a draw"),
    "long_move_notice": gettext_noop("%(player)s gave the \"Use 40+ days\" notice: move %(number)s may take more"
                                     " than %(days)s days (ICCF Playing Rules 3b)"),
    "draw_agreed": gettext_noop("draw agreed: %(player)s accepted %(partner)s's offer (%(result)s)"),
    "draw_declined": gettext_noop("%(player)s declined %(partner)s's draw offer"),
    "leave_booked": gettext_noop("%(player)s's leave booked: %(first)s to %(last)s"),
    "leave_cancelled": gettext_noop("%(player)s's leave cancelled: %(first)s to %(last)s"),
    "leave_granted": gettext_noop("special leave for %(player)s: %(first)s to %(last)s, granted by %(name)s:"
                                  " %(reason)s"),
    "leave_imported": gettext_noop("%(player)s's leave: %(first)s to %(last)s, imported with the game's file by"
                                   " %(name)s"),
    # Why a case was withdrawn: what changed, and what the clock says now.
    "why_figures": gettext_noop("%(cause)s: %(used)s of %(allowed)s days used in control %(control)s"),
    "why_over": gettext_noop("%(cause)s: the game is over"),
    "why_mail": gettext_noop("%(cause)s: move %(move)s is no longer recorded as sent by ordinary mail or e-mail in time"
                     " trouble"),
    "cause_move": gettext_noop("%(player)s's move %(number)s recorded"),
    "cause_receipt": gettext_noop("%(player)s's receipt of the partner's move recorded (%(day)s)"),
    "cause_recorded": gettext_noop("%(player)s's %(kind)s recorded"),
    "cause_corrected": gettext_noop("%(player)s's %(kind)s corrected"),
    "cause_withdrawn": gettext_noop("%(player)s's event withdrawn"),
    "cause_recomputed": gettext_noop("game #%(game)s recomputed"),
    "cause_nightly": gettext_noop("nightly re-check of %(day)s"),
    "cause_flag": gettext_noop("%(player)s's flag fell"),
    "cause_result": gettext_noop("result %(result)s recorded"),
    "cause_draw_offered": gettext_noop("%(player)s offered a draw"),
    "cause_long_move": gettext_noop("%(player)s gave the \"Use 40+ days\" notice for move %(number)s"),
    "cause_draw_declined": gettext_noop("%(player)s declined a draw"),
    "cause_rules": gettext_noop("tournament rules changed (%(text)s)"),
    "cause_admin": gettext_noop("changed in the admin (%(text)s)"),
    "cause_reopened": gettext_noop("game reopened"),
    "cause_credit": gettext_noop("time given back to %(player)s"),
    "cause_time_given": gettext_noop("time given to %(player)s"),
    "cause_pause": gettext_noop("%(player)s's pause"),
    "cause_vacation": gettext_noop("%(player)s's vacation"),
    "cause_calendar": gettext_noop("%(player)s's calendar set"),
    "cause_outage": gettext_noop("the service was down from %(start)s to %(end)s"),
    "cause_demo": gettext_noop("demo data loaded"),
    "cause_imported": gettext_noop("game #%(game)s imported from its file by %(name)s"),
    # Terminations: how a game ended, when corr ended it.
    "lost_on_time_control": gettext_noop("%(player)s lost on time: control %(control)s exceeded, %(used)s of"
                                         " %(allowed)s days as of %(day)s (50.4.3)"),
    "lost_on_time_flag": gettext_noop("%(player)s lost on time: the flag fell at %(when)s"),
    "drawn_cannot_mate": gettext_noop("%(player)s's time ran out at %(when)s, but %(partner)s cannot checkmate"
                                      " (insufficient material, FIDE 6.9): drawn"),
    # A server game ended on its board (corr.games.services.ending, issue 36).
    "board_checkmate": gettext_noop("%(player)s checkmates %(partner)s (002 5.1.1)"),
    "board_stalemate": gettext_noop("%(partner)s is stalemated by %(player)s's move: drawn (002 5.2.1)"),
    "board_no_move": gettext_noop("%(partner)s's pieces are all captured or blocked after %(player)s's move:"
                                  " %(player)s wins (000 12.10, 001 1.7.12)"),
    "board_threefold": gettext_noop("%(player)s claimed a draw: the same position for the third time (002 9.2)"),
    "board_fifty_moves": gettext_noop("%(player)s claimed a draw: 50 moves of each side without a capture or a pawn"
                                      " move (002 9.3)"),
    # A player's own ending of a server game (corr.games.services.results).
    "player_resigned": gettext_noop("%(player)s resigned"),
    "player_draw_agreed": gettext_noop("draw agreed"),
    # The live engine's (corr.live.decide, issue 24), read back the same way.
    "live_draw_cannot_mate": gettext_noop("%(player)s's flag fell; %(partner)s cannot mate by any series of legal"
                                          " moves: draw (002 6.9)"),
    "live_lost_chess": gettext_noop("%(player)s lost on time (002 6.9)"),
    "live_draughts_blocked": gettext_noop("%(player)s's flag fell, but %(partner)s's pieces are all captured or"
                                          " blocked: no overstep, %(player)s wins (000 12.10, 001 1.7.12)"),
    "live_lost_draughts": gettext_noop("%(player)s lost on time (000 12.9, 001 1.7.9)"),
    "live_case": gettext_noop("%(player)s's flag fell: arbiter case opened (%(rule)s)"),
    "live_forfeit_illegal": gettext_noop("%(player)s lost by a third illegal move (%(rule)s)"),
    "live_forfeit_late": gettext_noop("%(player)s lost by late arrival (%(rule)s)"),
    "live_result": gettext_noop("result %(result)s recorded by the arbiter"),
    # A move that ends the game and a player's stop (corr.live.decide.move_end_verdict, corr.live.stops).
    "live_checkmate": gettext_noop("%(player)s checkmates %(partner)s: the move ends the game, no press needed"
                                   " (002 6.7 a)"),
    "live_stalemate": gettext_noop("%(partner)s is stalemated: draw; the move ends the game, no press needed"
                                   " (002 6.7 a)"),
    "live_draughts_blocked_by_move": gettext_noop("%(partner)s's pieces are all captured or blocked: %(player)s wins;"
                                                  " the move ends the game, no overstep (000 12.10, 001 1.7.12)"),
    "live_stop_resigned": gettext_noop("%(player)s stopped the clocks: resignation (000 12.11, 001 1.7.11)"),
    "live_stop_resigned_ruled": gettext_noop("%(player)s stopped the clocks: resignation, the position not clearly"
                                             " winning (000 12.11, 001 1.7.11)"),
    "live_stop_resigned_ruled_why": gettext_noop("%(player)s stopped the clocks: resignation, the position not"
                                                 " clearly winning (000 12.11, 001 1.7.11): %(note)s"),
    "live_stop_draw": gettext_noop("draw: %(player)s stopped the clocks in a clearly winning position, confirmed by"
                                   " the arbiter (000 12.11, 001 1.7.13)"),
    "live_stop_draw_why": gettext_noop("draw: %(player)s stopped the clocks in a clearly winning position, confirmed"
                                       " by the arbiter (000 12.11, 001 1.7.13): %(note)s"),
    # The live history's lines that corr writes (corr.live.stops, corr.live.services, corr.live.gaps): ``rule``
    # is a rule with its quotation in the rulebook's own language, ``note`` what the player or arbiter typed.
    "livelog_stop": gettext_noop("%(player)s stopped the clocks"),
    "livelog_stop_why": gettext_noop("%(player)s stopped the clocks: %(note)s"),
    "livelog_stop_resigned": gettext_noop("%(player)s stopped the clocks: resignation (%(rule)s)"),
    "livelog_stop_claim": gettext_noop("%(player)s stopped the clocks in a game to the end: a draw if %(player)s's"
                                       " position is clearly winning, for the arbiter to confirm (%(rule)s)"),
    "livelog_call": gettext_noop("%(player)s called the arbiter"),
    "livelog_call_why": gettext_noop("%(player)s called the arbiter: %(note)s"),
    "livelog_call_case": gettext_noop("%(player)s stopped the clocks to call the arbiter (%(rule)s); the arbiter"
                                      " judges whether the reason was valid, restarts the clocks, and may penalise"
                                      " (003 17.4)"),
    "livelog_call_case_why": gettext_noop("%(player)s stopped the clocks to call the arbiter: %(note)s (%(rule)s);"
                                          " the arbiter judges whether the reason was valid, restarts the clocks,"
                                          " and may penalise (003 17.4)"),
    "livelog_call_penalty": gettext_noop("penalty for %(player)s's call of the arbiter without a valid reason"
                                         " (003 12.13, 17.4)"),
    "livelog_call_penalty_why": gettext_noop("penalty for %(player)s's call of the arbiter without a valid reason"
                                             " (003 12.13, 17.4): %(note)s"),
    "livelog_call_unfounded": gettext_noop("the call was without a valid reason: a penalty of time (%(rule)s)"),
    "livelog_call_unfounded_why": gettext_noop("the call was without a valid reason: a penalty of time (%(rule)s):"
                                               " %(note)s"),
    "livelog_call_justified": gettext_noop("the call was justified (%(rule)s)"),
    "livelog_call_justified_why": gettext_noop("the call was justified (%(rule)s): %(note)s"),
    "livelog_warning": gettext_noop("warning to %(player)s (%(rule)s)"),
    "livelog_warning_why": gettext_noop("warning to %(player)s (%(rule)s): %(note)s"),
    "livelog_reopened_misunderstanding": gettext_noop("reopened (was %(was)s): the stop was a misunderstanding"),
    "livelog_reopened_late": gettext_noop("reopened (was %(was)s): late arrival excused (%(rule)s)"),
    "livelog_restart_justified": gettext_noop("the clocks restart after the ruling: justified"),
    "livelog_restart_warning": gettext_noop("the clocks restart after the ruling: warning"),
    "livelog_restart_penalty": gettext_noop("the clocks restart after the ruling: penalty"),
    "livelog_down": gettext_noop("the service was down (no heartbeat for %(seconds)s s)"),
}
"""Every stored text corr writes into the history and a game's termination, by a name."""


def record_text(code: str, **params) -> str:
    """The stored English of ``code`` with ``params`` (strings, numbers, dates written ISO)."""
    return TEMPLATES[code] % {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in params.items()}


def amount_text(days: int = 0, seconds: int = 0) -> str:
    """An amount of time given back as the history stores it: ``3 days``, ``1 day``, or under an exact count
    ``0 d 02 h 30 min`` (the calculator's ``duration_text``); read back in words by ``corr.web.records``."""
    if seconds:
        return duration_text(days * DAY_SECONDS + seconds)
    return f"{days} day" if days == 1 else f"{days} days"


def _codes(*prefixes: str) -> tuple[str, ...]:
    return tuple(code for code in TEMPLATES if code.startswith(prefixes))


WHYS = _codes("why_")
"""Why a case was withdrawn (``OverstepCase.withdrawn_reason``, the ``why`` of ``case_withdrawn``)."""
CAUSES = _codes("cause_", "leave_")
"""What changed (the ``cause`` of a reason): an event recorded or corrected, a leave booked, a night's re-check."""
TERMINATIONS = _codes("lost_", "drawn_", "live_", "board_", "player_")
"""How corr ended a game (``Game.termination``)."""
LIVE_LOG = _codes("livelog_")
"""The live history's lines corr writes (``LiveEvent.reason``); a result's line is a termination."""
LINES = (tuple(code for code in TEMPLATES if code not in WHYS + CAUSES + TERMINATIONS + LIVE_LOG)
         + _codes("leave_"))
"""The history's record lines (``GameEvent.note``; a leave line is one too)."""
