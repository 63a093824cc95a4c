"""Bonus cards drawn onto the pair just made riding its stack (issue 25, GS 28; engine/riders.py):
the statement in the IR, refused where it cannot apply, said by describe and diff; the rider on
the field, taken with its stack, valued by greedy; shown with its stack by the terminal and the
browser; and the batch kernel playing the deals where it happens as the scalar engine does.
What a round makes of it is pinned by rules/gostop/house/scenarios/*joker-stack*."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.agents.greedy import GreedyAgent, card_worth, mask_worth
from rulekit.batch import engine as batch
from rulekit.cli import cli
from rulekit.describe import BONUS_ON_PAIR_SENTENCE, rulebook
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine import riders
from rulekit.engine.round import Round, StackedDeal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from rulekit.play.screen import field_ids, field_line
from rulekit.sim.exercise import count_events, exercised
from rulekit.web.games import field_cards
from tests.test_batch_identity import batch_deal, scalar_deal

MATGO = "gostop/house/matgo-jokers"
RIDE = "the bonus cards drawn onto the pair just made stay with it if it becomes a stack"
# the matgo scenarios' deal: Alice (dealer) holds a pine plain, the crane is on the field, the
# two-chaff joker then the other pine plain top the stock; Bob holds the pine ribbon
DEAL = StackedDeal(
    hands=(
        (12, 22, 33, 43, 53, 63, 73, 83, 93, 103),
        (11, 21, 31, 41, 51, 61, 71, 81, 91, 101),
    ),
    field=(10, 20, 30, 40, 50, 60, 70, 80),
    stock=(130, 13, 113, 123, 100, 131, 132, 23, 32, 42, 52, 62, 72, 82, 90, 92, 102, 110, 111,
           112, 120, 121, 122),
)  # fmt: skip


def _ppeok(name: str = MATGO) -> tuple[Round, CompiledRules]:
    """Alice's first turn played: a pine plain onto the crane, the joker, the other pine."""
    c = CompiledRules(load_rules(name))
    rnd = Round(c, 2, 0, deal=DEAL)
    rnd.apply(A.parse("play pine_plain_1", c.index))
    return rnd, c


def _house(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.rk"
    path.write_text(body, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the statement


def test_bonus_on_pair_is_read_into_the_ir() -> None:
    assert load_rules(MATGO).bonus_on_pair == "stays"
    assert load_rules("gostop/house/jokers").bonus_on_pair == "stays"
    assert load_rules("gostop/matgo").bonus_on_pair == "captured"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (f'extends "gostop/gostop"\n{RIDE}\n', "the deck has no bonus card"),
        (f'extends "koikoi/sloper"\n{RIDE}\n', "the draw never stacks on the pair here"),
        (f'extends "{MATGO}"\nremove stacks\n', "the draw never stacks on the pair here"),
    ],
)
def test_bonus_on_pair_refused_where_it_cannot_apply(tmp_path: Path, body: str, said: str) -> None:
    out = CliRunner().invoke(cli, ["check", str(_house(tmp_path, body))])
    assert out.exit_code == 1
    assert said in out.output and "Traceback" not in out.output
    if "remove stacks" not in body:
        assert "house.rk:2:1:" in out.output


def test_bonus_on_pair_is_said_by_describe_and_diff(tmp_path: Path) -> None:
    words = " ".join(p for s in rulebook(load_rules(MATGO)) for p in s.paragraphs)
    assert BONUS_ON_PAIR_SENTENCE in words
    assert BONUS_ON_PAIR_SENTENCE not in " ".join(
        p for s in rulebook(load_rules("gostop/matgo")) for p in s.paragraphs
    )
    removed = load_rules(str(_house(tmp_path, f'extends "{MATGO}"\nremove bonus_on_pair\n')))
    assert removed.bonus_on_pair == "captured"
    said = render(diff(load_rules(MATGO), removed), "matgo-jokers", "house")
    assert "the bonus card on the stack: removed" in said


# ---------------------------------------------------------------- the scalar engine


def test_a_joker_drawn_onto_the_pair_rides_the_ppeok_on_the_field() -> None:
    rnd, c = _ppeok()
    ix = c.index
    assert set(ix.ids_of(rnd.field)) >= {10, 12, 13, 130}
    assert rnd.rides == ((ix.bit[130], ix.mask((10, 12, 13))),)
    assert not rnd.captured[0]


def test_without_the_statement_the_drawer_takes_the_joker(tmp_path: Path) -> None:
    """GS 28's other reading (the IR's default): the joker to the drawer's pile at once."""
    house = _house(tmp_path, f'extends "{MATGO}"\nremove bonus_on_pair\n')
    c = CompiledRules(load_rules(str(house)))
    rnd = Round(c, 2, 0, deal=DEAL)
    rnd.apply(A.parse("play pine_plain_1", c.index))
    assert c.index.ids_of(rnd.captured[0]) == [130]
    assert not rnd.rides and not rnd.field >> c.index.bit[130] & 1


