"""The one reader of JSON documents: every input file or standard input comes through here.

Each step refuses bad input with an :class:`InputError` of one line, before the next step
could fail in a worse way: the size is checked from ``stat`` before a byte is read, the bytes
must be UTF-8, the nesting depth is counted before the parser recurses, numbers must be
finite, strings must be encodable (no lone surrogates), and last the document must match
its schema when the caller names one.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import sys
from itertools import accumulate
from typing import IO, Any

from sushigo.schemas import check_document
from sushigo.spec.errors import InputError

#: Far above any real document (a game record is about 10 kB, a list of a few hundred
#: records a few MB), far below what takes seconds and hundreds of MB to parse.
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
#: Our deepest format (a list of game records: list, record, rounds, round, turns, turn,
#: picks) nests 7 levels; 64 leaves room and stays far below Python's recursion limit.
MAX_DEPTH = 64

STDIN = "-"
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"


def _too_big(where: str, size: int | None) -> InputError:
    got = f" ({size} bytes)" if size is not None else ""
    return InputError(
        f"{where} is larger than the {_mib(MAX_DOCUMENT_BYTES)} limit for a document{got}; "
        "split it into smaller documents"
    )


def _read_limited(fh: IO[bytes], where: str) -> bytes:
    data = fh.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise _too_big(where, None)
    return data


def read_bytes(path: str) -> tuple[bytes, str]:
    """The raw bytes of ``path`` (``-``: standard input) and how to name it in a message."""
    if path == STDIN:
        where = "standard input"
        stream = sys.stdin
        if stream is None or stream.closed:
            raise InputError("standard input is closed; pipe a document in, or give a file name")
        try:
            buffer = getattr(stream, "buffer", None)
            if buffer is not None:
                return _read_limited(buffer, where), where
            text = stream.read(MAX_DOCUMENT_BYTES + 1)  # a text stream standing in for stdin
            return _read_limited(io.BytesIO(text.encode("utf-8", "surrogateescape")), where), where
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from exc
    where = repr(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise _unreadable(where, exc) from exc
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{where} is a directory; give a JSON file, or '-' for standard input")
    if info.st_size > MAX_DOCUMENT_BYTES:
        raise _too_big(where, info.st_size)
    try:
        if stat.S_ISFIFO(info.st_mode):
            return _read_pipe(path, where), where
        with open(path, "rb") as fh:  # a device reports no size: read at most the limit
            return _read_limited(fh, where), where
    except OSError as exc:
        raise _unreadable(where, exc) from exc


def _read_pipe(path: str, where: str) -> bytes:
    """A named pipe's bytes, without waiting forever for a writer that never comes.

    A plain open blocks until some process opens the pipe for writing. Opened without
    blocking, a pipe with a writer attached has data or says "not yet" (then the read waits
    for the writer as usual, ``<(command)`` included); one with no writer reads as empty.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb", buffering=0) as fh:
        try:
            first = os.read(fd, 65536)
        except BlockingIOError:  # a writer is attached and has not written yet
            first = None
        if first == b"":
            raise InputError(f"{where} is a named pipe that nobody writes to; write the document into "
                             "it, or give a file or '-'")
        os.set_blocking(fd, True)
        rest = _read_limited(fh, where)
        data = (first or b"") + rest
        if len(data) > MAX_DOCUMENT_BYTES:
            raise _too_big(where, None)
        return data


def _unreadable(where: str, exc: Exception) -> InputError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return InputError(f"cannot read {where}: {reason}; give a readable file or '-'")


def decode(data: bytes, where: str) -> str:
    """UTF-8, strictly (a leading byte order mark is allowed)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start}; "
            "save the document as UTF-8"
        ) from exc


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest, brackets inside strings not counted."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large for a float")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (numbers must be finite)")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: ``{"rules": "official", "rules": "french"}`` is
    ambiguous (Python's json keeps the last silently), so it is refused."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {twice!r} appears twice in one object; keep one")
    return value


def parse(text: str, where: str) -> Any:
    """JSON with a depth guard, finite numbers only, keys once per object, and strings that can be printed."""
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise InputError(
            f"{where} nests arrays and objects {depth} deep; documents nest at most {MAX_DEPTH} deep"
        )
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant,
                           object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except (ValueError, RecursionError) as exc:  # huge integers, NaN, Infinity
        raise InputError(f"{where} is not valid JSON: {' '.join(str(exc).split())[:160]}") from exc
    if _SURROGATE_ESCAPE.search(text):  # only an escape can make one: decoded UTF-8 holds none
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(
                f"{where} holds a string with a lone surrogate escape (\\ud800 to \\udfff)"
            ) from exc
    return value


def read_json(path: str, schema: str | None = None) -> Any:
    """Read, decode, parse and (when ``schema`` is named) validate one JSON document."""
    data, where = read_bytes(path)
    value = parse(decode(data, where), where)
    if schema is not None:
        check_document(value, schema, where)
    return value


__all__ = ["MAX_DEPTH", "MAX_DOCUMENT_BYTES", "STDIN", "decode", "nesting_depth", "parse", "read_bytes",
           "read_json"]
