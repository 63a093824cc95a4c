"""A game being played at the terminal: the seats, the bots, every move, and saving it as a
scenario file (a saved game replays with `rulekit test`, and `play --resume` continues it)."""

from __future__ import annotations

from collections.abc import Sequence
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
from rulekit.output import plain_amount, write_atomic
from rulekit.scenario.record import move_text, payment, rules_ref, seat_names, to_toml


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
    house_rules: str | None = None  # rule-language lines on top of the rule file
    first_round: int = 1  # the game's first round's number (a saved game may start later)
    game: Game = field(init=False)
    agents: dict[int, Agent] = field(init=False)
    recorded: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[int, int]] = field(default_factory=list)
    round: Round | None = None
    views: list[PlayerView] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(
            self.compiled, len(self.seats), seed=self.seed, round_no=self.first_round - 1
        )
        self.agents = {}
        for i, seat in enumerate(self.seats):
            if seat.bot == "search":
                self.agents[i] = SearchAgent(
                    f"{self.seed}:{i}", rollouts=2000, think_ms=self.think_ms or 150
                )
            elif seat.bot is not None:
                self.agents[i] = make_agent(seat.bot, f"{self.seed}:{i}")

    @classmethod
    def new(
        cls,
        compiled: CompiledRules,
        rules_ref: str,
        *,
        seed: int,
        seats: int | None = None,
        bots: Sequence[str] = ("search",),
        seat: int = 0,
        name: str = "You",
        watch: bool = False,
        think_ms: int | None = None,
    ) -> Session:
        """A new game: `seats` players (by default the fewest the rules allow), the person
        called `name` at `seat` unless everyone is a bot (`watch`), and the bots cycled
        through the other seats, named so that no two seats share a name."""
        rules = compiled.rules
        n = rules.seats.min if seats is None else seats
        refusal = rules.seats.refusal(rules.title, n)
        if refusal:
            raise UsageError(refusal)
        if not watch and not 0 <= seat < n:
            raise UsageError(f"--seat is from 0 to {n - 1}")
        bots = list(bots) or ["search"]
        for bot in bots:
            make_agent(bot)  # an unknown bot: a UsageError with a suggestion
        person = None if watch else seat
        others = iter(seat_names(n if watch else n - 1, () if watch else (name,)))
        table: list[Seat] = []
        for i in range(n):
            if i == person:
                table.append(Seat(name, None))
            else:
                table.append(
                    Seat(next(others), bots[sum(s.bot is not None for s in table) % len(bots)])
                )
        return cls(compiled, rules_ref, table, seed, think_ms)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def human(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.bot is None), None)

    # ------------------------------------------------------------ rounds
    def start_round(self) -> Round:
        self.round = self.game.new_round()
        # the people at the table are asked at the count how their piles read the owner's
        # choice (the bots keep the reading worth more: engine/asking.py)
        self.round.ask_readings(sum(1 << i for i, s in enumerate(self.seats) if s.bot is None))
        self.moves = []
        self.views = [PlayerView(self.round, s) for s in range(len(self.seats))]
        return self.round

    def apply(self, action: int) -> Move:
        """Make a move; what it did, to narrate it (the draw that follows a play included)."""
        rnd = self.round
        assert rnd is not None
        seat = rnd.current
        stock = len(rnd.stock)
        top = rnd.stock[-1] if rnd.stock else None
        pile = rnd.captured[seat]
        made = set(rnd.yaku_made.get(seat, ()))
        before = rnd.field
        rnd.apply(action)  # a MoveError leaves the round and the log unchanged
        self.moves.append((seat, action))
        drew = top if top is not None and len(rnd.stock) == stock - 1 else None
        return _move(rnd, seat, action, rnd.captured[seat] & ~pile, drew, made, before)

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
        """Each seat's score: the starting score, the rounds played, the round in progress."""
        totals = self.game.result().totals
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
                expect["net"] = {names[s]: plain_amount(v) for s, v in enumerate(result.net)}
            doc["expect"] = expect
        return doc

    def document(self) -> dict[str, Any]:
        rounds = list(self.recorded)
        if self.round is not None:
            rounds.append(self._round_doc(self.round, None))
        title = f"A game of {self.compiled.rules.title}, saved by rulekit play"
        play: dict[str, Any] = {}
        if self.human is not None:
            play["human"] = self.names[self.human]
        play["bots"] = {s.name: s.bot for s in self.seats if s.bot is not None}
        if self.think_ms:
            play["think_ms"] = self.think_ms
        return {
            "title": title,
            "rules": self.rules_ref,
            **({"house_rules": self.house_rules} if self.house_rules else {}),
            "seats": self.names,
            "dealer": self.names[self.game.first],
            "seed": self.seed,
            **({"round": self.first_round} if self.first_round != 1 else {}),
            "play": play,
            "rounds": rounds,
        }

    def save(self, path: Path) -> None:
        """Write the game as a scenario file; never a half-written one."""
        write_atomic(path, to_toml(self.document()), doing="save the game to")


@dataclass(frozen=True)
class Move:
    """A move made, as the table saw it: the cards (ids) the move took, the card drawn after
    it and what that took, and the yaku it made."""

    seat: int
    action: int
    took: tuple[int, ...] = ()
    drawn: int | None = None
    draw_took: tuple[int, ...] = ()
    draw_to_field: bool = False
    draw_waits: bool = False  # the drawn card matches two field cards: its drawer chooses
    made: tuple[str, ...] = ()


