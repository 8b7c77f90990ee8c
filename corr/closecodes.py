"""daphne sends the close codes a server may send by RFC 6455 7.4.1 (1003, 1007, 1009) and IANA's registry (1013),
not only 1000 and 3000-4999.

daphne closes a socket through autobahn's ``sendClose``, which takes only the codes a browser's script may send
(1000 and 3000-4999, the WebSocket API's rule for ``close()``) and raises on any other: the live socket's refusal of
a binary frame (1003), of text that is not JSON (1007) or of a frame too big (1009, :mod:`corr.live.frames`) became
an exception in daphne, a traceback in its log and a close 1011. The protocol allows an endpoint these three codes
(7.4.1: "a type of data it cannot accept", "data ... not consistent with the type of the message", "a message that
is too big for it to process"); autobahn sends them itself for its own protocol errors, through ``sendCloseFrame``,
the same call ``sendClose`` makes once it has checked the code. 1013, "try again later" (a temporary condition:
:mod:`corr.live.unavailable`, a socket opened while the database is down) is in IANA's WebSocket close code registry
for a server to send. Other ASGI servers (uvicorn) send them as asked.

And a frame autobahn refuses itself (text that is not UTF-8) is closed with its code (1007), not dropped without one
(``failByDrop``).
"""

from __future__ import annotations

ENDPOINT_CODES = frozenset({1003, 1007, 1009, 1013})


def daphne_sends_endpoint_codes() -> None:
    """Let daphne's socket protocol send :data:`ENDPOINT_CODES` (idempotent; nothing to do without daphne)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return
    if getattr(WebSocketProtocol.serverClose, "endpoint_codes", False):
        return
    checked = WebSocketProtocol.serverClose

    def serverClose(self, code=None):  # noqa: N802 - daphne's name
        if code in ENDPOINT_CODES:
            self.sendCloseFrame(code=code, isReply=False)
            return
        checked(self, code)

    connected = WebSocketProtocol.onConnect

    def onConnect(self, request):  # noqa: N802 - daphne's name
        # autobahn fails a connection (text that is not UTF-8: 1007) by dropping it unless told otherwise: the
        # client then reads no code at all.
        self.failByDrop = False
        return connected(self, request)

    serverClose.endpoint_codes = True
    WebSocketProtocol.serverClose = serverClose
    WebSocketProtocol.onConnect = onConnect
