"""The `strong` bot (issue 12, point 3): paired rollouts that replace the heuristic's choice
only when another option is clearly better, within a budget of rollouts."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.strong import Paired, StrongAgent
from rulekit.engine.round import Phase, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules


def _paired(results: dict[int, list[float]]) -> Paired:
    paired = Paired(list(results))
    for action, values in results.items():
        paired.results[action] = dict(enumerate(values))
    paired.worlds = max(len(v) for v in results.values())
    return paired


def _play_view(game: str, seats: int, seed: int) -> PlayerView:
    """A view at the first play with more options than the bot searches."""
    c = CompiledRules(load_rules(game))
    rnd = Round(c, seats, 0, seed=seed)
    greedy = GreedyAgent(0)
    while True:
        view = PlayerView(rnd, rnd.current)
        if view.phase == Phase.PLAY and len(view.legal_actions()) > 4:
            return view
        rnd.apply(greedy.act(view))


def test_the_default_stays_unless_another_option_is_clearly_better() -> None:
    bot = StrongAgent(0, confidence=1.0)
    noisy = _paired({1: [0.0] * 6, 2: [30.0, -20.0, 25.0, -15.0, 20.0, -10.0]})  # mean +5
    assert bot._ranked(noisy, [1, 2], 1)[0].action == 1
    clear = _paired({1: [0.0] * 6, 2: [4.0, 6.0, 5.0, 5.5, 4.5, 5.0]})
    assert bot._ranked(clear, [1, 2], 1)[0].action == 2
    # with no default (stop or continue), the best mean decides however close
    assert bot._ranked(noisy, [1, 2], None)[0].action == 2


def test_advantage_is_paired_world_by_world() -> None:
    paired = _paired({1: [10.0, -50.0, 90.0], 2: [11.0, -49.0, 91.0]})
    mean, se = paired.advantage(2, 1)
    assert mean == 1.0 and se == 0.0
    assert paired.advantage(2, 1) == (1.0, 0.0)
    assert math.isinf(_paired({1: [1.0], 2: [3.0]}).advantage(2, 1)[1])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(-50, 50, allow_nan=False), min_size=3, max_size=3),
        min_size=2,
        max_size=12,
    ),
    st.floats(0.0, 2.0),
)
def test_the_choice_is_the_default_or_surely_better(rows: list[list[float]], z: float) -> None:
    """Whatever the outcomes, the bot leaves its default only for an option whose paired
    advantage, less z standard errors, is above zero."""
    results = {a: [row[a] for row in rows] for a in range(3)}
    paired = _paired(results)
    bot = StrongAgent(0, confidence=z)
    choice = bot._ranked(paired, [0, 1, 2], 0)[0].action
    if choice != 0:
        mean, se = paired.advantage(choice, 0)
        assert mean - z * se > 0


def test_the_budget_is_a_number_of_rollouts() -> None:
    view = _play_view("hachihachi/fudawiki", 3, 4)
    estimates = StrongAgent(1, rollouts=60).evaluate(view)
    assert 0 < sum(e.rollouts for e in estimates) <= 60
    assert len(estimates) == len({e.action for e in estimates}) <= 4
    assert set(e.action for e in estimates) <= set(view.legal_actions())


def test_the_same_seed_chooses_the_same() -> None:
    for game, seats in (("koikoi/sloper", 2), ("sakura/hawaii", 3)):
        view = _play_view(game, seats, 7)
        first = [(e.action, e.mean, e.rollouts) for e in StrongAgent(3, rollouts=40).evaluate(view)]
        again = [(e.action, e.mean, e.rollouts) for e in StrongAgent(3, rollouts=40).evaluate(view)]
        assert first == again
