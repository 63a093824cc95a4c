"""Many rounds or games between bots, on one core or spread over processes.

Every round takes its chance from (seed, its number) and every bot is re-seeded per round (or
game, and before each redeal of a void deal: rulekit.engine.playout), so the totals do not
depend on how the work is split: `--jobs 4`, or a Dask cluster, gives exactly what one job
gives for the same seed. What the plan needs is built before the work is handed out (the
compiled rules, the batch engine's kernel, the bots' calibration): once, here, and inherited
or received by the processes that play it (rulekit.sim.backends).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit import ir
from rulekit.agents import DEFAULT_BOT, BotOptions, calibrate, make_agent
from rulekit.agents.base import Agent
from rulekit.engine.game import Game
from rulekit.engine.ledger import as_number
from rulekit.engine.playout import play_deal_out, play_deals_out, play_round
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules
from rulekit.errors import UsageError
from rulekit.output import write_atomic
from rulekit.sim.backends import run_chunks
from rulekit.sim.cache import compiled_rules
from rulekit.stats.tally import Tally

__all__ = ["Plan", "compiled_rules", "game_winners", "play_round", "report", "run_part", "simulate"]

CHUNK = 250  # rounds (or games / 12) per unit of work handed to a process
# The most rounds (or games) a run may ask for: a thousand years at a million rounds a second.
# Any count up to it streams in constant memory; past it, no one is waiting for the answer.
MAX_COUNT = 10**16


Policies = tuple[tuple[calibrate.PolicyKey, calibrate.DealPolicy], ...]


@dataclass(frozen=True)
class Plan:
    rules: ir.Ruleset
    seats: int
    bots: tuple[str, ...]
    seed: int
    games: bool  # count games of the file's length, rather than single rounds
    record: str | None = None  # a folder to write every round (or game) to, as a scenario
    rules_ref: str = ""  # how the scenarios name the rule file
    options: BotOptions = field(default_factory=BotOptions)  # the search bots' budget
    engine: str = "scalar"  # "batch": the rounds are played by the batch engine (rulekit.batch)
    # the bots' pre-play policies, computed once before the run (rulekit.agents.calibrate)
    policies: Policies = ()


def run_part(plan: Plan, start: int, stop: int) -> Tally:
    """The tally of rounds (or games) start..stop-1 of the plan."""
    c = compiled_rules(plan.rules)
    tally = Tally(plan.seats)
    agents = [make_agent(plan.bots[s], 0, plan.options) for s in range(plan.seats)]
    if plan.engine == "batch":
        from rulekit.batch.engine import tally_games, tally_part

        if not plan.games:
            tally_part(c, plan.seats, plan.bots, plan.seed, start, stop, tally)
            return tally
        # the games the kernel marked (a deal it cannot play exactly) by the scalar engine
        for i in tally_games(c, plan.seats, plan.bots, plan.seed, start, stop, tally):
            _play_game(c, plan, agents, i, tally, None)
        return tally
    recorder = _Recorder(plan) if plan.record else None
    if not plan.games and recorder is None:
        _play_rounds(c, plan, agents, start, stop, tally)
        return tally
    for i in range(start, stop):
        if plan.games:
            _play_game(c, plan, agents, i, tally, recorder)
        else:
            round_moves: list[tuple[int, int]] | None = [] if recorder else None
            voided: list[tuple[Round, list[tuple[int, int]]]] = []
            rnd, voids = play_deal_out(
                c, plan.seats, i, agents, seed=plan.seed, moves=round_moves, voided=voided
            )
            tally.voids += voids
            tally.add_played(rnd)
            if recorder and round_moves is not None:
                title = f"round {i} of seed {plan.seed}"
                # the void deals first, each redealt by the same dealer: a game of one round
                played = [recorder.round(v, m) for v, m in voided]
                played.append(recorder.round(rnd, round_moves))
                recorder.write(f"round-{i:06d}", title, played, rnd.round_no + 1)
    return tally


def _play_game(
    c: CompiledRules,
    plan: Plan,
    agents: list[Agent],
    i: int,
    tally: Tally,
    recorder: _Recorder | None,
) -> None:
    """Game i of the plan into the tally (and its rounds written, with a recorder): its seed
    "{seed}:{i}", each bot started once, with "{seed}:{i}:{seat}"."""
    game = Game(c, plan.seats, seed=f"{plan.seed}:{i}")
    for s, a in enumerate(agents):
        a.start(f"{plan.seed}:{i}:{s}")
    written = []
    while not game.is_over:
        rnd = game.new_round()
        moves: list[tuple[int, int]] | None = [] if recorder else None
        result = play_round(rnd, agents, moves)
        tally.add_round(result)
        game.record(result)
        if recorder and moves is not None:  # a void deal too: it is redealt, not lost
            written.append(recorder.round(rnd, moves))
    if recorder:
        recorder.write(f"game-{i:06d}", f"game {i} of seed {plan.seed}", written)
    tally.add_unit(game.result().net, game.winners())


def _play_rounds(
    c: CompiledRules, plan: Plan, agents: list[Agent], start: int, stop: int, tally: Tally
) -> None:
    """run_part's single rounds, none recorded: one loop over the deals (the rounds of a
    simulation are mostly these), each round tallied from its state."""
    tally.voids += play_deals_out(
        c, plan.seats, start, stop, agents, seed=plan.seed, each=tally.add_played
    )


class _Recorder:
    """Writes rounds as scenario files into the plan's folder."""

    def __init__(self, plan: Plan) -> None:
        from rulekit.scenario.record import seat_names

        self.plan = plan
        self.folder = Path(plan.record or ".")
        self.names = seat_names(plan.seats)

    def round(self, rnd: Round, moves: list[tuple[int, int]]) -> dict[str, Any]:
        from rulekit.scenario.record import round_record

        return round_record(rnd, moves, self.names)

    def write(
        self, stem: str, title: str, rounds: list[dict[str, Any]], round_no: int | None = None
    ) -> None:
        """`round_no`: a single round's number in its game, from 1 (a game starts at 1)."""
        from rulekit.scenario.record import scenario_record, to_toml

        bots = ", ".join(self.plan.bots)
        doc = scenario_record(
            f"{title} ({bots})", self.plan.rules_ref, self.names, rounds, self.plan.seed, round_no
        )
        write_atomic(self.folder / f"{stem}.scenario.toml", to_toml(doc))


