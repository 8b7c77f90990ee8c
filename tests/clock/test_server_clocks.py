"""Each server's own clock stops and gifts (issue 40): a player's calendar, vacation and pauses stop that
player's clock only; time given is charged to no one and moves the flag by exactly its days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corr.clock import ClockError, compute, read_game
from corr.clock.counts import rfc3339

START = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)  # a Monday
SYSTEMS = [
    {"system": "per_move", "time": 5},
    {"system": "fischer", "initial": 6, "increment": 1, "max": 9},
    {"system": "byoyomi", "main": 6, "periods": 3, "period_time": 2},
    {"system": "canadian", "main": 6, "moves": 3, "period_time": 4},
    {"system": "periods", "stages": [{"moves": 3, "time": 8}], "repeat_last": True},
]


def file(system, count, hours, players=None, ruleset=None, events=()):
    """A game whose players alternate, white first, each move taking ``hours[i]`` hours; the last is pending."""
    at = START
    out = []
    made = {"white": 0, "black": 0}
    for i, h in enumerate(hours):
        player = "white" if i % 2 == 0 else "black"
        made[player] += 1
        move = {"type": "move", "player": player, "number": made[player]}
        if i:
            move["received_at"] = rfc3339(at)
        if i < len(hours) - 1:
            at = at + timedelta(hours=h)
            move["sent_at"] = rfc3339(at)
        out.append(move)
    rules = {"time_control": {**system, "count": count}, **(ruleset or {})}
    return {"ruleset": rules, "official_start": rfc3339(START), "players": players or {"white": {}, "black": {}},
            "events": out + list(events)}


def clock(data, as_of):
    game, _ = read_game(data)
    return compute(game, as_of, with_ledger=True)


stops = st.sampled_from(["weekend", "night", "vacation", "pause"])


@settings(max_examples=60, deadline=None)
@given(system=st.sampled_from(SYSTEMS), count=st.sampled_from(["exact", "whole_days"]), stop=stops,
       hours=st.lists(st.integers(1, 60), min_size=3, max_size=7), begin=st.integers(0, 200),
       length=st.integers(24, 120))
def test_a_players_own_stop_never_charges_them_more_and_never_touches_the_other_clock(system, count, stop, hours,
                                                                                     begin, length):
    first, last = START + timedelta(hours=begin), START + timedelta(hours=begin + length)
    span = [{"from": rfc3339(first), "to": rfc3339(last)}]
    white = {"weekend": {"calendar": {"time_zone": "Australia/Brisbane", "weekend_days": ["saturday"]}},
             "night": {"calendar": {"time_zone": "America/Bogota", "night": {"from": "22:00", "hours": 9}}},
             "vacation": {"vacation": {"taken": span}},
             "pause": {"pauses": span}}[stop]
    rules = {"player_calendars": "own_zone", "pauses_per_game": 3,
             "vacation": {"initial_hours": 24 * 30, "min_hours": 24}}
    as_of = START + timedelta(hours=sum(hours) + 10)
    plain = clock(file(system, count, hours, ruleset=rules), as_of)
    stopped = clock(file(system, count, hours, players={"white": white, "black": {}}, ruleset=rules), as_of)
    assert stopped.accounts["black"] == plain.accounts["black"]
    assert [line for line in stopped.ledger if line.player == "black"] == \
        [line for line in plain.ledger if line.player == "black"]
    white_plain = [line.days for line in plain.ledger if line.player == "white"]
    white_stopped = [line.days for line in stopped.ledger if line.player == "white"]
    assert all(s <= p for s, p in zip(white_stopped, white_plain, strict=True))
    if stop in ("vacation", "pause"):  # a white move wholly inside the stop costs nothing
        at = START
        for i, h in enumerate(hours[:-1]):
            if i % 2 == 0 and first <= at and at + timedelta(hours=h) <= last:
                line = next(x for x in stopped.ledger if x.player == "white" and x.move == i // 2 + 1)
                assert line.days == 0
            at += timedelta(hours=h)


@settings(max_examples=60, deadline=None)
@given(system=st.sampled_from(SYSTEMS), count=st.sampled_from(["exact", "whole_days"]),
       hours=st.lists(st.integers(1, 30), min_size=2, max_size=6), days=st.integers(1, 14), after=st.integers(0, 20))
def test_time_given_is_charged_to_no_one_and_moves_the_flag_by_exactly_its_days(system, count, hours, days, after):
    receiver = "white" if len(hours) % 2 == 1 else "black"
    at = START + timedelta(hours=sum(hours[:-1]) + min(after, 1))
    gift = {"type": "gift", "player": receiver, "at": rfc3339(at), "days": days}
    rules = {"gifts": {"max_days": 14}}
    as_of = at
    plain = clock(file(system, count, hours, ruleset=rules), as_of)
    given_ = clock(file(system, count, hours, ruleset=rules, events=[gift]), as_of)
    other = "black" if receiver == "white" else "white"
    assert given_.accounts[other] == plain.accounts[other]
    before, now = plain.accounts[receiver], given_.accounts[receiver]
    if before.overstepped is None and before.flag_at is not None:
        assert now.flag_at - before.flag_at == timedelta(days=days)
        assert now.remaining_seconds - before.remaining_seconds == days * 86_400
    assert sum(line.days for line in given_.ledger if line.player == receiver) == \
        sum(line.days for line in plain.ledger if line.player == receiver) - days


def test_dgs_adds_at_most_fourteen_days_at_once():
    # DGS GameAddTime::add_time: "allowed range is 0 hour .. MAX_ADD_DAYS" (14).
    base = file({"system": "byoyomi", "main": 30, "periods": 5, "period_time": 1}, "exact", [2, 3],
                ruleset={"gifts": {"max_days": 14}})
    at = rfc3339(START + timedelta(hours=3))
    ok = {**base, "events": base["events"] + [{"type": "gift", "player": "black", "at": at, "days": 14}]}
    assert clock(ok, START + timedelta(hours=4)).accounts["black"].remaining_seconds == \
        clock(base, START + timedelta(hours=4)).accounts["black"].remaining_seconds + 14 * 86_400
    over = {**base, "events": base["events"] + [{"type": "gift", "player": "black", "at": at, "days": 15}]}
    with pytest.raises(ClockError) as refused:
        clock(over, START + timedelta(hours=4))
    assert refused.value.field == "events[2].days" and refused.value.code == "gift_over_max"
    assert "at most 14 day(s)" in str(refused.value)


@pytest.mark.parametrize(("players", "ruleset", "field", "code"), [
    ({"white": {"calendar": {"weekend_days": ["sunday"]}}, "black": {}}, {}, "players.white.calendar",
     "calendar_not_allowed"),
    ({"white": {"calendar": {"time_zone": "Asia/Tokyo"}}, "black": {}}, {"player_calendars": "game_zone"},
     "players.white.calendar.time_zone", "calendar_zone_not_allowed"),
    ({"white": {"pauses": [{"from": "2026-03-02T01:00:00Z", "to": "2026-03-02T02:00:00Z"},
                           {"from": "2026-03-02T03:00:00Z", "to": "2026-03-02T04:00:00Z"}]}, "black": {}},
     {"pauses_per_game": 1}, "players.white.pauses[1]", "pauses_over_budget"),
    ({"white": {"vacation": {"allowance_hours": 24, "taken": [{"from": "2026-03-02T01:00:00Z",
                                                                "to": "2026-03-04T01:00:00Z"}]}}, "black": {}},
     {"vacation": {"min_hours": 24}}, "players.white.vacation.taken[0]", "vacation_over_allowance"),
    ({"white": {"vacation": {"taken": [{"from": "2026-03-02T01:00:00Z", "to": "2026-03-02T05:00:00Z"}]}},
      "black": {}}, {"vacation": {"initial_hours": 100, "min_hours": 24}}, "players.white.vacation.taken[0]",
     "vacation_too_short"),
    ({"white": {"pauses": [{"from": "2026-03-02T01:00:00Z", "to": "2026-03-02T02:00:00Z"}]}, "black": {}}, {},
     "players.white.pauses", "pauses_not_allowed"),
])
def test_what_the_ruleset_does_not_allow_is_refused_naming_the_field_and_the_rule(players, ruleset, field, code):
    data = file({"system": "per_move", "time": 3}, "exact", [1, 2, 3], players=players, ruleset=ruleset)
    with pytest.raises(ClockError) as refused:
        clock(data, START + timedelta(days=1))
    assert (refused.value.field, refused.value.code) == (field, code)


def test_a_night_under_the_dates_count_is_refused_a_weekend_is_the_players_own():
    data = {"ruleset": {"player_calendars": "own_zone"}, "official_start": "2026-03-02",
            "players": {"white": {"calendar": {"night": {"from": "23:00", "hours": 9}}}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_on": "2026-03-02"}]}
    with pytest.raises(ClockError) as refused:
        clock(data, datetime(2026, 3, 3).date())
    assert refused.value.field == "players.white.calendar.night" and "a date has no hours" in str(refused.value)
    data["players"]["white"] = {}
    data["players"]["black"] = {"calendar": {"weekend_days": ["saturday", "sunday"]}}
    data["events"].append({"type": "move", "player": "black", "number": 1, "received_on": "2026-03-04"})
    black = clock(data, datetime(2026, 3, 10).date()).accounts["black"]
    assert black.thinking_days == 4  # 5 to 10 March less that Saturday and Sunday, the 7th and 8th


def test_the_game_file_writes_back_what_it_read():
    from corr.clock import write_game

    data = file({"system": "per_move", "time": 3}, "exact", [1, 2],
                players={"white": {"calendar": {"time_zone": "Asia/Tokyo", "weekend_days": ["sunday"],
                                                "night": {"from": "23:30", "hours": 9}},
                                   "vacation": {"allowance_hours": 48, "taken": [
                                       {"from": "2026-03-02T01:00:00Z", "to": "2026-03-03T01:00:00Z",
                                        "automatic": True}]},
                                   "pauses": [{"from": "2026-03-02T01:00:00Z", "to": "2026-03-02T02:00:00Z",
                                               "by": "black"}]}, "black": {}},
                ruleset={"player_calendars": "own_zone", "pauses_per_game": 2, "vacation": {"min_hours": 24},
                         "gifts": {"max_days": 14}},
                events=[{"type": "gift", "player": "black", "at": "2026-03-02T01:30:00Z", "days": 2}])
    game, _ = read_game(data)
    assert read_game(write_game(game))[0] == game
