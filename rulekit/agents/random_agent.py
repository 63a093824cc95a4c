"""The `random` bot: a uniformly random legal action, from its own seeded chance."""

from __future__ import annotations

from rulekit.agents.base import SeededAgent
from rulekit.engine.capture import PlainChoice
from rulekit.engine.chance import Chance
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView


class RandomAgent(SeededAgent):
    name = "random"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return legal[self.chance.below(len(legal))]

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice | None:
        """act() on a plain round's plays, without a view (the same draw of the same chance);
        None for a subclass with its own act."""
        return self._choose if type(self).act is RandomAgent.act else None

    def uniform_draws(self) -> Chance | None:
        """act()'s chance: every choice is legal[chance.below(len(legal))] (engine.playout
        then draws it without a view; None for a subclass with its own act)."""
        return self.chance if type(self).act is RandomAgent.act else None

    def _choose(self, legal: list[int], field: int, mine: int, made: int) -> int:
        return legal[self.chance.below(len(legal))]
