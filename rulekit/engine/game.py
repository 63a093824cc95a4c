"""A game: rounds one after another, with the dealer, the multiplier carry-over and void redeals.

Chance comes only from the seed: the first dealer from `seed`, each deal from (`seed`, deal
number), so one seed replays a game exactly and every variant with the same deck gets the same
shuffles.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulekit import ir
from rulekit.engine.ledger import Amount
from rulekit.engine.round import Round, RoundResult, StackedDeal
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RulekitError

MAX_VOID_IN_A_ROW = 5000  # a void rule leaves 1 field in 100 at least (lang.checks.MIN_PLAYABLE)


def first_dealer(compiled: CompiledRules, seated: int, seed: int | str) -> int:
    """Dice (highest, ties re-roll) or a card draw (lowest month; ties by the better card, or a
    re-draw), as the rule file says."""
    rng = random.Random(f"{seed}:first-dealer")
    draw_round = FIRST_DEALER[compiled.rules.first_dealer.method]
    candidates = list(range(seated))
    while len(candidates) > 1:
        candidates = draw_round(compiled, rng, candidates)
    return candidates[0]


def _by_dice(compiled: CompiledRules, rng: random.Random, candidates: list[int]) -> list[int]:
    """Each rolls a die: the highest stay in."""
    rolls = {s: rng.randint(1, 6) for s in candidates}
    top = max(rolls.values())
    return [s for s in candidates if rolls[s] == top]


def _by_draw(compiled: CompiledRules, rng: random.Random, candidates: list[int]) -> list[int]:
    """Each draws a card: the lowest month stays in (the better card breaks ties if said)."""
    ix = compiled.index
    cards = rng.sample([i for i in ix.ids if ix.card(i).month], len(candidates))  # no bonus
    return stay_in(compiled, {s: ix.card(c) for s, c in zip(candidates, cards, strict=True)})


def stay_in(compiled: CompiledRules, drawn: dict[int, ir.Card]) -> list[int]:
    """Of the seats that drew these cards, those who stay in: the lowest month (the better
    card of it, if the rule file says so); more than one draw again. A scenario states the
    cards drawn (`first_dealer_draw`) and reads them here."""
    candidates = list(drawn)
    low = min(c.month for c in drawn.values())
    candidates = [s for s in candidates if drawn[s].month == low]
    if compiled.rules.first_dealer.best_card_breaks_ties and len(candidates) > 1:
        best = min(drawn[s].rank for s in candidates)
        candidates = [s for s in candidates if drawn[s].rank == best]
    return candidates


# ir.FirstDealer.method -> one round of choosing the first dealer (who stays in)
FIRST_DEALER: dict[str, Callable[[CompiledRules, random.Random, list[int]], list[int]]] = {
    "dice": _by_dice,
    "draw": _by_draw,
}


def _lowest_net(result: RoundResult, out: int) -> int:
    return _ranked(result, out, 1)


def _highest_net(result: RoundResult, out: int) -> int:
    return _ranked(result, out, -1)


def _ranked(result: RoundResult, out: int, sign: int) -> int:
    """The `out` players of the round with the lowest net (sign 1) or the highest (-1), as
    bits; among tied nets, the last in play order from the round's dealer first (the dealer
    keeps his place: a drawn round sits out the others first)."""
    seated = result.seated
    players = [s % seated for s in range(result.dealer, result.dealer + seated)]
    players = [s for s in players if s in result.active]
    ranked = sorted(players, key=lambda s: (sign * result.net[s], -players.index(s)))
    return sum(1 << s for s in ranked[:out])


def _in_turn(result: RoundResult, out: int) -> int:
    """The seats after those who sat the round out (each seat in turn, whoever deals)."""
    seated = result.seated
    return sum(1 << ((s + out) % seated) for s in range(seated) if s not in result.active)


# ir.Seats.sit_out -> who sits the next round out, from a round's result and how many must
# (bits; -1: the round's own rule, setup.SIT_OUT, decides)
NEXT_SITTERS: dict[str, Callable[[RoundResult, int], int]] = {
    "fold": lambda result, out: -1,
    "after_dealer": lambda result, out: -1,
    "dealer": lambda result, out: -1,
    "loser": _lowest_net,
    "winner": _highest_net,
    "in_turn": _in_turn,
}


def game_winners(
    rules: ir.Ruleset, seated: int, net: Sequence[Amount], round_wins: Sequence[int], dealer: int
) -> list[int]:
    """The seats that win the game: the side (a player, or every member of a team) with the
    best total; a tie broken by the file's `tie break`, in order (the rounds each seat won,
    `dealer` the last round's), and shared by the sides still tied."""
    units = rules.teams_for(seated) or [[s] for s in range(seated)]
    totals = [sum(net[s] for s in u) for u in units]
    top = max(totals)
    tied = [u for u, t in enumerate(totals) if t == top]
    for rule in rules.length.tie_break:
        tied = TIE_BREAKS[rule](tied, units, round_wins, dealer, seated)
    return [s for u in tied for s in units[u]]


def _most_round_wins(
    tied: list[int], units: list[list[int]], wins: Sequence[int], dealer: int, seated: int
) -> list[int]:
    """The tied sides that won the most rounds (a team: the rounds it won)."""
    won = {u: max(wins[s] for s in units[u]) for u in tied}
    best = max(won.values())
    return [u for u in tied if won[u] == best]


