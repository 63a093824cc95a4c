"""The `rulewise` bot: greedy card play, and every choice the rules offer weighed under them.

Greedy plays its cards well enough but takes the rules' choices by a fixed rule of thumb (it
stops as soon as it is ahead), so a house rule about continuing, folding or swapping never
shows in a comparison between greedy bots. This bot takes those choices by expected value
under the variant being played:

- stop or continue, and a hiki (against the best ordinary play): short rollouts at the
  decision, in worlds sampled from what the bot has seen, with the greedy policy for everyone
  (rulekit.agents.rollouts). The rollouts follow the rule file, so a costlier continuation or a
  richer one changes the choice.
- join or fold, swap or keep: a policy estimated once per variant by rollouts over a few
  hundred deals and cached by the rule set's content (rulekit.agents.calibrate).

Its card play is greedy's, so it is nearly as fast: the choices it weighs are rare.
"""

from __future__ import annotations

from rulekit.agents.calibrate import deal_policy, strength
from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.rollouts import weigh
from rulekit.engine import actions as A
from rulekit.engine.round import Phase
from rulekit.engine.view import PlayerView

DEFAULT_WORLDS = 8  # sampled worlds per weighed decision (every option plays each)


class RulewiseAgent(GreedyAgent):
    name = "rulewise"
    plays_plain_greedily = True  # act(): a play with no hiki offered is GreedyAgent's

    def __init__(self, seed: int | str = 0, worlds: int = DEFAULT_WORLDS) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.policy = GreedyAgent(f"{seed}:rollouts")

    def start(self, seed: int | str) -> None:
        super().start(seed)
        self.policy.start(f"{seed}:rollouts")

    def act(self, view: PlayerView) -> int:
        phase = view.phase
        if phase == Phase.DECIDE:
            return self._weighed(view, [A.STOP, A.CONTINUE])
        if phase == Phase.FOLD:
            join_at = deal_policy(view.compiled, view.seated).join_at
            return A.JOIN if join_at is not None and strength(view) >= join_at else A.FOLD
        if phase == Phase.SWAP:
            return A.SWAP if deal_policy(view.compiled, view.seated).swap else A.KEEP
        if phase == Phase.PLAY:
            legal = view.legal_actions()
            hikis = [a for a in legal if a >= A.HIKI]
            if hikis:
                plays = [a for a in legal if a < A.HIKI]
                best = [self._play(view, plays)] if plays else []
                return self._weighed(view, best + hikis)
        return super().act(view)

    def _weighed(self, view: PlayerView, options: list[int]) -> int:
        """The option whose rollouts average best (the first given on a tie: stop, or play)."""
        if len(options) == 1:
            return options[0]
        return weigh(view.observe(), options, self.worlds, self.rng, self.policy)[0].action
