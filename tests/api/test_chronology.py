"""Only possible chronologies are stored, and corrections change something the event has.

The postal cup starts 2026-01-10 (presumed transit 4 days, late notices start 3 days after);
today is 2026-03-01. Anna (white) sends move 1 on 01-12; Boris receives it on 01-16 and
answers on 01-18.
"""

from __future__ import annotations

import pytest

from ..conftest import clock_events, seq_of

pytestmark = pytest.mark.django_db


def post(client, game, action, **data):
    return client.post(f"/api/games/{game.pk}/{action}/", data, format="json")


@pytest.fixture
def started(api, postal_game, anna):
    r = post(api(anna), postal_game, "moves", number=1, sent_on="2026-01-12")
    assert r.status_code == 201, r.json()
    return postal_game


@pytest.fixture
def answered(api, started, boris):
    r = post(api(boris), started, "moves", number=1, received_on="2026-01-16", sent_on="2026-01-18")
    assert r.status_code == 201, r.json()
    return started


def refused(r, field, words=""):
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == field, r.json()
    assert words in r.json()["detail"], r.json()
    return r.json()


# --- nothing arrives before it is sent -----------------------------------------------------

@pytest.mark.parametrize("received_on", ["2026-01-11", "0001-01-01"])
def test_a_move_received_before_the_partner_sent_it_is_refused(api, started, boris, received_on):
    # Anna sent move 1 on 01-12: Boris cannot have received it on 01-11, nor in year 1
    # (the 739,944 "excluded" days).
    before = clock_events().count()
    r = post(api(boris), started, "moves", number=1, received_on=received_on, sent_on="2026-01-18")
    refused(r, "received_on")
    assert clock_events().count() == before


def test_the_refusal_names_the_rule_and_the_partners_dispatch(api, started, boris):
    r = post(api(boris), started, "moves", number=1, received_on="2026-01-11", sent_on="2026-01-11")
    # The history's #1 (not the calculator's event 0), the player by name, the rule by its rulebook, what to do.
    assert refused(r, "received_on") == {
        "detail": "The received date 2026-01-11 is before anna sent what it answers, on 2026-01-12 (#1, anna's"
                  " move 1): a move cannot arrive before it is sent (Correspondence rules 50.4.4). Check the date:"
                  " it is on or after 2026-01-12; if that move's date is wrong, an arbiter corrects #1.",
        "field": "received_on"}


def test_a_move_received_the_day_the_partner_sent_it_is_stored(api, started, boris):
    r = post(api(boris), started, "moves", number=1, received_on="2026-01-12", sent_on="2026-01-14")
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["black"]["thinking_days"] == 2


def test_a_notice_received_before_the_partner_sent_the_move_is_refused(api, answered, anna):
    # Boris sent move 1 on 01-18: Anna's notice of it as impossible cannot answer it from 01-17.
    before = clock_events().count()
    r = post(api(anna), answered, "notices", reason="impossible_move", received_on="2026-01-17",
             sent_on="2026-01-20")
    refused(r, "received_on", "before boris sent what it answers, on 2026-01-18")
    assert clock_events().count() == before  # neither the notice nor the voiding correction


def test_a_move_answering_a_notice_is_received_after_the_notice_was_sent(api, answered, anna, boris):
    # Anna reports Boris's move 1 as impossible (sent 02-01); his move 1 again cannot answer it from 01-31.
    r = post(api(anna), answered, "notices", reason="impossible_move", received_on="2026-01-22",
             sent_on="2026-02-01")
    assert r.status_code == 201, r.json()
    before = clock_events().count()
    r = post(api(boris), answered, "moves", number=1, received_on="2026-01-31", sent_on="2026-02-03")
    refused(r, "received_on", "before anna sent what it answers, on 2026-02-01")
    assert clock_events().count() == before


def test_a_receipt_before_the_partner_sent_the_move_is_refused(api, answered, anna):
    before = clock_events().count()
    refused(post(api(anna), answered, "receipts", received_on="2026-01-17"), "received_on",
            "before the partner sent it on 2026-01-18")
    assert clock_events().count() == before


def test_a_receipt_recorded_again_is_checked_too(api, answered, anna):
    # Once a receipt is recorded nothing is presumed any more; a second, earlier one is still
    # checked (by the calculator) against Boris's dispatch of 01-18.
    assert post(api(anna), answered, "receipts", received_on="2026-01-22").status_code == 201
    before = clock_events().count()
    refused(post(api(anna), answered, "receipts", received_on="2026-01-15"), "received_on",
            "before boris sent what it answers, on 2026-01-18")
    assert clock_events().count() == before


# --- start notices (50.4.6) -----------------------------------------------------------------

