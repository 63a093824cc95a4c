"""Agents: bots that play any variant from the compiled rules, through one interface."""

from __future__ import annotations

from collections.abc import Callable

from rulekit.agents.base import Agent
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.random_agent import RandomAgent
from rulekit.agents.search import SearchAgent
from rulekit.errors import UsageError, did_you_mean

AGENTS: dict[str, Callable[[int | str], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
}


def make_agent(name: str, seed: int | str = 0) -> Agent:
    """A bot by name; a UsageError with a suggestion for an unknown one."""
    try:
        factory = AGENTS[name]
    except KeyError:
        hint = did_you_mean(name, AGENTS) or f"bots: {', '.join(AGENTS)}"
        raise UsageError(f"no bot named '{name}'", hint=hint) from None
    return factory(seed)


__all__ = ["AGENTS", "Agent", "make_agent"]
