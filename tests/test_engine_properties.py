"""Invariants over many seeded rounds of every bundled Hachi-Hachi file and table size: every
card is in exactly one place at every step, transfers sum to zero, a seed replays a round
exactly, and no illegal action is ever accepted."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.agents import make_agent
from rulekit.engine.game import Game
from rulekit.engine.ledger import BANK, Amount, Payment
from rulekit.engine.round import Round, card_places
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError
from tests.conftest import compiled

# (file, table sizes)
VARIANTS = [
    ("hachihachi/fudawiki", [3, 4, 5, 6]),
    ("hachihachi/kirisame", [3]),
    ("hachihachi/wikipedia-draft", [3, 4, 5, 6, 7]),
    ("hachihachi/two-player", [2]),
    ("koikoi/sloper", [2]),
    ("sakura/hawaii", [2, 3, 4, 5, 6, 7]),
    ("sakura/round-wins", [4]),
]
CASES = [(name, seats) for name, sizes in VARIANTS for seats in sizes]


def snapshot(rnd: Round) -> tuple[object, ...]:
    return (
        tuple(rnd.hands), rnd.field, tuple(rnd.stock), tuple(rnd.captured), rnd.phase,
        rnd.current, len(rnd.ledger), rnd.turn, tuple(rnd.folded), rnd.drawn,
    )  # fmt: skip


def play_checked(name: str, seats: int, seed: int, bot: str = "random") -> Round:
    c = compiled(name)
    rnd = Round(c, seats, seed % seats, seed=seed, deal_no=seed)
    rng = random.Random(seed)
    agents = [make_agent(bot, f"{seed}:{s}") for s in range(seats)]
    views = [PlayerView(rnd, s) for s in range(seats)]
    while True:
        places = card_places(rnd)
        assert all(n == 1 for n in places), f"cards out of place: {places}"
        if rnd.is_terminal:
            break
        legal = rnd.legal_actions()
        assert legal, "a player to move with no legal action"
        illegal = rng.choice(
            [a for a in (rng.randrange(-5, 8300) for _ in range(20)) if a not in legal] or [-1]
        )
        before = snapshot(rnd)
        with pytest.raises(MoveError):
            rnd.apply(illegal)
        assert snapshot(rnd) == before, "a rejected action changed the round"
        seat = rnd.current_player
        assert seat is not None
        rnd.apply(agents[seat].act(views[seat]))
    assert transfers_sum(rnd.result().ledger) == 0
    return rnd


def transfers_sum(ledger: list[Payment]) -> Amount:
    """What the payments between seats add up to: zero (scores against the bank are not
    transfers between seats)."""
    seats = max([p.payer for p in ledger] + [p.payee for p in ledger] + [0]) + 1
    net: list[Amount] = [0] * seats
    for p in ledger:
        if BANK not in (p.payer, p.payee):
            net[p.payer] -= p.amount
            net[p.payee] += p.amount
    return sum(net)


@settings(max_examples=250, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32),
    bot=st.sampled_from(["random", "greedy"]),
)
def test_cards_conserved_and_illegal_actions_rejected_at_every_step(
    case: tuple[str, int], seed: int, bot: str
) -> None:
    play_checked(case[0], case[1], seed, bot)


def run_round(name: str, seats: int, seed: int) -> tuple[object, ...]:
    c = compiled(name)
    rnd = Round(c, seats, seed % seats, seed=seed, deal_no=seed)
    agents = [make_agent("random", f"{seed}:{s}") for s in range(seats)]
    views = [PlayerView(rnd, s) for s in range(seats)]
    while not rnd.is_terminal:
        seat = rnd.current_player
        assert seat is not None
        rnd.apply(agents[seat].act(views[seat]))
    result = rnd.result()
    ledger = tuple((p.payer, p.payee, p.amount, p.reason, p.detail) for p in result.ledger)
    return ledger, (transfers_sum(result.ledger), *result.net)


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_thousands_of_rounds_are_zero_sum_and_replay_exactly(name: str, seats: int) -> None:
    for seed in range(600):
        ledger, net = run_round(name, seats, seed)
        assert net[0] == 0  # the transfers between seats
        if seed % 5 == 0:
            assert run_round(name, seats, seed) == (ledger, net)


def test_the_same_seed_deals_the_same_cards_in_every_variant_with_the_deck() -> None:
    hands = {
        name: Round(compiled(name), 3, 0, seed=42, deal_no=5).hands[:3]
        for name in ("hachihachi/fudawiki", "hachihachi/kirisame", "hachihachi/wikipedia-draft")
    }
    assert len(set(map(tuple, hands.values()))) == 1


@pytest.mark.parametrize(
    ("name", "seats"), [("hachihachi/fudawiki", 4), ("hachihachi/kirisame", 3)]
)
def test_a_whole_game_of_twelve_rounds(name: str, seats: int) -> None:
    c = compiled(name)
    game = Game(c, seats, seed=11)
    agents = [make_agent("greedy", s) for s in range(seats)]
    while not game.is_over:
        rnd = game.new_round()
        views = [PlayerView(rnd, s) for s in range(seats)]
        while not rnd.is_terminal:
            seat = rnd.current_player
            assert seat is not None
            rnd.apply(agents[seat].act(views[seat]))
        result = rnd.result()
        if not result.void:
            assert result.dealer == game.dealer
        game.record(result)
    result_game = game.result()
    assert len(result_game.rounds) == 12
    assert sum(result_game.net) == 0
    for before, after in zip(result_game.rounds, result_game.rounds[1:], strict=False):
        assert after.dealer == before.next_dealer
