"""The `random` bot: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

from rulekit.agents.base import SeededAgent
from rulekit.engine.view import PlayerView


class RandomAgent(SeededAgent):
    name = "random"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return legal[int(self.rng.random() * len(legal))]
