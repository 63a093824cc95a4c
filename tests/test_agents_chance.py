"""Where the bots' chance goes (rulekit.agents.chance): random's pick, greedy's ties (the same
rule through a view and without one), the search bots' candidate order, and the Mersenne
Twister of the world-sampling bots, seeded lazily exactly as before."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulekit.agents.base import SeededAgent
from rulekit.agents.chance import Chance
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.random_agent import RandomAgent
from rulekit.agents.rulewise import RulewiseAgent
from rulekit.agents.search import SearchAgent
from rulekit.agents.strong import StrongAgent
from rulekit.engine.playout import play_deal, play_out
from rulekit.engine.round import DONE, PLAY, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules


def first_play(c: CompiledRules, seats: int, seed: int) -> PlayerView | None:
    """The view of the first card play of a deal (earlier choices: the first legal one)."""
    rnd = Round(c, seats, 0, seed=seed)
    while rnd.phase not in (PLAY, DONE):
        rnd.apply(PlayerView(rnd, rnd.current_player or 0).legal_actions()[0])
    return None if rnd.phase == DONE else PlayerView(rnd, rnd.current_player or 0)


def tied_views(name: str, seats: int, want: int) -> list[tuple[PlayerView, list[int]]]:
    """First plays whose best greedy score is shared by several plays, with those plays."""
    c = CompiledRules(load_rules(name))
    out = []
    for seed in range(200):
        view = first_play(c, seats, seed)
        if view is None:
            continue
        ranked = GreedyAgent().rank(view, view.legal_actions())
        top = max(s for s, _ in ranked)
        ties = [a for s, a in ranked if s == top]
        if len(ties) > 1:
            out.append((view, ties))
        if len(out) == want:
            return out
    raise AssertionError(f"fewer than {want} tied first plays in {name}")


@pytest.mark.parametrize("seed", ["7:0:1", 3, "x"])
def test_start_and_init_give_the_chance_of_the_seed(seed: int | str) -> None:
    bot = RandomAgent()
    bot.start(seed)
    assert (bot.chance.block, bot.chance.x) == (Chance(seed).block, Chance(seed).x)
    fresh = RandomAgent(seed)  # never started: the chance of its own seed
    assert fresh.chance.x == Chance(seed).x


def test_the_random_bot_draws_below_the_number_of_legal_actions() -> None:
    c = CompiledRules(load_rules("hachihachi/fudawiki"))
    for seed in range(10):
        view = first_play(c, 3, seed)
        assert view is not None
        legal = view.legal_actions()
        bot = RandomAgent()
        bot.start(f"1:{seed}:0")
        assert bot.act(view) == legal[Chance(f"1:{seed}:0").below(len(legal))]


def test_the_rng_is_seeded_only_when_used_and_as_before() -> None:
    bot = GreedyAgent("a")
    untouched = bot._rng.getstate()
    bot.start("b")
    bot.start("c")
    assert bot._rng.getstate() == untouched  # start() never pays for the twister
    twin = random.Random("c")  # the last seed, as start() did
    assert [bot.rng.random() for _ in range(3)] == [twin.random() for _ in range(3)]  # once
    assert GreedyAgent("d").rng.random() == random.Random("d").random()  # never started


@pytest.mark.parametrize(("name", "seats"), [("koikoi/sloper", 2), ("hachihachi/fudawiki", 3)])
def test_greedy_breaks_a_tie_by_its_chance_among_the_best_only(name: str, seats: int) -> None:
    for view, ties in tied_views(name, seats, 4):
        seen: Counter[int] = Counter()
        for k in range(60):
            bot = GreedyAgent()
            bot.start(f"tie:{k}")
            play = bot.act(view)
            assert play == ties[Chance(f"tie:{k}").below(len(ties))]
            seen[play] += 1
        assert set(seen) == set(ties)  # every tied play is drawn, no other


def test_greedy_spends_no_chance_without_a_tie() -> None:
    c = CompiledRules(load_rules("hachihachi/fudawiki"))
    for seed in range(40):
        view = first_play(c, 3, seed)
        assert view is not None
        bot = GreedyAgent()
        ranked = bot.rank(view, view.legal_actions())
        top = max(s for s, _ in ranked)
        if sum(s == top for s, _ in ranked) == 1:
            before = bot.chance.x
            assert bot.act(view) == next(a for s, a in ranked if s == top)
            assert bot.chance.x == before


def test_ranked_plays_put_better_first_and_shuffle_equals() -> None:
    view, ties = tied_views("koikoi/sloper", 2, 1)[0]
    legal = view.legal_actions()
    scores = {a: s for s, a in GreedyAgent().rank(view, legal)}
    firsts: Counter[int] = Counter()
    for k in range(40):
        bot = GreedyAgent(f"order:{k}")
        order = bot.ranked_plays(view, legal)
        assert sorted(order) == sorted(legal)
        assert [scores[a] for a in order] == sorted(scores.values(), reverse=True)
        firsts[order[0]] += 1
    assert set(firsts) == set(ties)


@pytest.mark.parametrize("bot", [RandomAgent, GreedyAgent, RulewiseAgent])
def test_a_bot_never_started_plays_and_replays(bot: type[SeededAgent]) -> None:
    """A rollout policy is never start()ed: it plays from the chance of its own seed."""
    c = CompiledRules(load_rules("hachihachi/fudawiki"))
    results = []
    for _ in range(2):
        player = bot("never")
        rnds = [Round(c, 3, d % 3, seed=9, deal_no=d) for d in range(5)]
        for rnd in rnds:
            play_out(rnd, [player] * 3)  # type: ignore[list-item]
        results.append([rnd.result().net for rnd in rnds])
    assert results[0] == results[1]


@pytest.mark.parametrize("bot", [SearchAgent, StrongAgent])
def test_the_search_bots_replay_a_deal(bot: type[SearchAgent | StrongAgent]) -> None:
    c = CompiledRules(load_rules("koikoi/sloper"))
    played = []
    for _ in range(2):
        players = [bot(rollouts=8), GreedyAgent()]
        moves: list[tuple[int, int]] = []
        play_deal(c, 2, 3, players, seed=4, moves=moves)  # type: ignore[arg-type]
        played.append(moves)
    assert played[0] == played[1] and played[0]
