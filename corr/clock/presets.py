"""Named rulesets a tournament can choose: the rules of the seeds and of the leading servers.

Each preset is a game file ``ruleset`` object; keys given beside a preset
override it. Sources: article 50.4 (seed 004); ICCF's playing rules (10 moves
in 50 days, double time beyond 20 days, 40 days of silence; Fischer 30 + 3);
SchemingMind's standard control (30 days + 1 per move, capped at 45);
lichess's days per move (``days_per_move_3`` in dates, as tournaments created with it keep; and
``lichess_days_N``, ``chesscom_days_N`` for N of 1, 2, 3, 5, 7, 14 counted ``exact``, as those servers do);
ICCF's presets count ``whole_days`` (issue 22); Dragon Go Server's Japanese byo-yomi; FIDE 6.2's classical
combined control (40 moves, then the rest of the game, an increment from move 1) and a Go
tournament's main time in moves followed by Canadian byo-yomi (seed 003, 12.2), in days.

Presets for live play (``"unit": "seconds"``, issue 16), named ``*_live``:

- ``fide_classical_live``: FIDE 6.2 (seed 002): 90 minutes for 40 moves, then 30 minutes for the rest,
  30 seconds added after every move from move 1; unused time carried to the next period; late
  arrival one hour (6.6).
- ``go_byoyomi_live``: Go 12.2 type 1 (seed 003): 60 minutes' main time, then 5 byo-yomi periods of
  30 seconds; black moves first (12.5-12.6); late arrival half the main time (12.7); illegal moves
  2 minutes to the partner, the third loses (13.4).
- ``go_canadian_live``: Go 12.2 type 2: 60 minutes, then 15 moves in 5 minutes ("15 ходов на 5 мин."
  in its interpretation).
- ``ogs_byoyomi_live``: OGS's Japanese byo-yomi (issue 40): 10 minutes' main time, then 5 periods of 30
  seconds, black first; a period overrun by less than a second is not lost (``period_grace_seconds``: 1,
  :mod:`corr.clock.live.grace`).
- ``draughts_live``: draughts section 12 (seeds 000, 001 1.7.1): a number of moves in a set time, then
  the rest of the game (12.9 counts an overstep of a control in moves at the press): 40 moves in
  2 hours, then 1 hour; corrections never leave less than 15 minutes (12.5, 1.7.8).
"""

from __future__ import annotations

from typing import Any

from .errors import ruleset_error

