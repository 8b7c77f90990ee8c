"""A TCP proxy in front of a test's server that can lose one answer: the request served, its answer never delivered.

Everything (HTTP, the WebSocket) passes through unchanged, byte for byte, so the browser sees one origin. Armed with
:meth:`LossyProxy.lose_answer_to` and a marker (the start of a request line, ``b"POST /api/games/7/moves/"``), the next
request that carries the marker is forwarded to the server, and as soon as the server's answer comes back the
client's connection is closed without it: the write was done and committed, and the client got no answer (what the
probe of issue 42 saw when PostgreSQL stopped after a COMMIT). Test scaffolding only (STYLE.md 16).
"""

from __future__ import annotations

import socket
import threading


class LossyProxy:
    """Forward ``127.0.0.1:port`` to ``127.0.0.1:target``; see the module's docstring."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.marker: bytes | None = None
        self.watched: bytes | None = None
        self.clients: dict[socket.socket, str] = {}
        """Each client connection open, ``http`` or ``websocket`` (known from its first request)."""
        self.lost: list[bytes] = []
        """The answers lost, each its first bytes (the status line and headers)."""
        self.answers: list[bytes] = []
        """The first bytes of every answer delivered to a request that carried the last marker."""
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def lose_answer_to(self, marker: bytes, *, fresh: bool = False) -> None:
        """Lose the answer to the next request whose bytes contain ``marker``.

        ``fresh``: first close the kept-alive HTTP connections (not the WebSockets), so that the request goes on a
        new one: chromium re-sends at once a request whose reused connection closed before any answer (the server
        may have closed it as idle), and fails one sent on a new connection, which the page then sends again.
        """
        with self.lock:
            self.marker = marker
            self.watched = marker
            if fresh:
                for client in [c for c, kind in self.clients.items() if kind == "http"]:
                    _shut(client)

    def close(self) -> None:
        self.closing = True
        self.listener.close()

    def _accept(self) -> None:
        while not self.closing:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:  # the server is gone (the test is ending): the client is refused as it would be
                _shut(client)
                continue
            connection = {"lose": False, "watch": False}
            threading.Thread(target=self._requests, args=(client, upstream, connection), daemon=True).start()
            threading.Thread(target=self._answers, args=(upstream, client, connection), daemon=True).start()

    def _requests(self, client: socket.socket, upstream: socket.socket, connection: dict) -> None:
        """Client to server; marks the connection whose request carries the marker."""
        try:
            while data := client.recv(65536):
                with self.lock:
                    if client not in self.clients:
                        self.clients[client] = "websocket" if b"upgrade: websocket" in data.lower() else "http"
                    if self.marker is not None and self.marker in data:
                        self.marker = None
                        connection["lose"] = True
                    elif self.watched is not None and self.watched in data:
                        connection["watch"] = True
                upstream.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.clients.pop(client, None)
            _shut(upstream)

    def _answers(self, upstream: socket.socket, client: socket.socket, connection: dict) -> None:
        """Server to client; the answer to the marked request is dropped and the client's connection closed."""
        try:
            while data := upstream.recv(65536):
                if connection["lose"]:
                    with self.lock:
                        self.lost.append(data[:2000])
                    break
                if connection["watch"]:
                    connection["watch"] = False
                    with self.lock:
                        self.answers.append(data[:2000])
                client.sendall(data)
        except OSError:
            pass
        finally:
            _shut(client)
            _shut(upstream)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
