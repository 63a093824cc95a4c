"""The routes of the tables friends sit at (rulekit.web.tables): opening one, joining it by its
link, and a WebSocket per browser that pushes the seat's own view after every change and takes
that seat's moves. Each table's connections are told together; a watcher lets a bot stand in
for a person away on his turn longer than the table's wait."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulekit.errors import RulekitError, UsageError
from rulekit.web.api import Refused, guarded, read_json
from rulekit.web.origin import same_origin
from rulekit.web.tables import Table, Tables

MAX_MESSAGE = 1024  # a browser's message: a move, or the next round
CLOSE_UNKNOWN = 4404  # the WebSocket close codes the page reads
CLOSE_ORIGIN = 4403


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    seat: int | None  # None: a spectator


@dataclass
class Room:
    """A table's open connections, and its watcher (while any is open)."""

    connections: set[Connection] = field(default_factory=set)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    watcher: asyncio.Task[None] | None = None


def table_routes(tables: Tables, page: Path) -> list[BaseRoute]:
    rooms: dict[str, Room] = {}

    def table_of(table_id: str) -> Table:
        table = tables.get(table_id)
        if table is None:
            raise Refused(404, "no such table (it may have expired): open a new one")
        return table

    async def locked(table: Table, work: Callable[[], Any]) -> Any:
        def run() -> Any:
            with table.lock, table.game.lock:
                return work()

        return await run_in_threadpool(run)

    async def open_table(request: Request) -> Response:
        spec = await read_json(request)
        table, seat, token = await run_in_threadpool(tables.open, spec)
        state = await locked(table, lambda: table.state(seat))
        return JSONResponse({"table": table.id, "seat": seat, "token": token, "state": state})

    async def join(request: Request) -> Response:
        table = table_of(request.path_params["table"])
        spec = await read_json(request)
        seat, token = await locked(table, lambda: table.join(str(spec.get("name", ""))))
        await tell(table)
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    async def seats(request: Request) -> Response:
        table = table_of(request.path_params["table"])
        state = await locked(table, lambda: table.state(None))
        return JSONResponse({"title": state["title"], "places": state["places"]})

    async def table_page(request: Request) -> Response:
        return FileResponse(page)

    async def tell(table: Table) -> None:
        """Every connection of the table gets its seat's view."""
        room = rooms.get(table.id)
        if room is None:
            return
        room.changed.set()
        for conn in list(room.connections):
            seat = conn.seat
            state = await locked(table, lambda seat=seat: table.state(seat))  # type: ignore[misc]
            with contextlib.suppress(Exception):  # a browser gone: its handler cleans up
                await conn.socket.send_json({"state": state})

    async def watch(table: Table, room: Room) -> None:
        """While the table has connections: when a person is away on his turn, wait out the
        table's wait, then let a bot stand in for him."""
        while room.connections:
            delay = await locked(table, table.seconds_to_stand_in)
            room.changed.clear()
            try:
                await asyncio.wait_for(room.changed.wait(), timeout=delay)
            except TimeoutError:
                if await locked(table, table.stand_in_for_the_absent):
                    await tell(table)

    async def refuse(ws: WebSocket, code: int) -> None:
        """Closed with a code the page reads (a handshake refused before it is accepted
        reaches a browser only as an abnormal close), nothing sent."""
        await ws.accept()
        await ws.close(code)

    async def socket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        scheme = "https" if ws.url.scheme == "wss" else "http"
        if origin is not None and not same_origin(origin, scheme, ws.headers.get("host", "")):
            await refuse(ws, CLOSE_ORIGIN)
            return
        table = tables.get(ws.path_params["table"])
        if table is None:
            await refuse(ws, CLOSE_UNKNOWN)
            return
        token = ws.query_params.get("token")
        seat = table.seat_of(token)
        if token and seat is None:
            await refuse(ws, CLOSE_UNKNOWN)  # a token of no seat here: not taken for a spectator
            return
        await ws.accept()
        conn = Connection(ws, seat)
        room = rooms.setdefault(table.id, Room())
        room.connections.add(conn)
        await locked(table, lambda: table.connect(seat))
        if room.watcher is None or room.watcher.done():
            room.watcher = asyncio.create_task(watch(table, room))
        await tell(table)
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    message = _message(raw)
                    await locked(table, lambda m=message: table.act(seat, m))  # type: ignore[misc]
                except RulekitError as err:
                    await ws.send_json({"error": err.render()})
                    continue
                await tell(table)
        except WebSocketDisconnect:
            pass
        finally:
            room.connections.discard(conn)
            await locked(table, lambda: table.disconnect(seat))
            if not room.connections:
                rooms.pop(table.id, None)
                room.changed.set()  # the watcher ends
            else:
                await tell(table)

    return [
        Route("/api/tables", guarded(open_table), methods=["POST"]),
        Route("/api/tables/{table}", guarded(seats)),
        Route("/api/tables/{table}/join", guarded(join), methods=["POST"]),
        Route("/table/{table}", table_page),
        WebSocketRoute("/ws/tables/{table}", socket),
    ]


def _message(raw: str) -> dict[str, Any]:
    """A browser's message, bounded and checked: {"action": N} or {"next": true}."""
    if len(raw) > MAX_MESSAGE:
        raise UsageError(f"a message of at most {MAX_MESSAGE} characters")
    try:
        message = json.loads(raw)
    except ValueError:
        raise UsageError('a message is JSON: {"action": N} or {"next": true}') from None
    if not isinstance(message, dict) or not ({"action"} <= message.keys() or "next" in message):
        raise UsageError('a message is {"action": N} or {"next": true}')
    return message
