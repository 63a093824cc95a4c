"""A choice the yaku can test (issue 25, Tensho): `declared NAME`, a condition on the rule
file's declaration, lets the dealer choose a set of yaku before the deal. Tensho's scenarios
(rules/tensho/scenarios/han-yaku-declared, instant-win-red-four, ...) pin the two sets; both
engines play Tensho alike (tests/test_batch_identity.py picks the bundled file up)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine.playout import play_deal
from rulekit.engine.setup import only_fold_stakes
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from tests.lang_helpers import errors_of, write

HAN = ir.Declared(name="han_yaku")


def _reads(e: ir.Yaku) -> set[ir.Condition]:
    return {c for c in ir.parts_of(e.condition) if isinstance(c, ir.Declared)}


def test_each_set_of_tenshos_yaku_reads_the_dealers_declaration() -> None:
    rules = load_rules("tensho/fudawiki")
    (d,) = rules.declarations
    assert (d.name, d.by, d.moment) == ("han_yaku", "dealer", "before_deal")
    assert rules.yaku is not None
    entries = {e.name: e for e in rules.yaku.entries}
    both = [n for n, e in entries.items() if not _reads(e)]
    assert len(both) == 12  # TE 19: "The first 12 yaku in Tensho are common to both sets"
    assert all(_reads(e) == {HAN} for n, e in entries.items() if n not in both)
    said = to_markdown(rulebook(rules))
    assert "all of maple_ribbon, clover_ribbon, geese and declared han_yaku" in said
    assert "and not declared han_yaku" in said
    assert "the dealer may declare Set 2 (han yaku): the conditions written 'declared" in said


def test_declared_is_said_in_words_by_diff(tmp_path: Path) -> None:
    house = write(
        tmp_path,
        'extends "tensho"\nyaku\n  back_elder "Back Elder" 100: all of bridge, phoenix, deer\n',
    )
    said = render(diff(load_rules("tensho"), load_rules(house)), "a", "b")
    assert "all of bridge, phoenix, deer and not declared han_yaku" in said


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'extends "koikoi/sloper"\nyaku\n  probe "Probe" 5: all of crane and declared shaking\n',
            "house.rk:3:37: 'declared shaking': this variant has no declaration",
        ),
        (
            'extends "tensho"\nyaku\n  probe "Probe" 5: all of crane and declared han_yak\n',
            "house.rk:3:37: 'declared han_yak': this variant's declaration is 'han_yaku'",
        ),
        (
            'extends "koikoi/sloper"\ndeclare probe "Probe": by the dealer; before the deal\n',
            "house.rk:2:9: declare probe: the declaration changes nothing",
        ),
        (
            'extends "tensho"\nteyaku\n  probe "Probe" 5: a month of 3 and declared han_yaku\n',
            "house.rk:3:37: 'declared' cannot be used in a teyaku condition",
        ),
    ],
)
def test_declared_is_a_located_error_where_it_names_nothing_or_means_nothing(
    tmp_path: Path, text: str, message: str
) -> None:
    said = errors_of(write(tmp_path, text))
    assert message in said
    if "han_yak'" in message:
        assert "did you mean 'han_yaku'?" in said


def test_a_declaration_a_condition_reads_is_asked_where_nobody_folds() -> None:
    """Its only stake is what the yaku read: the dealer is asked before every deal (a
    declaration about the fold alone is not asked where nobody folds)."""
    rules = load_rules("tensho/fudawiki")
    assert not only_fold_stakes(rules)
    c = CompiledRules(rules)
    moves: list[tuple[int, int]] = []
    rnd, _, _ = play_deal(c, 2, 4, [make_agent("random", s) for s in range(2)], seed=1, moves=moves)
    assert moves[0] in ((rnd.dealer, A.DECLARE), (rnd.dealer, A.PASS))


def test_greedy_keeps_set_1_and_random_bots_choose_either() -> None:
    """The documented rule: greedy passes a declaration that can cost it (before the deal),
    random picks either; so greedy tables never see a Set 2 yaku."""
    c = CompiledRules(load_rules("tensho/fudawiki"))
    set_2 = {"front_musume", "back_musume", "front_basan", "back_basan", "front_musume_basan"}
    set_2 |= {"back_musume_basan", "front_elder_han", "back_elder_han", "red_four"}
    declared = {"greedy": 0, "random": 0}
    for bot in declared:
        for number in range(30):
            agents = [make_agent(bot, s) for s in range(2)]
            rnd, result, _ = play_deal(c, 2, number, agents, seed=2)
            declared[bot] += rnd.declared != 0
            if not rnd.declared:
                assert not set_2 & {n for names in result.yaku.values() for n in names}
    assert declared["greedy"] == 0 and 5 <= declared["random"] <= 25
