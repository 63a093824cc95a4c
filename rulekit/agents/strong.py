"""The `strong` bot: determinized search that spends its rollouts where the choice is close.

Like `search`, it deals the cards it cannot see at random, consistently with what it has seen,
plays each option out with a fast policy for everyone, and keeps the option whose outcomes
average best. Two things make it stronger at the same number of rollouts per decision:

- more options considered (the greedy heuristic's best WIDTH plays rather than 4), and
- sequential halving: the budget is spent in rounds; after each, the worse half of the options
  is dropped, so most rollouts go to telling the best two or three apart. Every option still
  in play is tried in the same worlds (a paired test).

Its rollouts' policy is `rulewise` without its own rollouts: greedy card play, with the
variant's calibrated fold and swap rule (rulekit.agents.calibrate), so a world where folding or
swapping pays is played as such. The budget is a number of rollouts (the same seed gives the
same game on any machine); a time cap per decision is an option.
"""

from __future__ import annotations

import math
import time

from rulekit.agents.base import SeededAgent
from rulekit.agents.calibrate import deal_policy, strength
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.rollouts import Estimate, Tally, play_world
from rulekit.engine import actions as A
from rulekit.engine.round import Phase
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError

DEFAULT_ROLLOUTS = 240
WIDTH = 8  # plays considered: the greedy heuristic's best few


class CalibratedGreedy(GreedyAgent):
    """Greedy card play with the variant's calibrated join and swap rule: a rollout policy
    as fast as greedy that still folds and swaps as the rules make worthwhile."""

    def act(self, view: PlayerView) -> int:
        phase = view.phase
        if phase == Phase.FOLD:
            join_at = deal_policy(view.compiled, view.seated).join_at
            return A.JOIN if join_at is not None and strength(view) >= join_at else A.FOLD
        if phase == Phase.SWAP:
            return A.SWAP if deal_policy(view.compiled, view.seated).swap else A.KEEP
        return super().act(view)


class StrongAgent(SeededAgent):
    name = "strong"

    def __init__(
        self, seed: int | str = 0, rollouts: int = DEFAULT_ROLLOUTS, think_ms: float | None = None
    ) -> None:
        super().__init__(seed)
        self.rollouts = rollouts
        self.think_ms = think_ms
        self.policy = CalibratedGreedy(f"{seed}:rollouts")

    def start(self, seed: int | str) -> None:
        super().start(seed)
        self.policy.start(f"{seed}:rollouts")

    def act(self, view: PlayerView) -> int:
        return self.evaluate(view)[0].action

    def candidates(self, view: PlayerView) -> list[int]:
        """The options searched: every one, but only the greedy heuristic's best plays."""
        legal = view.legal_actions()
        if view.phase != Phase.PLAY or len(legal) <= WIDTH:
            return legal
        ranked = sorted(self.policy.rank(view, legal), reverse=True)
        plays = [a for _, a in ranked if a < A.HIKI][:WIDTH]
        return plays + [a for a in legal if a >= A.HIKI]

    def evaluate(self, view: PlayerView) -> list[Estimate]:
        """The options with their estimated outcomes, best first (those dropped early have
        fewer rollouts)."""
        options = self.candidates(view)
        if not options:
            raise MoveError(f"it is not seat {view.seat}'s turn: there is nothing to decide")
        if len(options) == 1:
            return [Estimate(options[0], 0.0, 0)]
        observation = view.observe()
        deadline = time.perf_counter() + self.think_ms / 1000 if self.think_ms else None
        tally = Tally.of(options)
        alive = list(options)
        stages = max(1, math.ceil(math.log2(len(options))))
        left = self.rollouts
        for stage in range(stages):
            worlds = max(1, (left // (stages - stage)) // len(alive))
            for k in range(worlds):
                if deadline is not None and (k or stage) and time.perf_counter() >= deadline:
                    return tally.estimates(alive) + _dropped(tally, options, alive)
                left -= play_world(observation.sample(self.rng), alive, view.seat, self.policy,
                                   tally)  # fmt: skip
            if stage < stages - 1:
                alive = [e.action for e in tally.estimates(alive)[: max(2, len(alive) // 2)]]
        return tally.estimates(alive) + _dropped(tally, options, alive)


def _dropped(tally: Tally, options: list[int], alive: list[int]) -> list[Estimate]:
    """The options dropped along the way, after those still in play."""
    return tally.estimates([a for a in options if a not in alive])
