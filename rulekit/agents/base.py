"""One interface for every agent (bots and, later, a human at the terminal)."""

from __future__ import annotations

import random
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


class SeededAgent:
    """A bot whose only chance is its own RNG, re-seeded before each round or game."""

    name = "seeded"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(str(seed))

    def start(self, seed: int | str) -> None:
        self.rng.seed(str(seed))
