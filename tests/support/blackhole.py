"""A TCP server that accepts connections and never answers: a Redis that hangs (issue 23).

A client connected to it waits for a reply that never comes until its own timeout, so whatever
waits on it shows: an answer that arrives while the black hole still holds the connection did not
wait for it. ``close()`` drops every connection (the waiting client fails at once) and stops; so does a timer
after ``close_after_seconds``, so that code which does wait on it fails a test instead of hanging it.
"""

from __future__ import annotations

import socket
import threading


class BlackHole:
    def __init__(self, close_after_seconds: float = 60) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.connected = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()
        self._deadman = threading.Timer(close_after_seconds, self.close)
        self._deadman.daemon = True
        self._deadman.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted.append(conn)
            self.connected.set()

    def close(self) -> None:
        self._deadman.cancel()
        self.server.close()
        for conn in self.accepted:
            conn.close()
