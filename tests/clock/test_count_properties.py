"""Properties of the three counts under every system (issue 22, "Done when"), on server games of instants.

- The flag a clock announces is the flag a replay records: at every prefix of a game (the partner's
  move just received), a reply sent before ``flag_at`` is in time and one sent at or after it is over
  at ``flag_at``; and the finished game says the flag fell at that same instant.
- ``whole_days`` never charges more than ``exact`` rounded up to whole days.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from corr.clock import charge_game, compute, read_game
from corr.clock.counts import DAY_SECONDS, rfc3339

START = datetime(2026, 1, 5, tzinfo=UTC)
DAY = DAY_SECONDS

small = st.integers(1, 4) | st.integers(1, 12)
SYSTEMS = st.one_of(
    st.builds(lambda n, t, c: {"system": "periods", "stages": [{"moves": n, "time": t}], "repeat_last": True,
                               "cumulative": c}, st.integers(1, 4), small, st.booleans()),
    st.builds(lambda t: {"system": "sudden_death", "time": t}, small),
    st.builds(lambda i, inc: {"system": "fischer", "initial": i, "increment": inc}, small, st.integers(0, 2)),
    st.builds(lambda t: {"system": "per_move", "time": t}, st.integers(1, 3)),
    st.builds(lambda m, dl: {"system": "delay", "main": m, "delay": dl}, small, st.integers(0, 2)),
    st.builds(lambda m, p, t: {"system": "byoyomi", "main": m, "periods": p, "period_time": t},
              st.integers(0, 6), st.integers(1, 3), st.integers(1, 2)),
    st.builds(lambda m, n, t: {"system": "canadian", "main": m, "moves": n, "period_time": t},
              st.integers(0, 6), st.integers(1, 3), st.integers(1, 4)),
)
OPTIONS = st.fixed_dictionaries({}, optional={"double_after": st.integers(1, 3), "max_per_move": st.integers(1, 4)})
# A move's seconds, half of the draws on or next to a day's boundary: the flags hide there.
SECONDS = st.integers(0, 5 * DAY) | st.builds(lambda d, e: max(0, d * DAY + e), st.integers(0, 5), st.integers(-2, 2))


def server_file(control: dict, seconds: list[int], pending: bool) -> dict:
    """A server game: moves alternate, each answered the instant the last arrived (no transit)."""
    events, at = [], START
    for i, took in enumerate(seconds):
        player, number = ("white", "black")[i % 2], i // 2 + 1
        event = {"type": "move", "player": player, "number": number}
        if i:
            event["received_at"] = rfc3339(at)
        if pending and i == len(seconds) - 1:
            events.append(event)
            break
        at = at + timedelta(seconds=took)
        event["sent_at"] = rfc3339(at)
        events.append(event)
    return {"ruleset": {"time_control": control}, "official_start": rfc3339(START),
            "players": {"white": {}, "black": {}}, "events": events}


def instants(data: dict) -> list[datetime | None]:
    return [datetime.fromisoformat(e["sent_at"].replace("Z", "+00:00")) if "sent_at" in e else None
            for e in data["events"]]


def clock_of(data: dict, as_of: datetime):
    return compute(read_game(data)[0], as_of)


@settings(max_examples=300, deadline=None)
@given(SYSTEMS, OPTIONS, st.sampled_from(["whole_days", "exact"]), st.lists(SECONDS, min_size=2, max_size=9))
def test_every_flag_announced_at_a_prefix_is_the_flag_the_replay_records(system, options, count, seconds):
    control = {**system, **options, "count": count}
    full = server_file(control, seconds, pending=False)
    sent = instants(full)
    end = sent[-1] + timedelta(days=40)
    final = clock_of(full, end)
    for k in range(1, len(seconds)):  # event k answers event k - 1, received at sent[k - 1]
        player = full["events"][k]["player"]
        prefix = {**full, "events": [*full["events"][:k], {key: v for key, v in full["events"][k].items()
                                                           if key != "sent_at"}]}
        at_receipt = clock_of(prefix, sent[k - 1]).accounts[player]
        if at_receipt.overstepped is not None:
            # Fallen before this move: it stays fallen, at the same instant, to the end.
            assert final.accounts[player].overstepped.at == at_receipt.overstepped.at
            return
        flag_at = at_receipt.flag_at
        after = {**full, "events": full["events"][:k + 1]}
        if flag_at is None or sent[k] >= flag_at:
            if flag_at is not None:
                fallen = clock_of(prefix, flag_at).accounts[player].overstepped
                assert fallen is not None and fallen.at == flag_at
                assert clock_of(prefix, flag_at - timedelta(seconds=1)).accounts[player].overstepped is None
            over = clock_of(after, sent[k]).accounts[player].overstepped
            assert over is not None
            assert final.accounts[player].overstepped.at == over.at == (flag_at or over.at)
            return
        assert clock_of(after, sent[k]).accounts[player].overstepped is None  # sent before the flag: in time


@settings(max_examples=300, deadline=None)
@given(SYSTEMS, OPTIONS, st.lists(SECONDS, min_size=1, max_size=9), st.booleans())
def test_whole_days_never_charge_more_than_exact_rounded_up(system, options, seconds, pending):
    as_of = START + timedelta(seconds=sum(seconds) + 3 * DAY)
    whole = charge_game(read_game(server_file({**system, **options, "count": "whole_days"}, seconds, pending))[0],
                        as_of, ledger=False)[0]
    exact = charge_game(read_game(server_file({**system, **options, "count": "exact"}, seconds, pending))[0],
                        as_of, ledger=False)[0]
    for player in ("white", "black"):
        assert whole[player].thinking_days <= -(-exact[player].thinking_days // DAY)  # seconds, rounded up


@settings(max_examples=200, deadline=None)
@given(SYSTEMS, st.sampled_from(["dates", "whole_days", "exact"]), st.lists(SECONDS, min_size=2, max_size=9))
def test_the_time_left_only_falls_while_a_move_runs(system, count, seconds):
    data = server_file({**system, "count": count}, seconds, pending=True)
    received = instants(data)[-2]
    player = data["events"][-1]["player"]
    lefts = [clock_of(data, received + timedelta(seconds=s)).accounts[player].remaining_seconds
             for s in (0, 1, DAY - 1, DAY, DAY + 1, 3 * DAY)]
    assert lefts == sorted(lefts, reverse=True) and min(lefts) >= 0