def game_winners(net: list[Any], teams: list[list[int]] | None) -> list[int]:
    """The seats with the best total (every member of the best team, in team play), a tie
    shared: a game without a `tie break` (Game.winners breaks one as the file says)."""
    units = teams or [[s] for s in range(len(net))]
    totals = [sum(net[s] for s in u) for u in units]
    top = max(totals)
    return [s for u, t in zip(units, totals, strict=True) if t == top for s in u]


def _worker(plan: Plan, start: int, stop: int) -> Tally:
    """A span of the run, in whichever process plays it."""
    calibrate.remember(plan.policies)
    return run_part(plan, start, stop)


def prepare(
    variants: list[CompiledRules],
    engines: list[str],
    seats: int,
    bots: tuple[str, ...],
    seed: int,
    notice: Callable[[str], None] | None,
) -> tuple[Policies, float]:
    """Build here, once, what the run's processes would each build: for the variants the batch
    engine plays (`engines`), its plans and its kernel (compiled now if it is not cached,
    `notice` told so first); and the bots' pre-play policies, to be handed over with the
    plan. Processes forked after inherit all of it. Returns the policies and the seconds the
    kernel took to compile (0.0: it did not), which a report's timings leave out."""
    batched = [c for c, e in zip(variants, engines, strict=True) if e == "batch"]
    compiling = 0.0
    if batched:
        from rulekit.batch.engine import load_kernel, plan_for

        plans = [plan_for(c, seats, bots, seed) for c in batched]
        compiling = load_kernel(plans[0], notice)
    return calibrate.policies_for(variants, seats, bots), compiling


