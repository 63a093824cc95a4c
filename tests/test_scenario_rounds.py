"""Issue 21, items 2, 3, 4 and 8: a void deal in a scenario game is redealt as the same round,
a recorded round keeps its number, recordings write the void deals, and a written-down deal
(its restock included) holds every card of the deck exactly once."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rulekit.engine.round import DONE, Round, card_places
from rulekit.errors import ScenarioError
from rulekit.lang import load_rules
from rulekit.scenario import model as m
from rulekit.scenario.load import KeyPath, find_scenarios
from rulekit.scenario.runner import ScenarioRun, run_scenario
from rulekit.sim.simulate import simulate

ROOT = Path(__file__).parent.parent
KOIKOI_HOUSE = ROOT / "rules" / "koikoi" / "house" / "scenarios"
HACHIHACHI_HOUSE = ROOT / "rules" / "hachihachi" / "house" / "scenarios"
BUNDLED = find_scenarios([ROOT / "rules"])


# ---------------------------------------------------------------- item 2: void deals in games


def test_a_void_deal_does_not_move_a_scenario_game_on() -> None:
    outcome = run_scenario(KOIKOI_HOUSE / "tsukifuda-after-a-void-deal.scenario.toml")
    assert outcome.passed, outcome.render()
    assert outcome.voids == 1
    assert [r.round for r in outcome.rounds] == [0]  # the redeal is round 1 (from 0): January


# ---------------------------------------------------------------- item 3: the round's number


def test_recorded_tsukifuda_rounds_keep_their_round_number(tmp_path: Path) -> None:
    """Round i of `simulate --rounds` is played as round i + 1 (its month: tsukifuda pays for
    it): the file says so, and every round replays."""
    simulate(
        load_rules("koikoi/house/tsukifuda"),
        bots=["greedy", "random"],
        rounds=120,
        seed=8,
        record=tmp_path,
        rules_ref="koikoi/house/tsukifuda",
        engine="scalar",
    )
    files = find_scenarios([tmp_path])
    assert len(files) == 120
    for path in files:
        number = int(re.findall(r"\d+", path.name)[0])
        assert tomllib.loads(path.read_text(encoding="utf-8"))["round"] == number + 1
        outcome = run_scenario(path)
        assert outcome.passed, outcome.render()


def test_a_round_number_plays_the_round_of_its_month(tmp_path: Path) -> None:
    """Round 14 is February: the four plum cards are tsukifuda. Without the number (round 1,
    January) the same moves fail: the plum cards are no yaku, and Alice cannot stop."""
    written = KOIKOI_HOUSE / "tsukifuda-round-number.scenario.toml"
    assert run_scenario(written).passed
    text = written.read_text(encoding="utf-8").replace("../tsukifuda.rk", "koikoi/house/tsukifuda")
    for number, passes in (("round = 2", True), ("round = 13", False), ("", False)):
        path = tmp_path / "alone.scenario.toml"
        path.write_text(text.replace("round = 14", number))
        assert run_scenario(path).passed is passes, number


def test_a_round_number_below_one_is_a_located_error(tmp_path: Path) -> None:
    written = KOIKOI_HOUSE / "tsukifuda-round-number.scenario.toml"
    path = tmp_path / "zero.scenario.toml"
    text = written.read_text(encoding="utf-8")
    path.write_text(text.replace("round = 14", "round = 0"))
    line = text.split("\n").index("round = 14") + 1
    with pytest.raises(ScenarioError) as info:
        run_scenario(path)
    assert info.value.loc is not None and info.value.loc.line == line
    assert "round: 0 is less than the minimum of 1" in info.value.render()


# ---------------------------------------------------------------- item 4: void deals recorded

# tsukifuda with a field of two pairs void as well: many void deals, each followed by a round
# whose month counts
VOID_OFTEN = """extends "koikoi/house/tsukifuda"
void if the field has a month of 4 or 2 months of 2
"""


def _void_deals(path: Path) -> int:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    return sum(bool(r.get("expect", {}).get("void")) for r in doc.get("rounds", [doc]))


@pytest.mark.parametrize("unit", ["rounds", "games"])
def test_a_recording_writes_every_void_deal(tmp_path: Path, unit: str) -> None:
    """As many void deals written as simulate reports, and every file replays: a void deal is
    redealt by the same dealer and is no round (its round and month are the redeal's)."""
    (tmp_path / "void-often.rk").write_text(VOID_OFTEN, encoding="utf-8")
    games = unit == "games"
    report = simulate(
        load_rules(tmp_path / "void-often.rk"),
        bots=["greedy", "random"],
        seed=3,
        rounds=None if games else 40,
        games=2 if games else None,
        record=tmp_path / "rec",
        rules_ref="../void-often.rk",
        engine="scalar",
    )
    files = find_scenarios([tmp_path / "rec"])
    assert len(files) == (2 if games else 40)  # a file per round (or game), its void deals in it
    assert report["voids"] >= 10
    assert sum(_void_deals(path) for path in files) == report["voids"]
    for path in files:
        outcome = run_scenario(path)
        assert outcome.passed, outcome.render()
        assert outcome.voids == _void_deals(path)
    played = sum(len(run_scenario(path).rounds) for path in files)
    assert played == report["rounds"]


# ---------------------------------------------------------------- item 8: the deck conserved


class ConservingRun(ScenarioRun):
    """A scenario run that checks, as each round is dealt and after every move applied (its
    setup choices first), that every card of the deck is in exactly one place (a hand, the
    field, the stock, a pile) once setup is over, and in no more than one before (a written
    field is laid from the cards dealt, or from the folded hands)."""

    def play(self, rnd: Round, spec: m.RoundSpec, prefix: KeyPath, number: int) -> bool:
        apply = rnd.apply

        def checked(action: int) -> None:
            apply(action)
            self.conserved(rnd, f"round {number}, after {rnd.describe(action)}")

        rnd.apply = checked  # type: ignore[method-assign]
        self.conserved(rnd, f"round {number}, as dealt")
        return super().play(rnd, spec, prefix, number)

    def conserved(self, rnd: Round, when: str) -> None:
        ix = self.c.index
        places = card_places(rnd)
        least = 1 if rnd.step == len(rnd.steps) or rnd.phase == DONE else 0  # set up
        wrong = {ix.short(ix.ids[b]): n for b, n in enumerate(places) if not least <= n <= 1}
        assert not wrong, f"{self.name}, {when}: cards in other than one place: {wrong}"


@pytest.mark.parametrize("path", BUNDLED, ids=[p.relative_to(ROOT).as_posix() for p in BUNDLED])
def test_every_bundled_scenario_deal_conserves_the_deck(path: Path) -> None:
    outcome = ConservingRun(path).run()
    assert outcome.passed, outcome.render()


@pytest.mark.parametrize(
    "name",
    ["dealer-sits-out", "fold-before-the-deal", "fold-fee-to-the-players", "rotating-sit-out"],
)
def test_a_restock_is_followed_by_every_card_in_no_place_in_id_order(name: str) -> None:
    """These restocks name 9 cards: the hand that sits out (or folds) and the 21 cards written
    nowhere follow them, in id order, as the cards a deal's stock leaves out follow it."""
    run = ScenarioRun(HACHIHACHI_HOUSE / f"{name}.scenario.toml")
    deal = run.sc.deal
    assert deal is not None and deal.restock is not None
    rnd = Round(run.c, run.n, run.seat(run.sc.dealer, ("dealer",)), deal=run.stacked(deal, ()))
    for move in run.sc.moves:  # the fold phase's choices, if any
        if isinstance(move, str) and move.endswith(("join", "fold")):
            rnd.apply(run.parse_move(move, ())[1])
    ix = run.c.index
    restock = [run.card(c, ()) for c in deal.restock]
    placed = {*ix.ids_of(rnd.field), *restock}
    placed |= {c for s in rnd.active_seats() for c in ix.ids_of(rnd.hands[s])}
    rest = sorted(set(ix.ids) - placed)
    assert len(rest) == 48 - 9 - 6 - 9  # the hands in play, the field, the restock
    assert [ix.ids[b] for b in reversed(rnd.stock)] == restock + rest


def test_a_restock_holding_a_card_in_play_is_a_located_error(tmp_path: Path) -> None:
    """Bob folds, so Carol's 41 is in play: a restock that names it would put it in two places."""
    text = (HACHIHACHI_HOUSE / "fold-fee-to-the-players.scenario.toml").read_text(encoding="utf-8")
    path = tmp_path / "twice.scenario.toml"
    path.write_text(text.replace("restock = [43,", "restock = [41, 43,"), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        run_scenario(path)
    assert "in the restock and still in play (a hand or the field): " in info.value.message
    assert info.value.loc is not None
    assert info.value.loc.line == text.split("\n").index("[deal]") + 1


def test_a_field_of_folded_cards_is_not_shuffled_back_into_the_stock(tmp_path: Path) -> None:
    """The Wikipedia draft lays the field after the fold, here from folded hands' cards, and no
    restock is written: the folded hands go back into the stock, reshuffled, but for the cards
    laid on the field (before: in the stock and on the field at once)."""
    written = ROOT / "rules/hachihachi/scenarios/wikipedia-draft/joker-at-seven.scenario.toml"
    text = written.read_text(encoding="utf-8")
    path = tmp_path / "reshuffled.scenario.toml"
    path.write_text(re.sub(r"(?m)^restock = .*\n", "", text), encoding="utf-8")
    ConservingRun(path).run()  # the moves may not fit this stock: only the deck is checked
