"""Live sockets follow the session (issue 38): a logout, a password change or a reset closes the sockets it
signed in, and a move sent on one is refused with the HTTP endpoint's 401 body, nothing stored.

Through the real ASGI application (corr.asgi) and the real views: the logout page and the admin's password page.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.forms import SetPasswordForm
from django.test import Client
from rest_framework.test import APIClient

from corr.live import sessions
from corr.live.consumers import CLOSE_UNAUTHENTICATED
from corr.models import LiveEvent, LiveEventKind

pytestmark = pytest.mark.django_db(transaction=True)

MOVE = {"type": "move", "id": "m1", "number": 1, "notation": "e4"}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def socket_of(game, client: Client) -> WebsocketCommunicator:
    """A WebSocket to ``game``'s live page signed in by ``client``'s session cookie."""
    from corr.asgi import application

    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/live/",
                                 headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"),
                                          (b"cookie", cookie)])


def moves_stored(game) -> int:
    return LiveEvent.objects.filter(game=game, kind=LiveEventKind.MOVE).count()


def signed_out_body(game) -> tuple[int, dict]:
    """What POST /api/games/{id}/moves/ answers without credentials."""
    r = APIClient().post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"}, format="json")
    return r.status_code, r.json()


def after(game, client: Client, end, *, others: tuple[Client, ...] = ()) -> dict:
    """Open ``game``'s socket signed in by ``client`` (and one by each of ``others``), run ``end()`` (a sync call:
    the logout, the password change), then send a move on the first; what each socket received."""
    ws, rest = socket_of(game, client), [socket_of(game, other) for other in others]

    async def scenario():
        for each in (ws, *rest):
            assert (await each.connect(timeout=10))[0]
            await each.receive_json_from(timeout=10)  # the state on connecting
        await sync_to_async(end)()
        closed = await ws.receive_output(timeout=10)
        await ws.send_json_to(MOVE)
        answer = await ws.receive_json_from(timeout=10)
        still_open = [await other.receive_nothing(timeout=0.3) for other in rest]
        for each in (ws, *rest):
            await each.disconnect()
        return {"closed": closed, "answer": answer, "still_open": still_open}

    return async_to_sync(scenario)()


def assert_closed_and_refused(got: dict, game) -> None:
    assert got["closed"] == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}
    status, body = signed_out_body(game)
    assert status == 401
    assert got["answer"] == {"type": "move", "id": "m1", "status": 401, **body}
    assert moves_stored(game) == 0


def test_a_logout_closes_the_sockets_of_its_session_and_refuses_their_moves(live_game, anna):
    browser = signed_in(anna)
    got = after(live_game, browser, lambda: browser.post("/logout/"), others=(signed_in(anna),))
    assert_closed_and_refused(got, live_game)
    # Her other browser's session still signs her in: its socket stays open (Django's logout ends one session).
    assert got["still_open"] == [True]


def set_password_and_save(user, client: Client) -> None:
    user.set_password("anna-pass-2")
    user.save()


def password_reset_form(user, client: Client) -> None:
    # The form of Django's PasswordResetConfirmView (the page a reset e-mail's link opens).
    form = SetPasswordForm(user, {"new_password1": "Fresh-pass-2026", "new_password2": "Fresh-pass-2026"})
    assert form.is_valid(), form.errors
    form.save()


@pytest.mark.parametrize("change", [set_password_and_save, password_reset_form])
def test_a_password_change_closes_every_socket_of_the_user_and_refuses_their_moves(live_game, anna, boris, change):
    browser = signed_in(anna)
    got = after(live_game, browser, lambda: change(anna, browser), others=(signed_in(anna), signed_in(boris)))
    assert_closed_and_refused(got, live_game)
    assert got["still_open"] == [False, True]  # her other session's socket closed too; boris's did not


def test_a_password_changed_in_the_admin_closes_the_users_sockets(live_game, anna, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "root-pass-1")
    staff = signed_in(admin)

    def change():
        r = staff.post(f"/admin/accounts/user/{anna.pk}/password/",
                       {"password1": "Admin-set-2026", "password2": "Admin-set-2026", "usable_password": "true"})
        assert r.status_code == 302, r.content[:500]

    assert_closed_and_refused(after(live_game, signed_in(anna), change), live_game)


def test_a_lost_message_is_caught_by_the_next_refresh_and_the_move_after_it_refused(live_game, anna, monkeypatch):
    """The message to the sockets lost (Redis down): the page's refresh checks the session, closes, and refuses.

    The press reads no session (it stays two round trips, issue 27): a move sent before that refresh would be
    taken, as an HTTP request made with the session before the logout was."""
    monkeypatch.setattr(sessions, "sessions_ended", lambda **kwargs: None)
    browser = signed_in(anna)
    ws = socket_of(live_game, browser)

    async def scenario():
        assert (await ws.connect(timeout=10))[0]
        await ws.receive_json_from(timeout=10)
        await sync_to_async(browser.post)("/logout/")
        assert await ws.receive_nothing(timeout=0.3)  # not told
        await ws.send_json_to({"type": "refresh"})
        closed = await ws.receive_output(timeout=10)
        await ws.send_json_to(MOVE)
        answer = await ws.receive_json_from(timeout=10)
        await ws.disconnect()
        return answer, closed

    answer, closed = async_to_sync(scenario)()
    status, body = signed_out_body(live_game)
    assert closed == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}
    assert answer == {"type": "move", "id": "m1", "status": status, **body}
    assert moves_stored(live_game) == 0


def test_a_refresh_on_an_ended_session_closes_the_socket(live_game, anna, boris, monkeypatch):
    monkeypatch.setattr(sessions, "sessions_ended", lambda **kwargs: None)
    ws = socket_of(live_game, signed_in(anna))

    async def scenario():
        assert (await ws.connect(timeout=10))[0]
        await ws.receive_json_from(timeout=10)
        await sync_to_async(set_password_and_save)(anna, None)
        await ws.send_json_to({"type": "refresh"})
        closed = await ws.receive_output(timeout=10)
        await ws.disconnect()
        return closed

    assert async_to_sync(scenario)() == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}


def test_another_users_password_change_leaves_the_socket_open(live_game, anna, boris):
    got = after(live_game, signed_in(boris), lambda: set_password_and_save(boris, None), others=(signed_in(anna),))
    assert got["closed"] == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}
    assert got["still_open"] == [True]


def test_a_password_reset_through_the_emails_link_closes_the_users_sockets(live_game, anna, smtp, settings):
    """The whole reset of issue 38: the request page, the e-mail as delivered, its link, the new password."""
    from tests.support.smtp import link_in

    def reset():
        stranger = Client()
        stranger.post("/password-reset/", {"email": anna.email})
        page = stranger.get(link_in(smtp.last_to(anna.email), settings.SITE_URL), follow=True)
        done = stranger.post(page.redirect_chain[-1][0], {"new_password1": "Fresh-pass-2026",
                                                          "new_password2": "Fresh-pass-2026"})
        assert done.status_code == 302, done.content[:500]

    assert_closed_and_refused(after(live_game, signed_in(anna), reset), live_game)