def _move(
    rnd: Round, seat: int, action: int, new: int, drew: int | None, made: set[str], before: int
) -> Move:
    """Split what a turn captured between the play and the draw that followed it (`before`:
    the field before the turn)."""
    ix = rnd.ix
    months = ix.month_mask_of_bit
    yaku = tuple(n for n in rnd.yaku_made.get(seat, ()) if n not in made)
    if drew is None:
        return Move(seat, action, _ids(rnd, new), made=yaku)
    if rnd.drawn == drew:
        return Move(seat, action, _ids(rnd, new), ix.ids[drew], draw_waits=True, made=yaku)
    if rnd.field >> drew & 1 or not new >> drew & 1:
        # laid on the field (where the round's end may have collected it for another seat)
        return Move(seat, action, _ids(rnd, new), ix.ids[drew], draw_to_field=True, made=yaku)
    by_draw = new & months[drew]
    if A.is_play(action):
        played = 1 << A.played_card(action)
        target = A.play_target(action)
        own = played | (1 << target if target is not None else 0)
        if months[drew] & played and before & months[drew]:
            # the same month, and the play took from the field: its target; the draw the rest
            # (a play that took nothing lay on the field, and the draw took it)
            by_draw &= ~own
    took_by_draw = by_draw & ~(1 << drew)
    return Move(
        seat,
        action,
        _ids(rnd, new & ~by_draw),
        ix.ids[drew],
        draw_took=_ids(rnd, took_by_draw),
        made=yaku,
    )


def _ids(rnd: Round, mask: int) -> tuple[int, ...]:
    return tuple(sorted(rnd.ix.ids_of(mask)))


def _net(rnd: Round) -> list[Amount]:
    from rulekit.engine.ledger import net

    return net(rnd.ledger, rnd.seated)


def default_save_path(rules: str, seed: int) -> Path:
    """Where a game is saved when no --save is given: in the working folder, named after the
    rules and the seed, and never over a file already there."""
    stem = Path(rules).stem if Path(rules).suffix else rules.replace("/", "-")
    path = Path(f"rulekit-{stem}-{seed}.scenario.toml")
    k = 1
    while path.exists():
        k += 1
        path = Path(f"rulekit-{stem}-{seed}-{k}.scenario.toml")
    return path


def resume(path: Path, save_to: Path | None = None, think_ms: int | None = None) -> Session:
    """A saved game, replayed move by move up to where it stopped. It is read as `rulekit test`
    reads it (its rules and house rules, its seats, every move), so every mistake in it is
    reported at its line. `save_to`: where the game will be saved (the rule file is named
    relative to it); `think_ms` overrides the saved search bots' time."""
    from rulekit.scenario import model as m
    from rulekit.scenario.runner import ScenarioRun

    run = ScenarioRun(path)
    sc = run.sc
    if sc.play is None or sc.rounds is None:
        missing = "[play] table" if sc.play is None else "[[rounds]]"
        raise ScenarioError(
            f"{run.name} is not a game saved by rulekit play (it has no {missing})",
            Loc(run.name, 1, 1),
        )
    person = None if sc.play.human is None else run.seat(sc.play.human, ("play", "human"))
    bots: dict[int, str] = {}
    for name, bot in sc.play.bots.items():
        where: tuple[str | int, ...] = ("play", "bots", name)
        s = run.seat(name, where)
        if s == person:
            raise run.error(where, f"{name} is the person at the table (play.human), not a bot")
        try:
            make_agent(bot)
        except UsageError as err:
            raise run.error(where, err.message, err.hint) from None
        bots[s] = bot
    dealer = run.first_dealer()
    session = Session(
        run.c,
        rules_ref(sc.rules, (save_to or path).parent, relative_to=path),
        [Seat(n, bots.get(i)) for i, n in enumerate(sc.seats)],
        sc.seed,
        think_ms or sc.play.think_ms,
        sc.house_rules,
        first_round=sc.round,  # (as `rulekit test` replays it: from that round)
    )
    session.game.dealer = session.game.first = dealer
    for i, spec in enumerate(sc.rounds):
        for key in ("dealer", "seed", "deal", "rest"):
            if getattr(spec, key) is not None:
                raise run.error(
                    ("rounds", i, key),
                    f"a saved game deals every round from its seed: it has no {key} here",
                    "play --resume continues games saved by rulekit play",
                )
        if session.game.is_over:
            raise run.error(("rounds", i), "the game was over before this round")
        rnd = session.start_round()
        for j, move in enumerate(spec.moves):
            where = ("rounds", i, "moves", j)
            if isinstance(move, m.RejectedMove):
                raise run.error(where, "a saved game's moves are plain 'Seat: move' strings")
            seat, action = run.parse_move(move, where)
            if rnd.is_terminal:
                raise run.error(where, f"cannot replay '{move}': the round is over")
            if rnd.current != seat:
                whose = sc.seats[rnd.current]
                raise run.error(where, f"cannot replay '{move}': it is {whose}'s turn")
            try:
                session.apply(action)
            except MoveError as err:
                message = run.names(err.message)
                raise run.error(where, f"cannot replay '{move}': {message}", err.hint) from None
        if rnd.is_terminal:
            session.finish_round()
        elif i + 1 < len(sc.rounds):
            raise run.error(("rounds", i), "the round is not over, but another follows")
    return session
