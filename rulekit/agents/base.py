"""One interface for every agent (bots and, later, a human at the terminal)."""

from __future__ import annotations

import random
from _random import Random as _Generator
from hashlib import sha512
from typing import Protocol

from rulekit.engine.view import PlayerView


class Agent(Protocol):
    """Chooses an action for its seat from what that seat can see."""

    name: str

    def start(self, seed: int | str) -> None:
        """Re-seed before a round or game, so that a seed replays it exactly."""

    def act(self, view: PlayerView) -> int:
        """One of view.legal_actions()."""
        ...


_SEED = _Generator.seed  # the C generator's own seed, under random.Random.seed's checks


def reseed(rng: random.Random, seed: int | str) -> None:
    """`rng.seed(str(seed))`, exactly (Random.seed's reading of a string, version 2), without
    its type checks: a bot is re-seeded for every round a simulation plays."""
    text = str(seed).encode()
    _SEED(rng, int.from_bytes(text + sha512(text).digest(), "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]


class SeededAgent:
    """A bot whose only chance is its own RNG, re-seeded before each round or game."""

    name = "seeded"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(str(seed))

    def start(self, seed: int | str) -> None:
        reseed(self.rng, seed)
