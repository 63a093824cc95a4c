"""The `random` bot: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

import random

from rulekit.engine.view import PlayerView


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(str(seed))

    def start(self, seed: int | str) -> None:
        self.rng.seed(str(seed))

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return legal[int(self.rng.random() * len(legal))]
