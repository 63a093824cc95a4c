"""A game being played at the terminal: the seats, the bots, every move, and saving it as a
scenario file (a saved game replays with `rulekit test`, and `play --resume` continues it)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.agents import make_agent
from rulekit.agents.base import Agent
from rulekit.agents.search import SearchAgent
from rulekit.engine import actions as A
from rulekit.engine.game import Game
from rulekit.engine.ledger import Amount
from rulekit.engine.round import Round, RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import Loc, MoveError, ScenarioError, UsageError
from rulekit.scenario.record import move_text, payment, to_toml


@dataclass
class Seat:
    name: str
    bot: str | None  # None: the person at the terminal


@dataclass
class Session:
    compiled: CompiledRules
    rules_ref: str
    seats: list[Seat]
    seed: int
    think_ms: int | None = None
    game: Game = field(init=False)
    agents: dict[int, Agent] = field(init=False)
    recorded: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[int, int]] = field(default_factory=list)
    round: Round | None = None
    views: list[PlayerView] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(self.compiled, len(self.seats), seed=self.seed)
        self.agents = {}
        for i, seat in enumerate(self.seats):
            if seat.bot == "search":
                self.agents[i] = SearchAgent(
                    f"{self.seed}:{i}", rollouts=2000, think_ms=self.think_ms or 150
                )
            elif seat.bot is not None:
                self.agents[i] = make_agent(seat.bot, f"{self.seed}:{i}")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def human(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.bot is None), None)

    # ------------------------------------------------------------ rounds
    def start_round(self) -> Round:
        self.round = self.game.new_round()
        self.moves = []
        self.views = [PlayerView(self.round, s) for s in range(len(self.seats))]
        return self.round

    def apply(self, action: int) -> None:
        rnd = self.round
        assert rnd is not None
        seat = rnd.current
        rnd.apply(action)  # a MoveError leaves the round and the log unchanged
        self.moves.append((seat, action))

    def bot_action(self) -> int:
        rnd = self.round
        assert rnd is not None
        return self.agents[rnd.current].act(self.views[rnd.current])

    def finish_round(self) -> RoundResult:
        rnd = self.round
        assert rnd is not None and rnd.is_terminal
        result = rnd.result()
        self.recorded.append(self._round_doc(rnd, result))
        self.game.record(result)
        self.round = None
        return result

    def totals(self) -> list[Amount]:
        """Each seat's score over the rounds played, and the round in progress."""
        totals = self.game.result().net
        if self.round is not None:
            for s, v in enumerate(
                self.round.result().net if self.round.is_terminal else _net(self.round)
            ):
                totals[s] += v
        return totals

    # ------------------------------------------------------------ saving
    def _round_doc(self, rnd: Round, result: RoundResult | None) -> dict[str, Any]:
        names = self.names
        doc: dict[str, Any] = {"moves": [f"{names[s]}: {move_text(a, rnd)}" for s, a in self.moves]}
        if result is not None:
            expect: dict[str, Any] = {"void": True} if result.void else {}
            if not result.void:
                expect["ledger"] = [payment(p, names) for p in result.ledger]
                expect["net"] = {names[s]: _plain(v) for s, v in enumerate(result.net)}
            doc["expect"] = expect
        return doc

    def document(self) -> dict[str, Any]:
        rounds = list(self.recorded)
        if self.round is not None:
            rounds.append(self._round_doc(self.round, None))
        title = f"A game of {self.compiled.rules.title}, saved by rulekit play"
        return {
            "title": title,
            "rules": self.rules_ref,
            "seats": self.names,
            "dealer": self.names[self.game.first],
            "seed": self.seed,
            "play": {
                "human": next((s.name for s in self.seats if s.bot is None), ""),
                "bots": {s.name: s.bot for s in self.seats if s.bot is not None},
                **({"think_ms": self.think_ms} if self.think_ms else {}),
            },
            "rounds": rounds,
        }

    def save(self, path: Path) -> None:
        """Write the game as a scenario file; never a half-written one."""
        doc = self.document()
        if not doc["play"]["human"]:
            del doc["play"]["human"]
        text = to_toml(doc)
        temporary = path.with_name(path.name + ".tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            raise UsageError(f"cannot save the game to {path}: {exc.strerror}") from None


def _plain(v: Amount) -> int | float:
    return int(v) if float(v).is_integer() else float(v)


def _net(rnd: Round) -> list[Amount]:
    from rulekit.engine.ledger import net

    return net(rnd.ledger, rnd.seated)


def resume(path: Path, compiled_for: Any) -> Session:
    """A saved game, replayed move by move up to where it stopped."""
    from rulekit.scenario.load import line_of, load_scenario

    sc, name, text = load_scenario(path)
    if sc.play is None or sc.rounds is None:
        raise ScenarioError(
            f"{name} is not a game saved by rulekit play (it has no [play] table)", Loc(name, 1, 1)
        )
    compiled, rules_ref = compiled_for(sc.rules, path)
    seats = [Seat(n, sc.play.bots.get(n)) for n in sc.seats]
    if sc.play.human is not None and sc.play.human not in sc.seats:
        raise ScenarioError(
            f"play.human: no seat named '{sc.play.human}'",
            Loc(name, line_of(text, ("play",)) or 1, 1),
        )
    session = Session(compiled, rules_ref, seats, sc.seed, sc.play.think_ms)
    first = sc.seats.index(sc.dealer) if isinstance(sc.dealer, str) else sc.dealer
    session.game.dealer = session.game.first = first
    for i, spec in enumerate(sc.rounds):
        rnd = session.start_round()
        for j, move in enumerate(spec.moves):
            text_move = move if isinstance(move, str) else move.move
            who, _, what = text_move.partition(":")
            try:
                action = A.parse(what.strip(), compiled.index)
                if sc.seats[rnd.current] != who.strip():
                    raise MoveError(f"it is {sc.seats[rnd.current]}'s turn, not {who.strip()}'s")
                session.apply(action)
            except MoveError as err:
                where = Loc(name, line_of(text, ("rounds", i, "moves", j)) or 1, 1)
                raise ScenarioError(
                    f"rounds[{i}].moves[{j}]: cannot replay '{text_move}': {err.message}", where
                ) from None
        if rnd.is_terminal:
            session.finish_round()
        elif i + 1 < len(sc.rounds):
            raise ScenarioError(
                f"rounds[{i}]: the round is not over, but another follows", Loc(name, 1, 1)
            )
    return session
