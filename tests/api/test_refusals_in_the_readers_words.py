"""The calculator's refusals reach people in their language and their words (issue 25, findings 4 and 6).

The calculator refuses with a code and parameters (``corr.clock.errors``); the service says it in the
language of the request (``Accept-Language``, else the user's ``language``), naming the history's # of the
event at fault (not the calculator's index of it), the player by name, dates as the pages write them, the
rule by its rulebook, and what to do next (``corr.games.clock_messages``). The postal cup starts on
2026-01-10 and presumes 4 days of transit; today is 2026-03-01.
"""

from __future__ import annotations

import re

import pytest

from corr.clock.errors import MESSAGES as CALCULATOR_MESSAGES
from corr.games.clock_messages import HINTS, MESSAGES
from corr.models import GameEvent

from ..conftest import seq_of

pytestmark = pytest.mark.django_db


def post(client, game, action, language=None, **data):
    extra = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return client.post(f"/api/games/{game.pk}/{action}/", data, format="json", **extra)


@pytest.fixture
def answered(api, postal_game, anna, boris):
    assert post(api(anna), postal_game, "moves", number=1, sent_on="2026-01-12").status_code == 201
    assert post(api(boris), postal_game, "moves", number=1, received_on="2026-01-16",
                sent_on="2026-01-18").status_code == 201
    return postal_game


@pytest.mark.parametrize("language, detail", [
    ("ru", "Дата отправки 18.01.2026 раньше даты получения 20.01.2026. Укажите дату отправки не раньше даты"
           " получения."),
    ("fr", "La date d'envoi 18/01/2026 est antérieure à la date de réception 20/01/2026. Indiquez une date d'envoi"
           " égale ou postérieure à la date de réception."),
    ("en", "The sent date 2026-01-18 is before the received date 2026-01-20. Enter a sent date on or after the"
           " received date."),
])
def test_a_refusal_of_the_calculator_answers_in_the_requests_language_and_names_the_field(api, answered, anna,
                                                                                         language, detail):
    r = post(api(anna), answered, "moves", language, number=2, received_on="2026-01-20", sent_on="2026-01-18")
    assert (r.status_code, r.json()) == (400, {"detail": detail, "field": "sent_on"})


def test_without_accept_language_the_refusal_speaks_the_users_language(api, answered, anna):
    anna.language = "fr"
    anna.save(update_fields=["language"])
    r = post(api(anna), answered, "moves", number=2, received_on="2026-01-20", sent_on="2026-01-18")
    assert r.json()["detail"].startswith("La date d'envoi 18/01/2026 est antérieure")