@pytest.mark.parametrize("received_on", ["1900-01-01", "2026-01-01", "2026-01-07"])
def test_a_start_notice_that_is_not_late_is_refused(api, postal_game, arbiter, received_on):
    # 50.4.6 moves the start only for a notice received after 01-10 - 3 days = 01-07; an earlier
    # one leaves the official start in force. (Year 1 is outside the date window: tests/api/test_bounds.py.)
    r = post(api(arbiter), postal_game, "start-notices", player="white", received_on=received_on)
    refused(r, "received_on", "is not late: the player starts on the official start 2026-01-10")
    assert clock_events().count() == 0


def test_a_start_notice_received_just_before_the_start_moves_it(api, postal_game, arbiter):
    # Received 01-08: start = max(01-10, 01-08 + 3) = 01-11.
    r = post(api(arbiter), postal_game, "start-notices", player="white", received_on="2026-01-08")
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["white"]["start"] == "2026-01-11"


# --- corrections: the corrected event in its place ------------------------------------------

def correct(api, arbiter, game, **data):
    return post(api(arbiter), game, "corrections", note="postmark", **data)


def test_a_correction_making_a_receipt_precede_its_dispatch_is_refused(api, answered, arbiter):
    before = clock_events().count()
    refused(correct(api, arbiter, answered, event=seq_of(answered, "move", "black"), received_on="2026-01-11"),
            "received_on",
            "The received date 2026-01-11 is before anna sent what it answers, on 2026-01-12")
    assert clock_events().count() == before


def test_a_correction_sending_a_move_after_it_arrived_is_refused(api, answered, arbiter):
    # Anna's move 1 "sent" 01-17 would arrive at Boris's on 01-16, the day before.
    before = clock_events().count()
    refused(correct(api, arbiter, answered, event=1, sent_on="2026-01-17"), "received_on",
            f"With this entry, #{seq_of(answered, 'move', 'black')}, boris's move 1 would no longer hold: the"
            " received date 2026-01-16 is before anna sent")
    assert clock_events().count() == before


def test_a_correction_within_the_chronology_is_stored(api, answered, arbiter):
    r = correct(api, arbiter, answered, event=1, sent_on="2026-01-16")
    assert r.status_code == 201, r.json()
    move_1 = r.json()["clock"]["ledger"][0]
    assert (move_1["player"], move_1["move"], move_1["days"]) == ("white", 1, 6)  # 01-10 -> 01-16


def test_a_start_notice_corrected_to_an_early_date_is_refused(api, postal_game, arbiter):
    assert post(api(arbiter), postal_game, "start-notices", player="white",
                received_on="2026-01-15").status_code == 201
    refused(correct(api, arbiter, postal_game, event=1, received_on="1900-01-01"), "received_on", "is not late")
    assert clock_events().count() == 1


# --- corrections: only fields the event has, and a change ----------------------------------

@pytest.mark.parametrize("key, value", [("kind", "penalty"), ("player", "black"), ("colour", "black")])
def test_a_correction_with_a_field_that_cannot_be_corrected_is_refused(api, started, arbiter, key, value):
    r = correct(api, arbiter, started, event=1, sent_on="2026-01-13", **{key: value})
    refused(r, key, f"{key} cannot be corrected (correctable: received_on, sent_on, days")
    assert clock_events().count() == 1


def test_a_correction_with_a_field_its_event_does_not_have_is_refused(api, started, arbiter):
    refused(correct(api, arbiter, started, event=1, days=4), "days", "a move has no days to correct")
    assert clock_events().count() == 1


@pytest.mark.parametrize("changes", [{}, {"sent_on": "2026-01-12"}, {"sent_on": "2026-01-12", "notation": ""}])
def test_a_correction_that_changes_nothing_is_refused(api, started, arbiter, changes):
    r = correct(api, arbiter, started, event=1, **changes)
    detail = refused(r, "event")["detail"]
    assert detail == "the correction changes nothing: the event in force already has these values"
    assert clock_events().count() == 1


# --- every input refuses keys it does not know ---------------------------------------------

def test_a_misspelt_key_is_refused_not_ignored(api, started, boris):
    r = post(api(boris), started, "moves", number=1, recieved_on="2026-01-16", sent_on="2026-01-18")
    refused(r, "recieved_on", "'recieved_on' is not a field of this request (fields: number, notation, received_on")
    assert clock_events().count() == 1


def test_an_idempotency_key_is_a_header_not_a_field(api, started, boris):
    client = api(boris)
    data = {"number": 1, "received_on": "2026-01-16", "sent_on": "2026-01-18"}
    first = client.post(f"/api/games/{started.pk}/moves/", data, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post(f"/api/games/{started.pk}/moves/", data, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert clock_events().count() == 2
