"""Each rule reading of the engine, on hand-built deals: sage and its penalties, half points,
liability, folds and their fees, the special hands at the count, void deals, carry-over."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rulekit.engine import actions as A
from rulekit.engine.game import Game
from rulekit.engine.round import Phase, Round
from rulekit.engine.tables import CompiledRules
from rulekit.errors import MoveError
from rulekit.lang import load_rules
from tests.conftest import compiled
from tests.engine_helpers import payments, play, stacked

# P0 holds the blue ribbons and P1 the poetry ribbons; their partners lie on the field, so P0
# makes Blue ribbons on his third turn and P1 Poetry ribbons on his third. Every other card of
# their months is at the bottom of the stock; nobody holds a teyaku; the field has no light.
SAGE_DEAL = dict(
    hands=[
        [61, 91, 101, 50, 80, 120, 42],
        [11, 21, 31, 41, 70, 81, 52],
        [40, 51, 110, 111, 72, 82, 121],
    ],
    field=[62, 92, 102, 12, 22, 32],
    stock_top=[43, 53, 71, 73, 83, 112, 113, 122, 123],
)
FIRST_TURNS = [
    (0, "play 61"),
    (1, "play 11"),
    (2, "play 72"),
    (0, "play 91"),
    (1, "play 21"),
    (2, "play 82"),
]


def sage_round(name: str) -> Round:
    c = compiled(name)
    rnd = Round(c, 3, 0, deal=stacked(c, **SAGE_DEAL))
    play(rnd, FIRST_TURNS)
    play(rnd, [(0, "play 101")])
    return rnd


def test_a_yaku_is_paid_when_made_then_the_maker_chooses() -> None:
    rnd = sage_round("hachihachi/fudawiki")
    assert rnd.phase == Phase.DECIDE and rnd.current_player == 0
    assert payments(rnd) == [(1, 0, 35, "yaku"), (2, 0, 35, "yaku")]
    play(rnd, [(0, "stop")])
    result = rnd.result()
    assert result.ended_by == "yaku" and result.winner == 0 and result.next_dealer == 0
    assert result.net == [70, -35, -35]


def test_sage_caller_refunds_half_and_pays_double_when_beaten() -> None:
    rnd = sage_round("hachihachi/fudawiki")
    play(rnd, [(0, "continue"), (1, "play 31"), (1, "stop")])
    assert payments(rnd) == [
        (1, 0, 35, "yaku"),
        (2, 0, 35, "yaku"),
        (0, 1, Fraction(35, 2), "refund"),
        (0, 2, Fraction(35, 2), "refund"),
        (0, 1, 70, "penalty"),
    ]
    result = rnd.result()
    assert result.net == [-35, Fraction(105, 2), Fraction(-35, 2)]
    assert result.winner == 1


def test_kirisame_sage_is_paid_on_stopping_and_the_beaten_caller_pays_all() -> None:
    rnd = sage_round("hachihachi/kirisame")
    assert payments(rnd) == []  # not paid yet: paid when its maker ends the round
    play(rnd, [(0, "continue"), (1, "play 31"), (1, "stop")])
    assert payments(rnd) == [(0, 1, 168, "penalty")]  # Red Poems 84, for both payers
    assert rnd.result().net == [-168, 168, 0]


def test_kirisame_stop_pays_the_hand_from_each_other_player() -> None:
    rnd = sage_round("hachihachi/kirisame")
    play(rnd, [(0, "stop")])
    assert payments(rnd) == [(1, 0, 84, "yaku"), (2, 0, 84, "yaku")]


def test_draft_continuing_without_a_new_yaku_earns_half() -> None:
    rnd = sage_round("hachihachi/wikipedia-draft")
    play(rnd, [(0, "continue"), (1, "play 31"), (1, "stop")])
    assert payments(rnd) == [
        (0, 1, 35, "yaku"),
        (2, 1, 35, "yaku"),
        (1, 0, Fraction(35, 2), "half"),
        (2, 0, Fraction(35, 2), "half"),
    ]


@pytest.fixture
def short_round(tmp_path: Path) -> object:
    """The same variant with 3-card hands; P0 takes the blue ribbons from the field with three
    plains, makes Blue ribbons on his last turn, continues, and nobody makes a yaku after."""

    def make(parent: str) -> Round:
        path = tmp_path / "short.rk"
        path.write_text(f'extends "{parent}"\ndeal 3 to each, 6 to the field\n', encoding="utf-8")
        c = CompiledRules(load_rules(path))
        deal = stacked(
            c,
            [[62, 92, 102], [41, 70, 81], [40, 51, 72]],
            [61, 91, 101, 12, 22, 32],
            [43, 53, 71, 73, 83, 112, 113, 122, 123],
        )
        rnd = Round(c, 3, 0, deal=deal)
        play(rnd, [(0, "play 62"), (1, "play 41"), (2, "play 72"), (0, "play 92"), (1, "play 70")])
        play(
            rnd, [(2, "play 40"), (0, "play 102"), (0, "continue"), (1, "play 81"), (2, "play 51")]
        )
        assert rnd.is_terminal
        return rnd

    return make


def test_fudawiki_sage_unfinished_keeps_what_was_paid(short_round) -> None:  # type: ignore[no-untyped-def]
    rnd = short_round("hachihachi/fudawiki")
    assert payments(rnd) == [(1, 0, 35, "yaku"), (2, 0, 35, "yaku")]
    assert rnd.result().winner == 0 and rnd.result().ended_by == "yaku"


def test_kirisame_sage_unfinished_pays_half_to_each(short_round) -> None:  # type: ignore[no-untyped-def]
    rnd = short_round("hachihachi/kirisame")
    assert payments(rnd) == [(0, 1, 42, "penalty"), (0, 2, 42, "penalty")]


def test_draft_unfinished_earns_half(short_round) -> None:  # type: ignore[no-untyped-def]
    rnd = short_round("hachihachi/wikipedia-draft")
    assert payments(rnd) == [(1, 0, Fraction(35, 2), "half"), (2, 0, Fraction(35, 2), "half")]


def test_liability_the_feeder_pays_the_whole_hand() -> None:
    # P1 lays the cherry poetry ribbon on the empty March field holding 7 cards; P0 captures it
    # with the curtain and completes Red Poems: P1 pays 84 for both payers.
    c = compiled("hachihachi/kirisame")
    deal = stacked(
        c,
        [
            [11, 21, 30, 50, 80, 120, 42],
            [31, 41, 70, 81, 52, 60, 100],
            [40, 51, 110, 111, 72, 82, 121],
        ],
        [12, 22, 62, 92, 102, 63],
        [43, 53, 71, 73, 83, 112, 113, 122, 123],
    )
    rnd = Round(c, 3, 0, deal=deal)
    play(rnd, [(0, "play 11"), (1, "play 31"), (2, "play 72"), (0, "play 21"), (1, "play 41")])
    play(rnd, [(2, "play 82"), (0, "play curtain"), (0, "stop")])
    assert payments(rnd) == [(1, 0, 168, "liability")]


def test_a_card_played_with_the_last_card_in_hand_is_no_liability() -> None:
    c = compiled("hachihachi/kirisame")
    rnd = Round(c, 3, 0, deal=stacked(c, **SAGE_DEAL))
    rnd.feeders[c.index.bit[31]] = (1, 1)  # as if P1 had played it as his last card
    assert rnd._liable_feeder(0, c.yaku.position["red_poems"]) is None  # type: ignore[union-attr]


def four_seat_round(name: str, dealer: int = 0) -> Round:
    c = compiled(name)
    return Round(c, 4, dealer, seed=7)


def test_fold_phase_starts_at_the_dealer_and_the_last_must_fold_for_free() -> None:
    rnd = four_seat_round("hachihachi/fudawiki", dealer=2)
    assert rnd.phase == Phase.FOLD and rnd.current_player == 2
    play(rnd, [(2, "join"), (3, "join"), (0, "join")])  # 3 joined: seat 1 must fold, free
    assert rnd.folded == [False, True, False, False]
    assert rnd.fold_fees == []
    assert rnd.order[0] == 2  # the dealer plays first


def test_if_too_few_remain_the_rest_must_join() -> None:
    rnd = four_seat_round("hachihachi/fudawiki")
    play(rnd, [(0, "fold")])  # seats 1, 2, 3 must all join now
    assert rnd.phase != Phase.FOLD and rnd.order == [1, 2, 3]
    assert rnd.fold_fees == [(0, 10, True)]


def test_a_folding_dealer_is_followed_by_the_next_player() -> None:
    rnd = four_seat_round("hachihachi/fudawiki")
    play(rnd, [(0, "fold")])
    assert rnd.current_player == 1


def test_draft_fold_starts_after_the_dealer_and_forced_folds_pay() -> None:
    rnd = four_seat_round("hachihachi/wikipedia-draft", dealer=0)
    assert rnd.current_player == 1
    play(rnd, [(1, "join"), (2, "join"), (3, "join")])
    assert rnd.folded[0] and rnd.fold_fees == [(0, 10, False)]
    while not rnd.is_terminal:
        rnd.apply(rnd.legal_actions()[0] if rnd.phase != Phase.DECIDE else A.STOP)
    result = rnd.result()
    if not result.void and result.winner is not None:
        assert (0, result.winner, 10, "forced fold") in payments(rnd, "forced fold")


def test_the_fold_fee_is_multiplied_in_fudawiki_and_goes_to_the_winner() -> None:
    c = compiled("hachihachi/fudawiki")
    for seed in range(200):
        rnd = Round(c, 4, 0, seed=seed)
        if rnd.void or rnd.multiplier == 1:
            continue
        play(rnd, [(0, "fold")])
        while not rnd.is_terminal:
            rnd.apply(rnd.legal_actions()[0] if rnd.phase != Phase.DECIDE else A.STOP)
        fees = payments(rnd, "fold fee")
        assert fees == [(0, rnd.winner, 10 * rnd.multiplier, "fold fee")]
        return
    pytest.fail("no deal with a light on the field in 200 seeds")


def test_the_joker_at_seven_seats_is_replaced_from_the_stock() -> None:
    c = compiled("hachihachi/wikipedia-draft")
    for seed in range(50):
        rnd = Round(c, 7, 0, seed=seed)
        holder = next(s for s in range(7) if rnd.hands[s] >> rnd.joker_bit & 1)
        fold = [s for s in range(1, 8) if s % 7 != holder][:4]
        for _ in range(4):
            seat = rnd.current_player
            assert seat is not None
            rnd.apply(A.FOLD if seat != holder and sum(rnd.folded) < 4 else A.JOIN)
        if rnd.folded[holder]:
            continue
        assert not rnd.hands[holder] >> rnd.joker_bit & 1
        assert rnd.hands[holder].bit_count() == 7
        del fold
        return
    pytest.fail("the joker never reached an active player")


def test_a_void_field_is_redealt_by_the_same_dealer_and_pays_nothing() -> None:
    c = compiled("hachihachi/fudawiki")
    deal = stacked(
        c,
        [
            [10, 20, 21, 42, 52, 62, 72],
            [90, 11, 23, 53, 63, 73, 102],
            [30, 40, 51, 13, 33, 43, 103],
        ],
        [80, 81, 82, 83, 92, 93],
    )
    rnd = Round(c, 3, 1, deal=deal)
    result = rnd.result()
    assert result.void and result.ledger == [] and result.next_dealer == 1


def test_draft_three_pairs_on_the_field_void_the_round() -> None:
    c = compiled("hachihachi/wikipedia-draft")
    deal = stacked(c, PLAIN_HANDS, [92, 93, 100, 101, 122, 123])
    assert Round(c, 3, 0, deal=deal).result().void


def test_the_multiplier_carries_over_to_the_next_round() -> None:
    c = compiled("hachihachi/fudawiki")
    game = Game(c, 3, seed=3, dealer=0)
    # a field with the rain man and the phoenix: x4, and at least x4 next round
    deal = stacked(c, PLAIN_HANDS, [110, 120, 83, 92, 102, 93])
    rnd = Round(c, 3, 0, deal=deal)
    while not rnd.is_terminal:
        rnd.apply(rnd.legal_actions()[0] if rnd.phase != Phase.DECIDE else A.STOP)
    result = rnd.result()
    assert (result.multiplier, result.carry) == (4, 4)
    game.record(result)
    assert game.carry == 4
    nxt = game.new_round()
    assert nxt.void or nxt.multiplier == 4


def test_the_draft_multiplier_does_not_carry() -> None:
    c = compiled("hachihachi/wikipedia-draft")
    assert c.multiplier.of_field(c.index.mask([110, 120])) == (4, 1)


# ---------------------------------------------------------------- the count


# Hands with no teyaku in any of the files, and a field with no light (x1).
PLAIN_HANDS = [
    [10, 20, 21, 42, 52, 62, 72],
    [80, 90, 11, 23, 53, 63, 73],
    [30, 40, 51, 13, 33, 43, 82],
]
PLAIN_FIELD = [92, 102, 122, 83, 93, 112]


def counted_round(
    name: str, piles: list[list[int]], hands: list[list[int]] | None = None, dealer: int = 0
) -> Round:
    """A round whose hands are played out into these captured piles (white-box: the count
    logic alone, without finding a deal that plays into exactly these piles)."""
    c = compiled(name)
    rnd = Round(c, 3, dealer, deal=stacked(c, hands or PLAIN_HANDS, PLAIN_FIELD))
    assert rnd.multiplier == 1
    rnd.hands = [0, 0, 0]
    rnd.captured = [c.index.mask(p) for p in piles]
    rnd.turn = rnd.total_turns
    rnd._end_of_hands()
    return rnd


def deck_split(points: list[int], name: str = "hachihachi/kirisame") -> list[list[int]]:
    """Three piles with these card points, built greedily from the deck."""
    c = compiled(name)
    cards = sorted(c.index.ids, key=lambda i: -c.rules.card_points(i))
    piles: list[list[int]] = [[], [], []]
    totals = [0, 0, 0]
    for cid in cards:
        s = max(range(3), key=lambda k: points[k] - totals[k])
        piles[s].append(cid)
        totals[s] += c.rules.card_points(cid)
    assert totals == points, totals
    return piles


def test_no_teyaku_in_the_plain_hands() -> None:
    for name in ("hachihachi/fudawiki", "hachihachi/kirisame"):
        rnd = counted_round(name, deck_split([88, 88, 88], name))
        assert payments(rnd, "teyaku") == []


def test_all_eights_the_dealer_collects_and_the_count_is_cancelled() -> None:
    rnd = counted_round("hachihachi/kirisame", deck_split([88, 88, 88]), dealer=2)
    assert payments(rnd) == [(0, 2, 120, "special"), (1, 2, 120, "special")]
    assert rnd.result().winner == 2


def test_fudawiki_all_eights_pays_the_dealer_50_from_each() -> None:
    rnd = counted_round(
        "hachihachi/fudawiki", deck_split([88, 88, 88], "hachihachi/fudawiki"), dealer=1
    )
    assert sorted(payments(rnd)) == [(0, 1, 50, "special"), (2, 1, 50, "special")]


def test_double_eights_cancels_the_count_and_returns_the_teyaku() -> None:
    # seat 2 was dealt a Three (March, with a light, a ribbon and animals: nothing else)
    hands = [PLAIN_HANDS[0], PLAIN_HANDS[1], [30, 31, 32, 40, 50, 60, 70]]
    rnd = counted_round("hachihachi/kirisame", deck_split([170, 50, 44]), hands)
    assert payments(rnd) == [
        (0, 2, 24, "teyaku"),
        (1, 2, 24, "teyaku"),
        (1, 0, 120, "special"),
        (2, 0, 120, "special"),
        (2, 0, 24, "teyaku returned"),
        (2, 1, 24, "teyaku returned"),
    ]
    assert rnd.result().winner == 0


def test_double_eight_in_fudawiki_is_paid_on_top_of_the_count() -> None:
    rnd = counted_round("hachihachi/fudawiki", deck_split([170, 50, 44], "hachihachi/fudawiki"))
    assert payments(rnd, "special") == [(1, 0, 50, "special"), (2, 0, 50, "special")]
    assert payments(rnd, "count") == [(1, 0, 38, "count"), (2, 0, 44, "count")]


def test_simple_16_pays_24_more_per_extra_dreg() -> None:
    c = compiled("hachihachi/kirisame")
    # November cards count as dregs (reading): 14 plains and the 4 November cards, 2 over 16
    plains = [
        cid for cid in c.index.ids if c.rules.card(cid).classes == ("plain",) and cid // 10 != 11
    ]
    pile0 = [*plains[:14], 110, 111, 112, 113]
    rest = [cid for cid in c.index.ids if cid not in pile0]
    rnd = counted_round("hachihachi/kirisame", [pile0, rest[:15], rest[15:]])
    assert payments(rnd, "special") == [(1, 0, 192, "special"), (2, 0, 192, "special")]
    assert payments(rnd, "count") == []  # Simple 16 cancels the count


def test_escape_had_a_composition_hand_and_captured_89_or_more() -> None:
    # seat 1 was dealt One Slip (a ribbon and six dregs) and captures 95 points
    hands = [PLAIN_HANDS[0], [101, 12, 22, 32, 43, 83, 93], PLAIN_HANDS[1]]
    field = [92, 102, 122, 13, 33, 112]
    c = compiled("hachihachi/kirisame")
    rnd = Round(c, 3, 0, deal=stacked(c, hands, field))
    assert rnd.c.teyaku is not None and rnd.c.teyaku.names[rnd.teyaku_counted[1][0]] == "one_slip"
    rnd.hands = [0, 0, 0]
    rnd.captured = [c.index.mask(p) for p in deck_split([80, 95, 89])]
    rnd.turn = rnd.total_turns
    rnd._end_of_hands()
    assert payments(rnd, "special") == [(0, 1, 12, "special"), (2, 1, 12, "special")]
    assert payments(rnd, "count")  # Escape adds: the count still happens


# ---------------------------------------------------------------- illegal moves


def test_a_wrong_action_names_the_legal_ones() -> None:
    c = compiled("hachihachi/fudawiki")
    rnd = Round(c, 3, 0, deal=stacked(c, **SAGE_DEAL))
    with pytest.raises(MoveError) as info:
        rnd.apply(A.parse("play 11", c.index))
    assert "seat 0 does not hold that card" in info.value.message
    assert "play 61 peony_ribbon" in (info.value.hint or "")
    with pytest.raises(MoveError):
        rnd.apply(A.STOP)
    assert rnd.current_player == 0 and rnd.hands[0].bit_count() == 7


def test_two_players_the_lower_total_pays_the_difference_times_the_multiplier() -> None:
    c = compiled("hachihachi/two-player")
    hands = [PLAIN_HANDS[0], PLAIN_HANDS[1]]
    rnd = Round(c, 2, 0, deal=stacked(c, hands, [110, 122, 83, 92, 102, 112]))  # the rain man: x4
    assert rnd.multiplier == 4
    lights_and_animals = [10, 30, 80, 120, 20, 40, 50]  # 110 points
    rnd.hands = [0, 0]
    rnd.captured = [
        c.index.mask([12, 13, 22, 23, 32, 33, 42, 43]),
        c.index.mask(lights_and_animals),
    ]
    rnd.turn = rnd.total_turns
    rnd._end_of_hands()
    assert payments(rnd) == [(0, 1, (110 - 8) * 4, "count")]
    assert rnd.result().winner == 1 and rnd.result().next_dealer == 1


def test_the_first_dealer_is_chosen_by_seeded_dice() -> None:
    from rulekit.engine.game import first_dealer

    c = compiled("hachihachi/fudawiki")
    dealers = [first_dealer(c, 4, seed) for seed in range(40)]
    assert dealers == [first_dealer(c, 4, seed) for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}


def test_a_round_needs_a_legal_table_size() -> None:
    from rulekit.errors import UsageError

    with pytest.raises(UsageError, match="seats 3 players, not 4"):
        Round(compiled("hachihachi/kirisame"), 4, 0)
