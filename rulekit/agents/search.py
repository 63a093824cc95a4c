"""The `search` bot: determinized Monte Carlo over the engine.

For each legal action it samples the hidden cards consistently with what the player has seen
(an Observation: never the round itself), applies the action and plays the round out with the
greedy policy for everyone, and keeps the action whose outcomes average best. The outcome is
the player's (or his team's) result against the others' average, so the same objective serves
zero-sum payments and score-style counts. The budget is a number of rollouts per decision
(deterministic) and, if given, a time limit (--think-ms): the search stops at whichever comes
first, so no decision takes longer than the limit.
"""

from __future__ import annotations

import time

from rulekit.agents.base import SeededAgent
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.rollouts import Estimate, outcome
from rulekit.engine import actions as A
from rulekit.engine.playout import Offers, Player, offers, play_out
from rulekit.engine.round import Phase, clone
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError

DEFAULT_ROLLOUTS = 240
CANDIDATES = 4  # plays searched: the greedy heuristic's best few


class SearchAgent(SeededAgent):
    name = "search"

    def __init__(
        self, seed: int | str = 0, rollouts: int = DEFAULT_ROLLOUTS, think_ms: float | None = None
    ) -> None:
        super().__init__(seed)
        self.rollouts = rollouts
        self.think_ms = think_ms
        self.policy = GreedyAgent(f"{seed}:rollouts")

    def start(self, seed: int | str) -> None:
        super().start(seed)
        self.policy.start(f"{seed}:rollouts")

    def act(self, view: PlayerView) -> int:
        return self.evaluate(view)[0].action

    def evaluate(self, view: PlayerView) -> list[Estimate]:
        """Every legal action with its estimated outcome, best first."""
        legal = view.legal_actions()
        if not legal:
            raise MoveError(f"it is not seat {view.seat}'s turn: there is nothing to decide")
        if len(legal) == 1:
            return [Estimate(legal[0], 0.0, 0)]
        if view.phase == Phase.PLAY and len(legal) > CANDIDATES:  # (a draw offered: kept)
            offer = [A.OFFER] if legal[-1] == A.OFFER else []
            plays = legal[: len(legal) - len(offer)]
            legal = self.policy.ranked_plays(view, plays)[:CANDIDATES] + offer
        observation = view.observe()
        seat = view.seat
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        deadline = time.perf_counter() + self.think_ms / 1000 if self.think_ms else None
        budget = self.rollouts
        done = 0
        players: list[Player] = []
        asked: Offers | None = None  # the policy's offers, asked once for every rollout
        while True:
            world = observation.sample(self.rng)  # the same world for every action: a paired test
            if asked is None:
                players = [self.policy] * world.seated  # the greedy policy for everyone
                asked = offers(world.c, players)
            for action in legal:
                rnd = clone(world)
                try:
                    rnd.apply(action)
                except MoveError:
                    # legal at the table, not in this guess of the hidden cards (a wild card's
                    # target may complete a hiki someone holds in this world): skip the world
                    continue
                play_out(rnd, players, None, asked)
                totals[action] += outcome(rnd, seat)
                counts[action] += 1
            done += len(legal)
            if done >= budget or (deadline is not None and time.perf_counter() >= deadline):
                break
        estimates = [
            Estimate(a, totals[a] / counts[a] if counts[a] else float("-inf"), counts[a])
            for a in legal
        ]
        estimates.sort(key=lambda e: -e.mean)
        return estimates
