"""What every route of `rulekit serve`'s JSON API shares: the browser's cookie, request bodies
read within their bounds, and every mistake answered as JSON {"error": ...} with its status,
never a traceback. The page modules import this one, never the app that gathers them."""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from rulekit.errors import RulekitError, UsageError

COOKIE = "rulekit_browser"
MAX_BODY = 64 * 1024  # a move, a new game's choices, rule text from the editor

Handler = Callable[[Request], Awaitable[Response]]


class Refused(Exception):
    """A request answered with a status of its own and a message (404, 409, 413, 415, 429)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def guarded(handler: Handler) -> Handler:
    """Errors as JSON: a RulekitError 400 with its rendered message, a Refused its own status,
    any other failure 500 without a traceback."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RulekitError as err:
            return JSONResponse({"error": err.render()}, status_code=400)
        except Refused as err:
            return JSONResponse({"error": err.message}, status_code=err.status)
        except Exception as exc:  # a bug: said, never shown as a traceback
            return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    return run


async def http_error(request: Request, exc: Exception) -> Response:
    """An unknown address or method under /api/ as JSON too, as the page reads every answer."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        body = {"error": exc.detail.lower()}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)
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
async def read_body(request: Request, limit: int) -> bytes:
    """The body, at most `limit` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise Refused(413, "the request is too large")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refused(413, "the request is too large")
    return bytes(data)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is {})."""
    raw = await read_body(request, MAX_BODY)
    try:
        value = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise UsageError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise UsageError("the request is not a JSON object")
    return value
