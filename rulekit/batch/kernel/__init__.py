"""The batch engine's round: one numba kernel plays many deals of a round (hikis and the wild
card among its plays) between random, greedy and rulewise bots (rollouts.py: the rulewise
bot's weighing), move for move and payment for payment what the scalar engine plays. One
module per part of the scalar engine it mirrors (rulekit.engine's deal.py, setup.py,
capture.py as turn.py, continuation.py, scoring.py, ledger.py; the bots of rulekit.agents as
bots.py), each function naming the scalar function it mirrors; layout.py says what every
index of its arrays holds; rounds.py plays many deals, the entry point.
tests/test_batch_identity.py holds the two engines to the same rounds.
"""

from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout, for batch/engine.py)
from rulekit.batch.kernel.rounds import play_deals

__all__ = ["play_deals"]  # and the layout's names
