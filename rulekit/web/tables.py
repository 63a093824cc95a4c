"""Tables that friends sit at, each from his own browser: one game (rulekit.web.games.WebGame)
with several people's seats, joined by a link. A seat is held by a secret token (kept by the
person's browser, so that closing the tab and coming back finds the same seat); every state
sent is the one seat's own view (a spectator's hides every hand), and a move is taken only from
the seat whose turn it is. A person's seat left empty on his turn longer than the table's wait
is played by a bot until he is back. Tables expire when nobody has used them for a while.

The transport is the app's (rulekit.web.app: a WebSocket per browser): this module is plain
state and rules, and says who must be told after each change (Table.version)."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from rulekit.errors import UsageError
from rulekit.play.session import Seat
from rulekit.web.games import Games, WebGame

TABLES = 32  # kept at once: the least recently used goes beyond this
IDLE_SECONDS = 4 * 3600  # a table nobody used for this long is gone
WAIT_SECONDS = 60.0  # a person's seat empty on his turn this long is played by a bot
NAME_CHARS = 24


@dataclass
class Place:
    """A person's seat: who holds it (his token; None until someone joins) and whether a
    browser of his is connected."""

    seat: int
    token: str | None = None
    name: str = ""
    connected: int = 0  # his open connections
    away_since: float | None = None  # when his seat was last left with nobody connected


@dataclass
class Table:
    """A game with several people's seats."""

    id: str
    game: WebGame
    places: dict[int, Place]  # by seat: the people's seats (the others are bots)
    wait: float = WAIT_SECONDS
    touched: float = field(default_factory=time.monotonic)
    version: int = 0  # bumped by every change that every connection must be told
    lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------ seats
    def join(self, name: str) -> tuple[int, str]:
        """A free person's seat for `name`: (seat, its token); a UsageError when all are held."""
        name = _name(name)
        free = [p for p in self.places.values() if p.token is None]
        if not free:
            raise UsageError(
                "every seat at this table is taken", hint="open the link to watch the game"
            )
        place = free[0]
        place.token = secrets.token_urlsafe(18)
        place.name = name
        self._rename(place.seat, name)
        self._changed()
        return place.seat, place.token

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds (None: no seat, a spectator)."""
        if not token:
            return None
        for place in self.places.values():
            if place.token is not None and secrets.compare_digest(place.token, token):
                return place.seat
        return None

    def connect(self, seat: int | None) -> None:
        """A browser of this seat (None: a spectator) is connected: the seat is his again."""
        self.touched = time.monotonic()
        if seat is None:
            return
        place = self.places[seat]
        place.connected += 1
        place.away_since = None
        if seat in self.game.stand_ins:
            self.game.stand_in(seat, False)
            self._changed()

    def disconnect(self, seat: int | None) -> None:
        if seat is None:
            return
        place = self.places[seat]
        place.connected = max(0, place.connected - 1)
        if not place.connected:
            place.away_since = time.monotonic()

    def stand_in_for_the_absent(self, now: float | None = None) -> bool:
        """A bot takes the seat of a person whose turn it is and who has been away (or never
        came) longer than the wait; then the bots play on. Whether anything changed."""
        now = time.monotonic() if now is None else now
        rnd = self.game.session.round
        if rnd is None or rnd.is_terminal:
            return False
        seat = rnd.current
        place = self.places.get(seat)
        if place is None or seat in self.game.stand_ins or place.connected:
            return False
        since = place.away_since if place.away_since is not None else self.touched
        if now - since < self.wait:
            return False
        self.game.stand_in(seat, True)
        self.game.advance()
        self._changed()
        return True

    def seconds_to_stand_in(self, now: float | None = None) -> float | None:
        """How long until stand_in_for_the_absent would act (None: nobody to stand in for)."""
        now = time.monotonic() if now is None else now
        rnd = self.game.session.round
        if rnd is None or rnd.is_terminal:
            return None
        place = self.places.get(rnd.current)
        if place is None or rnd.current in self.game.stand_ins or place.connected:
            return None
        since = place.away_since if place.away_since is not None else self.touched
        return max(0.0, self.wait - (now - since))

    # ------------------------------------------------------------ play
    def act(self, seat: int | None, message: dict[str, Any]) -> None:
        """A message from a seat's browser: {"action": N} (a move) or {"next": true} (the next
        round, by any person at the table). A spectator acts for nobody."""
        if seat is None:
            raise UsageError("a spectator makes no move", hint="join the table to play")
        self.touched = time.monotonic()
        if "next" in message:
            self.game.next_round()
        else:
            action = message.get("action")
            if isinstance(action, bool) or not isinstance(action, int):
                raise UsageError("action: a whole number, one of the legal moves")
            self.game.move(action, seat)
        self._changed()

    def state(self, seat: int | None) -> dict[str, Any]:
        """The game as this seat sees it (None: a spectator), with the table's seats."""
        out = self.game.state(-1 if seat is None else seat)
        out["id"] = self.id
        out["table_id"] = self.id
        out["version"] = self.version  # every change's number: a browser keeps the latest
        out["places"] = [
            {
                "seat": s,
                "name": self.game.session.names[s],
                "person": s in self.places,
                "joined": s in self.places and self.places[s].token is not None,
                "here": s in self.places and self.places[s].connected > 0,
                "bot_playing": s in self.game.stand_ins,
            }
            for s in range(len(self.game.session.seats))
        ]
        return out

    def _rename(self, seat: int, name: str) -> None:
        """The seat's player is called `name` (another seat's name gets a number)."""
        names = [n for i, n in enumerate(self.game.session.names) if i != seat]
        chosen, k = name, 2
        while chosen in names:
            chosen, k = f"{name} {k}", k + 1
        self.game.session.seats[seat] = Seat(chosen, None)

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.monotonic()


