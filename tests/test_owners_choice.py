"""Owner's choices of how a card counts (issue 23, item 3): `treat sake as animal or 2 plains,
owner's choice`, read into the IR (the yaku read the second way, the card weighing twice), both
engines reading a pile the way its yaku are worth more, said by describe and diff, refused with
located errors, stated by scenarios. (Deal by deal in both engines: tests/test_batch_identity.py
and tests/test_batch_games.py pick up rules/koikoi/house/sake-owners-choice.rk.)"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.batch import tables as bt
from rulekit.batch.engine import CHOICES as KERNEL_CHOICES
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine.tables import ChoiceTable, CompiledRules, condition_test
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.choice import weigh
from rulekit.scenario.runner import run_scenario
from rulekit.sim.exercise import count_readings, exercised
from tests.lang_helpers import errors_of, write

HOUSE = "koikoi/house/sake-owners-choice"
SAKE = 90
PLAINS = [12, 13, 22, 23, 32, 33, 42, 43, 52, 53, 62, 63]
ANIMALS = [20, 40, 50, 60, 70, 81, 100, 111]  # the sake cup left out
CHOICES_AT = {key: i for i, key in enumerate(KERNEL_CHOICES)}


@pytest.fixture(scope="module")
def house() -> CompiledRules:
    return CompiledRules(load_rules(HOUSE))


def _reading(c: CompiledRules, cards: list[int]) -> tuple[list[str], int, str]:
    """The yaku counted for a pile, their worth, and the class its sake cup counted as."""
    table = c.yaku
    assert isinstance(table, ChoiceTable)
    x = c.index.mask(cards)
    counted, value = table.counted_value(table.match_play(x), x)
    choice = c.rules.owners_choice
    assert choice is not None
    took = choice.second if table.second_reading(x) else choice.first
    return [table.names[i] for i in counted], value, took


def test_treat_owners_choice_is_read_into_the_ir() -> None:
    rules = load_rules(HOUSE)
    choice = rules.owners_choice
    assert choice is not None
    assert (choice.cards, choice.first, choice.second, choice.weight) == (
        (SAKE,),
        "animal",
        "plain",
        2,
    )
    assert choice.text == "sake as animal or 2 plains, owner's choice"
    # read the first way everywhere no owner chooses: an animal only (Sloper's `also` replaced)
    assert next(c for c in rules.deck.cards if c.id == SAKE).classes == ("animal",)
    assert rules.yaku is not None
    assert [e.name for e in choice.yaku.entries] == [e.name for e in rules.yaku.entries]
    second = {e.name: e for e in choice.yaku.entries}
    assert second["ten_plains"].bonus is not None and second["ten_plains"].bonus.extra == (SAKE,)
    animals = second["five_animals"].condition
    assert isinstance(animals, ir.Count) and SAKE not in animals.cards  # no longer an animal


def test_a_card_of_weight_two_counts_twice_in_the_second_reading(house: CompiledRules) -> None:
    choice = house.rules.owners_choice
    assert choice is not None
    ten = next(e for e in choice.yaku.entries if e.name == "ten_plains")
    test = condition_test(ten.condition, house.index)
    mask = house.index.mask
    assert test(mask([*PLAINS[:8], SAKE]))  # 8 + 2
    assert not test(mask([*PLAINS[:7], SAKE]))  # 7 + 2
    assert not test(mask(PLAINS[:9]))
    assert test(mask(PLAINS[:10]))
    # the bonus counts it twice too: eight plains and the cup are ten, one more is eleven
    table = house.yaku
    assert isinstance(table, ChoiceTable)
    i = table.position["ten_plains"]
    assert table.second.value(i, mask([*PLAINS[:9], SAKE])) == 2


def test_weigh_splits_a_count_by_whether_the_heavy_card_is_held() -> None:
    count = ir.Count(cards=(1, 2, 3), op=">=", n=1, label="plains")
    split = weigh(count, {count: frozenset({3})}, {3: 2})
    # held: the rest needs -1 or more (always); not held: the rest needs 1
    assert split == ir.Or(
        items=(
            ir.And(
                items=(
                    ir.Count(cards=(3,), op="=", n=0),
                    ir.Count(cards=(1, 2), op=">=", n=1, label="plains"),
                )
            ),
            ir.AllOf(cards=(3,)),
        )
    )


def test_owners_choice_reads_the_pile_the_way_its_yaku_are_worth_more(house: CompiledRules) -> None:
    # eight plains and the cup: nothing as an animal, ten plains as two plains
    assert _reading(house, [*PLAINS[:8], SAKE]) == (["ten_plains"], 1, "plain")
    # four animals and the cup: five animals as an animal, nothing as two plains
    assert _reading(house, [*ANIMALS[:4], SAKE]) == (["five_animals"], 1, "animal")
    # worth the same either way (1 and 1): the first reading, an animal
    assert _reading(house, [*ANIMALS[:4], SAKE, *PLAINS[:8]]) == (["five_animals"], 1, "animal")
    # nine plains: eleven plains (2) beat five animals (1), which the reading gives up
    assert _reading(house, [*ANIMALS[:4], SAKE, *PLAINS[:9]]) == (["ten_plains"], 2, "plain")
    # the cup by name is the cup either way: the viewing holds in both readings
    assert _reading(house, [SAKE, 80])[0] == ["moon_viewing"]


def test_the_kernel_reads_an_owners_choice_as_the_scalar_engine(house: CompiledRules) -> None:
    """The kernel's table functions against engine/tables.ChoiceTable on random piles that hold
    the cup: the same hits, values and counted entries, so the same reading."""
    table = house.yaku
    assert isinstance(table, ChoiceTable)
    tab = bt.table_arrays(table, house.index)
    assert tab[bt.T_SECOND] > 0 and tab[bt.T_CHOICE] == house.index.mask((SAKE,))
    rng = random.Random(23)
    ids = [c for c in house.index.ids if c != SAKE]
    piles = np.zeros(64, dtype=np.int64)
    out = np.zeros(64, dtype=np.int64)
    seconds = 0
    for _ in range(300):
        x = house.index.mask([SAKE, *rng.sample(ids, rng.randint(0, 22))])
        hits = table.match_play(x)
        assert bt.match(tab, x, False, piles, 0) == hits
        n = bt.counted(tab, hits, x, out)
        assert tuple(int(i) for i in out[:n]) == table.counted(hits, x)
        assert [bt.value(tab, i, x) for i in range(len(table.names))] == [
            table.value(i, x) for i in range(len(table.names))
        ]
        seconds += table.second_reading(x)
    assert 0 < seconds < 300  # both readings were taken


def test_describe_and_diff_say_the_owners_choice_in_words() -> None:
    book = to_markdown(rulebook(load_rules(HOUSE)))
    assert "Sake counts as an animal or as 2 plains, at its owner's choice" in book
    said = render(diff(load_rules("koikoi/sloper"), load_rules(HOUSE)), "a", "b")
    assert "an owner's choice: added: Sake counts as an animal or as 2 plains" in said
    assert "90 sake class: animal and plain -> animal" in said


def test_a_house_file_replaces_the_owners_choice_it_extends(tmp_path: Path) -> None:
    path = write(tmp_path, f'extends "{HOUSE}"\ntreat sake as animal or plain, owners choice\n')
    choice = load_rules(path).owners_choice
    assert choice is not None and choice.weight == 1
    said = render(diff(load_rules(HOUSE), load_rules(path)), "a", "b")
    assert "-> Sake counts as an animal or as a plain" in said


CHOICE = "treat sake as animal or {} plains, owner's choice"
BAD = [
    (CHOICE.format("2").replace("plains", "plans"), "2:27: unknown class 'plans'", "'plain'?"),
    (CHOICE.format("2").replace("animal", "animl"), "2:15: unknown class 'animl'", "'animal'?"),
    (
        CHOICE.format("2").replace("plains", "animals"),
        "a choice between 'animal' and itself",
        "treat sake as animal or 2 plains",
    ),
    (CHOICE.format("5"), "a card counts as 1 to 4 plains, not 5", "for example"),
    (
        CHOICE.format("2").replace("sake", "sak"),
        "unknown card, class, tag, set or month 'sak'",
        "did you mean 'sake'?",
    ),
    (
        CHOICE.format("2") + "\n" + CHOICE.format("2").replace("sake as animal", "crane as light"),
        "3:1: a second owner's choice",
        "the first is at",
    ),
]


@pytest.mark.parametrize(("line", "message", "hint"), BAD)
def test_a_bad_owners_choice_is_a_located_error(
    tmp_path: Path, line: str, message: str, hint: str
) -> None:
    said = errors_of(write(tmp_path, f'extends "koikoi/sloper"\n{line}\n'))
    assert message in said and hint in said


def test_an_owners_choice_needs_yaku_that_read_only_the_cards(tmp_path: Path) -> None:
    text = 'extends "koikoi/house/tsukifuda"\ntreat sake as animal or 2 plains, owner\'s choice\n'
    said = errors_of(write(tmp_path, text))
    assert "yaku 'tsukifuda' reads the round, not only the cards" in said
    assert "2:1" in said


def _scenario(tmp_path: Path, rules: str, counted_as: str) -> Path:
    return write(
        tmp_path,
        f'title = "t"\nrules = "{rules}"\nseats = ["Alice", "Bob"]\ndealer = "Alice"\n'
        f'seed = 0\nrest = "greedy"\n[expect]\ncounted_as = {counted_as}\n',
        "t.scenario.toml",
    )


def test_a_scenario_states_the_reading_taken(tmp_path: Path) -> None:
    assert run_scenario(_scenario(tmp_path, HOUSE, '{ Alice = "plain" }')).passed
    wrong = run_scenario(_scenario(tmp_path, HOUSE, '{ Alice = "animal" }'))
    assert not wrong.passed
    assert "owner's choice in the pile of Alice" in wrong.render()


def test_a_scenario_reading_that_is_no_reading_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RulekitError) as info:
        run_scenario(_scenario(tmp_path, HOUSE, '{ Alice = "plains" }'))
    assert "'plains' is not a reading of the owner's choice" in info.value.render()
    with pytest.raises(RulekitError) as info:
        run_scenario(_scenario(tmp_path, "koikoi/sloper", '{ Alice = "plain" }'))
    assert "this rule set has no owner's choice" in info.value.render()


def test_compare_reports_an_owners_choice_never_exercised() -> None:
    a, b = load_rules("koikoi/sloper"), load_rules(HOUSE)
    report = exercised(a, b, Counter(), Counter({"owner offered": 5}))
    assert report["differing"]["owner"]["taken"] == [0, 0]
    assert report["unseen"] == ["owner"]
    seen = exercised(a, b, Counter(), Counter({"owner offered": 5, "owner": 2}))
    assert seen["unseen"] == []
    assert "owner" not in exercised(b, b, Counter(), Counter())["differing"]


def test_both_engines_count_the_piles_read_the_second_way(house: CompiledRules) -> None:
    """The scalar engine's count (sim.exercise.count_readings) and the kernel's (its CH_OWNER
    columns) on the same deals: the same piles offered a choice and read the second way."""
    from rulekit.batch.engine import deals, plan_for
    from rulekit.engine.playout import play_deal

    batch = deals(plan_for(house, 2, ("greedy", "greedy"), 5), 0, 30)
    offered = int(batch.choices[:, CHOICES_AT["owner offered"]].sum())
    taken = int(batch.choices[:, CHOICES_AT["owner"]].sum())
    counts: Counter[str] = Counter()
    agents = [make_agent("greedy") for _ in range(2)]
    for k in range(30):
        rnd, _, _ = play_deal(house, 2, k, agents, seed=5)
        count_readings(house, rnd.captured, counts)
    assert (counts["owner offered"], counts["owner"]) == (offered, taken)
    assert taken > 0


def test_the_table_shows_how_the_owners_choice_reads_each_pile(house: CompiledRules) -> None:
    """The terminal's and the browser's yaku column (screen.progress_text) say the reading a
    pile holding the cup is counted in: seed 0's Alice, eight plains and the cup."""
    from rulekit.engine.game import Game
    from rulekit.engine.playout import play_out
    from rulekit.engine.view import PlayerView
    from rulekit.play import screen

    rnd = Game(house, 2, seed=0, dealer=0, round_no=0).new_round()
    play_out(rnd, [make_agent("greedy", f"0:1:{s}") for s in range(2)])
    view = PlayerView(rnd, 0)
    assert screen.progress_text(view, 0).startswith("sake as 2 plains")
    assert "sake" not in screen.progress_text(view, 1)