PRESETS: dict[str, dict[str, Any]] = {
    "rus_50_4": {},  # the defaults are article 50.4: 10 moves in 30 days, cumulative
    # ICCF's webserver counts whole 24-hour periods (Playing Rules 2.4.2) and doubles the whole days of
    # one move beyond 20; its Fischer events the same ("a time duplication ... after a number of days
    # (20 by default)", as ICCF's events quote it).
    "iccf_10_50": {"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 50}],
                                    "repeat_last": True, "cumulative": True,
                                    "double_after": 20, "max_per_move": 40, "count": "whole_days"}},
    "iccf_fischer_30_3": {"time_control": {"system": "fischer", "initial": 30, "increment": 3,
                                           "double_after": 20, "max_per_move": 40, "count": "whole_days"}},
    "schemingmind_standard": {"time_control": {"system": "fischer", "initial": 30, "increment": 1, "max": 45}},
    "days_per_move_3": {"time_control": {"system": "per_move", "time": 3}},
    "dgs_byoyomi": {"time_control": {"system": "byoyomi", "main": 30, "periods": 5, "period_time": 1}},
    "dgs_canadian": {"time_control": {"system": "canadian", "main": 30, "moves": 10, "period_time": 15}},
    # FIDE classical (90 min for 40 moves, then 30 min, 30 s per move from move 1) with days for minutes
    # and 1 day for the increment: cumulative, as 6.2 credits unused time to the next period.
    "fide_classical_days": {"time_control": {"system": "periods", "stages": [
        {"moves": 40, "time": 90, "increment": 1}, {"moves": None, "time": 30, "increment": 1}]}},
    # Go 12.2: a number of moves in the main time, then byo-yomi of several moves (its interpretation:
    # "15 ходов на 5 мин."), with days: 40 moves in 60 days, then 15 moves in 20 days.
    "go_main_moves_canadian": {"time_control": {"system": "canadian", "main": [{"moves": 40, "time": 60}],
                                                "moves": 15, "period_time": 20}},
    # lichess's and chess.com's days per move: exact time, a day being 86,400 s from the move's arrival.
    **{f"{server}_days_{n}": {"time_control": {"system": "per_move", "time": n, "count": "exact"}}
       for server in ("lichess", "chesscom") for n in (1, 2, 3, 5, 7, 14)},
    # Issue 40: each server's own rules beside its control, named after the server they reproduce.
    # chess.com daily ("N days per move"): vacation for all games at once, at least 24 hours, ended by any move;
    # a new account's 7 days, 2 days more a month (the basic rate; a member's 3 or 5 are overrides), and the
    # members' automatic vacation when a game would otherwise time out.
    **{f"chesscom_daily_{n}": {
        "time_control": {"system": "per_move", "time": n, "count": "exact"},
        "vacation": {"initial_hours": 7 * 24, "accrue_hours": 2 * 24, "period_days": 30, "cap_hours": 35 * 24,
                     "min_hours": 24, "granularity": "hours", "scope": "all_games", "ends_on_move": True,
                     "automatic": True}} for n in (1, 2, 3, 5, 7, 14)},
    # lichess correspondence ("N days per move"): the opponent's "+" gives a day (giveTime) while the time
    # left is under the increment less an hour (moretimeable).
    **{f"lichess_corr_{n}": {
        "time_control": {"system": "per_move", "time": n, "count": "exact"},
        "gifts": {"days": 1, "below_allowance_less_hours": 1}} for n in (1, 2, 3, 5, 7, 14)},
    # OGS correspondence Fischer (3 days, +1 day a move, at most 7): each player's weekend in their own zone
    # (pause_on_weekends, per game: a player keeps a calendar with weekend_days) and pauses per game.
    "ogs_fischer_corr": {"time_control": {"system": "fischer", "initial": 3, "increment": 1, "max": 7,
                                          "count": "exact"},
                         "player_calendars": "own_zone", "pauses_per_game": 4},
    # Dragon Go Server's Japanese byo-yomi counted by the second: each player's night (9 hours, their hour, their
    # zone) and weekend in their own calendar; vacation a day per 12 days up to 30, at least 2 days at a time;
    # the opponent may add up to 14 days (MAX_ADD_DAYS).
    "dgs_byoyomi_corr": {"time_control": {"system": "byoyomi", "main": 30, "periods": 5, "period_time": 1,
                                          "count": "exact"},
                         "player_calendars": "own_zone",
                         "vacation": {"initial_hours": 0, "accrue_hours": 24, "period_days": 12,
                                      "cap_hours": 30 * 24, "min_hours": 48, "granularity": "days",
                                      "scope": "all_games"},
                         "gifts": {"max_days": 14}},
    # Dragon Go Server as it counts (issue 40): its default Japanese game, "J: 30d + 1d * 10" (message_functions.php:
    # Maintime 30 days, Byotime_jap 1 day, Byoperiods_jap 10), a day being 15 counted hours ("15h = 1d incl. 9h
    # sleeping-time", DAY_LEN = 24 - NIGHT_LEN), each player's night of 9 hours in their own zone, the opponent's
    # add time of up to 14 days with or without a byo-yomi reset (GameAddTime::add_time), vacation as above.
    "dgs_japanese": {"time_control": {"system": "byoyomi", "main": 30, "periods": 10, "period_time": 1,
                                      "count": "exact", "day_hours": 15},
                     "player_calendars": "own_zone",
                     "vacation": {"initial_hours": 0, "accrue_hours": 24, "period_days": 12,
                                  "cap_hours": 30 * 24, "min_hours": 48, "granularity": "days",
                                  "scope": "all_games"},
                     "gifts": {"max_days": 14, "reset_byoyomi": True}},
    "fide_classical_live": {"time_control": {
        "system": "periods", "unit": "seconds", "first": "white", "late_arrival_seconds": 3600,
        "stages": [{"moves": 40, "time": 5400, "increment": 30}, {"moves": None, "time": 1800, "increment": 30}]}},
    "go_byoyomi_live": {"time_control": {
        "system": "byoyomi", "unit": "seconds", "first": "black", "main": 3600, "periods": 5, "period_time": 30,
        "late_arrival_seconds": 1800, "illegal_move_seconds": 120, "illegal_move_limit": 3}},
    "go_canadian_live": {"time_control": {
        "system": "canadian", "unit": "seconds", "first": "black", "main": 3600, "moves": 15, "period_time": 300,
        "late_arrival_seconds": 1800, "illegal_move_seconds": 120, "illegal_move_limit": 3}},
    # OGS's live byo-yomi (issue 40): black first, a period overrun by less than a second is forgiven.
    "ogs_byoyomi_live": {"time_control": {
        "system": "byoyomi", "unit": "seconds", "first": "black", "main": 600, "periods": 5, "period_time": 30,
        "period_grace_seconds": 1}},
    "draughts_live": {"time_control": {
        "system": "periods", "unit": "seconds", "first": "white", "min_after_correction_seconds": 900,
        "stages": [{"moves": 40, "time": 7200}, {"moves": None, "time": 3600}]}},
}


def preset_ruleset(name: str | None, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """The ruleset object of a preset with ``overrides`` on top. :raises RulesetError: for an unknown name.

    A ``time_control`` override that names a ``system`` replaces the preset's; one without a system
    adjusts it, key by key: ``{"time_control": {"count": "dates"}}`` is ICCF's control counted in the
    dates of a postal event.
    """
    if name is None:
        return dict(overrides or {})
    if name not in PRESETS:
        raise ruleset_error("one_of", field="preset", known=", ".join(PRESETS), value=repr(name))
    preset, overrides = PRESETS[name], dict(overrides or {})
    control = overrides.get("time_control")
    if isinstance(control, dict) and "system" not in control and isinstance(preset.get("time_control"), dict):
        overrides["time_control"] = {**preset["time_control"], **control}
    return {**preset, **overrides}
