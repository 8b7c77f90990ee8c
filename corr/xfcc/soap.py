"""SOAP 1.1 envelopes of XfccBasic: reading requests, writing answers and faults (no Django).

Requests are parsed by ``defusedxml`` with DTDs forbidden: an XML bomb (entities expanding into
gigabytes), an external entity (a file or URL pulled into the document) or any DTD is refused
before it is expanded, as is a document that is not well-formed. The operation is the element
inside ``Body``, in :data:`corr.xfcc.NAMESPACE` under any prefix or none; ``SOAPAction`` is not
needed (Scid 4.7.4 sends none) and does not decide. Parameters are read by their local names.

Answers are written as ICCF's ASP.NET service writes them, because clients read them with regular
expressions as much as with parsers: Scid strips everything before ``<GetMyGamesResult>`` and
after ``</GetMyGamesResult>``, finds ``<soap:Fault>`` with that prefix, and takes the last ``">``
before ``<MakeAMoveResult>`` as the end of ``<MakeAMoveResponse xmlns="...">``. So the envelope's
prefix is ``soap``, the result elements carry no attribute, and no ``">`` follows the response's tag.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import ParseError
from xml.sax.saxutils import escape

import defusedxml.ElementTree as SafeTree
from defusedxml import DefusedXmlException

from . import NAMESPACE

ENVELOPE_NS = "http://schemas.xmlsoap.org/soap/envelope/"
OPERATIONS = frozenset({"GetMyGames", "MakeAMove"})

_HEAD = ('<?xml version="1.0" encoding="utf-8"?>'
         f'<soap:Envelope xmlns:soap="{ENVELOPE_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
         ' xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>')
_TAIL = "</soap:Body></soap:Envelope>"


class SoapFault(Exception):
    """A request answered by a SOAP fault: ``code`` (``Client``, ``Server``, ``VersionMismatch``), the
    ``text`` of ``faultstring`` and the HTTP ``status``; nothing was stored."""

    def __init__(self, text: str, *, status: int = 400, code: str = "Client", headers: dict | None = None):
        super().__init__(text)
        self.text, self.status, self.code, self.headers = text, status, code, headers or {}


@dataclass(frozen=True, slots=True)
class Call:
    """One request: its operation's local name and its parameters' texts by local name (the first of each)."""

    operation: str
    params: dict[str, str]

    def text(self, name: str, *, limit: int, required: bool = True) -> str:
        """A string parameter of at most ``limit`` characters. :raises SoapFault: missing or too long."""
        value = self.params.get(name)
        if value is None:
            if required:
                raise SoapFault(f"{self.operation}: {name} is missing")
            return ""
        if len(value) > limit:
            raise SoapFault(f"{self.operation}: {name} has more than {limit} characters")
        return value

    def number(self, name: str, *, low: int, high: int) -> int:
        """A whole number parameter in ``low..high``. :raises SoapFault: missing or not such a number."""
        text = self.text(name, limit=20).strip()
        if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
            raise SoapFault(f"{self.operation}: {name} must be a whole number {low}..{high}, got {text!r}")
        return int(text)

    def flag(self, name: str) -> bool:
        """An ``xsd:boolean`` parameter (``true``/``false``/``1``/``0``); absent is false."""
        text = self.params.get(name, "false").strip()
        if text not in ("true", "false", "1", "0"):
            raise SoapFault(f"{self.operation}: {name} must be true or false, got {text[:20]!r}")
        return text in ("true", "1")


def _local(tag: str) -> tuple[str, str]:
    """(namespace, local name) of an ElementTree tag ``{ns}name``."""
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return namespace, name
    return "", tag


def call_parse(body: bytes) -> Call:
    """The operation and parameters of a SOAP 1.1 request body.

    :raises SoapFault: not well-formed XML, an encoding that cannot be read, a DTD or entity (400), no SOAP 1.1
        envelope with a body (400, ``VersionMismatch`` for another envelope),
        an operation XfccBasic does not have (400).
    """
    try:
        root = SafeTree.fromstring(body, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as error:
        raise SoapFault(f"the request's XML is refused: {type(error).__name__} (no DTD or entity is accepted)")
    except LookupError as error:  # an XML declaration naming an encoding Python has no codec for (it was a 500)
        raise SoapFault(f"the request's XML declares an encoding that cannot be read: {str(error)[:100]}"
                        " (UTF-8 is expected)") from None
    except (ParseError, ValueError) as error:
        raise SoapFault(f"the request is not well-formed XML: {error}")
    namespace, name = _local(root.tag)
    if name != "Envelope":
        raise SoapFault("the request is no SOAP envelope")
    if namespace != ENVELOPE_NS:
        raise SoapFault(f"SOAP 1.1 envelopes only ({ENVELOPE_NS})", code="VersionMismatch")
    found = [child for child in root if _local(child.tag) == (ENVELOPE_NS, "Body")]
    if len(found) != 1:
        raise SoapFault("the envelope must have one Body")
    operations = list(found[0])
    if len(operations) != 1:
        raise SoapFault("the Body must hold one operation: GetMyGames or MakeAMove")
    namespace, operation = _local(operations[0].tag)
    if namespace != NAMESPACE or operation not in OPERATIONS:
        raise SoapFault(f"no operation {{{namespace}}}{operation}: XfccBasic has GetMyGames and MakeAMove"
                        f" in {NAMESPACE}")
    params: dict[str, str] = {}
    for child in operations[0]:
        params.setdefault(_local(child.tag)[1], child.text or "")
    return Call(operation=operation, params=params)


def _element(name: str, value: str) -> str:
    return f"<{name}>{escape(value)}</{name}>"


def games_answer(records: list[dict[str, str]]) -> bytes:
    """``GetMyGamesResponse`` with one ``XfccGame`` per record (fields in the record's order)."""
    games = "".join("<XfccGame>" + "".join(_element(k, v) for k, v in r.items()) + "</XfccGame>" for r in records)
    return (f'{_HEAD}<GetMyGamesResponse xmlns="{NAMESPACE}"><GetMyGamesResult>{games}</GetMyGamesResult>'
            f"</GetMyGamesResponse>{_TAIL}").encode()


def move_answer(result: str) -> bytes:
    """``MakeAMoveResponse`` with the ``MakeAMoveResult`` enum word (``Success``, ``NotYourTurn``...)."""
    return (f'{_HEAD}<MakeAMoveResponse xmlns="{NAMESPACE}">{_element("MakeAMoveResult", result)}'
            f"</MakeAMoveResponse>{_TAIL}").encode()


def fault_answer(fault: SoapFault) -> bytes:
    """A ``soap:Fault``: ``faultcode`` ``soap:<code>`` and ``faultstring`` the fault's text."""
    return (f"{_HEAD}<soap:Fault><faultcode>soap:{fault.code}</faultcode>{_element('faultstring', fault.text)}"
            f"<detail /></soap:Fault>{_TAIL}").encode()
