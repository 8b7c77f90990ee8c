"""The live game page as served (the countdown itself runs in the browser: tests/browser/test_live_page.py)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from corr.live.state import live_payload
from corr.templatetags.corr_live import clock_ms, instant_ms, seconds_signed
from tests.i18n.test_languages import visible_text

pytestmark = pytest.mark.django_db


def page(user, game) -> tuple[str, dict]:
    client = Client()
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('<script id="live-config" type="application/json">') + len(
        '<script id="live-config" type="application/json">')
    return html, json.loads(html[start:html.index("</script>", start)])


def test_the_player_to_move_sees_both_clocks_the_move_button_and_the_speech_switches(live_game, anna):
    html, config = page(anna, live_game)
    payload = live_payload(live_game)
    assert config["payload"] == {**payload, "termination_text": None}  # the page's words beside the API's fields
    assert config["colour"] == "white" and not config["ruling"]
    assert config["socket_path"] == f"/ws/games/{live_game.pk}/live/"
    assert config["urls"]["moves"] == f"/api/games/{live_game.pk}/moves/"
    assert config["countdown_s"] == [15, 10, 5, 4, 3, 2, 1] and config["warning_s"] == {"blind": 600, "low": 300}
    assert config["vision"] == {"white": ""}  # the viewer's own only
    white = clock_ms(payload["players"]["white"]["remaining_ms"])
    assert 'id="clock-white" data-side="white"' in html and f">{white}</div>" in html
    assert 'class="live-clock running" id="clock-white"' in html and 'class="live-clock" id="clock-black"' in html
    assert 'id="move-made" class="move-made">' in html  # enabled: white's clock runs
    assert 'id="speak-white"' in html and 'id="speak-black"' in html
    assert 'id="live-pause"' not in html  # a player has no arbiter controls
    assert "/static/corr/live.js" in html


def test_the_partner_waits_with_the_button_disabled(live_game, boris):
    html, config = page(boris, live_game)
    assert config["colour"] == "black"
    assert 'id="move-made" class="move-made" disabled>' in html


def test_the_arbiter_has_pause_resume_adjust_illegal_move_and_result_and_no_move_button(live_game, arbiter):
    html, config = page(arbiter, live_game)
    assert config["ruling"] and config["colour"] is None
    for control in ("live-pause", "live-resume", "live-adjust-form", "live-illegal-form", "live-result-form"):
        assert f'id="{control}"' in html, control
    assert 'id="move-made"' not in html
    assert config["urls"] | {} == {
        "game": f"/api/games/{live_game.pk}/", "moves": f"/api/games/{live_game.pk}/moves/",
        "pause": f"/api/games/{live_game.pk}/pause/", "resume": f"/api/games/{live_game.pk}/resume/",
        "adjust": f"/api/games/{live_game.pk}/time-adjustments/",
        "illegal": f"/api/games/{live_game.pk}/illegal-moves/", "result": f"/api/games/{live_game.pk}/result/",
        "excuse": f"/api/games/{live_game.pk}/late-arrival-excuses/", "stop": f"/api/games/{live_game.pk}/live/stop/",
        "call": f"/api/games/{live_game.pk}/live/call-arbiter/", "ruling": f"/api/games/{live_game.pk}/live/ruling/",
        "me": "/api/users/me/", "reopen": f"/api/games/{live_game.pk}/reopen/"}
    assert 'id="live-reopen-form" data-action="reopen" hidden' in html  # an ongoing game: nothing to reopen
    assert 'id="live-ruling-form" data-action="ruling" hidden' in html  # no player's stop awaits a ruling
    assert 'id="live-stop"' not in html and 'id="live-call"' not in html


def test_the_players_have_the_stop_and_call_buttons_with_their_rules(live_game, anna, boris):
    for player in (anna, boris):
        html, config = page(player, live_game)
        assert 'id="live-stop" class="danger">' in html and 'id="live-call" class="secondary">' in html
        # A chess game explains chess's rules only (issue 39): by rulebook, no Go nor draughts article.
        assert "FIDE Laws 6.12" in html and "Go rules" not in html and "draughts" not in html
        assert "byo-yomi" not in "\n".join(visible_text(html, "en"))  # live.js's words for a Go clock aside
        # Resigning stands apart from the arbiter's call: its own box, after it, asked to be confirmed.
        call, resign = html.index('id="live-call"'), html.index('id="live-resign"')
        assert call < html.index('id="live-vision"') < resign < html.index('id="live-stop"')
        assert "You are asked to confirm first." in html
        assert config["urls"]["stop"].endswith("/live/stop/") and not config["stop_claims_draw"]
        assert 'id="live-confirm"' in html and 'id="live-ruling-form"' not in html


def test_a_pending_stop_shows_the_arbiter_its_ruling_box(live_game, arbiter, boris):
    from tests.conftest import client_for

    assert client_for(boris).post(f"/api/games/{live_game.pk}/live/call-arbiter/", {}, format="json").status_code == 201
    html, config = page(arbiter, live_game)
    assert 'id="live-ruling-form" data-action="ruling">' in html
    assert config["payload"]["player_stop"]["rulings"] == ["justified", "warning", "penalty"]
    for ruling in ("justified", "warning", "penalty", "draw", "resignation"):
        assert f'data-ruling="{ruling}"' in html


def test_a_players_vision_is_set_on_the_profile_and_owed_warnings_show_to_the_arbiter(live_game, arbiter, anna,
                                                                                      boris):
    from tests.conftest import client_for

    r = client_for(anna).patch("/api/users/me/", {"vision": "blind"}, format="json")
    assert r.status_code == 200 and r.json()["vision"] == "blind"
    assert client_for(anna).get("/api/users/me/").json()["vision"] == "blind"
    assert client_for(anna).patch("/api/users/me/", {"vision": "short"}, format="json").status_code == 400
    client_for(boris).patch("/api/users/me/", {"vision": "low"}, format="json")
    html, config = page(anna, live_game)
    assert config["vision"] == {"white": "blind"}  # anna's page knows her own sight, not boris's
    assert 'id="live-vision"' in html and '<option value="blind" selected>' in html
    html, config = page(boris, live_game)
    assert config["vision"] == {"black": "low"}
    html, config = page(arbiter, live_game)
    assert config["vision"] == {"white": "blind", "black": "low"}
    assert 'id="owed-white" data-side="white" data-minutes="10"' in html
    assert 'id="owed-black" data-side="black" data-minutes="5"' in html
    assert "white (anna), totally blind: at 10 minutes to the control, and at the fall of the opponent's flag" in html


def test_the_late_arrival_excuse_is_an_arbiters_control_only(live_game, arbiter, anna, boris):
    html, config = page(arbiter, live_game)
    assert 'id="live-excuse-form"' in html and 'id="live-excuse"' in html and 'id="excuse-reason"' in html
    for player in (anna, boris):
        html, config = page(player, live_game)
        assert 'id="live-excuse' not in html and not config["ruling"]


def test_a_stranger_gets_403(live_game, eve):
    client = Client()
    client.force_login(eve)
    assert client.get(f"/games/{live_game.pk}/").status_code == 403


def test_the_page_in_russian_and_french(live_game, anna):
    client = Client()
    client.force_login(anna)
    for language, words in (("ru", ("Ход сделан", "озвучивать")), ("fr", ("Coup joué", "annoncer"))):
        html = client.get(f"/games/{live_game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert all(w in html for w in words), language


def test_the_script_is_served():
    response = Client().get("/static/corr/live.js")
    assert response.status_code == 200
    assert b"speechSynthesis" in b"".join(response.streaming_content if response.streaming else [response.content])


@pytest.mark.parametrize("ms, shown", [(0, "0.0"), (-5, "0.0"), (9_999, "9.9"), (10_000, "0:10"), (299_999, "4:59"),
                                       (3_600_000, "1:00:00"), (3_909_000, "1:05:09")])
def test_clock_figures_round_down_as_the_countdown_does(ms, shown):
    assert clock_ms(ms) == shown


def test_history_figures():
    assert seconds_signed(120_000) == "+120 s" and seconds_signed(-30_500) == "-30.5 s"
    with translation.override("en"):
        assert instant_ms(1_796_032_800_250) == "2026-11-30 10:00:00.2"
    with translation.override("ru"):  # the date as the page writes dates (issue 39)
        assert instant_ms(1_796_032_800_250) == "30.11.2026 10:00:00.2"
    with translation.override("fr"):
        assert instant_ms(1_796_032_800_250) == "30/11/2026 10:00:00.2"


@pytest.mark.parametrize("language, mode, status", [("ru", "(живая игра)", "в эфире"),
                                                    ("fr", "(en direct)", "en direct")])
def test_the_live_mode_and_the_connection_s_status_are_each_their_own_word(live_game, anna, language, mode,
                                                                           status):
    """My games names a live game's mode "живая игра", as the tournament page does; "в эфире" (on air) is the page's
    connection status only (the browser walk of 2026-12-06 read "Live blitz (в эфире)")."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(anna)
    assert f"Live blitz {mode}" in client.get("/games/").content.decode()
    with translation.override(language):
        from corr.web.live_page import live_words

        assert live_words()["live"] == status
