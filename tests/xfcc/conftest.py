"""XFCC requests as clients send them: Scid 4.7.4's form (no SOAPAction, default namespace) and the prefixed one."""

from __future__ import annotations

from xml.sax.saxutils import escape

import pytest

NS = "http://www.bennedik.com/webservices/XfccBasic"
SOAP_START = ('<?xml version="1.0" encoding="utf-8"?>\n\t<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-'
              'instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/'
              'envelope/">\n\t<soap:Body>\n\t')
SOAP_END = "</soap:Body>\n\t</soap:Envelope>"


def envelope(operation: str, params: dict, *, prefixed: bool = False) -> bytes:
    """A request body: Scid's (``<GetMyGames xmlns=...>``) or the prefixed form newer clients send."""
    if prefixed:
        inner = "".join(f"<x:{k}>{escape(str(v))}</x:{k}>" for k, v in params.items())
        return (f'<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/'
                f'envelope/"><s:Body><x:{operation} xmlns:x="{NS}">{inner}</x:{operation}></s:Body>'
                "</s:Envelope>").encode()
    inner = "".join(f"<{k}>{escape(str(v))}</{k}>" for k, v in params.items())
    return (SOAP_START + f'<{operation} xmlns="{NS}">{inner}</{operation}>' + SOAP_END).encode()


def move_params(username, password, game_id, movecount, move, **flags) -> dict:
    """MakeAMove's parameters in the order Scid writes them."""
    params = {"username": username, "password": password, "gameId": game_id, "resign": "false",
              "acceptDraw": "false", "movecount": movecount, "myMove": move, "offerDraw": "false",
              "claimDraw": "false", "myMessage": ""}
    params.update({k: v for k, v in flags.items()})
    return params


@pytest.fixture(autouse=True)
def xfcc_over_http(settings):
    # The test client speaks plain HTTP; that production refuses it is tested on its own.
    settings.XFCC_REQUIRE_HTTPS = False
