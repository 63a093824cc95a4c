"""Edges of the engine found in review: a joker written outside a hand, a round that ends before
the field is laid, a hiki that completes a liable yaku, the joker never in the stock, a drawn
round under `drawn_keeps_dealer`, the empty move's hint, exact shares, and the odds' seat
counts and bonuses."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.engine import actions as A
from rulekit.engine import ledger
from rulekit.engine.observation import Observation
from rulekit.engine.round import DECIDE, FOLD, Round, StackedDeal, card_places
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError, RulekitError, UsageError
from rulekit.odds import teyaku_odds
from rulekit.scenario.runner import run_scenario
from tests.conftest import compiled, rules
from tests.engine_helpers import payments, play, stacked

ROOT = Path(__file__).parent.parent
JOKER_AT_SEVEN = ROOT / "rules/hachihachi/scenarios/wikipedia-draft/joker-at-seven.scenario.toml"

# ---------------------------------------------------------------- the joker outside a hand

SEVEN_HANDS = (
    (30, 31, 40, 73, 91, 113, 121),
    (22, 33, 42, 52, 83, 90, 103),
    (20, 41, 62, 92, 93, 101, 122),
    (12, 13, 21, 80, 81, 82, 0),  # 0: the joker
    (23, 32, 53, 61, 72, 120, 123),
    (10, 43, 50, 63, 110, 111, 112),
    (11, 51, 60, 70, 71, 100, 102),
)
RESTOCK = (93, 121, 92, 101, 110, 31, 10, 112, 51, 111, 113, 41, 73, 71, 122, 63, 20, 70, 40)


def seven(
    field: tuple[int, ...] = (), stock: tuple[int, ...] = (), restock: tuple[int, ...] = RESTOCK
) -> Round:
    c = compiled("hachihachi/wikipedia-draft")
    return Round(c, 7, 0, deal=StackedDeal(SEVEN_HANDS, field, stock, restock))


@pytest.mark.parametrize(
    "where",
    [
        dict(field=(0, 11, 30)),
        dict(stock=(0,)),
        dict(restock=(0, *RESTOCK)),
    ],
    ids=["field", "stock", "restock"],
)
def test_a_joker_outside_a_hand_is_a_usage_error(where: dict[str, tuple[int, ...]]) -> None:
    with pytest.raises(UsageError, match="the joker is dealt only in a hand"):
        seven(**where)


@pytest.mark.parametrize(
    "where",
    [dict(field=(14,)), dict(stock=(14,)), dict(restock=(14, *RESTOCK))],
    ids=["field", "stock", "restock"],
)
def test_an_unknown_card_in_a_deal_is_a_usage_error(where: dict[str, tuple[int, ...]]) -> None:
    with pytest.raises(UsageError, match="no card 14"):
        seven(**where)


def test_an_unknown_card_in_a_hand_is_a_usage_error() -> None:
    c = compiled("hachihachi/fudawiki")
    deal = StackedDeal(((10, 11, 14), (20,), (30,)), (), ())
    with pytest.raises(UsageError, match="no card 14"):
        Round(c, 3, 0, deal=deal)


@pytest.mark.parametrize(
    ("written", "changed"),
    [
        ("field = [11,", 'field = ["joker", 11,'),
        ("stock = []", 'stock = ["joker"]'),
        ("restock = [93,", 'restock = ["joker", 93,'),
    ],
    ids=["field", "stock", "restock"],
)
def test_a_scenario_with_a_joker_outside_a_hand_fails_with_a_located_message(
    tmp_path: Path, written: str, changed: str
) -> None:
    text = JOKER_AT_SEVEN.read_text()
    assert written in text
    text = text.replace(written, changed, 1)
    path = tmp_path / "joker.scenario.toml"
    path.write_text(text)
    with pytest.raises(RulekitError, match="the joker is dealt only in a hand") as err:
        run_scenario(path)
    assert err.value.loc is not None  # located at the deal, not an internal error


# ---------------------------------------------------------------- the multiplier before the field


def instant_win_before_the_field() -> Round:
    """A 4-seat draft round whose every hand wins at once, checked before the field is laid;
    the fee of a fold is multiplied."""
    r = rules("hachihachi/wikipedia-draft")
    anything = ir.Shape(groups=(ir.ShapeGroup(size=1, count=1),))
    r2 = r.model_copy(
        update={
            "instant_wins": (ir.InstantWin(value=5, condition=anything, text="anything"),),
            "fold": r.fold.model_copy(update={"times_multiplier": True}),
            "setup": ("hands", "fold", "instant_win", "joker", "teyaku", "field"),
        }
    )
    rnd = Round(CompiledRules(r2), 4, 0, seed=1)
    assert rnd.multiplier == 1 and not rnd.field_laid  # no field yet: x1
    assert PlayerView(rnd, 0).multiplier == 1
    while rnd.phase == FOLD:
        rnd.apply(A.FOLD if rnd.current == 3 else A.JOIN)
    return rnd


def test_a_fold_fee_is_paid_in_full_when_the_round_ends_before_the_field() -> None:
    rnd = instant_win_before_the_field()
    assert rnd.ended_by == "instant" and not rnd.field_laid
    assert payments(rnd, "fold fee") == [(3, rnd.winner, 10, "fold fee")]
    assert rnd.result().multiplier == 1


# ---------------------------------------------------------------- hiki and liability


def test_a_hiki_that_completes_a_liable_yaku_is_paid_by_the_feeder() -> None:
    # As in the liability test of test_engine_rules: P1 lays the cherry poetry ribbon on the
    # empty March field holding 7 cards. P0 holds the other three March cards and takes the
    # four by hiki, completing Red Poems: P1 pays the whole hand.
    r = rules("hachihachi/kirisame").model_copy(update={"hiki": True})
    c = CompiledRules(r)
    deal = stacked(
        c,
        [
            [11, 21, 30, 32, 33, 120, 42],
            [31, 41, 70, 81, 52, 60, 100],
            [40, 51, 110, 111, 72, 82, 121],
        ],
        [12, 22, 62, 92, 102, 63],
        [43, 53, 71, 73, 83, 112, 113, 122, 123],
    )
    rnd = Round(c, 3, 0, deal=deal)
    play(rnd, [(0, "play 11"), (1, "play 31"), (2, "play 72"), (0, "play 21"), (1, "play 41")])
    play(rnd, [(2, "play 82"), (0, "hiki 3")])
    assert rnd.fed_this_turn >> c.index.bit[31] & 1
    play(rnd, [(0, "stop")])
    assert payments(rnd, "yaku", "liability") == [(1, 0, 168, "liability")]


# ---------------------------------------------------------------- the joker never in the stock


def joker_rules(seats: int) -> CompiledRules:
    """The draft with its joker at a table size where cards are left in the stock."""
    r = rules("hachihachi/wikipedia-draft")
    return CompiledRules(r.model_copy(update={"joker": ir.Joker(seats=seats)}))


@pytest.mark.parametrize("seats", [3, 4])
def test_a_joker_left_in_the_deck_never_reaches_the_stock(seats: int) -> None:
    c = joker_rules(seats)
    in_stock = 0
    for seed in range(60):
        rnd = Round(c, seats, seed % seats, seed=seed)
        assert rnd.joker_bit not in rnd.stock and rnd.joker_bit not in rnd.initial_stock
        in_stock += all(not h >> rnd.joker_bit & 1 for h in rnd.initial_hands)
        moves = random.Random(seed)
        while not rnd.is_terminal:
            assert rnd.joker_bit not in rnd.stock
            assert set(card_places(rnd)) == {1}
            rnd.apply(moves.choice(rnd.legal_actions()))
    assert in_stock  # some deals left the joker out of every hand


def test_a_sampled_round_deals_an_unseen_joker_into_a_hand() -> None:
    # In the fold phase the joker may sit in any hidden hand: a sample puts it in one of them,
    # never in the stock, and the sampled round plays out.
    c = joker_rules(4)
    found = 0
    for seed in range(40):
        rnd = Round(c, 4, 0, seed=seed)
        holder = [s for s in range(4) if rnd.hands[s] >> rnd.joker_bit & 1]
        if not holder or holder[0] == rnd.current:
            continue
        found += 1
        obs = Observation(rnd, rnd.current)
        rng = random.Random(seed)
        for _ in range(20):
            twin = obs.sample(rng)
            assert rnd.joker_bit not in twin.stock
            assert sum(h >> rnd.joker_bit & 1 for h in twin.hands) == 1
            while not twin.is_terminal:
                twin.apply(rng.choice(twin.legal_actions()))
    assert found


# ---------------------------------------------------------------- a drawn round


def test_a_drawn_round_passes_the_deal_when_the_dealer_does_not_keep_it() -> None:
    r = rules("koikoi/sloper")
    passes = CompiledRules(
        r.model_copy(update={"length": r.length.model_copy(update={"drawn_keeps_dealer": False})})
    )
    keeps = compiled("koikoi/sloper")
    for seed in range(200):
        results = []
        for c in (keeps, passes):
            rnd = Round(c, 2, 1, seed=seed)
            moves = random.Random(seed)
            while not rnd.is_terminal:
                rnd.apply(moves.choice(rnd.legal_actions()))
            results.append(rnd.result())
        kept, passed = results
        if kept.winner is None and not kept.void:
            assert kept.next_dealer == 1 and passed.next_dealer == 0
            return
        assert passed.next_dealer == kept.next_dealer
    pytest.fail("no drawn round in 200 seeds")


# ---------------------------------------------------------------- small things


def test_the_empty_move_hint_lists_every_move() -> None:
    with pytest.raises(MoveError) as err:
        A.parse("  ", compiled("sakura/hawaii").index)
    assert err.value.hint == A.MOVES_HINT
    for word in ("hiki", "swap", "keep"):
        assert word in (A.__doc__ or "")


def test_shares_are_exact() -> None:
    share, half = ledger.share, ledger.half
    assert share(9, 3) == 3 and isinstance(share(9, 3), int)
    assert share(10, 3) == Fraction(10, 3)
    assert share(Fraction(3, 2), 3) == Fraction(1, 2)
    assert share(Fraction(4, 2), 2) == 1 and isinstance(share(Fraction(4, 2), 2), int)
    assert half(7) == Fraction(7, 2) and half(8) == 4 and isinstance(half(8), int)


def test_teyaku_names_are_one_helper() -> None:
    c = compiled("hachihachi/fudawiki")
    for seed in range(30):
        rnd = Round(c, 3, 0, seed=seed)
        assert PlayerView(rnd, 0).teyaku == rnd.teyaku_names()
        while not rnd.is_terminal:
            rnd.apply(rnd.legal_actions()[0] if rnd.phase != DECIDE else A.STOP)
        assert rnd.result().teyaku == rnd.teyaku_names()


# ---------------------------------------------------------------- odds


@pytest.mark.parametrize("seats", [-2, 0, 2, 99])
def test_odds_refuse_a_table_size_the_file_does_not_seat(seats: int) -> None:
    r = rules("hachihachi/fudawiki")
    with pytest.raises(UsageError, match=f"seats 3 to 6 players, not {seats}"):
        teyaku_odds(r, seats)


def test_odds_count_an_entry_bonus() -> None:
    # One teyaku every hand has: 1, +2 per plain beyond 3. Its expected value is exact.
    r = rules("hachihachi/fudawiki")
    assert r.teyaku is not None
    plains = tuple(c.id for c in r.deck.cards if c.classes[0] == "plain")
    entry = r.teyaku.entries[0].model_copy(
        update={
            "name": "any_hand",
            "value": 1,
            "condition": ir.Count(cards=plains, op=">=", n=0),
            "bonus": ir.Bonus(amount=2, cards=plains, over=3),
            "unless": (),
            "parts": (),
        }
    )
    table = r.teyaku.model_copy(update={"entries": (entry,), "exclusive": ()})
    odds = teyaku_odds(r.model_copy(update={"teyaku": table}), 3)
    n, k, hand = len(r.deck.cards), len(plains), odds["hand"]
    expected = Fraction(
        sum(comb(k, j) * comb(n - k, hand - j) * (1 + 2 * max(0, j - 3)) for j in range(hand + 1)),
        comb(n, hand),
    )
    assert odds["any_teyaku"] == 1.0
    assert odds["expected_value"] == pytest.approx(float(expected))
