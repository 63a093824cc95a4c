"""Issue 21, items 2, 3, 4 and 8: a void deal in a scenario game is redealt as the same round,
a recorded round keeps its number, recordings write the void deals, and a written-down deal
(its restock included) holds every card of the deck exactly once."""

from __future__ import annotations

from pathlib import Path

from rulekit.scenario.runner import run_scenario

ROOT = Path(__file__).parent.parent
KOIKOI_HOUSE = ROOT / "rules" / "koikoi" / "house" / "scenarios"


# ---------------------------------------------------------------- item 2: void deals in games


def test_a_void_deal_does_not_move_a_scenario_game_on() -> None:
    outcome = run_scenario(KOIKOI_HOUSE / "tsukifuda-after-a-void-deal.scenario.toml")
    assert outcome.passed, outcome.render()
    assert outcome.voids == 1
    assert [r.round for r in outcome.rounds] == [0]  # the redeal is round 1 (from 0): January
