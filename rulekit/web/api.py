"""What every route of `rulekit serve`'s JSON API shares: the browser's cookie, request bodies
read within their bounds and of the declared type, and every mistake answered as JSON
{"error": ...} with its status, never a traceback. The page modules import this one, never the
app that gathers them."""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from rulekit.errors import RulekitError, UsageError
from rulekit.lang import jsonpos

COOKIE = "rulekit_browser"
MAX_BODY = 64 * 1024  # a move, a new game's choices, rule text from the editor
MAX_DEPTH = 8  # nesting of a request's JSON: the deepest request is {"a": {"text": ...}}
JSON = "application/json"
TOML = "application/toml"  # a saved game sent back

Handler = Callable[[Request], Awaitable[Response]]


class Refused(Exception):
    """A request answered with a status of its own and a message (404, 409, 413, 415, 429)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def answer(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """JSON as the page reads it, non-ASCII escaped: no text can fail to encode."""
    text = json.dumps(body, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return Response(text, status_code=status, headers=headers, media_type=JSON)


def guarded(handler: Handler) -> Handler:
    """Errors as JSON: a RulekitError 400 with its rendered message, a Refused its own status,
    any other failure 500 without a traceback."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RulekitError as err:
            return answer({"error": err.render()}, 400)
        except Refused as err:
            return answer({"error": err.message}, err.status)
        except Exception as exc:  # a bug: said, never shown as a traceback
            return answer({"error": f"internal error: {type(exc).__name__}"}, 500)

    return run


async def http_error(request: Request, exc: Exception) -> Response:
    """An unknown address or method under /api/ as JSON too, as the page reads every answer."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return answer({"error": exc.detail.lower()}, exc.status_code, exc.headers)
    return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)


# ---------------------------------------------------------------- the browser
def browser(request: Request) -> str | None:
    """The browser's cookie, if it has one."""
    return request.cookies.get(COOKIE)


def new_browser() -> str:
    return secrets.token_urlsafe(24)


def with_cookie(response: Response, cookie: str) -> Response:
    """The answer that gives (or keeps) a browser its cookie: not readable by scripts, never
    sent with a request another site makes."""
    response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict")
    return response


# ---------------------------------------------------------------- request bodies
def media_type(request: Request) -> str | None:
    """The declared content type without its parameters (`; charset=utf-8`), or None."""
    declared = request.headers.get("content-type")
    return None if declared is None else declared.split(";", 1)[0].strip().lower()


async def read_body(request: Request, limit: int, expected: str) -> bytes:
    """The body, at most `limit` bytes, of the type `expected`: a body of another type (or of
    none declared) is refused with 415, as a form another site posts would be."""
    declared = media_type(request)
    if declared is not None and declared != expected:
        raise Refused(415, f"the request's content type is {declared[:60]}: send {expected}")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise Refused(413, "the request is too large")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refused(413, "the request is too large")
    if data and declared is None:
        raise Refused(415, f"the request has no content type: send {expected}")
    return bytes(data)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is {}): bounded in size and nesting, its
    strings Unicode text, its numbers finite; a UsageError saying what is wrong."""
    raw = await read_body(request, MAX_BODY, JSON)
    try:
        text = (raw or b"{}").decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the request is not JSON: it is not UTF-8 text") from None
    if nesting(text) > MAX_DEPTH:
        raise UsageError(f"the request is JSON nested more than {MAX_DEPTH} deep: no request is")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise UsageError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise UsageError("the request is not a JSON object")
    bad = _not_unicode(value)
    if bad is not None:
        raise UsageError(
            f"{bad}: not Unicode text (a lone surrogate)",
            hint="a \\uD800-\\uDBFF escape is followed by a \\uDC00-\\uDFFF one, never alone",
        )
    return value


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped), read before
    parsing so that no depth can exhaust the parser."""
    return jsonpos.depth(text)[0]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number the API takes")


def _not_unicode(value: Any, where: str = "") -> str | None:
    """Where a string (or a key) holds a lone surrogate, which JSON's escapes allow but no text
    encoding does; None when every string is text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where or "the request"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{where}.{key}" if where else str(key)
            found = _not_unicode(key, where or "a key") or _not_unicode(item, here)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _not_unicode(item, f"{where}[{i}]" if where else f"[{i}]")
            if found is not None:
                return found
    return None
