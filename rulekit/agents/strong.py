"""The `strong` bot: determinized search that trusts its rollouts only as far as they are sure.

Like `search`, it deals the cards it cannot see at random, consistently with what it has seen,
plays each option out with a fast policy for everyone, and compares the options' outcomes in
the same worlds (a paired test). Much of what `search` loses is noise: with a budget of about
a hundred rollouts, each option gets a few dozen play-outs whose results vary far more than the
options differ, so it often trades the heuristic's good play for a worse one that drew lucky
deals. So:

- the default option is the rollout policy's own choice (greedy's best play or take, the
  calibrated fold); for stop or continue and a blind swap there is none: the best mean wins;
- another option replaces it only when its paired advantage over the default is clear: its
  mean difference less `CONFIDENCE` standard errors is above zero;
- the budget is spent in two halves: after the first, the options clearly worse than the
  default are dropped, and the second half goes to the close calls.

Its rollouts' policy is `rulewise` without its own rollouts: greedy card play, with the
variant's calibrated fold and swap rule (rulekit.agents.calibrate), so a world where folding or
swapping pays is played as such. The budget is a number of rollouts (the same seed gives the
same game on any machine); a time cap per decision is an option.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from rulekit.agents.base import SeededAgent
from rulekit.agents.calibrate import deal_policy, strength
from rulekit.agents.greedy import GreedyAgent, cannot_cost
from rulekit.agents.rollouts import Estimate, play_options
from rulekit.engine import actions as A
from rulekit.engine.observation import Observation
from rulekit.engine.round import Phase
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError

DEFAULT_ROLLOUTS = 240
WIDTH = 4  # plays considered: the greedy heuristic's best few
CONFIDENCE = 0.5  # standard errors by which an option must beat the default to replace it
# the rollouts alone decide (no default)
RULE_PHASES = (Phase.DECIDE, Phase.SWAP, Phase.DECLARE, Phase.CLAIM, Phase.SHOW)


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
        if phase == Phase.DECLARE:
            free = cannot_cost(view.compiled.rules)  # (else: as a swap, calibrated)
            return A.DECLARE if free or deal_policy(view.compiled, view.seated).declare else A.PASS
        return super().act(view)


class Paired:
    """Each option's outcome in each sampled world, to compare options world by world."""

    def __init__(self, options: Sequence[int]) -> None:
        self.results: dict[int, dict[int, float]] = {a: {} for a in options}
        self.worlds = 0

    def play(
        self,
        observation: Observation,
        rng: random.Random,
        options: Sequence[int],
        policy: GreedyAgent,
    ) -> int:
        """Every option played out in one more world; returns the rollouts made."""
        world = observation.sample(rng)
        done = 0
        for action, result in play_options(world, options, observation.seat, policy):
            self.results[action][self.worlds] = result
            done += 1
        self.worlds += 1
        return done

    def mean(self, action: int) -> float:
        r = self.results[action]
        return sum(r.values()) / len(r) if r else float("-inf")

    def advantage(self, action: int, default: int) -> tuple[float, float]:
        """The mean paired difference of `action` over `default` and its standard error
        (infinite with fewer than two shared worlds)."""
        a, d = self.results[action], self.results[default]
        diffs = [a[w] - d[w] for w in a if w in d]
        n = len(diffs)
        if n < 2:
            return (sum(diffs) / n if n else 0.0), math.inf
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
        return mean, math.sqrt(var / n)

    def estimate(self, action: int) -> Estimate:
        return Estimate(action, self.mean(action), len(self.results[action]))


class StrongAgent(SeededAgent):
    name = "strong"

    def __init__(
        self,
        seed: int | str = 0,
        rollouts: int = DEFAULT_ROLLOUTS,
        think_ms: float | None = None,
        confidence: float = CONFIDENCE,
    ) -> None:
        super().__init__(seed)
        self.rollouts = rollouts
        self.think_ms = think_ms
        self.confidence = confidence
        self.policy = CalibratedGreedy(f"{seed}:rollouts")

    def start(self, seed: int | str) -> None:
        super().start(seed)
        self.policy.start(f"{seed}:rollouts")

    def act(self, view: PlayerView) -> int:
        return self.evaluate(view)[0].action

    def candidates(self, view: PlayerView) -> tuple[list[int], int | None]:
        """The options searched (every one, but only the greedy heuristic's best plays) and
        the default among them (None: the rollouts alone decide)."""
        legal = view.legal_actions()
        phase = view.phase
        if phase in RULE_PHASES or len(legal) < 2:
            return legal, None
        if phase != Phase.PLAY:
            return legal, self.policy.act(view)
        cards = [a for a in legal if a != A.OFFER]  # (a draw offered: searched apart)
        plays = [a for a in self.policy.ranked_plays(view, cards) if a < A.HIKI][:WIDTH]
        options = plays + [a for a in legal if a >= A.HIKI or a == A.OFFER]
        return options, (plays[0] if plays else None)

    def evaluate(self, view: PlayerView) -> list[Estimate]:
        """The options with their estimated outcomes, the chosen one first (then best first;
        those dropped half-way have fewer rollouts)."""
        options, default = self.candidates(view)
        if not options:
            raise MoveError(f"it is not seat {view.seat}'s turn: there is nothing to decide")
        if len(options) == 1:
            return [Estimate(options[0], 0.0, 0)]
        observation = view.observe()
        deadline = time.perf_counter() + self.think_ms / 1000 if self.think_ms else None
        paired = Paired(options)
        alive = list(options)
        left = self.rollouts
        for half in (0, 1):
            worlds = max(1, (left // (2 - half)) // len(alive))
            for k in range(worlds):
                if deadline is not None and (k or half) and time.perf_counter() >= deadline:
                    return self._ranked(paired, options, default)
                left -= paired.play(observation, self.rng, alive, self.policy)
            if half == 0 and default is not None:
                alive = [a for a in alive if a == default or self._close(paired, a, default)]
            if len(alive) == 1:
                break
        return self._ranked(paired, options, default)

    def _close(self, paired: Paired, action: int, default: int) -> bool:
        """Not clearly worse than the default: worth more rollouts."""
        mean, se = paired.advantage(action, default)
        return mean + self.confidence * se >= 0

    def _ranked(self, paired: Paired, options: list[int], default: int | None) -> list[Estimate]:
        """The choice first: the option clearly best against the default (or the default),
        or with no default the best mean; then the rest, best mean first."""
        by_mean = sorted(options, key=lambda a: -paired.mean(a))
        choice = by_mean[0]
        if default is not None:
            choice, best = default, 0.0
            for a in options:
                if a == default:
                    continue
                mean, se = paired.advantage(a, default)
                sure = mean - self.confidence * se
                if sure > best:
                    choice, best = a, sure
        rest = [a for a in by_mean if a != choice]
        return [paired.estimate(a) for a in [choice, *rest]]
