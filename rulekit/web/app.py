"""The web app of `rulekit serve`: the play page and its JSON API over the games of each
browser, gathered with the editor's and the compare page's routes, behind the checks of the
host and of the origin. Every mistake is a JSON {"error": ...} with its status (400; an unknown
game 404), never a traceback."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulekit.errors import UsageError
from rulekit.web.api import (
    COOKIE,
    MAX_BODY,
    TOML,
    Refused,
    browser,
    guarded,
    http_error,
    new_browser,
    read_body,
    read_json,
    with_cookie,
)
from rulekit.web.catalog import Catalog
from rulekit.web.comparing import compare_routes
from rulekit.web.editor import editor_routes
from rulekit.web.games import BOTS, THINK_MS, Games, WebGame
from rulekit.web.origin import SameOrigin
from rulekit.web.table_api import table_routes
from rulekit.web.tables import WAIT_SECONDS, Tables

STATIC = Path(__file__).resolve().parent / "static"
MAX_SAVED = 1024 * 1024  # a saved game sent back
__all__ = ["COOKIE", "MAX_BODY", "MAX_SAVED", "create_app"]


async def _locked(game: WebGame, work: Callable[[], Any]) -> Any:
    """A game's work (bots thinking included) in a worker thread, one request at a time."""

    def run() -> Any:
        with game.lock:
            return work()

    return await run_in_threadpool(run)


def create_app(
    rules: Sequence[str | Path] = (),
    allowed_hosts: Sequence[str] = ("127.0.0.1", "localhost"),
    table_wait: float = WAIT_SECONDS,
) -> Starlette:
    """The app serving the bundled rule files and those given (files or folders); at a table
    of friends, a bot stands in for a person away on his turn `table_wait` seconds."""
    catalog = Catalog(rules)
    games = Games(catalog)
    tables = Tables(games, wait=table_wait)

    def game_of(request: Request) -> WebGame:
        game = games.get(browser(request), request.path_params["game"])
        if game is None:
            raise Refused(404, "no such game in this browser")
        return game

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> Response:
        return JSONResponse(
            {"rules": catalog.names, "bots": list(BOTS), "think_ms": list(THINK_MS)}
        )

    async def new_game(request: Request) -> Response:
        spec = await read_json(request)
        cookie = browser(request) or new_browser()
        game = await run_in_threadpool(games.start, cookie, spec)
        return with_cookie(JSONResponse(await _locked(game, game.state)), cookie)

    async def resume_game(request: Request) -> Response:
        raw = await read_body(request, MAX_SAVED, TOML)
        cookie = browser(request) or new_browser()
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
        spec = await read_json(request)
        action = spec.get("action")
        if isinstance(action, bool) or not isinstance(action, int):
            raise UsageError("action: a whole number, one of the legal moves")

        def act() -> dict[str, Any]:
            game.move(action)
            return game.state()

        return JSONResponse(await _locked(game, act))

    async def next_round(request: Request) -> Response:
        game = game_of(request)
        await read_json(request)  # nothing, or {}: never a form another site posts

        def deal() -> dict[str, Any]:
            game.next_round()
            return game.state()

        return JSONResponse(await _locked(game, deal))

    async def again(request: Request) -> Response:
        game = game_of(request)
        await read_json(request)
        cookie = browser(request) or new_browser()
        fresh = await run_in_threadpool(games.again, cookie, game)
        return with_cookie(JSONResponse(await _locked(fresh, fresh.state)), cookie)

    async def hint(request: Request) -> Response:
        game = game_of(request)
        await read_json(request)
        return JSONResponse(await _locked(game, game.hint))

    async def scenario(request: Request) -> Response:
        game = game_of(request)
        raw = request.query_params.get("rounds")
        rounds = int(raw) if raw is not None and raw.isdigit() and len(raw) < 6 else None
        if raw is not None and rounds is None:
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
        Route("/api/options", guarded(options)),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/api/resume", guarded(resume_game), methods=["POST"]),
        Route(api, guarded(state)),
        Route(api + "/move", guarded(move), methods=["POST"]),
        Route(api + "/next", guarded(next_round), methods=["POST"]),
        Route(api + "/hint", guarded(hint), methods=["POST"]),
        Route(api + "/again", guarded(again), methods=["POST"]),
        Route(api + "/scenario", guarded(scenario)),
        *table_routes(tables, STATIC / "index.html"),
        *editor_routes(catalog),
        *compare_routes(catalog),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)),
        Middleware(SameOrigin),
    ]
    app = Starlette(
        routes=routes, middleware=middleware, exception_handlers={HTTPException: http_error}
    )
    # what the server holds, for its tests
    app.state.catalog, app.state.games, app.state.tables = catalog, games, tables
    return app
