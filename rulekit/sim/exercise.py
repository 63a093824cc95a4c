"""Which rule choices the bots met and took, so that a comparison can say what it cannot see.

A comparison measures the rules through the bots' play: a rule about continuing shows no
effect if the bots never continue, nor a fold fee if nobody folds. Each bot is wrapped to count
the choices the rules offered it in the real rounds (not in a search's rollouts) and what it
chose; for every mechanic whose terms differ between two variants, the report says how often
it was exercised, and warns when it never was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulekit import ir
from rulekit.agents.base import Agent
from rulekit.engine import actions as A
from rulekit.engine.capture import PlainChoice
from rulekit.engine.round import Phase
from rulekit.engine.state import RoundState
from rulekit.engine.tables import ChoiceTable, CompiledRules
from rulekit.engine.view import PlayerView


@dataclass(frozen=True)
class Mechanic:
    """A rule choice: its key, its name for a person, and the choice that exercises it."""

    key: str
    label: str
    taken: str  # what the count of exercises is called ("continues", "folds")


MECHANICS = (
    Mechanic("continue", "stop or continue", "continues"),
    Mechanic("fold", "join or fold", "folds"),
    Mechanic("swap", "swap hands or keep", "swaps"),
    Mechanic("hiki", "hiki (a month seen whole)", "hikis"),
    Mechanic("wild", "the wild card's target", "wild card plays"),
    Mechanic("declare", "a declaration (declare or pass)", "declarations"),
    Mechanic("owner", "an owner's choice of how a card counts", "piles read the second way"),
    Mechanic("bomb", "a bomb (a month's cards from the hand at once)", "bombs"),
    Mechanic("skip", "a play skipped after a bomb", "skips"),
    Mechanic("event", "an event during play (it happens, no one chooses it)", "events"),
    Mechanic("claim", "the dealer's claim of the field (take cards, play second)", "claims"),
    Mechanic("ride", "a bonus card riding a stack (it happens, no one chooses it)", "rides"),
    Mechanic("show", "a teyaku shown (its cards capturable) or kept hidden", "teyaku shown"),
    Mechanic("draw", "a draw offered by a player with no safe play", "draws offered"),
    Mechanic("refuse", "a draw offered, answered (accept or refuse)", "refusals"),
)
# the rule choices counted, offered and taken (a comparison's columns of them, in this order)
CHOICES = tuple(key for m in MECHANICS for key in (f"{m.key} offered", m.key))
_PHASE_CHOICE = {
    Phase.DECIDE: ("continue", A.CONTINUE),
    Phase.FOLD: ("fold", A.FOLD),
    Phase.SWAP: ("swap", A.SWAP),
    Phase.DECLARE: ("declare", A.DECLARE),
    Phase.CLAIM: ("claim", A.CLAIM),
    Phase.SHOW: ("show", A.SHOW),
    Phase.ANSWER: ("refuse", A.REFUSE),
}


class Counting:
    """A bot that counts, into `counts`, the rule choices it is offered ("fold offered") and
    those it takes ("fold"). `counts` may be swapped between rounds."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name = inner.name
        self.counts: Counter[str] = Counter()

    def start(self, seed: int | str) -> None:
        self.inner.start(seed)

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice | None:
        """The bot's own choice of a plain round's plays without a view (engine.playout), when
        it has one and counting needs no view: a plain round offers no hiki, and without a wild
        card in the rules no play is the wild card's. The same plays, the same counts."""
        offer = getattr(self.inner, "plain_choice", None)
        if offer is None or compiled.rules.hiki or compiled.rules.wild is not None:
            return None
        choice: PlainChoice | None = offer(compiled, seat)
        return choice

    def act(self, view: PlayerView) -> int:
        action = self.inner.act(view)
        phase = view.phase
        choice = _PHASE_CHOICE.get(phase)
        if choice is not None:
            key, taken = choice
            self.counts[f"{key} offered"] += 1
            if action == taken:
                self.counts[key] += 1
        elif phase == Phase.PLAY:
            self._count_play(view, action)
        elif phase == Phase.TAKE and view.wild_drawn:  # the drawn wild card's target: a play
            self.counts["wild offered"] += 1
            self.counts["wild"] += 1
        return action

    def _count_play(self, view: PlayerView, action: int) -> None:
        rules = view.compiled.rules
        if rules.hiki:
            if any(a >= A.HIKI for a in view.legal_actions()):
                self.counts["hiki offered"] += 1
            if action >= A.HIKI:
                self.counts["hiki"] += 1
        if rules.bomb is not None:
            legal = view.legal_actions()
            if any(A.HIKI <= a < A.SKIP for a in legal):
                self.counts["bomb offered"] += 1
            if A.HIKI <= action < A.SKIP:
                self.counts["bomb"] += 1
            if A.SKIP in legal:
                self.counts["skip offered"] += 1
            if action == A.SKIP:
                self.counts["skip"] += 1
        if rules.draw_offer is not None and view.legal_actions()[-1] == A.OFFER:
            self.counts["draw offered"] += 1
            self.counts["draw"] += action == A.OFFER
        wild = rules.wild
        if wild is not None and A.is_play(action):
            bit = view.compiled.index.bit.get(wild.card, -1)
            if view.hand >> bit & 1 if bit >= 0 else False:
                self.counts["wild offered"] += 1
                if A.played_card(action) == bit:
                    self.counts["wild"] += 1


def count_readings(compiled: CompiledRules, captured: Sequence[int], counts: Counter[str]) -> None:
    """At the end of a round, the owner's choice (engine/tables.ChoiceTable): each pile holding its
    cards that its two readings value differently (the choice "offered", where a person would
    care which), and each read the second way (taken)."""
    table = compiled.yaku
    if not isinstance(table, ChoiceTable):
        return
    for x in captured:
        first, second = table.worths(x)
        if first != second:
            counts["owner offered"] += 1
            counts["owner"] += second > first