def test_the_rider_leaves_with_its_stack_to_whoever_takes_it() -> None:
    rnd, c = _ppeok()
    ix = c.index
    rnd.apply(A.parse("play chrysanthemum_ribbon", ix))
    rnd.apply(A.parse("play plum_plain_1", ix))
    rnd.apply(A.parse("play pine_ribbon", ix))  # Bob takes the stack
    assert {10, 11, 12, 13, 130} <= set(ix.ids_of(rnd.captured[1]))
    assert not rnd.field >> ix.bit[130] & 1 and not rnd.rides
    # the stack taken is counted without its rider: Alice gave him her plum plain
    assert 22 in ix.ids_of(rnd.captured[1])


def test_follow_takes_only_the_riders_of_a_stack_no_longer_whole() -> None:
    rnd, c = _ppeok()
    ix = c.index
    stack = ix.mask((10, 12, 13))
    field, gone = riders.follow(rnd, rnd.field)
    assert (field, gone) == (rnd.field, 0)
    assert riders.riding(rnd, 1 << ix.bit[13]) == 1 << ix.bit[130]
    assert riders.riding(rnd, ~stack & rnd.field) == 0
    field, gone = riders.follow(rnd, rnd.field & ~(1 << ix.bit[12]))
    assert gone == 1 << ix.bit[130] and not field >> ix.bit[130] & 1
    assert not rnd.rides  # (the ride is over)


def test_greedy_values_a_stack_with_its_riders() -> None:
    """Bob's pine ribbon would take the stack, the joker with it: greedy's worth of the play is
    the five cards', and the stack taken still makes its steal (none: Alice has no plain)."""
    rnd, c = _ppeok()
    view = PlayerView(rnd, 1)
    play = A.parse("play pine_ribbon", c.index)
    got = rnd.field & c.index.month_masks[0] | 1 << c.index.bit[130] | 1 << c.index.bit[11]
    assert view.previews([play]) == [got]
    (score, _), *_ = GreedyAgent(1).rank(view, [play])
    assert score == mask_worth(card_worth(c), got)


# ---------------------------------------------------------------- the table


def test_the_terminal_shows_the_joker_with_its_stack() -> None:
    rnd, c = _ppeok()
    view = PlayerView(rnd, 1)
    ids = field_ids(view)
    at = ids.index((130, True))
    assert ids[at - 3 : at] == [(10, False), (12, False), (13, False)]
    line = field_line(c.rules, view).plain
    assert "13 pine_plain_2 + 130 bonus_two_1  20 warbler" in line


def test_the_browser_shows_the_joker_with_its_stack() -> None:
    """The table's field (web/games.py): the joker after the three pines, marked as riding."""
    rnd, c = _ppeok()
    field = field_cards(c.rules, PlayerView(rnd, 1))
    ids = [card["id"] for card in field]
    assert ids[ids.index(130) - 3 : ids.index(130) + 1] == [10, 12, 13, 130]
    assert [card["id"] for card in field if card.get("rides")] == [130]
    assert sorted(ids) == sorted(c.index.ids_of(rnd.field))


# ---------------------------------------------------------------- both engines

# deals where a joker rides a stack, found with the scalar engine (seed 1): the batch kernel must
# play them as it does; each case says how many jokers ride, and who takes the stack
RIDDEN = [
    (MATGO, 2, "greedy", 152),  # one joker, the other player takes it
    (MATGO, 2, "greedy", 924),  # two jokers in a row, the other player takes them
    (MATGO, 2, "random", 2460),  # two jokers, the other player
    ("gostop/house/jokers", 3, "random", 164),
    ("gostop/house/jokers", 3, "greedy", 65),
    # rulewise: jokers riding stacks in its rollouts (the kernel's copies of the round)
    (MATGO, 2, "rulewise", 15),
    (MATGO, 2, "rulewise", 24),
]


@pytest.mark.parametrize(("name", "seats", "bot", "number"), RIDDEN)
def test_the_kernel_plays_the_deals_where_a_joker_rides_a_stack(
    name: str, seats: int, bot: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ridden = []
    stays = riders.ON_PAIR["stays"]

    def spy(r: Round, stack: int, bonus: int) -> int:
        ridden.append(bonus)
        return stays(r, stack, bonus)

    monkeypatch.setitem(riders.ON_PAIR, "stays", spy)
    c = CompiledRules(load_rules(name))
    bots = (bot,) * seats
    want = scalar_deal(c, seats, bots, 1, number)
    assert any(ridden), "the deal no longer has a joker riding a stack: pick another"
    got = batch_deal(batch.make_plan(c, seats, bots, 1), number)
    assert got == want


def test_compare_says_when_no_joker_rode_a_stack(tmp_path: Path) -> None:
    """A comparison of the files with and without the statement cannot see it in rounds where
    no joker rode a stack: it says so (sim.exercise's `ride`); a ride counted is seen."""
    base = load_rules(str(_house(tmp_path, f'extends "{MATGO}"\nremove bonus_on_pair\n')))
    other = load_rules(MATGO)
    unseen = exercised(base, other, Counter(), Counter())
    assert unseen["unseen"] == ["ride"]
    assert exercised(base, other, Counter(), Counter({"ride": 1}))["unseen"] == []
    rnd, _ = _ppeok()
    counts: Counter[str] = Counter()
    count_events(rnd, counts)
    assert counts["ride"] == counts["ride offered"] == 1
