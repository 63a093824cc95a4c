"""The web app of `rulekit serve`: one page, its script and style, and a small JSON API over
the games of each browser. Every mistake is a JSON {"error": ...} with 400 (an unknown game
404), never a traceback."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulekit.errors import RulekitError
from rulekit.web.comparing import compare_routes
from rulekit.web.editor import editor_routes
from rulekit.web.games import BOTS, THINK_MS, Catalog, Games, WebGame

STATIC = Path(__file__).resolve().parent / "static"
COOKIE = "rulekit_browser"
MAX_BODY = 64 * 1024  # a move or a new game's choices
MAX_SAVED = 1024 * 1024  # a saved game sent back


class Unknown(Exception):
    """A game not found in this browser's games (or no such browser): 404."""


class TooLarge(Exception):
    """A request body above its bound: 413."""


Handler = Callable[[Request], Awaitable[Response]]


async def _locked(game: WebGame, work: Callable[[], Any]) -> Any:
    """A game's work (bots thinking included) in a worker thread, one request at a time."""

    def run() -> Any:
        with game.lock:
            return work()

    return await run_in_threadpool(run)


def _guarded(handler: Handler) -> Handler:
    """Errors as JSON: a RulekitError 400 with its rendered message, an unknown game 404, any
    other failure 500 without a traceback."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RulekitError as err:
            return JSONResponse({"error": err.render()}, status_code=400)
        except Unknown:
            return JSONResponse({"error": "no such game in this browser"}, status_code=404)
        except TooLarge:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        except Exception as exc:  # a bug: said, never shown as a traceback
            return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    return run


async def _http_error(request: Request, exc: Exception) -> Response:
    """An unknown address or method under /api/ as JSON too, as the page reads every answer."""
    assert isinstance(exc, HTTPException)
    kind = JSONResponse if request.url.path.startswith("/api/") else PlainTextResponse
    body = {"error": exc.detail.lower()} if kind is JSONResponse else exc.detail
    return kind(body, status_code=exc.status_code, headers=exc.headers)


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise TooLarge
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise TooLarge
    return data


async def _json(request: Request) -> dict[str, Any]:
    from rulekit.errors import UsageError

    raw = await _body(request, MAX_BODY)
    try:
        value = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise UsageError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise UsageError("the request is not a JSON object")
    return value


def create_app(
    rules: Sequence[str | Path] = (), allowed_hosts: Sequence[str] = ("127.0.0.1", "localhost")
) -> Starlette:
    """The app serving the bundled rule files and those given (files or folders)."""
    catalog = Catalog(rules)
    games = Games(catalog)

    def browser(request: Request) -> str | None:
        return request.cookies.get(COOKIE)

    def game_of(request: Request) -> WebGame:
        game = games.get(browser(request), request.path_params["game"])
        if game is None:
            raise Unknown
        return game

    def with_cookie(response: Response, cookie: str) -> Response:
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict")
        return response

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> Response:
        return JSONResponse(
            {"rules": catalog.names, "bots": list(BOTS), "think_ms": list(THINK_MS)}
        )

    async def new_game(request: Request) -> Response:
        spec = await _json(request)
        cookie = browser(request) or Games.new_browser()
        game = await run_in_threadpool(games.start, cookie, spec)
        return with_cookie(JSONResponse(await _locked(game, game.state)), cookie)

    async def resume_game(request: Request) -> Response:
        raw = await _body(request, MAX_SAVED)
        cookie = browser(request) or Games.new_browser()
        from rulekit.errors import UsageError

        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError("the saved game is not UTF-8 text") from None
        game = await run_in_threadpool(games.resume, cookie, text)
        return with_cookie(JSONResponse(await _locked(game, game.state)), cookie)

    async def state(request: Request) -> Response:
        game = game_of(request)
        return JSONResponse(await _locked(game, game.state))

    async def move(request: Request) -> Response:
        game = game_of(request)
        spec = await _json(request)
        action = spec.get("action")
        if isinstance(action, bool) or not isinstance(action, int):
            from rulekit.errors import UsageError

            raise UsageError("action: a whole number, one of the legal moves")

        def act() -> dict[str, Any]:
            game.move(action)
            return game.state()

        return JSONResponse(await _locked(game, act))

    async def next_round(request: Request) -> Response:
        game = game_of(request)

        def deal() -> dict[str, Any]:
            game.next_round()
            return game.state()

        return JSONResponse(await _locked(game, deal))

    async def hint(request: Request) -> Response:
        game = game_of(request)
        return JSONResponse(await _locked(game, game.hint))

    async def scenario(request: Request) -> Response:
        game = game_of(request)
        raw = request.query_params.get("rounds")
        rounds = int(raw) if raw is not None and raw.isdigit() and len(raw) < 6 else None
        if raw is not None and rounds is None:
            from rulekit.errors import UsageError

            raise UsageError("rounds: a whole number")
        text = await _locked(game, lambda: game.scenario(rounds))
        name = f"rulekit-{game.session.seed}" + (f"-round{rounds}" if rounds else "")
        return Response(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{name}.scenario.toml"'},
        )

    api = "/api/games/{game}"
    routes = [
        Route("/", page),
        Route("/api/options", _guarded(options)),
        Route("/api/games", _guarded(new_game), methods=["POST"]),
        Route("/api/resume", _guarded(resume_game), methods=["POST"]),
        Route(api, _guarded(state)),
        Route(api + "/move", _guarded(move), methods=["POST"]),
        Route(api + "/next", _guarded(next_round), methods=["POST"]),
        Route(api + "/hint", _guarded(hint), methods=["POST"]),
        Route(api + "/scenario", _guarded(scenario)),
        *editor_routes(catalog, games),
        *compare_routes(catalog),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    return Starlette(
        routes=routes, middleware=middleware, exception_handlers={HTTPException: _http_error}
    )
