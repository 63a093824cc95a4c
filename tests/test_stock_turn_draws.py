"""The stock played out (`play out the stock`) draws as a turn's draw does (issue 25): a stock
turn is the draw's own code (capture.draw_card, the kernel's draw_card) with no hand card, so a
bonus card, a lone card and the wild card drawn then play as they would after a play (before,
a short copy of the draw laid them on the field as ordinary cards). Both engines."""

from __future__ import annotations

from pathlib import Path

from rulekit.engine import actions as A
from rulekit.engine import capture
from rulekit.engine.round import Phase, Round
from rulekit.engine.state import RoundState
from rulekit.engine.tables import CompiledRules
from rulekit.lang.loader import load_rules_text
from tests.engine_helpers import play, stacked
from tests.test_batch_identity import SEEDS, assert_same_rounds, scalar_deal

HERE = Path(__file__).parent
PLAYED_OUT = "play out the stock\n"
# Mushi with a stock left when the hands are empty (its yaku do not end the round: the stock is
# played out in most rounds), a bonus card added, or the phoenix a lone card
WILD = 'extends "mushi/fudawiki"\ndeal 6 to each, 8 to the field\n' + PLAYED_OUT
BONUS = WILD + 'card 130 bonus_two "Bonus card" bonus as 2 plains\nexpect cards 41, points 231\n'
LONE = WILD + "lone phoenix: goes to whoever plays or draws it\n"


def variant(text: str) -> CompiledRules:
    return CompiledRules(load_rules_text(text, "v.rk", HERE / "v.rk"))


def stock_turns(c: CompiledRules, stock: list[int]) -> Round:
    """Alice and Bob each play their one card (pine 13 onto pine 12, plum 22 onto plum 23);
    Alice's draw, wisteria 43, takes wisteria 42, Bob's, cherry 33, takes cherry 32; the
    field is left iris 52 and susuki 82. Then Alice, Bob, ... draw `stock` out (from its end)."""
    rnd = Round(c, 2, 0, deal=stacked(c, [[13], [22]], [12, 23, 32, 42, 52, 82]))
    rnd.stock = [c.index.bit[i] for i in stock]
    rnd.stock.append(c.index.bit[33])
    rnd.stock.append(c.index.bit[43])
    play(rnd, [(0, "play 13"), (1, "play 22")])
    return rnd


def test_a_bonus_card_drawn_in_a_stock_turn_goes_to_the_drawer_who_draws_again() -> None:
    c = variant(BONUS)
    ids = c.index.mask
    rnd = stock_turns(c, [53, 130])  # Alice draws the bonus card, then iris 53 onto iris 52
    assert rnd.captured[0] == ids([12, 13, 42, 43, 130, 52, 53])
    assert rnd.field == ids([82])


def test_a_lone_card_drawn_in_a_stock_turn_goes_to_the_drawers_pile() -> None:
    c = variant(LONE)
    ids = c.index.mask
    rnd = stock_turns(c, [120])  # Alice draws the phoenix: to her pile, taking nothing
    assert rnd.captured[0] == ids([12, 13, 42, 43, 120])
    assert rnd.field == ids([52, 82])


def test_a_wild_card_drawn_in_a_stock_turn_chooses_its_target() -> None:
    c = variant(WILD)
    ids = c.index.mask
    rnd = stock_turns(c, [10, 113])  # Alice draws the lightning, then Bob the crane
    assert rnd.phase == Phase.TAKE and rnd.current_player == 0
    assert rnd.legal_actions() == [A.TAKE + rnd.ix.bit[52], A.TAKE + rnd.ix.bit[82]]
    play(rnd, [(0, "take 52")])  # then Bob's stock turn: the crane, laid
    assert rnd.captured[0] == ids([12, 13, 42, 43, 113, 52])
    assert rnd.field == ids([82, 10])


def test_a_wild_card_drawn_last_in_a_stock_turn_takes_the_whole_field() -> None:
    c = variant(WILD)
    ids = c.index.mask
    rnd = stock_turns(c, [113])  # the stock's last card
    assert rnd.field == 0
    assert rnd.captured[0] == ids([12, 13, 42, 43, 113, 52, 82])


# ---------------------------------------------------------------- both engines


def test_both_engines_play_the_stock_out_alike_with_special_cards() -> None:
    for label, text in (("bonus", BONUS), ("lone", LONE), ("wild", WILD)):
        assert_same_rounds(variant(text), f"stock played out, {label}", 2, 6)


def test_the_identity_deals_draw_special_cards_in_stock_turns(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The deals above draw each case's card in a stock turn (a kernel that drew it as an
    ordinary card there would fail them)."""
    drawn: list[int] = []
    turn = capture.stock_turn

    def noting(r: RoundState) -> bool:
        drawn.append(r.ix.ids[r.stock[-1]])
        return turn(r)

    monkeypatch.setattr(capture, "stock_turn", noting)
    for text, special in ((BONUS, {130, 131, 132}), (LONE, {120}), (WILD, {113})):
        drawn.clear()
        c = variant(text)
        for seed in SEEDS:
            for n in range(6):
                scalar_deal(c, 2, ("greedy", "greedy"), seed, n)
        assert special & set(drawn), text
