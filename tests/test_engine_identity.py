"""The engine plays exactly as it did: for every bundled rule file and table size, the same
seeds give the same deals, moves, ledgers, nets and endings, down to the last payment.

Speed work on the engine and the bots (rulekit/engine, the random and greedy bots, the
simulation loop) must not change play. Each case below plays some rounds (and a few whole
games) with fixed seeds and hashes everything a round shows into one SHA-256 digest; the
digests in tests/engine_digests.json were computed from the engine before that work.

A change that is meant to alter play (a rule fix) regenerates them, reviewed in the diff:

    .venv/bin/python tests/test_engine_identity.py --regenerate
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from rulekit.agents import make_agent
from rulekit.engine.game import Game
from rulekit.engine.playout import play_deal, play_round
from rulekit.engine.round import Round, RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names
from rulekit.sim.simulate import simulate

DIGESTS = Path(__file__).with_name("engine_digests.json")
ROUNDS = {"random": 120, "greedy": 80, "rulewise": 6}  # deals per case (fewer at large tables)
# rulewise (slow: rollouts, and a fold policy calibrated per table size) at the smallest table
# of each file, and at one table where players fold
RULEWISE_AT = {("hachihachi/fudawiki", 4)}
GAMES = 2  # whole games per case with random bots (dealer rotation, carry, game length)
MAX_SEATS = 5  # table sizes past this repeat the same mechanics more slowly
# a game's default file under its own name
ALIASES = {
    "hachihachi", "koikoi", "sakura", "bakappana", "hanaawase", "minhwatu", "mushi", "gostop",
    "tensho",
}  # fmt: skip


def cases() -> list[tuple[str, int, tuple[str, ...]]]:
    """(bundled file, table size, bots) for every table size each file allows, up to
    MAX_SEATS."""
    out = []
    for name in bundled_names():
        if name in ALIASES:
            continue
        r = load_rules(name)
        for seats in range(r.seats.min, min(r.seats.max, MAX_SEATS) + 1):
            if r.seats.refusal(r.title, seats):
                continue
            smallest = not any(n == name for n, _, _ in out)
            wise = smallest or (name, seats) in RULEWISE_AT
            out.append((name, seats, tuple(b for b in ROUNDS if wise or b != "rulewise")))
    return out


def _round_facts(rnd: Round, result: RoundResult, moves: list[tuple[int, int]]) -> str:
    """Everything a round shows: its deal, its moves, its ledger and outcome."""
    return repr(
        (
            rnd.initial_hands,
            rnd.initial_stock,
            rnd.laid_field,
            moves,
            result.ledger,
            result.net,
            result.ended_by,
            result.winner,
            result.winners,
            result.next_dealer,
            result.carry,
            result.multiplier,
            result.points,
            result.teyaku,
            result.yaku,
            result.turns,
            result.continued,
            result.continued_paid_off,
            rnd.captured,
        )
    )


def digest(name: str, seats: int, bot: str) -> str:
    """The digest of `ROUNDS[bot]` deals (and, for random bots, GAMES games and a simulate
    report) of a file at a table size."""
    compiled = CompiledRules(load_rules(name))
    h = hashlib.sha256()
    agents = [make_agent(bot) for _ in range(seats)]
    rounds = ROUNDS[bot] if seats <= 3 else ROUNDS[bot] // 2
    for i in range(rounds):
        moves: list[tuple[int, int]] = []
        rnd, result, voids = play_deal(compiled, seats, i, agents, seed=7, moves=moves)
        h.update(f"{voids}|{_round_facts(rnd, result, moves)}\n".encode())
    if bot == "random":
        for g in range(GAMES):
            game = Game(compiled, seats, seed=f"7:{g}")
            for s, a in enumerate(agents):
                a.start(f"7:{g}:{s}")
            while not game.is_over:
                rnd = game.new_round()
                moves = []
                result = play_round(rnd, agents, moves)
                game.record(result)
                h.update(f"game|{_round_facts(rnd, result, moves)}\n".encode())
            h.update(repr(game.result().net).encode())
        report = simulate(compiled.rules, seats=seats, bots=[bot], seed=3, rounds=40)
        for key in ("seconds", "rounds_per_second", "engine", "engine_note"):
            report.pop(key)  # how long, and which engine played: not what was played
        h.update(json.dumps(report, sort_keys=True).encode())
    return h.hexdigest()


def all_digests() -> dict[str, str]:
    return {
        f"{name}@{seats}:{bot}": digest(name, seats, bot)
        for name, seats, bots in cases()
        for bot in bots
    }


def _stored() -> dict[str, str]:
    data: dict[str, str] = json.loads(DIGESTS.read_text(encoding="utf-8"))
    return data


def test_every_case_has_a_stored_digest() -> None:
    want = {f"{n}@{s}:{b}" for n, s, bots in cases() for b in bots}
    assert want == set(_stored())


@pytest.mark.parametrize(("name", "seats", "bots"), cases())
def test_play_is_unchanged(name: str, seats: int, bots: tuple[str, ...]) -> None:
    stored = _stored()
    for bot in bots:
        assert digest(name, seats, bot) == stored[f"{name}@{seats}:{bot}"], (
            f"{name} at {seats} seats with {bot} bots plays differently"
        )


def test_the_digest_sees_a_change() -> None:
    """A house rule that changes only some payments gives another digest (it is not blind)."""
    base = digest("koikoi/sloper", 2, "greedy")
    assert base != digest("koikoi/house/seven-or-more-doubled", 2, "greedy")
    assert base == digest("koikoi/sloper", 2, "greedy")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(__doc__)
    DIGESTS.write_text(json.dumps(all_digests(), indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"wrote {DIGESTS}")
