"""How a move's time is counted: dates (50.4.4), whole 24-hour days (ICCF 2.4.2), exact seconds (issue 22).

The worked examples of the issue, with their arithmetic in the comments, read from game files as
``manage.py clock`` reads them, and checked in the JSON the command writes.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from corr.clock import ClockError, EventError, compute, read_game, write_game
from corr.clock.counts import parse_instant

ICCF = {"system": "periods", "stages": [{"moves": 10, "time": 50}], "repeat_last": True, "double_after": 20,
        "count": "whole_days"}
DAY = {"system": "per_move", "time": 1, "count": "exact"}


def server_game(control, received, sent=None, *, start="2019-04-01", zone=None, black_extra=None):
    black = {"type": "move", "player": "black", "number": 1, "received_at": received}
    if sent:
        black["sent_at"] = sent
    black.update(black_extra or {})
    data = {"ruleset": {"time_control": control}, "official_start": start, "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_at": received}, black]}
    if zone:
        data["time_zone"] = zone
    return read_game(data)[0]


def black(game, as_of):
    return compute(game, parse_instant(as_of, "as_of")).as_json()["players"]["black"]


def test_whole_days_charge_25_whole_days_and_double_the_5_beyond_20():
    # 2019-04-11T19:29 -> 2019-05-07T06:30 is 25 d 11 h 1 min: 25 whole days, 20 + 2 x 5 = 30.
    game = server_game(ICCF, "2019-04-11T19:29:00Z", "2019-05-07T06:30:00Z")
    clock = compute(game, parse_instant("2019-05-08T00:00:00Z", "as_of"), with_ledger=True)
    assert clock.accounts["black"].thinking_days == 30
    line = clock.as_json()["ledger"][-1]
    assert (line["days"], line["rule"]) == (30, "double_after")
    assert line["note"] == "25 d 11 h 01 min: 25 whole day(s) (ICCF 2.4.2), 5 beyond 20 doubled: 30"


def test_the_same_move_counted_in_dates_costs_26_days_doubled_to_32():
    # 04-11 -> 05-07 is 26 dates: 20 + 2 x 6 = 32 (the false "lost on time" of the issue comes from here).
    game = server_game({**ICCF, "count": "dates"}, "2019-04-11T19:29:00Z", "2019-05-07T06:30:00Z")
    assert black(game, "2019-05-08T00:00:00Z")["thinking_days"] == 32


@pytest.mark.parametrize("sent, days", [
    ("2019-04-12T19:28:00Z", 0),  # 23 h 59 min, across midnight: no whole day
    ("2019-04-12T19:29:00Z", 1),  # exactly 24 h: one
])
def test_whole_days_charge_nothing_for_less_than_24_hours(sent, days):
    game = server_game(ICCF, "2019-04-11T19:29:00Z", sent)
    assert black(game, "2019-04-13T00:00:00Z")["thinking_days"] == days


def test_whole_days_flag_falls_l_plus_one_days_after_the_receipt():
    # 15 days for 10 moves, none used: L = 15; flag_at = R + 16 x 24 h. As of 04-20T00:00 the move has
    # run 8 d 4 h 31 min: 8 whole days, 7 left, and 674,940 s until the flag.
    control = {"system": "periods", "stages": [{"moves": 10, "time": 15}], "repeat_last": True,
               "count": "whole_days"}
    game = server_game(control, "2019-04-11T19:29:00Z")
    got = black(game, "2019-04-20T00:00:00Z")
    assert (got["flag_at"], got["control"]["remaining_days"], got["remaining_seconds"], got["deadline"]) == \
        ("2019-04-27T19:29:00Z", 7, 674940, "2019-04-27")
    over = black(game, "2019-04-27T19:29:00Z")["overstepped"]
    assert over["at"] == "2019-04-27T19:29:00Z"
    assert black(game, "2019-04-27T19:28:59Z")["overstepped"] is None


def test_exact_one_day_per_move_flags_at_the_second():
    game = server_game(DAY, "2024-05-31T18:00:36Z")
    before = black(game, "2024-06-01T18:00:35Z")
    assert (before["flag_at"], before["remaining_seconds"], before["overstepped"]) == \
        ("2024-06-01T18:00:36Z", 1, None)
    at = black(game, "2024-06-01T18:00:36Z")
    assert (at["remaining_seconds"], at["overstepped"]["at"]) == (0, "2024-06-01T18:00:36Z")


def test_a_credit_in_seconds_moves_the_instant_the_flag_fell_by_as_much_as_the_flag():
    # 1 day per move from 2024-05-31T18:00:36Z, 7,200 s given back (an outage, issue 39): the flag and the
    # overstep's instant are both 2 h later, 20:00:36 the next day (the overstep's instant read the credit's
    # seconds as seconds of a second before: 1 s later, not 2 h).
    game = server_game(DAY, "2024-05-31T18:00:36Z")
    game = read_game({**write_game(game, parse_instant("2024-06-01T00:00:00Z", "as_of")), "events": [
        *write_game(game, parse_instant("2024-06-01T00:00:00Z", "as_of"))["events"],
        {"type": "credit", "player": "black", "move": 1, "seconds": 7200}]})[0]
    assert black(game, "2024-06-01T20:00:35Z")["flag_at"] == "2024-06-01T20:00:36Z"
    assert black(game, "2024-06-01T20:00:35Z")["overstepped"] is None
    assert black(game, "2024-06-01T20:00:36Z")["overstepped"]["at"] == "2024-06-01T20:00:36Z"


def test_a_move_sent_a_second_before_the_flag_is_in_time_and_one_at_it_is_not():
    in_time = server_game(DAY, "2024-05-31T18:00:36Z", "2024-06-01T18:00:35Z")
    assert black(in_time, "2024-06-02T00:00:00Z")["overstepped"] is None
    late = server_game(DAY, "2024-05-31T18:00:36Z", "2024-06-01T18:00:36Z")
    assert black(late, "2024-06-02T00:00:00Z")["overstepped"]["at"] == "2024-06-01T18:00:36Z"


def test_under_dates_flag_at_is_midnight_after_the_deadline_in_the_games_zone():
    # Moscow is UTC+3: the deadline's next 00:00 there is 21:00 UTC the day before.
    game = server_game({"system": "per_move", "time": 3}, "2026-01-12T10:00:00Z", zone="Europe/Moscow",
                       start="2026-01-10")
    got = black(game, "2026-01-13T00:00:00Z")
    assert (got["deadline"], got["flag_at"]) == ("2026-01-15", "2026-01-15T21:00:00Z")


def test_instants_under_dates_are_read_as_their_dates_in_the_games_zone():
    # 23:30 UTC on 01-12 is 02:30 on 01-13 in Moscow: under dates the move arrived on 01-13.
    game = server_game({"system": "per_move", "time": 3}, "2026-01-12T23:30:00Z", zone="Europe/Moscow",
                       start="2026-01-10")
    assert game.events[1].received_on.isoformat() == "2026-01-13"


def test_a_date_only_event_is_refused_under_the_instant_counts():
    data = {"ruleset": {"time_control": ICCF}, "official_start": "2019-04-01", "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_on": "2019-04-11"}]}
    game, _ = read_game(data)
    with pytest.raises(EventError) as caught:
        compute(game, parse_instant("2019-04-12T00:00:00Z", "as_of"))
    assert caught.value.field == "events[0].sent_at"
    assert str(caught.value).startswith("event 0 (move): sent_on 2019-04-11 is a date: the whole_days count needs")


@pytest.mark.parametrize("value, why", [
    ("2019-04-11T19:29:00", "with an offset"),        # no offset: not an instant
    ("2019-04-11T19:29:00.5Z", "to the second"),      # a fraction would be lost
    ("2019-04-11 19:29:00Z", "RFC 3339"),
])
def test_an_instant_without_offset_or_with_a_fraction_is_refused(value, why):
    with pytest.raises(ClockError) as caught:
        server_game(ICCF, value)
    assert why in str(caught.value) and caught.value.field == "events[0].sent_at"


def test_an_unknown_time_zone_is_refused_naming_it():
    with pytest.raises(ClockError) as caught:
        server_game(ICCF, "2019-04-11T19:29:00Z", zone="Mars/Olympus")
    assert caught.value.field == "time_zone"


def test_a_move_that_arrives_before_it_was_sent_is_refused_naming_the_instant():
    data = {"ruleset": {"time_control": ICCF}, "official_start": "2019-04-01", "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_at": "2019-04-11T19:29:00Z"},
                       {"type": "move", "player": "black", "number": 1, "received_at": "2019-04-11T19:28:00Z",
                        "sent_at": "2019-04-12T00:00:00Z"}]}
    game, _ = read_game(data)
    with pytest.raises(EventError) as caught:
        compute(game, parse_instant("2019-04-13T00:00:00Z", "as_of"))
    assert caught.value.field == "events[1].received_at"


def test_an_as_of_date_means_the_end_of_that_date():
    game = server_game(DAY, "2024-05-31T18:00:36Z")
    clock = compute(game, datetime(2024, 6, 1).date())
    assert clock.as_of == datetime(2024, 6, 2, tzinfo=UTC)
    assert clock.as_json()["players"]["black"]["overstepped"]["at"] == "2024-06-01T18:00:36Z"


def test_a_game_file_with_instants_reads_back_what_it_writes():
    game = server_game(ICCF, "2019-04-11T22:29:00+03:00", "2019-05-07T06:30:00Z", zone="Europe/Moscow")
    assert write_game(game)["events"][1] == {"type": "move", "player": "black", "number": 1,
                                             "received_at": "2019-04-11T19:29:00Z", "sent_at": "2019-05-07T06:30:00Z"}
    assert read_game(write_game(game))[0] == game


def test_weekends_under_exact_take_off_only_their_own_hours():
    # Received Friday 2026-01-09 20:00 UTC, weekend excluded, per move 2 days: Friday's 4 h, then Monday
    # and Tuesday count: 48 h - 4 h = 44 h into Monday 00:00, i.e. Tuesday 20:00.
    control = {"system": "per_move", "time": 2, "count": "exact"}
    data = {"ruleset": {"time_control": control, "weekend_days": ["saturday", "sunday"]},
            "official_start": "2026-01-01", "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_at": "2026-01-09T20:00:00Z"},
                       {"type": "move", "player": "black", "number": 1, "received_at": "2026-01-09T20:00:00Z"}]}
    game, _ = read_game(data)
    got = black(game, "2026-01-10T12:00:00Z")
    assert got["flag_at"] == "2026-01-13T20:00:00Z"
    # As of Saturday 12:00 the move has counted Friday's 4 h only: 44 h of the 48 are left.
    assert got["remaining_seconds"] == int((datetime(2026, 1, 13, 20, tzinfo=UTC)
                                            - datetime(2026, 1, 10, 12, tzinfo=UTC)).total_seconds())


def test_the_presets_of_the_servers_count_as_the_servers_do():
    from corr.clock.presets import PRESETS

    assert PRESETS["iccf_10_50"]["time_control"]["count"] == "whole_days"
    assert PRESETS["iccf_fischer_30_3"]["time_control"]["double_after"] == 20
    for n in (1, 2, 3, 5, 7, 14):
        for server in ("lichess", "chesscom"):
            assert PRESETS[f"{server}_days_{n}"]["time_control"] == {"system": "per_move", "time": n, "count": "exact"}
    assert "count" not in PRESETS["days_per_move_3"]["time_control"]  # tournaments made with it keep dates


def test_a_postal_iccf_event_keeps_the_presets_control_counted_in_dates():
    from corr.clock import Ruleset
    from corr.clock.presets import preset_ruleset

    rules = Ruleset.from_mapping(preset_ruleset("iccf_10_50", {"time_control": {"count": "dates"}}))
    assert rules.count.value == "dates" and rules.time_control.double_after == 20
    # A control that names its system replaces the preset's whole, as before.
    other = Ruleset.from_mapping(preset_ruleset("iccf_10_50", {"time_control": {"system": "per_move", "time": 3}}))
    assert other.time_control.as_json() == {"system": "per_move", "time": 3}
