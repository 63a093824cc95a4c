"""Requests that change something (POST, DELETE) are answered only for the server's own pages:
a page of another site, or of another port on this machine, could otherwise start games and
long comparisons through the visitor's browser. Tools on this machine send no Origin header
and are answered as before."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from rulekit.web.api import answer

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int | None] | None:
    """An origin as (scheme, host, port), the default port made explicit; None if malformed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname, port


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether a request's Origin header names the origin the request was sent to."""
    sent_by = urlsplit(origin)
    theirs = _origin(sent_by.scheme.lower(), sent_by.netloc) if sent_by.scheme else None
    ours = _origin(scheme, host)
    return theirs is not None and theirs == ours


class SameOrigin:
    """ASGI middleware: a POST or DELETE whose Origin is not this server's is refused (403)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            host = headers.get("host", "")
            if origin is not None and not same_origin(origin, scope["scheme"], host):
                message = (
                    f"a page from {origin[:80]} cannot use this server: only its own pages"
                    f" can (open http://{host[:80]}/)"
                )
                await answer({"error": message}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