def count_events(r: RoundState, counts: Counter[str]) -> None:
    """At the end of a round, the events that happened in it (engine/events.py): not a choice,
    but a comparison of variants whose events differ cannot see them if none ever happens
    (counted as offered as often as made)."""
    if r.events_happened:
        counts["event offered"] += r.events_happened
        counts["event"] += r.events_happened
    if r.rides_made:  # bonus cards left riding a stack (engine/riders.py), as events
        counts["ride offered"] += r.rides_made
        counts["ride"] += r.rides_made


def per_round_choices(choices: Counter[str]) -> dict[str, float]:
    """A round's rule choices as paired figures (continues are counted by the engine)."""
    return {
        "folds": float(choices["fold"]),
        "swaps": float(choices["swap"]),
        "hikis": float(choices["hiki"]),
    }


def _scoring_mentions_continuing(rules: ir.Ruleset) -> str:
    return "".join(s.model_dump_json() for s in rules.scoring if "continu" in s.model_dump_json())


def _terms(rules: ir.Ruleset, key: str) -> object:
    """What the rules say of a mechanic, to tell whether two variants differ in it."""
    if key == "continue":
        if not (rules.continuation.allowed and rules.continuation.ends_round):
            return None  # a yaku offers no choice (it ends the round, or the round plays on)
        return (rules.continuation, rules.liability, _scoring_mentions_continuing(rules))
    if key == "fold":
        return (rules.fold, "fold" in rules.setup)
    if key == "swap":
        return ("swap" in rules.setup, rules.swap_offers)
    if key == "hiki":
        return (rules.hiki, rules.hiki_offers)
    if key == "declare":
        return rules.declarations
    if key == "owner":
        c = rules.owners_choice
        return None if c is None else (c.cards, c.first, c.second, c.weight)
    if key == "bomb":
        return rules.bomb
    if key == "skip":
        return rules.bomb.skips if rules.bomb is not None else 0
    if key == "event":
        return (rules.events, rules.stacks)
    if key == "claim":
        return rules.dealer_claim
    if key == "ride":
        return rules.bonus_on_pair
    if key == "show":  # the teyaku shown or kept hidden, and the hands that may run out
        entries = rules.teyaku.entries if rules.teyaku is not None else ()
        return (tuple(e.name for e in entries if e.shown), rules.still_draws)
    if key in ("draw", "refuse"):
        return rules.draw_offer
    return rules.wild


def exercised(
    base: ir.Ruleset, other: ir.Ruleset, base_counts: Counter[str], counts: Counter[str]
) -> dict[str, Any]:
    """For every mechanic whose terms differ between the two variants: how often it was
    offered and taken in each; and the list of those never exercised in either (`unseen`)."""
    rows: dict[str, dict[str, Any]] = {}
    for m in MECHANICS:
        if _terms(base, m.key) == _terms(other, m.key):
            continue
        rows[m.key] = {
            "label": m.label,
            "taken_as": m.taken,
            "offered": [base_counts[f"{m.key} offered"], counts[f"{m.key} offered"]],
            "taken": [base_counts[m.key], counts[m.key]],
        }
    unseen = [k for k, r in rows.items() if not any(r["taken"])]
    out: dict[str, Any] = {"differing": rows, "unseen": unseen}
    across = across_rounds(base, other)
    if across:  # (a key only then: the JSON of every other comparison as it was)
        out["across_rounds"] = across
    return out


def _across_terms(rules: ir.Ruleset) -> dict[str, object]:
    """What the rules say of the rounds before a round, or of the whole game, by its words."""
    return {
        "after a drawn round": [
            s.name for s in rules.scoring if "drawn_before" in s.model_dump_json()
        ],
        "who sits out by the last round": rules.seats.sit_out
        if rules.seats.sit_out in ("loser", "winner", "in_turn")
        else None,
        "the game's tie break": rules.length.tie_break,
    }


def across_rounds(base: ir.Ruleset, other: ir.Ruleset) -> list[str]:
    """The rules acting across rounds in which the variants differ: a comparison plays single
    rounds, each the first of its game, so it can never see them."""
    a, b = _across_terms(base), _across_terms(other)
    return [k for k in a if a[k] != b[k]]


ADVICE = "Try other bots (--bots), more rounds, or another table size."


def warning(mechanics: dict[str, Any], rounds: int, advice: str = ADVICE) -> str | None:
    """The warning a report shows first when a differing rule was never exercised, ending
    with `advice` (the report gives only what the comparison can follow)."""
    unseen = mechanics.get("unseen") or []
    if not unseen:
        return None
    rows = mechanics["differing"]
    said = "; ".join(
        f"{rows[k]['label']}: 0 {rows[k]['taken_as']} in {rounds} rounds of each variant"
        f" (offered {sum(rows[k]['offered'])} times)"
        for k in unseen
    )
    return (
        f"CANNOT SEE: the variants differ in rules the bots never exercised ({said}); the"
        f" figures cannot show what these rules do. {advice}"
    ).rstrip()


def across_warning(mechanics: dict[str, Any]) -> str | None:
    """The warning a report shows when the variants differ in rules across rounds."""
    across = mechanics.get("across_rounds") or []
    if not across:
        return None
    return (
        f"CANNOT SEE: the variants differ in rules that act across rounds ({', '.join(across)});"
        " a comparison plays single rounds, each the first of its game, so the figures cannot"
        " show what these rules do. Simulate each variant's whole games (simulate --games)."
    )
