"""Decisions taken once per deal, estimated once per variant: join or fold, swap or keep.

These choices come before any card is played, so their value depends on the rules far more
than on the moment: a fold fee, what a swap gives. Weighing them by rollouts at every deal
would cost a whole round's play-outs per decision; instead a few hundred deals of the variant
are played once, each such decision in them weighed by paired play-outs (join and fold, swap
and keep, in the same sampled worlds), and the rule kept:

- fold: join when the hand's strength (its cards' worth plus its teyaku) reaches the threshold
  that would have earned most over those decisions (always join, never join, or in between);
- swap: swap only when swapping earned significantly more than keeping (95% interval);
- a declaration before the deal (mizuten): declare only when declaring earned significantly
  more than passing (95% interval), as a swap.

The estimates are cached by the rule set's content and the number of seats, and come from a
fixed seed: every process computes the same policy, so a run split over processes is
unchanged; a run over processes computes them once, before it starts them, and hands them
over (policies_for, remember). They are kept between runs too, by this version of the code
(rulekit.stored): a command reads them back rather than play the calibration again.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulekit import stored
from rulekit.agents.greedy import GreedyAgent, card_worth, mask_worth
from rulekit.agents.rollouts import Tally, play_world
from rulekit.digest import rules_digest
from rulekit.engine import actions as A
from rulekit.engine.playout import play_out
from rulekit.engine.round import Phase, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.stats.moments import Moments

CALIBRATION_DEALS = 600
CALIBRATION_SEED = "calibrate"


@dataclass(frozen=True)
class DealPolicy:
    """The variant's pre-play decisions: a join threshold on hand strength (None: never
    join by choice) and whether to swap; with the figures they rest on."""

    join_at: float | None
    swap: bool
    fold_samples: int = 0
    swap_gain: float = 0.0
    swap_samples: int = 0
    declare: bool = False
    declare_gain: float = 0.0
    declare_samples: int = 0


def strength(view: PlayerView) -> float:
    """A hand's promise: its cards' worth (points and yaku shares, from the rule file) plus the
    value of the teyaku it holds."""
    c = view.compiled
    worth = card_worth(c)
    hand = view.hand
    total = mask_worth(worth, hand)
    table = c.teyaku
    if table is not None:
        counted = table.counted(table.match_play(hand), hand)
        total += sum(table.value(i, hand) for i in counted)
    return total


def best_threshold(samples: list[tuple[float, float]]) -> float | None:
    """The strength from which joining earns most, from (strength, join minus fold) samples:
    None when folding always earned more than any joining."""
    if not samples:
        return 0.0
    ordered = sorted(samples, reverse=True)
    best, best_at = 0.0, None  # joining with no hand at all: nothing gained
    running = 0.0
    for s, gain in ordered:
        running += gain
        if running > best:
            best, best_at = running, s
    return best_at


# the pre-play choices weighed: the phase -> the option weighed first, and the other
PAIRS = {
    Phase.FOLD: (A.JOIN, A.FOLD),
    Phase.SWAP: (A.SWAP, A.KEEP),
    Phase.DECLARE: (A.DECLARE, A.PASS),
}


class _Recorder(GreedyAgent):
    """Plays the calibration deals greedily, weighing each pre-play decision on the way."""

    def __init__(self, rng: random.Random, policy: GreedyAgent, worlds: int) -> None:
        super().__init__(CALIBRATION_SEED)
        self.sample_rng = rng
        self.policy = policy
        self.worlds = worlds
        self.folds: list[tuple[float, float]] = []
        self.swaps = Moments()
        self.declares = Moments()

    def act(self, view: PlayerView) -> int:
        phase = view.phase
        if phase in PAIRS:
            first, second = PAIRS[phase]
            tally = Tally.of([first, second])
            observation = view.observe()
            for _ in range(self.worlds):
                play_world(observation.sample(self.sample_rng), [first, second], view.seat,
                           self.policy, tally)  # fmt: skip
            if tally.counts[first] and tally.counts[second]:
                gain = tally.mean(first) - tally.mean(second)
                if phase == Phase.FOLD:
                    self.folds.append((strength(view), gain))
                else:
                    (self.swaps if phase == Phase.SWAP else self.declares).add(gain)
        return super().act(view)


def calibrate(compiled: CompiledRules, seats: int, deals: int = CALIBRATION_DEALS) -> DealPolicy:
    """Play `deals` deals and weigh every fold and swap decision in them (see the module)."""
    rng = random.Random(CALIBRATION_SEED)
    policy = GreedyAgent(f"{CALIBRATION_SEED}:rollouts")
    recorder = _Recorder(rng, policy, worlds=1)
    players = [recorder] * seats
    for i in range(deals):
        rnd = Round(compiled, seats, i % seats, seed=CALIBRATION_SEED, deal_no=i, round_no=i)
        play_out(rnd, players)
    swaps, declares = recorder.swaps, recorder.declares
    return DealPolicy(
        join_at=best_threshold(recorder.folds),
        swap=_significant(swaps),
        fold_samples=len(recorder.folds),
        swap_gain=swaps.mean,
        swap_samples=swaps.n,
        declare=_significant(declares),
        declare_gain=declares.mean,
        declare_samples=declares.n,
    )


def _significant(gains: Moments) -> bool:
    """The option earned more than the other, beyond its 95% interval."""
    ci = gains.ci95
    return ci is not None and gains.mean > ci


PolicyKey = tuple[str, int]  # the rule set's content (rulekit.digest.rules_digest), seats
_POLICIES: dict[PolicyKey, DealPolicy] = {}
STORED = "policies"  # their kind among what rulekit keeps between runs
# the bots that ask for the policy (rulewise, and strong's pre-play choices)
CALIBRATED_BOTS = frozenset({"rulewise", "strong"})


def deal_policy(compiled: CompiledRules, seats: int) -> DealPolicy:
    """The variant's pre-play policy at this table size, computed once per process (or handed
    over by the process that started this one: remember()), and kept between runs by this
    version of the code (rulekit.stored): a command does not play the calibration's deals
    again each time it starts."""
    key = (rules_digest(compiled.rules), seats)
    hit = _POLICIES.get(key)
    if hit is None:
        hit = _POLICIES[key] = _kept(key) or _keep(key, calibrate(compiled, seats))
    return hit


def _kept(key: PolicyKey) -> DealPolicy | None:
    """The policy of `key` as an earlier run kept it, or None."""
    kept = stored.read(STORED, f"{key[0]}-{key[1]}")
    try:
        return DealPolicy(**kept) if isinstance(kept, dict) else None
    except TypeError:  # not a policy's fields
        return None


def _keep(key: PolicyKey, policy: DealPolicy) -> DealPolicy:
    stored.write(STORED, f"{key[0]}-{key[1]}", dataclasses.asdict(policy))
    return policy


def policies_for(
    variants: Sequence[CompiledRules], seats: int, bots: Sequence[str]
) -> tuple[tuple[PolicyKey, DealPolicy], ...]:
    """The policies a run's bots will ask for, computed here and now: a run over processes
    computes them once, before it starts them, and hands them over with its plan rather than
    have each process calibrate every variant again. Only for the variants with a fold or swap
    step, and only when a bot of the run asks for them."""
    if not CALIBRATED_BOTS & set(bots):
        return ()
    return tuple(
        ((rules_digest(c.rules), seats), deal_policy(c, seats))
        for c in variants
        if {"fold", "swap"} & set(c.rules.setup) or c.rules.declarations
    )


def remember(policies: Iterable[tuple[PolicyKey, DealPolicy]]) -> None:
    """Take policies computed by another process (policies_for's), so none is computed here."""
    _POLICIES.update(policies)
