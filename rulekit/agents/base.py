"""One interface for every agent (bots and, later, a human at the terminal)."""

from __future__ import annotations

import random
from _random import Random as _Generator
from hashlib import sha512
from typing import Protocol

from rulekit.agents.chance import Chance
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
    """A bot whose only chance is its own, re-seeded before each round or game: `chance` for
    its choices (cheap to re-seed: rulekit.agents.chance), and `rng`, a Mersenne Twister for
    the bots that sample worlds, seeded as `random.Random(str(seed))` only when first used
    after start() (most rounds of most bots never use it, and seeding it costs more than a
    round's play)."""

    name = "seeded"

    def __init__(self, seed: int | str = 0) -> None:
        self.chance = Chance(seed)
        self._rng = random.Random(0)  # reseeded from `_unseeded` before its first use
        self._unseeded: int | str | None = seed

    def start(self, seed: int | str) -> None:
        self.chance.reseed(seed)  # the same Chance, re-seeded: no new object per round
        self._unseeded = seed

    @property
    def rng(self) -> random.Random:
        """The world-sampling generator, `reseed` from the last seed given, on first use."""
        seed = self._unseeded
        if seed is not None:
            self._unseeded = None
            reseed(self._rng, seed)
        return self._rng
