"""Bots that play the rules (issue 12): rule choices weighed under the variant's terms, a
reproducible search, and comparisons that say which differing rules the bots exercised."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulekit.agents import DEFAULT_BOT, BotOptions, make_agent
from rulekit.agents.calibrate import best_threshold, calibrate
from rulekit.agents.rollouts import weigh
from rulekit.agents.rulewise import RulewiseAgent, continuing_cannot_gain
from rulekit.cli import cli
from rulekit.engine import actions as A
from rulekit.engine.chance import Chance
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import UsageError
from rulekit.lang import load_rules
from rulekit.sim.compare import compare
from rulekit.sim.exercise import warning
from rulekit.sim.report import to_markdown, verdict
from rulekit.sim.simulate import simulate

HERE = Path(__file__).parent / "bots_rules"


def _load(ref: str) -> Any:
    return load_rules(str(HERE / ref) if ref.endswith(".rk") else ref)


def test_default_bots_are_rule_aware() -> None:
    assert DEFAULT_BOT == "rulewise"
    assert isinstance(make_agent(DEFAULT_BOT), RulewiseAgent)


@pytest.mark.parametrize("game", ["hachihachi", "koikoi"])
def test_default_bots_continue(game: str) -> None:
    """Greedy never continued; the default bots continue when it pays."""
    report = simulate(load_rules(game), rounds=300, seed=3)
    assert report["continued"] > 0
    assert simulate(load_rules(game), rounds=300, seed=3, bots=["greedy"])["continued"] == 0


def test_continuing_responds_to_its_cost() -> None:
    """An unfinished sage that pays half: the bots continue significantly less."""
    result = compare(
        [_load("hachihachi"), _load("fudawiki-unfinished-sage-pays.rk")],
        ["fudawiki", "costly sage"],
        rounds=1200,
        seed=1,
    )
    d = result["differences"][0]
    assert d["figures"]["continued"]["mean"] < 0
    assert d["figures"]["continued"]["significant"]
    taken = d["mechanics"]["differing"]["continue"]["taken"]
    assert taken[0] > taken[1] > 0
    assert d["mechanics"]["unseen"] == []


def test_folding_responds_to_the_fee() -> None:
    """At 4 seats, a fee of 40 rather than 10: far fewer voluntary folds."""
    c10 = CompiledRules(_load("hachihachi"))
    c40 = CompiledRules(_load("fudawiki-fee-40.rk"))
    p10, p40 = calibrate(c10, 4, deals=200), calibrate(c40, 4, deals=200)
    assert p10.join_at is not None and p40.join_at is not None
    assert p40.join_at < p10.join_at  # a dearer fold: join with weaker hands
    result = compare([c10.rules, c40.rules], ["fee 10", "fee 40"], rounds=300, seats=4, seed=2)
    folds = result["differences"][0]["figures"]["folds"]
    assert folds["mean"] < 0 and folds["significant"]


def test_a_rule_the_bots_never_exercise_is_reported() -> None:
    """Greedy never continues: a comparison of sage terms warns that it cannot see them."""
    result = compare(
        [_load("hachihachi"), _load("fudawiki-unfinished-sage-pays.rk")],
        ["fudawiki", "costly sage"],
        rounds=60,
        seed=1,
        bots=["greedy"],
    )
    mechanics = result["differences"][0]["mechanics"]
    assert mechanics["unseen"] == ["continue"]
    assert mechanics["differing"]["continue"]["taken"] == [0, 0]
    assert mechanics["differing"]["continue"]["offered"][0] > 0
    said = verdict(result)
    assert said.startswith("costly sage against fudawiki: CANNOT SEE")
    assert "0 continues in 60 rounds" in said
    assert "NEVER EXERCISED" in to_markdown(result)


def test_a_continue_rule_that_offers_no_choice_is_not_a_rule_to_exercise() -> None:
    """Hana-Awase's yaku do not end the round and Bakappana has none: neither offers a stop or
    continue, so the comparison has no choice to count, and no CANNOT SEE."""
    result = compare(
        [_load("bakappana"), _load("hanaawase")], ["a", "b"], rounds=20, seed=1, bots=["greedy"]
    )
    assert result["differences"][0]["mechanics"] == {"differing": {}, "unseen": []}
    assert not verdict(result).startswith("b against a: CANNOT SEE")


def test_no_warning_when_the_rules_agree() -> None:
    rules = _load("hachihachi")
    result = compare([rules, rules], ["a", "b"], rounds=20, seed=1, bots=["greedy"])
    assert result["differences"][0]["mechanics"] == {"differing": {}, "unseen": []}
    assert warning(result["differences"][0]["mechanics"], 20) is None


def _without_timing(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    data.pop("seconds")
    data.pop("rounds_per_second")
    return data


def test_simulate_search_is_reproducible() -> None:
    """A rollout budget, not the clock: two runs with a seed give the same JSON."""
    args = ["simulate", "koikoi", "--bots", "search,strong", "--rollouts", "12", "--rounds", "3"]
    args += ["--seed", "5", "--json"]
    first = CliRunner().invoke(cli, args)
    second = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert _without_timing(first.output) == _without_timing(second.output)
    assert [s["bot"] for s in _without_timing(first.output)["seats"]] == ["search", "strong"]


def test_compare_takes_the_search_budget() -> None:
    args = ["compare", "koikoi", "koikoi", "--bots", "strong", "--rollouts", "8", "--rounds", "2"]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["strong", "strong"]


def test_a_budget_of_nothing_is_refused() -> None:
    with pytest.raises(UsageError, match="rollouts"):
        simulate(load_rules("koikoi"), rounds=1, bot_options=BotOptions(rollouts=0))
    bad = CliRunner().invoke(cli, ["simulate", "koikoi", "--rollouts", "0"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


@pytest.mark.parametrize(("game", "seats"), [("sakura", 3), ("hachihachi", 4), ("koikoi", 2)])
def test_new_bots_play_every_game_deterministically(game: str, seats: int) -> None:
    c = CompiledRules(load_rules(game))

    def nets(name: str) -> list[Any]:
        bots = [make_agent(name, 0, BotOptions(rollouts=6)) for _ in range(seats)]
        return [play_deal(c, seats, i, bots, seed=9)[1].net for i in range(3)]

    for name in ("rulewise", "strong"):
        assert nets(name) == nets(name)


def test_best_threshold() -> None:
    assert best_threshold([]) == 0.0
    assert best_threshold([(1.0, -5.0), (2.0, -1.0)]) is None  # folding always earned more
    assert best_threshold([(1.0, -5.0), (2.0, 3.0), (3.0, 4.0)]) == 2.0
    assert best_threshold([(1.0, 5.0), (2.0, 3.0)]) == 1.0


def test_choices_are_counted_in_the_real_round_only() -> None:
    """The counting wrapper sees the bot's own decisions, not its rollouts'."""
    from rulekit.sim.exercise import Counting

    c = CompiledRules(load_rules("koikoi"))
    counted = [Counting(make_agent("rulewise")) for _ in range(2)]
    shared: Counter[str] = Counter()
    for agent in counted:
        agent.counts = shared
    for i in range(20):
        play_deal(c, 2, i, counted, seed=4)
    assert shared["swap offered"] == 20  # one blind choice per deal, by the non-dealer
    assert 0 < shared["continue"] <= shared["continue offered"] < 200


class _Watching(RulewiseAgent):
    """A rule-weighing bot that, at each stop-or-continue with an empty hand, also weighs the
    two by rollouts (from a copy of its chance: its own draws are left as they are)."""

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.weighed: list[tuple[float, float]] = []

    def _weighed(self, view: PlayerView, options: list[int]) -> int:
        if options[0] == A.STOP and not view.hand:
            chance = Chance()
            chance.block, chance.x = self.chance.block, self.chance.x
            estimates = weigh(view.observe(), options, self.worlds, chance, self.policy)
            by = {e.action: e.mean for e in estimates}
            self.weighed.append((by[A.STOP], by[A.CONTINUE]))
        return super()._weighed(view, options)


@pytest.mark.parametrize(
    ("name", "seats"),
    [("koikoi/sloper", 2), ("hachihachi/fudawiki", 3), ("koikoi/house/seven-or-more-doubled", 2)],
)
def test_a_stop_with_an_empty_hand_is_what_the_rollouts_choose(name: str, seats: int) -> None:
    """Issue 22: where the rules leave a continuer with no card nothing to gain, the bot stops
    without rollouts; here the rollouts it skips are played, and never favour continuing."""
    rules = load_rules(name)
    assert continuing_cannot_gain(rules)
    compiled = CompiledRules(rules)
    bots = [_Watching(s) for s in range(seats)]
    for number in range(400):
        play_deal(compiled, seats, number, bots, seed=11)
    weighed = [w for b in bots for w in b.weighed]
    assert len(weighed) >= 5, name  # (enough decisions with an empty hand to say so)
    assert all(stop >= cont for stop, cont in weighed), weighed


@pytest.mark.parametrize(
    "house",
    [
        "count: par 88; always",  # the hands are counted when they run out, not at a stop
        'scoring\n  oya_ken "Oya-ken" the dealer takes 6 if nobody won',
        "continue: paid when made; if unfinished earn half",
        "wild lightning: captures any field card from the hand; collects its month at the end",
        "scoring\n  x2 if continued 2 or more times",
    ],
)
def test_a_continuer_with_no_card_may_gain_under_these_rules(house: str, tmp_path: Path) -> None:
    path = tmp_path / "house.rk"
    path.write_text(f'extends "hachihachi/fudawiki"\n{house}\n', encoding="utf-8")
    assert not continuing_cannot_gain(load_rules(path))