def simulate(
    rules: ir.Ruleset,
    *,
    seats: int | None = None,
    bots: list[str] | None = None,
    seed: int = 0,
    rounds: int | None = None,
    games: int | None = None,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    record: Path | None = None,
    rules_ref: str = "",
    bot_options: BotOptions | None = None,
    engine: str = "auto",
    notice: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the plan and return the report (the same dict `--json` prints). `backend` "dask"
    runs the chunks on the Dask cluster at `scheduler` (recording needs a local backend: the
    scenarios are written where the work runs). `engine`: "auto" plays the rounds (or games)
    of the random, greedy and rulewise bots with the batch engine where it applies (the same
    rounds, faster), "scalar" never, "batch" or a usage error saying why not. `notice` is
    told, before it happens, of a wait that is not the run's own (the batch engine's kernel
    compiling)."""
    seats = rules.seats.min if seats is None else seats
    refusal = rules.seats.refusal(rules.title, seats)
    if refusal:
        raise UsageError(refusal)
    names = bots or [DEFAULT_BOT]
    options = bot_options or BotOptions()
    options.check()
    for name in names:
        make_agent(name)  # an unknown bot is a usage error before anything runs
    chosen = tuple(names[s % len(names)] for s in range(seats))
    if games is not None and rounds is not None:
        raise UsageError("give --rounds or --games, not both")
    count = games if games is not None else (rounds if rounds is not None else 1000)
    if count < 1:
        raise UsageError("the number of rounds or games must be at least 1")
    if count > MAX_COUNT:
        raise UsageError(f"at most {MAX_COUNT:,} rounds or games: more would not end")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if record is not None and backend != "local":
        raise UsageError("--record writes scenarios on this machine: use the local backend")
    if record is not None:
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot write scenarios to {record}: {exc.strerror}") from None
    used, why = choose_engine(engine, rules, seats, chosen, seed, games is not None, record, count)
    started = time.perf_counter()  # the policies and the kernel's loading are the run's work
    policies, compiling = prepare([compiled_rules(rules)], [used], seats, chosen, seed, notice)
    plan = Plan(
        rules,
        seats,
        chosen,
        seed,
        games is not None,
        str(record) if record else None,
        rules_ref,
        options,
        used,
        policies,
    )
    total = Tally(seats)
    parts = run_chunks(
        _worker,
        plan,
        count,
        chunk=max(1, CHUNK // (rules.length.rounds if plan.games else 1)),
        fast=used == "batch",
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
    )
    for part in parts:
        total.merge(part)
    seconds = time.perf_counter() - started - compiling
    out = report(total, plan, seconds)
    out["engine"] = used
    out["engine_note"] = why
    return out


ENGINES = ("auto", "scalar", "batch")
# a run this long is worth compiling the batch engine's kernel for, when it is not cached yet:
# the scalar engine would take about as long as the compile (greedy bots, 5,000 to 20,000
# rounds a second), and every later run is many times faster
COLD_ROUNDS = 300_000
COLD_NOTE = "its kernel is not compiled yet"  # the start of the note, as the CLI finds it


def choose_engine(
    engine: str,
    rules: ir.Ruleset,
    seats: int,
    bots: tuple[str, ...],
    seed: int,
    games: bool,
    record: Path | None,
    count: int,
) -> tuple[str, str | None]:
    """The engine that plays the plan, and why not the batch engine when it does not (None
    when it does). The two play the same rounds; the batch engine plays rounds and games of the
    random, greedy and rulewise bots, of the rule files whose mechanics its kernel knows."""
    if engine not in ENGINES:
        raise UsageError(f"no engine named '{engine}'", hint=f"engines: {', '.join(ENGINES)}")
    if engine == "scalar":
        return "scalar", None
    from rulekit.batch.engine import compile_seconds, kernel_ready, why_not

    why = why_not(compiled_rules(rules), seats, bots, seed)
    if why is None and record is not None:
        why = "--record writes every round's moves, which only the scalar engine keeps"
    if why is None and engine == "auto" and count < COLD_ROUNDS and not kernel_ready():
        why = (
            f"{COLD_NOTE} (once, about {compile_seconds()} s: `rulekit warmup` compiles it, as "
            f"do --engine batch and runs of {COLD_ROUNDS:,} rounds or more)"
        )
    if why is None:
        return "batch", None
    if engine == "batch":
        raise UsageError(f"the batch engine cannot play this: {why}", hint="use --engine auto")
    return "scalar", why


def report(t: Tally, plan: Plan, seconds: float) -> dict[str, Any]:
    unit = "game" if plan.games else "round"
    return {
        "rules": plan.rules.title,
        "seed": plan.seed,
        "unit": unit,
        "games": t.units if plan.games else None,
        "rounds": t.rounds,
        "voids": t.voids,
        "seconds": round(seconds, 3),
        "rounds_per_second": round(t.rounds / seconds, 1) if seconds > 0 else None,
        "seats": [
            {
                "seat": s,
                "bot": plan.bots[s],
                "mean": t.mean(s),
                "ci95": t.ci95(s),
                "wins": t.wins[s],
                "win_rate": t.wins[s] / t.units if t.units else 0.0,
                "total": as_number(t.total[s]),
            }
            for s in range(plan.seats)
        ],
        "teyaku": dict(t.teyaku.most_common()),
        "yaku": dict(t.yaku.most_common()),
        "ended_by": dict(t.ended_by.most_common()),
        "turns_per_round": t.turns / t.rounds if t.rounds else 0.0,
        "continued": t.continued,
        # games: each seat's mean score at a game's end (the starting score plus its mean net)
        "start": plan.rules.length.start if plan.games else None,
        "totals": [plan.rules.length.start + t.mean(s) for s in range(plan.seats)]
        if plan.games
        else None,
        # `show scores in kan`: a game's nets and totals are shown in the unit (its size here;
        # the key only where a file asks, so that other reports stay as they were)
        **_score_unit(plan.rules.unit if plan.games else None),
    }


def _score_unit(unit: ir.Unit | None) -> dict[str, Any]:
    """`score_unit`: the unit a game's nets and totals are shown in (`show scores in kan`), if
    the file asks (an empty dict otherwise)."""
    if unit is None or not unit.shown:
        return {}
    return {"score_unit": {"name": unit.name, "points": unit.points}}
