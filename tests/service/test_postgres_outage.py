"""PostgreSQL stopped under load (issue 42): every request answered within 2 s, no write lost, every move replayed.

A PostgreSQL cluster of the test's own (never the shared server), migrated and seeded with six live games; a Redis
of its own; gunicorn (``corr.wsgi``, 4 sync workers) and daphne (``corr.asgi``) serving it with the production
settings' defaults (``DB_POOL_TIMEOUT`` 1 s and the rest, docs/reliability.md). Six movers press as fast as they
are answered: two over HTTP on gunicorn, two over HTTP on daphne, each with an ``Idempotency-Key`` per move, and two
on daphne's WebSocket, each with a ``move_id`` per move; a client asks XFCC's ``GetMyGames`` in a loop. A move
answered 503, or not answered, is sent again with its key or id until it is answered, as the live page does.

Under load, PostgreSQL is stopped (``pg_ctl stop -m fast``, as ``systemctl stop``) for 6 s, then started again.
Every request that overlapped the outage was answered within 2 s (measured per request: a correctness bound, not a
benchmark), by its answer or by 503 with ``Retry-After`` (HTTP), a SOAP fault 503 (XFCC) or ``status`` 503 with
``retry_after`` (socket); no mover was refused (a 409 would be a committed move answered as failed, the probe's
finding); each game's moves on the API are exactly the moves answered 201; each move's key or id sent once more
replays its first answer (201, ``Idempotent-Replayed`` / ``"replayed": true``), so a move committed while its
answer was lost is replayed, not refused.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid

import pytest
import requests
import websockets

from ..support.seeded_cluster import production_db_env, seeded_cluster
from ..support.stack import Stack

pytestmark = [pytest.mark.postgres]

BOUND_S = 2.0
"""The issue's bound on any answer during the outage."""
OUTAGE_S = 6
GAMES = {"gunicorn": 2, "daphne": 2, "socket": 2}
XFCC_BODY = ('<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/'
             'envelope/"><soap:Body><GetMyGames xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>'
             'white0</username><password>wrong</password></GetMyGames></soap:Body></soap:Envelope>')


@pytest.fixture
def outage_stack(tmp_path):
    with seeded_cluster("outage", sum(GAMES.values())) as (postgres, url, games):
        stack = Stack(tmp_path, database=url, env={**production_db_env(), "XFCC_REQUIRE_HTTPS": "0"})
        try:
            for name in ("redis", "gunicorn", "daphne"):
                stack.start(name)
            yield postgres, stack, games
        finally:
            stack.stop_all()


class Log:
    """Every request of the run: (server, start, end, what was answered) in monotonic seconds."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, float, float, str]] = []
        self.refusals: list[str] = []
        self.lock = threading.Lock()

    def add(self, server: str, start: float, answer: str) -> None:
        with self.lock:
            self.requests.append((server, start, time.monotonic(), answer))


def http_mover(stack: Stack, server: str, game: dict, log: Log, stop: threading.Event) -> list[dict]:
    """Press in ``game`` over HTTP on ``server`` until ``stop``; each answered move's key and first 201 body."""
    moved = []
    number = {"white": 1, "black": 1}
    colour = "white"
    while not stop.is_set():
        key = str(uuid.uuid4())
        headers = {"Authorization": f"Token {game[colour]['token']}", "Idempotency-Key": key}
        body = {"number": number[colour], "notation": ""}
        while True:  # until answered: the same key each time
            start = time.monotonic()
            try:
                answer = requests.post(stack.url(f"/api/games/{game['id']}/moves/", server), json=body,
                                       headers=headers, timeout=10)
            except requests.RequestException as error:
                log.add(server, start, f"no answer: {type(error).__name__}")
                time.sleep(0.2)
                continue
            status = answer.status_code
            log.add(server, start, str(status) if status != 503 or answer.headers.get("Retry-After") else "503 bare")
            if status == 201:
                moved.append({"key": key, "headers": headers, "body": body, "answer": answer.json(),
                              "replayed": answer.headers.get("Idempotent-Replayed") == "true"})
                break
            if status < 500:
                log.refusals.append(f"{server} game {game['id']} {colour} {body}: {status} {answer.text[:200]}")
                return moved
            time.sleep(0.2)
        number[colour] += 1
        colour = "black" if colour == "white" else "white"
        time.sleep(0.05)
    return moved


async def socket_mover(stack: Stack, game: dict, log: Log, stop: threading.Event) -> list[dict]:
    """Press in ``game`` over daphne's WebSocket (each player on their own socket) until ``stop``."""
    url = stack.url(f"/ws/games/{game['id']}/live/").replace("http://", "ws://")
    sockets = {colour: await websockets.connect(url, additional_headers={"Origin": "http://127.0.0.1",
                                                                         "Cookie": game[colour]["cookie"]})
               for colour in ("white", "black")}
    moved = []
    number = {"white": 1, "black": 1}
    colour = "white"
    sent = 0
    try:
        while not stop.is_set():
            move_id = str(uuid.uuid4())
            while True:
                sent += 1
                message = {"type": "move", "id": sent, "move_id": move_id, "number": number[colour], "notation": ""}
                start = time.monotonic()
                await sockets[colour].send(json.dumps(message))
                answer = await answer_to(sockets[colour], sent)
                status = answer["status"]
                log.add("socket", start, str(status) if status != 503 or answer.get("retry_after") else "503 bare")
                if status == 201:
                    moved.append({"move_id": move_id, "message": message, "colour": colour, "answer": answer})
                    break
                if status < 500:
                    log.refusals.append(f"socket game {game['id']} {colour} {message}: {answer}")
                    return moved
                await asyncio.sleep(0.2)
            number[colour] += 1
            colour = "black" if colour == "white" else "white"
            await asyncio.sleep(0.05)
        # Every answered move's id once more: its first answer again, nothing made.
        for move in moved:
            sent += 1
            await sockets[move["colour"]].send(json.dumps({**move["message"], "id": sent}))
            move["again"] = await answer_to(sockets[move["colour"]], sent)
    finally:
        for socket in sockets.values():
            await socket.close()
    return moved


