"""The `rulewise` bot: greedy card play, and every choice the rules offer weighed under them.

Greedy plays its cards well enough but takes the rules' choices by a fixed rule of thumb (it
stops as soon as it is ahead), so a house rule about continuing, folding or swapping never
shows in a comparison between greedy bots. This bot takes those choices by expected value
under the variant being played:

- stop or continue, a hiki (against the best ordinary play), the card a drawn wild card
  takes (`captures any field card when drawn`), and the dealer's claim of the field (`the
  dealer may take 2 of a month of 3 on the field and play second`), a teyaku shown
  (paid, its cards capturable by the others) or kept hidden, a draw offered and its
  answer (`offer a draw: when he has no safe play`): short rollouts at the
  decision, in worlds sampled from what the bot has seen (dealt from its own chance), with the
  greedy policy for everyone (rulekit.agents.rollouts). The rollouts follow the rule file, so
  a costlier continuation or a richer one changes the choice. A stop with an empty hand is
  taken without rollouts where the rules leave a continuer nothing to gain.
- join or fold, swap or keep: a policy estimated once per variant by rollouts over a few
  hundred deals and cached by the rule set's content (rulekit.agents.calibrate).

Its card play is greedy's, so it is nearly as fast: the choices it weighs are rare.
"""

from __future__ import annotations

from rulekit import ir
from rulekit.agents.calibrate import deal_policy, strength
from rulekit.agents.greedy import GreedyAgent, cannot_cost
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
        if phase == Phase.DECLARE:
            free = cannot_cost(view.compiled.rules)  # (else: as a swap, calibrated)
            return A.DECLARE if free or deal_policy(view.compiled, view.seated).declare else A.PASS
        if phase == Phase.CLAIM:  # the dealer's claim of the field, against the lead
            return self._weighed(view, [A.CLAIM, A.PASS])
        if phase == Phase.SHOW:  # a teyaku paid, against its cards face up for the others
            return self._weighed(view, [A.SHOW, A.PASS])
        if phase == Phase.TAKE and view.wild_drawn:  # which card the drawn wild card takes
            return self._weighed(view, view.legal_actions())
        if phase == Phase.ANSWER:  # a draw offered: accept (the round may end) or refuse
            return self._weighed(view, [A.ACCEPT, A.REFUSE])
        if phase == Phase.PLAY:
            legal = view.legal_actions()
            # hikis (and a bomb's skip), and a draw offered (last): against the best play
            hikis = [a for a in legal if a >= A.HIKI or a == A.OFFER]
            if hikis:
                plays = [a for a in legal if a < A.HIKI and a != A.OFFER]
                best = [self._play(view, plays)] if plays else []
                return self._weighed(view, best + hikis)
        return super().act(view)

    def _weighed(self, view: PlayerView, options: list[int]) -> int:
        """The option whose rollouts average best (the first given on a tie: stop, or play),
        in worlds dealt from the bot's own chance. With an empty hand, where the rules leave a
        continuer nothing to gain, the stop without rollouts: it is what they would choose."""
        if len(options) == 1:
            return options[0]
        if options[0] == A.STOP and not view.hand and continuing_cannot_gain(view.compiled.rules):
            return A.STOP
        return weigh(view.observe(), options, self.worlds, self.chance, self.policy)[0].action


def continuing_cannot_gain(rules: ir.Ruleset) -> bool:
    """Whether a player who continues with no card left can never end better off than if he
    stopped: he makes no new yaku (he plays no more turns), so the round can only end as his
    stop would, or worse (another's yaku beats him or outstops him). Not so where the round's
    end pays what a stop does not: a count made when the hands run out and not at a stop, a
    wild card's month collected at the end, a continuer who earns half on top of what was paid
    when made, a partner who plays on, or a scoring step that reads the continues or a drawn
    round (tests/test_bots_rules.py plays it out against the rollouts)."""
    c, count, wild = rules.continuation, rules.count, rules.wild
    if rules.teams:
        return False  # (a partner plays on: his yaku may pay the side more than it costs)
    if rules.bomb is not None and rules.bomb.skips:
        return False  # (a bomber with an empty hand still draws on the turns he skips)
    if count.method != "none" and not count.only_without_yaku:
        return False  # (the hands are counted when they run out, not at a stop)
    if wild is not None and wild.collects_month:
        return False
    if c.if_unfinished == "earn_half" and c.paid != "stop":
        return False
    for step in rules.scoring:
        if isinstance(step, ir.Award):
            return False  # (a winner's or a dealer's award may go another way)
        parts = ir.parts_of(step.condition) if step.condition is not None else ()
        if any(isinstance(p, ir.Continued | ir.NobodyWon) for p in parts):
            return False
    return True