@pytest.mark.parametrize("language, words", [
    ("ru", "ruleset.time_control.initial должно быть не меньше 1, получено 0."),
    ("fr", "ruleset.time_control.initial doit valoir au moins 1, reçu 0."),
])
def test_a_ruleset_the_calculator_refuses_is_answered_in_the_language(api, arbiter, language, words):
    r = api(arbiter).post("/api/tournaments/", {"name": "Cup", "official_start": "2026-01-01", "mode": "postal",
                                                "ruleset": {"time_control": {"system": "fischer", "initial": 0,
                                                                             "increment": 1}}},
                          format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert (r.status_code, r.json()) == (400, {"detail": words, "field": "ruleset.time_control.initial"})


def test_the_refusal_names_the_historys_number_not_the_calculators_index(api, answered, arbiter, anna, boris):
    # A correction and a record line stand between the calculator's events and the history's numbers:
    # anna's move 1 (#1) corrected by #3; boris's move 1 is #2; a result reopened adds record lines.
    assert post(api(arbiter), answered, "corrections", event=1, notation="d4", note="postcard").status_code == 201
    assert post(api(arbiter), answered, "result", result="1-0").status_code == 201
    assert post(api(arbiter), answered, "reopen", note="entered by mistake", overstep="keep").status_code == 201
    assert post(api(anna), answered, "moves", number=2, received_on="2026-01-22", sent_on="2026-01-25").status_code \
        == 201
    anna_2 = seq_of(answered, "move", "white", number=2)
    r = post(api(boris), answered, "moves", number=2, received_on="2026-01-24", sent_on="2026-01-28")
    detail = r.json()["detail"]
    # The calculator's index of anna's move 2 is 2 (moves 1, 1, 2); the history's record lines come between.
    assert anna_2 > 3
    assert f"(#{anna_2}, anna's move 2)" in detail and "event 2" not in detail, detail
    assert detail.endswith(f"if that move's date is wrong, an arbiter corrects #{anna_2}."), detail
    assert r.json()["field"] == "received_on"


def test_a_penalty_charged_to_the_next_move_that_blocks_a_notice_is_named_with_what_to_do(api, answered, arbiter,
                                                                                          anna):
    # Boris's penalty is charged to his next move, 2; anna's notice voids his move 1 (50.4.7): his next move is 1
    # again, and the penalty's move 2 no longer lies within his moves.
    assert post(api(arbiter), answered, "penalties", player="black", reason="address_error").status_code == 201
    penalty = GameEvent.objects.get(game=answered, kind="penalty")
    assert penalty.number == 2
    r = post(api(anna), answered, "notices", reason="impossible_move", received_on="2026-01-22",
             sent_on="2026-01-23")
    assert r.status_code == 400
    detail = r.json()["detail"]
    assert detail == (f"With this entry, #{penalty.seq}, boris's penalty charged to move 2 would no longer hold: the"
                      " move charged, 2, must lie between 1 and 1 (the moves boris has made, plus 1). Correct or"
                      f" withdraw #{penalty.seq} first (an arbiter, from its line of the history), then enter this"
                      " again."), detail
    ru = post(api(anna), answered, "notices", "ru", reason="impossible_move", received_on="2026-01-22",
              sent_on="2026-01-23").json()["detail"]
    assert ru.startswith(f"С этой записью перестала бы быть верной запись №{penalty.seq}, штраф игрока boris (к ходу"
                         " 2): ход начисления, 2, должен быть от 1 до 1"), ru
    assert ru.endswith(f"Сначала исправьте или отзовите №{penalty.seq} (это делает арбитр, в строке истории), затем"
                       " введите это снова."), ru


def test_every_code_of_the_calculator_has_the_services_words_with_no_placeholder_it_lacks():
    assert set(MESSAGES) == set(CALCULATOR_MESSAGES)
    derived = {"event_seq", "rule_50_4_4", "rule_50_4_6", "rule_50_4_8", "rule_6_2"}
    for code, words in {**MESSAGES, **{f"hint {k}": v for k, v in HINTS.items()}}.items():
        calculator = CALCULATOR_MESSAGES[code.removeprefix("hint ")]
        given = set(re.findall(r"%\((\w+)\)s", calculator)) | {"field"} | derived
        if code.removeprefix("hint ") in ("before_dispatch", "answers_again", "second_pending_move",
                                          "pending_move_not_last"):
            given |= {"event"}
        assert set(re.findall(r"%\((\w+)\)s", str(words))) <= given | _params_of(code), code


def _params_of(code: str) -> set[str]:
    """The parameters a refusal carries beyond its English words (the player an event concerns)."""
    return {"player"} if code.removeprefix("hint ") in ("notice_after_as_of", "start_after_last_date",
                                                          "received_required", "void_unsent",
                                                          "before_dispatch") else set()


def test_every_refusal_a_person_causes_has_a_code():
    """The calculator's raise sites build their errors from a code (``clock_error``, ``event_error``,
    ``ruleset_error``) but for the few a person cannot cause from the pages or the API: a game file's own
    format (``manage.py clock``), the live engine's (issue 24), a type the parser never makes."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "corr" / "clock"
    uncoded = {}
    for path in sorted(root.rglob("*.py")):
        if path.name in ("errors.py", "gamefile.py", "batch.py") or "live" in path.parts:
            continue
        for line in path.read_text().splitlines():
            if re.search(r"raise (ClockError|EventError|RulesetError)\(", line):
                uncoded.setdefault(path.name, []).append(line.strip())
    assert uncoded == {"charging.py": ['raise EventError(index, str(event.type), "unknown event type", field="type")'],
                       "rules.py": ["raise RulesetError(error.message, field=error.field, code=error.code,"
                                    " params=error.params) from None"]}
