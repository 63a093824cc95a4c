"""The `random` bot: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

import random
from _random import Random as _Generator
from hashlib import sha512

from rulekit.agents.base import SeededAgent
from rulekit.engine.capture import PlainChoice
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView

_SEED = _Generator.seed  # the C generator's own seed, under random.Random.seed's checks


def reseed(rng: random.Random, seed: int | str) -> None:
    """`rng.seed(str(seed))`, exactly (Random.seed's reading of a string, version 2), without
    its type checks: a bot is re-seeded for every round a simulation plays."""
    text = str(seed).encode()
    _SEED(rng, int.from_bytes(text + sha512(text).digest(), "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]


class RandomAgent(SeededAgent):
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self._random = self.rng.random  # bound once: start() re-seeds this same generator

    def start(self, seed: int | str) -> None:
        reseed(self.rng, seed)

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return legal[int(self._random() * len(legal))]

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice:
        """act() on a plain round's plays, without a view (the same draw of the same RNG)."""
        return self._choose

    def _choose(self, legal: list[int], field: int, mine: int, made: int) -> int:
        return legal[int(self._random() * len(legal))]
