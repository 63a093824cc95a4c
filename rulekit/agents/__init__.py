"""Agents: bots that play any variant from the compiled rules, through one interface."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulekit.agents.base import Agent
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.random_agent import RandomAgent
from rulekit.agents.rulewise import RulewiseAgent
from rulekit.agents.search import SearchAgent
from rulekit.agents.strong import StrongAgent
from rulekit.errors import UsageError, did_you_mean

DEFAULT_BOT = "rulewise"  # the bots of simulate and compare unless told otherwise


@dataclass(frozen=True)
class BotOptions:
    """The search bots' budget: rollouts per decision (None: the bot's default) and a time
    cap per decision in ms (None: none, so the same seed plays the same game anywhere)."""

    rollouts: int | None = None
    think_ms: float | None = None

    def check(self) -> None:
        """A UsageError for a budget no search can run with."""
        if self.rollouts is not None and self.rollouts < 1:
            raise UsageError("--rollouts must be at least 1")
        if self.think_ms is not None and self.think_ms <= 0:
            raise UsageError("--think-ms must be more than 0")


def _search(seed: int | str, o: BotOptions) -> Agent:
    if o.rollouts is None:
        return SearchAgent(seed, think_ms=o.think_ms)
    return SearchAgent(seed, rollouts=o.rollouts, think_ms=o.think_ms)


def _strong(seed: int | str, o: BotOptions) -> Agent:
    if o.rollouts is None:
        return StrongAgent(seed, think_ms=o.think_ms)
    return StrongAgent(seed, rollouts=o.rollouts, think_ms=o.think_ms)


AGENTS: dict[str, Callable[[int | str, BotOptions], Agent]] = {
    "random": lambda seed, _: RandomAgent(seed),
    "greedy": lambda seed, _: GreedyAgent(seed),
    "rulewise": lambda seed, _: RulewiseAgent(seed),
    "search": _search,
    "strong": _strong,
}
SEARCH_BOTS = ("search", "strong")  # the bots that take a rollout budget and a time cap


def make_agent(name: str, seed: int | str = 0, options: BotOptions | None = None) -> Agent:
    """A bot by name; a UsageError with a suggestion for an unknown one."""
    try:
        factory = AGENTS[name]
    except KeyError:
        hint = did_you_mean(name, AGENTS) or f"bots: {', '.join(AGENTS)}"
        raise UsageError(f"no bot named '{name}'", hint=hint) from None
    return factory(seed, options or BotOptions())


__all__ = ["AGENTS", "DEFAULT_BOT", "SEARCH_BOTS", "Agent", "BotOptions", "make_agent"]
