"""Flags that follow the facts: a history typed in after the fact leaves only the real cases.

Today is 2026-03-01 (frozen). The tournament started 40 days before, on
2026-01-20 (S); moves take 3 days by post and their receipts are typed in
with them, move by move, in order, through the API.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command

from corr.games import services
from corr.models import CaseKind, GameEvent, OutboundEmail, OverstepCase, OverstepStatus, PlayerClock
from corr.nightly.job import nightly_job

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db

S = TODAY - timedelta(days=40)


def d(n: int) -> str:
    return (S + timedelta(days=n)).isoformat()


@pytest.fixture
def late(arbiter, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return services.tournament_create(by=arbiter, name="Typed in late", official_start=S, mode="postal",
                                      presumed_transit_days=3)


def pair(arbiter, tournament, white, black):
    return services.game_create(by=arbiter, tournament=tournament, white=white, black=black, today=TODAY)


def move(api, user, game, number, received=None, sent=None, mail_by="registered"):
    body = {"number": number, "sent_on": d(sent), "mail": mail_by}
    if received is not None:
        body["received_on"] = d(received)
    r = api(user).post(f"/api/games/{game.pk}/moves/", body, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def cases(game, **filters):
    return list(OverstepCase.objects.filter(game=game, **filters).order_by("id"))


def test_a_postal_history_typed_in_move_by_move_leaves_only_the_real_overstep(
        api, arbiter, late, anna, boris, eve, frozen):
    arbiter.email = "arbiter@example.org"
    arbiter.save()
    fine = pair(arbiter, late, anna, boris)
    over = pair(arbiter, late, eve, boris)
    # Created 40 days after the start: each white "has used 40 of 30 days" until move 1 is typed in.
    assert [c.used_days for c in cases(fine)] == [40] and [c.used_days for c in cases(over)] == [40]

    # The fine game: white 2 + 3 + 2 = 7 days; black 3 + 3 and now 12 since S+28 (25 + 3 in transit).
    move(api, anna, fine, 1, sent=2)
    move(api, boris, fine, 1, received=5, sent=8)
    move(api, anna, fine, 2, received=11, sent=14)
    move(api, boris, fine, 2, received=17, sent=20)
    body = move(api, anna, fine, 3, received=23, sent=25)
    assert body["clock"]["players"]["black"]["thinking_days"] == 3 + 3 + 12
    assert cases(fine, status=OverstepStatus.OPEN) == []
    withdrawn = cases(fine, status=OverstepStatus.WITHDRAWN)
    # Each state on the way showed the player to move over 30 days as of today, until the next entry.
    assert [(c.player, c.used_days) for c in withdrawn] == [("white", 40), ("black", 35), ("white", 31)]
    assert len(cases(fine)) == len(withdrawn)
    assert withdrawn[0].withdrawn_reason == "white's move 1 recorded: 2 of 30 days used in control 1"
    history = api(arbiter).get(f"/api/games/{fine.pk}/history/").json()
    assert [h["note"] for h in history if h["kind"] == "case"][0] == (
        f"overstep case {withdrawn[0].pk} withdrawn: white's move 1 recorded: 2 of 30 days used in control 1")

    # The game over time: white's move 1 was sent 35 days after the start.
    body = move(api, eve, over, 1, sent=35)
    assert body["clock"]["players"]["white"]["overstepped"]["used_days"] == 35
    assert any("overstep case is open" in w for w in body["warnings"])
    [case] = cases(over, status=OverstepStatus.OPEN)
    assert (case.player, case.control_number, case.used_days, case.allowed_days, case.through_move) == (
        "white", 1, 35, 30, 10)
    assert mail.outbox == [] and OutboundEmail.objects.count() == 0  # nothing is e-mailed by day

    totals = nightly_job(on=TODAY, now=NOW)
    assert totals["overstep_cases"] == 1
    announced = [m for m in mail.outbox if "Overstep case" in m.subject]
    assert [(m.to, f"game #{over.pk}" in m.subject) for m in announced] == [(["arbiter@example.org"], True)]
    assert "http://127.0.0.1:8000/tournaments/" in announced[0].body  # SITE_URL: a link that can be clicked
    assert f"http://127.0.0.1:8000/games/{over.pk}/" in announced[0].body
    assert nightly_job(on=TODAY, now=NOW)["overstep_cases"] == 0  # announced once


def test_a_real_overstep_after_a_withdrawn_case_opens_a_new_case_and_the_arbiters_hear_of_it(
        api, arbiter, late, anna, boris, frozen):
    arbiter.email = "arbiter@example.org"
    arbiter.save()
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=2)  # white's false 40/30 case is withdrawn
    move(api, boris, game, 1, received=5, sent=20)  # white's move 2 pending since S+23
    assert cases(game, status=OverstepStatus.OPEN) == []
    [withdrawn] = cases(game, player="white")
    assert nightly_job(on=TODAY, now=NOW)["overstep_cases"] == 0
    # 2 days used; white's move 2 takes 29 days: 31 of 30 on S+52, 12 days after today.
    with time_machine.travel(NOW + timedelta(days=12), tick=False):
        totals = nightly_job(on=TODAY + timedelta(days=12))
    assert totals["overstep_cases"] == 1
    new = cases(game, player="white", status=OverstepStatus.OPEN)
    assert [(c.control_number, c.used_days, c.pk != withdrawn.pk) for c in new] == [(1, 31, True)]
    assert [m.to for m in mail.outbox if "Overstep case" in m.subject] == [["arbiter@example.org"]]


def test_an_open_case_follows_the_clock_and_confirming_quotes_the_figures_of_that_day(
        api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)  # white: 40 of 30, and counting
    [case] = cases(game)
    frozen.move_to(NOW + timedelta(days=5))
    nightly_job(on=TODAY + timedelta(days=5))
    case.refresh_from_db()
    assert case.used_days == 45 and case.checked_on == TODAY + timedelta(days=5)
    frozen.move_to(NOW + timedelta(days=6))
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/")
    assert r.status_code == 200, r.json()
    assert r.json()["used_days"] == 46
    assert r.json()["termination"] == "white lost on time: control 1 exceeded, 46 of 30 days as of 2026-03-07 (50.4.3)"
    notes = [e.note for e in GameEvent.objects.filter(game=game, kind__in=["case", "result"])]
    assert notes == [f"overstep case {case.pk} confirmed: 46 of 30 days in control 1",
                     "result 0-1: " + r.json()["termination"]]


def test_a_case_whose_overstep_is_gone_cannot_be_confirmed(api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)
    [case] = cases(game)
    # The rules changed behind the services' back (a raw UPDATE): only the confirmation's own re-check sees it.
    type(late).objects.filter(pk=late.pk).update(days_per_control=60)
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/")
    assert r.status_code == 409
    assert r.json()["detail"] == (f"case {case.pk} no longer holds: as of 2026-03-01 white has used 40 of 60 days"
                                  " in control 1, 20 left")
    game.refresh_from_db()
    assert game.status == "ongoing"


def test_changing_the_rules_recomputes_the_stored_clocks_and_the_cases_without_any_event(
        api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=12)  # white 12 days; black's move 1 pending since S+15: 25 days
    black = PlayerClock.objects.get(game=game, player="black")
    assert (black.remaining_days, black.time_trouble, black.overstepped_control) == (5, True, None)
    events = GameEvent.objects.exclude(kind__in=["case", "rules"]).count()

    r = api(arbiter).patch(f"/api/tournaments/{late.pk}/", {"ruleset": {"days_per_control": 20}}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["ruleset"]["days_per_control"] == 20
    black.refresh_from_db()
    assert (black.remaining_days, black.overstepped_control, black.flagged) == (-5, 1, True)
    [case] = cases(game, status=OverstepStatus.OPEN)
    assert (case.player, case.used_days, case.allowed_days) == ("black", 25, 20)

    r = api(arbiter).patch(f"/api/tournaments/{late.pk}/", {"ruleset": {"days_per_control": 30}}, format="json")
    assert r.status_code == 200
    case.refresh_from_db()
    assert case.status == OverstepStatus.WITHDRAWN
    assert case.withdrawn_reason.startswith("tournament rules changed (days_per_control 20 -> 30)")
    assert GameEvent.objects.exclude(kind__in=["case", "rules"]).count() == events
    assert [e.note for e in GameEvent.objects.filter(game=game, kind="rules")] == [
        "tournament rules changed: days_per_control 30 -> 20", "tournament rules changed: days_per_control 20 -> 30"]


def test_a_participant_cannot_change_the_rules(api, late, anna):
    r = api(anna).patch(f"/api/tournaments/{late.pk}/", {"ruleset": {"days_per_control": 90}}, format="json")
    assert r.status_code == 403


def test_nightly_for_an_earlier_date_runs_through_and_leaves_every_stored_clock_as_new(
        api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=2)
    move(api, boris, game, 1, received=5, sent=40)  # sent today
    stored = {c.player: {f: getattr(c, f) for f in ("remaining_days", "deadline", "made", "computed_on",
                                                     "events_version", "flagged")}
              for c in PlayerClock.objects.filter(game=game)}
    for earlier in (TODAY - timedelta(days=1), S + timedelta(days=3), S - timedelta(days=5)):
        call_command("nightly", "--date", earlier.isoformat(), "--json")  # runs to the end: no EventError
        now = {c.player: {f: getattr(c, f) for f in stored["white"]} for c in PlayerClock.objects.filter(game=game)}
        assert now == stored, earlier
    assert OutboundEmail.objects.filter(key__startswith="reminder:").count() == 0  # nothing stale announced


def test_the_nightly_reports_a_game_it_cannot_compute_and_goes_on(arbiter, late, anna, boris, eve, frozen):
    broken = pair(arbiter, late, anna, boris)
    fine = pair(arbiter, late, eve, boris)
    # A stored row the calculator refuses (written around the services, as a restore from a bad backup would).
    GameEvent.objects.create(game=broken, seq=99, kind="move", player="white", number=7, sent_on=S,
                             entered_by=arbiter)
    totals = nightly_job(on=TODAY, now=NOW)
    assert totals["errors"] == 1
    assert OverstepCase.objects.filter(game=fine, status=OverstepStatus.OPEN).count() == 1


def test_registered_mail_is_a_postal_rule_and_its_breach_is_a_case_for_the_arbiters(
        api, arbiter, other_arbiter, late, anna, boris, server, frozen):
    game = pair(arbiter, late, anna, boris)
    # White's move 1 after 26 days, by ordinary mail: 4 days left when sending (50.4.12).
    body = move(api, anna, game, 1, sent=26, mail_by="ordinary")
    assert any("50.4.12 requires registered mail" in w for w in body["warnings"])
    [case] = cases(game, kind=CaseKind.REGISTERED_MAIL)
    assert (case.player, case.through_move, case.allowed_days - case.used_days) == ("white", 1, 4)
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/")
    assert r.status_code == 200, r.json()
    penalty = GameEvent.objects.get(game=game, kind="penalty")
    assert (penalty.player, penalty.reason) == ("white", "unregistered_mail")
    assert api(arbiter).get(f"/api/games/{game.pk}/").json()["clock"]["players"]["white"]["penalty_days"] == 5

    # Server games have no post: no registered-mail warning, text or case.
    server_game = services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)
    r = api(anna).post(f"/api/games/{server_game.pk}/moves/", {"number": 1, "notation": "e4"}, format="json")
    assert r.status_code == 201
    assert not any("registered" in w for w in r.json()["warnings"])
    assert OverstepCase.objects.filter(game=server_game, kind=CaseKind.REGISTERED_MAIL).count() == 0


def test_a_correction_to_registered_mail_withdraws_the_mail_case(api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=26, mail_by="ordinary")
    [case] = cases(game, kind=CaseKind.REGISTERED_MAIL)
    seq = GameEvent.objects.get(game=game, kind="move").seq
    r = api(arbiter).post(f"/api/games/{game.pk}/corrections/",
                          {"event": seq, "mail": "registered", "note": "the receipt of registration arrived"},
                          format="json")
    assert r.status_code == 201, r.json()
    case.refresh_from_db()
    assert case.status == OverstepStatus.WITHDRAWN
    assert "no longer recorded as sent by ordinary mail" in case.withdrawn_reason


def test_the_demo_starts_with_no_flag_its_clocks_contradict(db, settings):
    from corr.games.demo import demo_create

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    demo = demo_create(now=NOW)
    assert OverstepCase.objects.count() == 0
    assert OutboundEmail.objects.count() == 0 and mail.outbox == []
    for clock in PlayerClock.objects.filter(game_id__in=demo.game_ids):
        assert clock.overstepped_control is None and clock.computed_on == date(2026, 3, 1)


def test_a_rule_change_in_the_admin_recomputes_the_games_too(api, arbiter, late, anna, boris, frozen):
    from django.test import Client

    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=12)  # black's move 1 pending for 25 days: 5 left of 30
    arbiter.is_staff = arbiter.is_superuser = True
    arbiter.save()
    client = Client()
    client.force_login(arbiter)
    form = {name: getattr(late, name) for name in ("name", "mode", "kind", "time_zone", "presumed_transit_days",
                                                    "moves_per_control", "grace_days", "first_penalty_days",
                                                    "repeat_penalty_days", "time_trouble_days",
                                                    "late_notice_start_days")}
    form.update(official_start=late.official_start.isoformat(), days_per_control=20, time_control="null",
                created_by=arbiter.pk, arbiters=[arbiter.pk], created_at_0="2026-01-01", created_at_1="00:00:00")
    r = client.post(f"/admin/corr/tournament/{late.pk}/change/", form)
    assert r.status_code == 302, r.content.decode()[:3000]
    black = PlayerClock.objects.get(game=game, player="black")
    assert (black.remaining_days, black.overstepped_control) == (-5, 1)
    assert cases(game, status=OverstepStatus.OPEN)[0].player == "black"
    assert GameEvent.objects.get(game=game, kind="rules").entered_by == arbiter


def test_pages_name_registered_mail_in_postal_games_only(arbiter, late, anna, boris, frozen):
    from django.test import Client

    server = services.tournament_create(by=arbiter, name="Fast server", official_start=TODAY - timedelta(days=27),
                                        mode="server")
    games = {"server": pair(arbiter, server, anna, boris), "postal": pair(arbiter, late, boris, anna)}
    services.move_submit(game=games["postal"], by=boris, number=1, sent_on=S + timedelta(days=27), today=TODAY)
    client = Client()
    client.force_login(anna)  # each game has a player 3 days from the end of control 1: time trouble
    pages = {mode: client.get(f"/games/{game.pk}/").content.decode() for mode, game in games.items()}
    listing = client.get("/games/").content.decode()
    assert "time trouble" in pages["server"] and "registered mail" not in pages["server"]
    assert "registered mail (Correspondence rules 50.4.12)" in pages["postal"]
    # Anna is in time trouble in the server game (3 days left), not in the postal one (20 left).
    assert "time trouble" in listing and "registered mail" not in listing


def test_a_run_for_yesterday_keeps_a_case_that_holds_today_and_warns_nobody(api, arbiter, late, anna, boris,
                                                                            frozen):
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=10)  # black's move 1 pending since S+13: 27 days today, 26 yesterday
    services.penalty_assess(game=game, by=arbiter, player="black", reason="address_error", today=TODAY)
    [case] = cases(game, status=OverstepStatus.OPEN)  # 27 + 5 = 32 of 30 today; 31 yesterday too
    mail.outbox.clear()
    totals = nightly_job(on=TODAY - timedelta(days=1), now=NOW)
    case.refresh_from_db()
    assert case.status == OverstepStatus.OPEN and case.used_days == 32  # today's figures, not yesterday's
    assert (totals["time_trouble_notices"], totals["reminders"], totals["stale_skipped"]) == (0, 0, 1)
    assert not [m for m in mail.outbox if not m.subject.startswith("Overstep case")]


def test_an_arbiter_who_plays_in_the_tournament_cannot_change_its_rules(api, arbiter, late, boris, frozen):
    game = pair(arbiter, late, arbiter, boris)  # allowed: the arbiter plays in their own tournament
    [case] = cases(game)
    r = api(arbiter).patch(f"/api/tournaments/{late.pk}/", {"ruleset": {"days_per_control": 60}}, format="json")
    assert r.status_code == 403 and "nobody arbitrates their own game" in r.json()["detail"]
    case.refresh_from_db()
    assert case.status == OverstepStatus.OPEN and late.days_per_control == 30


def test_a_correction_to_ordinary_mail_in_time_trouble_opens_a_mail_case(api, arbiter, late, anna, boris, frozen):
    game = pair(arbiter, late, anna, boris)
    move(api, anna, game, 1, sent=26, mail_by="registered")
    assert cases(game, kind=CaseKind.REGISTERED_MAIL) == []
    seq = GameEvent.objects.get(game=game, kind="move").seq
    r = api(arbiter).post(f"/api/games/{game.pk}/corrections/",
                          {"event": seq, "mail": "ordinary", "note": "the envelope was not registered"},
                          format="json")
    assert r.status_code == 201, r.json()
    [case] = cases(game, kind=CaseKind.REGISTERED_MAIL)
    assert (case.player, case.through_move, case.status) == ("white", 1, OverstepStatus.OPEN)


def test_the_record_kinds_of_the_pure_assembly_are_the_models(db):
    from corr.clock import assembly
    from corr.models import RECORD_KINDS

    assert assembly.RECORD_KINDS == {str(kind) for kind in RECORD_KINDS}


def test_an_event_locks_its_game_row_only(arbiter, late, anna, boris, frozen):
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from corr.games.services import game_lock

    game = pair(arbiter, late, anna, boris)
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        game_lock(game)
    [locking] = [q["sql"] for q in queries if "FOR UPDATE" in q["sql"]] or [""]
    if connection.vendor == "postgresql":
        # Not the tournament's row too: a rule change locks the tournament, then its games (deadlock).
        assert 'FOR UPDATE OF "corr_game"' in locking


def test_a_game_whose_stored_record_does_not_compute_says_so_on_its_page(arbiter, late, anna, boris, frozen):
    from django.test import Client

    game = pair(arbiter, late, anna, boris)
    GameEvent.objects.create(game=game, seq=99, kind="move", player="white", number=7, sent_on=S,
                             entered_by=arbiter)  # as a restore from a bad backup would
    client = Client()
    client.force_login(arbiter)
    r = client.get(f"/games/{game.pk}/")
    assert r.status_code == 409 and "does not compute" in r.content.decode()
