"""One interface for every agent (bots and, later, a human at the terminal)."""

from __future__ import annotations

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
