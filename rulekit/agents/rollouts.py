"""Weighing options by rollouts: the one estimate every rule-aware decision rests on.

An option's value is the mean outcome of playing the round out from it, in worlds sampled from
what the player has seen (an Observation, never the round). Every option is played in the same
worlds (a paired test), so two options are told apart by their difference, not by luck of the
deal. The play-out follows the rule file being played, so a change in a rule's terms changes
the estimates: this is what makes the bots' choices respond to the rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rulekit.engine.actions import STOP
from rulekit.engine.chance import Chance
from rulekit.engine.observation import Observation
from rulekit.engine.playout import Player, offers, play_out
from rulekit.engine.round import Round, clone
from rulekit.errors import MoveError


@dataclass
class Estimate:
    """What a search thinks of one action: its mean outcome over `rollouts` play-outs."""

    action: int
    mean: float
    rollouts: int


def outcome(rnd: Round, seat: int) -> float:
    """The seat's (or its team's) result minus the average of the other sides'."""
    net = rnd.result().net
    units = rnd.teams or [[s] for s in rnd.order]
    mine = next((u for u in units if seat in u), [seat])
    others = [u for u in units if u is not mine]
    own = float(sum(net[s] for s in mine))
    if not others:
        return own
    return own - sum(float(sum(net[s] for s in u)) for u in others) / len(others)


@dataclass
class Tally:
    """Running totals of each option's outcomes."""

    totals: dict[int, float]
    counts: dict[int, int]

    @classmethod
    def of(cls, actions: Sequence[int]) -> Tally:
        return cls(dict.fromkeys(actions, 0.0), dict.fromkeys(actions, 0))

    def mean(self, action: int) -> float:
        n = self.counts[action]
        return self.totals[action] / n if n else float("-inf")

    def estimates(self, actions: Sequence[int]) -> list[Estimate]:
        """The actions with their means, best first (ties keep the given order)."""
        out = [Estimate(a, self.mean(a), self.counts[a]) for a in actions]
        out.sort(key=lambda e: -e.mean)
        return out


def play_options(
    world: Round, actions: Sequence[int], seat: int, policy: Player
) -> Iterator[tuple[int, float]]:
    """Each action applied to a copy of one world and played out by `policy` for everyone:
    (action, the seat's outcome). An action legal at the table but not in this guess of the
    hidden cards (a wild card's target may complete a hiki someone holds in this world) skips
    the world."""
    players = [policy] * world.seated
    asked = offers(world.c, players)  # once for every action's play-out
    for action in actions:
        rnd = clone(world)
        try:
            rnd.apply(action)
        except MoveError:
            continue
        play_out(rnd, players, None, asked)
        yield action, outcome(rnd, seat)


def play_world(
    world: Round, actions: Sequence[int], seat: int, policy: Player, tally: Tally
) -> int:
    """Each action played out in one world, added to `tally`; returns the rollouts made."""
    done = 0
    for action, result in play_options(world, actions, seat, policy):
        tally.totals[action] += result
        tally.counts[action] += 1
        done += 1
    return done


def weigh(
    observation: Observation,
    actions: Sequence[int],
    worlds: int,
    rng: random.Random | Chance,
    policy: Player,
    deadline: float | None = None,
) -> list[Estimate]:
    """Every action played out in the same `worlds` sampled worlds, best first; with a
    deadline (perf_counter seconds), fewer worlds if time runs out (at least one).

    A stop ends the round at once: its outcome is the same in every world (the hidden cards
    are never read), so it is played out in the first world only and counted in each (the
    same estimates, the same draws: a stop plays no card)."""
    tally = Tally.of(actions)
    stop = STOP if STOP in actions else None
    played = [a for a in actions if a != stop]
    stopped: float | None = None
    for k in range(max(1, worlds)):
        if k and deadline is not None and time.perf_counter() >= deadline:
            break
        world = observation.sample(rng)
        if stop is not None:
            if stopped is None:
                stopped = next(
                    (r for _, r in play_options(world, [stop], observation.seat, policy)), None
                )
            if stopped is not None:
                tally.totals[stop] += stopped
                tally.counts[stop] += 1
        play_world(world, played, observation.seat, policy, tally)
    return tally.estimates(actions)
