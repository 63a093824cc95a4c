"""Issue 11, points 4 and 5 (engine side): sit-out policies, fold fee payees as roles, a fold
declared before the deal (the deciding seat sees no hand), yaku paid as made in a round that
plays on, and yaku that can be lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import actions as A
from rulekit.engine.ledger import BANK
from rulekit.engine.round import FOLD, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from tests.engine_helpers import play, stacked

FOUR_SEATS = 'extends "hachihachi/fudawiki"\nseats 4, 3 play\ndeal 3 to each, 6 to the field\n'
HANDS = ([62, 92, 102], [10, 20, 30], [41, 70, 81], [40, 51, 72])
FIELD = [61, 91, 101, 12, 22, 32]
RESTOCK = [43, 53, 71, 73, 83, 112, 113, 122, 123]
PLAY = [(0, "play 62"), (2, "play 41"), (3, "play 72"), (0, "play 92"), (2, "play 70")]
PLAY += [(3, "play 40"), (0, "play 102"), (0, "stop")]


def compiled(tmp_path: Path, extra: str) -> CompiledRules:
    path = tmp_path / "house.rk"
    path.write_text(FOUR_SEATS + extra, encoding="utf-8")
    return CompiledRules(load_rules(path))


def round_of(c: CompiledRules, dealer: int = 0) -> Round:
    return Round(c, 4, dealer, deal=stacked(c, HANDS, FIELD, restock=RESTOCK))


@pytest.mark.parametrize(
    ("policy", "dealer", "out"),
    [
        ("the players after the dealer, in turn", 0, 1),
        ("the players after the dealer", 3, 0),
        ("the dealer", 0, 0),
        ("the dealer", 2, 2),
    ],
)
def test_a_rotating_sit_out_takes_no_decision(
    tmp_path: Path, policy: str, dealer: int, out: int
) -> None:
    rnd = round_of(compiled(tmp_path, f"sit out: {policy}\n"), dealer)
    assert rnd.phase != FOLD
    assert rnd.active_seats() == [s for s in range(4) if s != out]
    assert rnd.hands[out] == 0


def test_two_sit_out_in_turn(tmp_path: Path) -> None:
    path = tmp_path / "house.rk"
    path.write_text(
        'extends "hachihachi/fudawiki"\nseats 5, 3 play\ndeal 3 to each, 6 to the field\n'
        "sit out: the dealer\n",
        encoding="utf-8",
    )
    c = CompiledRules(load_rules(path))
    rnd = Round(c, 5, 4, seed=1)
    assert rnd.active_seats() == [1, 2, 3]  # the dealer (4), then the player after him (0)


@pytest.mark.parametrize(
    ("payee", "expected"),
    [
        ("to the round winner", [(1, 0, 10)]),
        ("to the dealer", [(1, 3, 10)]),
        ("to the bank", [(1, BANK, 10)]),
    ],
)
def test_fold_fee_payees(tmp_path: Path, payee: str, expected: list[tuple[int, int, int]]) -> None:
    """Dave (3) deals; Bob (1) folds; Alice (0) makes Blue ribbons and wins."""
    c = compiled(tmp_path, f"fold: fee 10; starts at dealer; {payee}\n")
    rnd = round_of(c, dealer=3)
    play(rnd, [(3, "join"), (0, "join"), (1, "fold")])
    play(rnd, [(3, "play 72"), (0, "play 62"), (2, "play 41"), (3, "play 40")])
    play(rnd, [(0, "play 92"), (2, "play 70"), (3, "play 51"), (0, "play 102"), (0, "stop")])
    fees = [(p.payer, p.payee, p.amount) for p in rnd.ledger if p.reason == "fold fee"]
    assert fees == expected


def test_a_fold_before_the_deal_is_decided_unseen(tmp_path: Path) -> None:
    c = compiled(tmp_path, "fold: fee 10; before the deal\n")
    rnd = round_of(c)
    assert rnd.phase == FOLD and rnd.current_player == 0
    view = PlayerView(rnd, 0)
    assert view.hand == 0 and view.field == 0
    assert view.unseen() == rnd.ix.full  # nothing seen: no hand, no field yet
    observed = view.observe().round
    assert observed.hands[0] == 0
    play(rnd, [(0, "join"), (1, "fold")])
    assert rnd.phase != FOLD and PlayerView(rnd, 0).hand != 0
    assert not rnd.hands[1] and rnd.field  # the field is laid after the fold
    play(rnd, PLAY)
    assert rnd.winner == 0


def test_a_fold_after_the_deal_sees_the_hand(tmp_path: Path) -> None:
    rnd = round_of(compiled(tmp_path, "fold: fee 10\n"))
    assert rnd.phase == FOLD and PlayerView(rnd, 0).hand != 0


def test_a_rotating_sit_out_pays_no_fee(tmp_path: Path) -> None:
    c = compiled(tmp_path, "sit out: the players after the dealer, in turn\n")
    rnd = round_of(c)
    play(rnd, PLAY)
    assert [p.reason for p in rnd.ledger] == ["yaku", "yaku"]
    assert all(1 not in (p.payer, p.payee) for p in rnd.ledger)


def test_the_stop_is_refused_when_no_choice_is_due(tmp_path: Path) -> None:
    c = compiled(tmp_path, "sit out: the players after the dealer, in turn\n")
    rnd = round_of(c)
    with pytest.raises(Exception, match="must play a card"):
        rnd.apply(A.parse("stop", rnd.ix))
