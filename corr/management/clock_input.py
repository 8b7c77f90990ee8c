"""Reading the game files of ``manage.py clock`` a few megabytes at a time (memory flat in the games).

A JSON list is cut into pieces at the ends of its items and each piece parsed by orjson (C speed):
only one piece's objects are alive at a time. A cut is placed by counting brackets, which a string
holding a bracket could mislead; a piece cut in the wrong place is never valid JSON (it ends inside
a string or an open object), so a piece that fails to parse is parsed again with everything that
follows it, whole. JSON Lines (``--jsonl``) has one game per line. Anything else (one game object)
is read whole. A file that is not valid JSON gets orjson's message for the whole file, as a whole
read gives: standard input is kept in a temporary file while it is read, for that message only.
"""

from __future__ import annotations

import re
import tempfile
from typing import IO, Any, Iterator

import orjson

BLOCK_BYTES = 1 << 22  # 4 MiB a read: a few hundred games of 130 events
_TAIL_BYTES = 1 << 18  # where the last cut is looked for first
_BRACKETS = re.compile(rb"[\[\]{}]")
_COMMA = re.compile(rb"\s*,")
_WHITESPACE = b" \t\r\n"


class InputError(Exception):
    """The input is not what it should be (unreadable, or not JSON); ``str()`` is the one line to print."""


class Source:
    """Blocks of a binary stream; with ``keep``, a copy of everything read, to re-read it whole."""

    def __init__(self, stream: IO[bytes], name: str, *, keep: bool) -> None:
        self.stream = stream
        self.name = name
        self.copy = tempfile.TemporaryFile() if keep else None

    def read(self) -> bytes:
        block = self.stream.read(BLOCK_BYTES)
        if self.copy is not None:
            self.copy.write(block)
        return block

    def whole(self) -> bytes:
        """Everything, from the first byte (for the whole-file error message)."""
        if self.copy is not None:
            while self.read():
                pass
            self.copy.seek(0)
            return self.copy.read()
        self.stream.seek(0)
        return self.stream.read()

    def json_error(self) -> InputError:
        """orjson's message for the whole input, as a whole read gives it."""
        try:
            orjson.loads(self.whole())
        except orjson.JSONDecodeError as error:
            return InputError(f"{self.name} is not valid JSON: {error}")
        return InputError(f"{self.name} is not valid JSON")  # pragma: no cover - callers saw it fail

    def close(self) -> None:
        if self.copy is not None:
            self.copy.close()


def read_input(source: Source, *, lines: bool = False) -> tuple[bool, Iterator[Any]]:
    """(is a list, the games in order). One object gives (False, an iterator of it alone).

    :raises InputError: when the input is not valid JSON, at the latest when the iterator reaches
        the place (a list's items before it are given first: the caller prints nothing until the end).
    """
    if lines:
        return True, _lines(source)
    first = source.read()
    start = len(first) - len(first.lstrip(_WHITESPACE))
    if first[start:start + 1] != b"[":
        rest = [first]
        while block := source.read():
            rest.append(block)
        try:
            return False, iter((orjson.loads(b"".join(rest)),))
        except orjson.JSONDecodeError as error:
            raise InputError(f"{source.name} is not valid JSON: {error}") from None
    return True, _items(source, first[start + 1:])


def _items(source: Source, buffer: bytes) -> Iterator[Any]:
    eof = False
    while True:
        while not eof and len(buffer) < BLOCK_BYTES:
            block = source.read()
            eof = not block
            buffer += block
        cut = None if eof else _last_cut(buffer)
        if cut is None:
            if not eof:  # one item longer than the buffer: read on
                block = source.read()
                eof = not block
                buffer += block
                continue
            try:  # the last piece holds the closing bracket
                items = orjson.loads(b"[" + buffer)
            except orjson.JSONDecodeError:
                raise source.json_error() from None
            yield from items
            return
        try:
            items = orjson.loads(b"[" + buffer[:cut] + b"]")
        except orjson.JSONDecodeError:
            # A bracket in a string misled the count, or the JSON is broken: read the rest whole.
            rest = [buffer]
            while block := source.read():
                rest.append(block)
            try:
                items = orjson.loads(b"[" + b"".join(rest))
            except orjson.JSONDecodeError:
                raise source.json_error() from None
            yield from items
            return
        yield from items
        buffer = buffer[_COMMA.match(buffer, cut).end():]


def _last_cut(buffer: bytes) -> int | None:
    """The end of the last whole item of ``buffer`` (the list's own bracket already read) followed by a comma."""
    tail = max(0, len(buffer) - _TAIL_BYTES)
    while True:
        head = buffer[:tail]
        depth = head.count(b"{") + head.count(b"[") - head.count(b"}") - head.count(b"]")
        cut = None
        for match in _BRACKETS.finditer(buffer, tail):
            depth += 1 if match.group() in (b"{", b"[") else -1
            if depth == 0 and _COMMA.match(buffer, match.end()):
                cut = match.end()
        if cut is not None or tail == 0:
            return cut
        tail = max(0, tail - 4 * _TAIL_BYTES)


def _lines(source: Source) -> Iterator[Any]:
    """JSON Lines: one game object a line; blank lines are skipped."""
    buffer = b""
    number = 0
    while True:
        block = source.read()
        buffer += block
        lines = buffer.split(b"\n")
        buffer = lines.pop() if block else b""
        for line in lines:
            number += 1
            if line.strip():
                try:
                    yield orjson.loads(line)
                except orjson.JSONDecodeError as error:
                    raise InputError(f"{source.name} line {number} is not valid JSON: {error}") from None
        if not block:
            return