def _dealer_order(
    tied: list[int], units: list[list[int]], wins: Sequence[int], dealer: int, seated: int
) -> list[int]:
    """The tied side first in play order from the last round's dealer (he first)."""
    return [min(tied, key=lambda u: min((s - dealer) % seated for s in units[u]))]


# ir.Length.tie_break -> the tied sides it keeps: (tied sides, sides, each seat's round wins,
# the last round's dealer, seats) -> the sides still tied
TIE_BREAKS: dict[
    str, Callable[[list[int], list[list[int]], Sequence[int], int, int], list[int]]
] = {
    "round_wins": _most_round_wins,
    "dealer_order": _dealer_order,
}


@dataclass
class GameResult:
    seated: int
    first_dealer: int
    rounds: list[RoundResult]
    voids: int
    start: int = 0  # every player's score when the game started (`rounds N; start at S`)

    @property
    def net(self) -> list[Amount]:
        """Each seat's result over the rounds: received minus paid."""
        totals: list[Amount] = [0] * self.seated
        for r in self.rounds:
            for s, v in enumerate(r.net):
                totals[s] += v
        return totals

    @property
    def totals(self) -> list[Amount]:
        """Each seat's score at the end: the starting score plus its net."""
        return [self.start + v for v in self.net]

    @property
    def round_wins(self) -> list[int]:
        """The rounds each seat won (with his team, a team's win)."""
        wins = [0] * self.seated
        for r in self.rounds:
            for s in r.winners:
                wins[s] += 1
        return wins

    @property
    def last_dealer(self) -> int:
        return self.rounds[-1].dealer if self.rounds else self.first_dealer


class Game:
    """Deals rounds until the game's length is reached; the caller plays each round. The one
    game loop: simulations, `play` and scenario games all deal through new_round() and hand
    each result to record(), so a void deal is numbered the same way everywhere."""

    def __init__(
        self,
        compiled: CompiledRules,
        seated: int,
        seed: int | str = 0,
        dealer: int | None = None,
        round_no: int = 0,
    ) -> None:
        self.c = compiled
        self.seated = seated
        self.seed = seed
        self.dealer = first_dealer(compiled, seated, seed) if dealer is None else dealer
        self.first = self.dealer
        self.round_no = round_no  # from 0; a scenario may start later in the game
        self.deal_no = 0
        self.carry = 1
        self.draws = 0  # drawn rounds in a row, the last just played (`after a drawn round`)
        self.sitters = -1  # who sits the next round out by the last's result (bits; -1: none)
        self.voids = 0
        self._voids_in_a_row = 0
        self.results: list[RoundResult] = []

    @property
    def is_over(self) -> bool:
        """After the rounds, or once a player (or a team) reaches the target score."""
        length = self.c.rules.length
        return self.round_no >= length.rounds or (
            length.target is not None and max(self.totals(), default=0) >= length.target
        )

    def totals(self) -> list[Amount]:
        """Each side's total: the starting score plus its net (a team's members' nets added)."""
        net = self.result().net
        start = self.c.rules.length.start
        teams = self.c.rules.teams_for(self.seated) or [[s] for s in range(self.seated)]
        return [start + sum(net[s] for s in members) for members in teams]

    def new_round(
        self,
        *,
        dealer: int | None = None,
        seed: int | str | None = None,
        deal: StackedDeal | None = None,
    ) -> Round:
        """The game's next deal: its deal and round numbers (a void deal's redeal plays the same
        round), the carry-over and the dealer. A scenario may name another dealer, deal from
        another seed, or write the deal down."""
        return Round(
            self.c,
            self.seated,
            self.dealer if dealer is None else dealer,
            seed=self.seed if seed is None else seed,
            deal_no=self.deal_no,
            round_no=self.round_no,
            carry=self.carry,
            deal=deal,
            draws_before=self.draws,
            sitters=self.sitters,
        )

    def record(self, result: RoundResult) -> None:
        """A void deal is redealt by the same dealer and does not count as a round."""
        self.deal_no += 1
        if result.void:
            self.voids += 1
            self._voids_in_a_row += 1
            if self._voids_in_a_row > MAX_VOID_IN_A_ROW:
                raise RulekitError(
                    f"more than {MAX_VOID_IN_A_ROW} void deals in a row: check the rule file's "
                    "'void if'"
                )
            return
        self._voids_in_a_row = 0
        self.results.append(result)
        self.round_no += 1
        self.dealer = result.next_dealer
        self.carry = result.carry
        self.draws = self.draws + 1 if result.winner is None else 0
        out = self.seated - self.c.rules.seats.playing(self.seated)
        self.sitters = NEXT_SITTERS[self.c.rules.seats.sit_out](result, out)

    def winners(self) -> list[int]:
        """The seats that win the game so far (game_winners: the best total, the file's tie
        break)."""
        g = self.result()
        return game_winners(self.c.rules, self.seated, g.net, g.round_wins, g.last_dealer)

    def result(self) -> GameResult:
        start = self.c.rules.length.start
        return GameResult(self.seated, self.first, list(self.results), self.voids, start)