async def answer_to(socket, message_id: int) -> dict:
    """The answer to the move message ``message_id`` (the pushes on the way skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
        if message.get("type") == "move" and message.get("id") == message_id:
            return message


def xfcc_client(stack: Stack, log: Log, stop: threading.Event) -> None:
    while not stop.is_set():
        start = time.monotonic()
        try:
            answer = requests.post(stack.url("/xfcc/xfccbasic.asmx", "gunicorn"), data=XFCC_BODY, timeout=10,
                                   headers={"Content-Type": "text/xml; charset=utf-8"})
            fault = b"<soap:Fault>" in answer.content
            shown = f"{answer.status_code} {'fault' if fault else 'no fault'}"
            if answer.status_code == 503 and not answer.headers.get("Retry-After"):
                shown += " bare"
            log.add("xfcc", start, shown)
        except requests.RequestException as error:
            log.add("xfcc", start, f"no answer: {type(error).__name__}")
        time.sleep(0.2)


def test_postgresql_stopped_under_load_answers_every_request_within_2_s_and_loses_no_move(outage_stack):
    postgres, stack, games = outage_stack
    log = Log()
    stop = threading.Event()
    results: dict[str, list[dict]] = {}
    threads = []
    queue = iter(games)
    for server in ("gunicorn", "daphne"):
        for _ in range(GAMES[server]):
            game = next(queue)
            threads.append(threading.Thread(target=lambda s=server, g=game: results.__setitem__(
                f"{s} {g['id']}", http_mover(stack, s, g, log, stop))))
    socket_games = [next(queue) for _ in range(GAMES["socket"])]

    async def sockets() -> None:
        moved = await asyncio.gather(*(socket_mover(stack, game, log, stop) for game in socket_games))
        for game, moves in zip(socket_games, moved, strict=True):
            results[f"socket {game['id']}"] = moves

    threads.append(threading.Thread(target=lambda: asyncio.run(sockets())))
    threads.append(threading.Thread(target=xfcc_client, args=(stack, log, stop)))
    for thread in threads:
        thread.start()
    time.sleep(3)
    stopped_at = time.monotonic()
    postgres.stop()
    time.sleep(OUTAGE_S)
    postgres.start()
    started_at = time.monotonic()
    # Until every mover has made a move after the return (the pools reconnect with a backoff of 1, 2, 4 s...).
    deadline = started_at + 60
    while time.monotonic() < deadline and not log.refusals:
        with log.lock:
            back = {server for server, start, _, answer in log.requests if start > started_at and answer == "201"}
        if back >= {"gunicorn", "daphne", "socket"}:
            break
        time.sleep(0.5)
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)

    assert log.refusals == [], log.refusals
    during = [r for r in log.requests if r[1] < started_at and r[2] > stopped_at]
    # Each slow answer with its start and end against the stop and the start's return, to tell a wait on the pool
    # from one on the machine.
    slow = [(server, answer, f"{end - start:.3f} s from stop+{start - stopped_at:.3f} to start+{end - started_at:.3f}")
            for server, start, end, answer in during if end - start >= BOUND_S]
    answers = {answer for _, _, _, answer in during}
    print(f"\n{len(log.requests)} requests, {len(during)} overlapping the {OUTAGE_S} s outage; answers {answers};"
          f" longest {max(end - start for _, start, end, _ in during):.3f} s")
    assert slow == [], slow
    assert {server for server, *_ in during} == {"gunicorn", "daphne", "socket", "xfcc"}
    # During the outage: 503 with Retry-After, or the answer of what was done before the stop; XFCC always a SOAP
    # fault (its wrong password's before the stop, 503 with Retry-After after).
    assert {answer for server, _, _, answer in during if server != "xfcc"} <= {"201", "503"}, answers
    xfcc = {answer for server, _, _, answer in during if server == "xfcc"}
    assert all(answer.endswith(" fault") for answer in xfcc) and "503 fault" in xfcc, xfcc
    assert "503" in answers

    moves = {key: moved for key, moved in results.items()}
    assert len(moves) == sum(GAMES.values()), moves.keys()
    replays_after_503 = 0
    for key, moved in moves.items():
        assert moved, f"{key}: no move answered"
        game_id = int(key.split()[1])
        game = next(g for g in games if g["id"] == game_id)
        read = requests.get(stack.url(f"/api/games/{game_id}/"), timeout=10,
                            headers={"Authorization": f"Token {game['white']['token']}"})
        live = read.json()["live"]
        # No write lost, none doubled: the moves the game shows are the moves answered 201.
        made = sum(player["moves_made"] for player in live["players"].values())
        assert made == len(moved), (key, made, len(moved))
        for move in moved:
            if key.startswith("socket"):
                again = move["again"]
                assert again["status"] == 201 and again.get("replayed") is True, again
                assert again["live"] == move["answer"]["live"]
                replays_after_503 += bool(move["answer"].get("replayed"))
            else:
                server = key.split()[0]
                again = requests.post(stack.url(f"/api/games/{game_id}/moves/", server), json=move["body"],
                                      headers=move["headers"], timeout=10)
                assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true", again.text
                assert again.json() == move["answer"]
                replays_after_503 += move["replayed"]
    print(f"moves: {sum(len(m) for m in moves.values())}, of which {replays_after_503} committed while their answer"
          " was lost and replayed on the retry")
