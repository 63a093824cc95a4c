"""A file that passes `check` plays (issue 21, items 6 to 8): what the fuzzer and the condition
matrix found, pinned one by one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.errors import RuleErrors
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.rk"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_void_rule_that_voids_every_field_from_some_round_on_is_refused(tmp_path: Path) -> None:
    path = _file(tmp_path, 'extends "hachihachi/fudawiki"\nvoid if the field has round >= 2\n')
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    (err,) = info.value.errors
    assert "every field of 6 cards is void from round 2 on" in err.message
    assert err.loc is not None and err.loc.line == 2


def test_a_void_rule_that_leaves_almost_no_field_is_refused(tmp_path: Path) -> None:
    """Six plains, none of them January's: 0.61% of the fields of 6 cards."""
    path = _file(
        tmp_path,
        'extends "hachihachi/fudawiki"\nvoid if the field has not (plains = 6 and none of pine)\n',
    )
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    (err,) = info.value.errors
    assert "only 0.61% of the fields of 6 cards can be played" in err.message
    assert "redealt about 164 times" in err.message


def test_a_void_rule_that_leaves_one_field_in_a_hundred_plays_whole_games(tmp_path: Path) -> None:
    """A fuzzer's mutant: 1.1% of the fields (six plains) are played; play stopped after 100
    void deals in a row, a third of the time."""
    path = _file(
        tmp_path,
        'extends "hachihachi/fudawiki"\nsit out: the dealer\nvoid if the field has points >= 10\n',
    )
    rules = load_rules(path)
    report = simulate(rules, bots=["random"], seed=1, games=2, engine="scalar")
    assert report["games"] == 2 and report["voids"] > 100


def _many_terms(n: int, seed: int) -> str:
    rng = random.Random(seed)
    cards = [m * 10 + i for m in range(1, 13) for i in range(4)]
    return " or ".join(
        f"({rng.randint(1, 2)} of {', '.join(map(str, rng.sample(cards, 4)))} and lights >= 1)"
        for _ in range(n)
    )


@pytest.mark.parametrize(
    ("line", "terms"),
    [
        ('yaku\n  big "Big" 5: {terms}', 2500),
        ('yaku\n  big "Big" 5: ({terms}) and none of crane and crane >= 1', 2500),
        ('yaku\n  big "Big" 5: ({terms}) and none of crane and crane >= 1', 300),  # made by none
        ("void if the field has a month of 4 or ({terms})", 2500),
    ],
)
def test_a_condition_of_thousands_of_terms_is_checked_and_plays(
    tmp_path: Path, line: str, terms: int
) -> None:
    """A 40 KB condition of 2,500 `or` terms (small enough for the web editor) took minutes to
    check: the search splits a condition into its `or` branches (up to 512), and a search or a
    count past its budget gives the condition the benefit of the doubt (issue 21, item 7)."""
    text = 'extends "koikoi/sloper"\n' + line.format(terms=_many_terms(terms, 1)) + "\n"
    path = _file(tmp_path, text)
    if "crane >= 1" in line and terms <= 512:
        with pytest.raises(RuleErrors, match="no pile of captured cards can make 'big'"):
            load_rules(path)
        return
    rules = load_rules(path)
    simulate(rules, bots=["random"], seed=1, rounds=20, engine="scalar")


def test_the_joker_is_replaced_before_the_hands_are_read(tmp_path: Path) -> None:
    """A fuzzer's mutant: teyaku read a hand of the draft's table of seven with the joker still
    in it (an IndexError in the match); check refuses the order, and a joker added without
    its step is replaced before the teyaku or the instant wins."""
    path = _file(
        tmp_path,
        'extends "hachihachi/wikipedia-draft"\nsetup: hands, teyaku, fold, swap, joker, field\n',
    )
    with pytest.raises(RuleErrors, match="'teyaku' before the 'joker' step"):
        load_rules(path)
    path = _file(tmp_path, 'extends "koikoi/sloper"\njoker at 2 seats: replaced from the stock\n')
    rules = load_rules(path)
    assert rules.setup == ("hands", "swap", "field", "joker", "instant_win")
    simulate(rules, bots=["random"], seed=1, rounds=200, engine="scalar")


def test_teams_at_a_table_where_some_sit_out_are_refused(tmp_path: Path) -> None:
    """A fuzzer's mutant (seed 31337): Fudawiki's six seats, three of whom play, in pairs; the
    count found a team member with no pile (KeyError)."""
    path = _file(
        tmp_path,
        'extends "hachihachi/fudawiki"\ncount: round wins; always\nteams at 6 seats: pairs\n',
    )
    with pytest.raises(RuleErrors, match="teams at 6 seats, but 3 of them play a round") as info:
        load_rules(path)
    assert info.value.errors[0].loc is not None and info.value.errors[0].loc.line == 3
