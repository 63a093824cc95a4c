"""Whole games (`simulate --games`) in the batch engine: game by game what the scalar engine
plays (engine.game.Game, as simulate's run_part plays it: the game's seed "{seed}:{i}", its
first dealer drawn from it, each deal keyed by the game's deal number with void deals redealt,
each bot started once per game, the next dealer and the multiplier's carry-over from each
round, the rounds or a target score, teams summed), for every bundled and house file at every
table size it allows, with random, greedy and rulewise bots; and `simulate --games` reports
the same with either engine, over one process or two."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.cli.app import cli
from rulekit.engine.game import Game
from rulekit.engine.playout import play_round
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.sim.simulate import choose_engine, simulate
from rulekit.stats.tally import Tally
from tests.test_batch_identity import cases

GAMES = 1  # per case and bots (a game is 6 to 12 rounds; the whole suite stays short)
SEED = 3
BOTS = ("random", "greedy", "rulewise")


def scalar_game(c: CompiledRules, seats: int, bots: tuple[str, ...], i: int) -> dict[str, Any]:
    """Game i of seed SEED as simulate's run_part plays it on the scalar engine."""
    tally = Tally(seats)
    agents = [make_agent(b, 0) for b in bots]
    game = Game(c, seats, seed=f"{SEED}:{i}")
    for s, a in enumerate(agents):
        a.start(f"{SEED}:{i}:{s}")
    while not game.is_over:
        result = play_round(game.new_round(), agents)
        tally.add_round(result)
        game.record(result)
    net = game.result().net
    tally.add_unit(net, game.winners())
    return {"net": net, "rounds": game.round_no, "voids": game.voids, "tally": vars(tally)}


def batch_game(c: CompiledRules, seats: int, bots: tuple[str, ...], i: int) -> dict[str, Any]:
    """Game i of seed SEED as the kernel plays it (None: handed to the scalar engine)."""
    tally = Tally(seats)
    assert batch.tally_games(c, seats, bots, SEED, i, i + 1, tally) == []
    played = batch.play_games(batch.plan_for(c, seats, bots, SEED), i, i + 1)
    scale = batch.plan_for(c, seats, bots, SEED).scale
    fractions = int(played.games[0, batch.K.GM_FRACTIONS])
    net = [
        Fraction(int(v), scale) if fractions >> s & 1 else int(v) // scale
        for s, v in enumerate(played.net[0])
    ]
    return {
        "net": net,
        "rounds": int(played.games[0, batch.K.GM_ROUNDS]),
        "voids": int(played.games[0, batch.K.GM_VOIDS]),
        "tally": vars(tally),
    }


def types(game: dict[str, Any]) -> list[type]:
    return [type(v) for v in game["net"]]


def game_cases() -> list[tuple[str, int]]:
    """Every bundled and house file at its fewest and most seats (the sizes between are
    played round by round by tests/test_batch_identity.py; a whole game at each would double
    this file's time)."""
    sizes: dict[str, list[int]] = {}
    for name, seats in cases():
        sizes.setdefault(name, []).append(seats)
    return [
        (n, s) for n, all_sizes in sizes.items() for s in sorted({min(all_sizes), max(all_sizes)})
    ]


@pytest.mark.parametrize(("name", "seats"), game_cases(), ids=lambda v: str(v))
def test_batch_plays_the_scalar_games(name: str, seats: int) -> None:
    """Game by game: each seat's net (and whether the scalar engine holds it as a fraction),
    the rounds, the void deals, and everything the tally adds (rounds, turns, continues,
    endings, teyaku, yaku, the sums of results and their squares, the wins)."""
    c = CompiledRules(load_rules(name))
    for bot in BOTS:
        bots = (bot,) * seats
        for i in range(GAMES):
            got = batch_game(c, seats, bots, i)
            want = scalar_game(c, seats, bots, i)
            assert got == want, f"{name} at {seats}, {bot}, game {i}"
            assert types(got) == types(want)


def test_mixed_bots_play_the_scalar_games() -> None:
    """A table of rulewise, greedy and random bots, over a game with a target score, teams
    (Hawaii at 4: pairs), and the multiplier's carry-over (Fudawiki)."""
    for name, seats in (("sakura/house/target-score", 3), ("sakura/hawaii", 4), ("fudawiki", 4)):
        rules = "hachihachi/fudawiki" if name == "fudawiki" else name
        c = CompiledRules(load_rules(rules))
        bots = tuple(("rulewise", "greedy", "random")[s % 3] for s in range(seats))
        for i in range(3):
            assert batch_game(c, seats, bots, i) == scalar_game(c, seats, bots, i), (name, i)


def test_every_bundled_and_house_file_plays_games_in_the_batch_engine() -> None:
    """`--engine batch --games` is served for every file at every table size (a refusal is a
    usage error)."""
    for name, seats in cases():
        rules = load_rules(name)
        for bot in BOTS:
            used = choose_engine("batch", rules, seats, (bot,) * seats, 1, True, None, 10)
            assert used == ("batch", None), (name, seats, bot)


APART = ("seconds", "rounds_per_second", "engine", "engine_note")


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


@pytest.mark.parametrize(
    ("name", "bots"),
    [("hachihachi", "greedy"), ("koikoi", "rulewise"), ("sakura/house/target-score", "random")],
)
def test_simulate_games_reports_the_scalar_report(name: str, bots: str) -> None:
    """`simulate --games N --json` with either engine: the same JSON, key for key and in the
    same order, but for the engine and the timings; and `--jobs 2` the same as `--jobs 1`."""
    common = [name, "--games", "12", "--seed", "9", "--bots", bots]
    fast = run_json(*common, "--engine", "batch")
    slow = run_json(*common, "--engine", "scalar")
    two = run_json(*common, "--engine", "batch", "--jobs", "2")
    assert (fast["engine"], slow["engine"], two["engine"]) == ("batch", "scalar", "batch")
    assert fast["unit"] == "game" and fast["games"] == 12
    same = [{k: v for k, v in run.items() if k not in APART} for run in (fast, slow, two)]
    assert json.dumps(same[0]) == json.dumps(same[1]) == json.dumps(same[2])


def test_simulate_plays_games_in_the_batch_engine() -> None:
    """`auto` no longer falls back to the scalar engine for whole games (once the kernel is
    compiled), and the report says which engine played."""
    batch.load_kernel()
    out = simulate(load_rules("koikoi"), bots=["greedy"], seed=1, games=5, engine="auto")
    assert (out["engine"], out["engine_note"]) == ("batch", None)
    assert out["games"] == 5 and out["rounds"] >= 5 * 6