def _name(raw: object) -> str:
    """A person's name as the table shows it: printable, short, never empty."""
    text = "".join(ch for ch in str(raw or "") if ch.isprintable()).strip()[:NAME_CHARS]
    return text or "Guest"


class Tables:
    """Every table of the server, by id, bounded (TABLES; idle ones expire)."""

    def __init__(self, games: Games, wait: float = WAIT_SECONDS) -> None:
        self.games = games
        self.wait = wait
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, spec: dict[str, Any]) -> tuple[Table, int, str]:
        """A new table from the page's choices (as a game's: rules or the editor's text, seats,
        bots, budget, seed) and `people` seats for people (the first for its opener, named
        `name`): the table, the opener's seat and token."""
        session = self.games.session_of(spec)
        seats = len(session.seats)
        people = spec.get("people", 2)
        if isinstance(people, bool) or not isinstance(people, int) or not 1 <= people <= seats:
            raise UsageError(f"people: the seats for people, from 1 to {seats}")
        for seat in range(1, people):
            session.seats[seat] = Seat(f"seat {seat + 1}", None)
            session.agents.pop(seat, None)
        game = WebGame(secrets.token_urlsafe(12), session)
        table = Table(
            secrets.token_urlsafe(9), game, {s: Place(s) for s in range(people)}, wait=self.wait
        )
        seat, token = table.join(str(spec.get("name", "You")))
        with game.lock:
            game.advance()
        with self._lock:
            self._expire()
            self._tables[table.id] = table
            while len(self._tables) > TABLES:
                self._tables.popitem(last=False)
        return table, seat, token

    def get(self, table_id: str) -> Table | None:
        with self._lock:
            self._expire()
            table = self._tables.get(table_id)
            if table is not None:
                self._tables.move_to_end(table_id)
            return table

    def __len__(self) -> int:
        with self._lock:
            return len(self._tables)

    def _expire(self) -> None:
        now = time.monotonic()
        for tid in [t for t, table in self._tables.items() if now - table.touched > IDLE_SECONDS]:
            del self._tables[tid]
