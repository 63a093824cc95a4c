"""What a simulation counts, exactly (ints and fractions), so that any split over processes
adds up to the same totals; its statistics by the rule of rulekit.stats.moments."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from rulekit.engine.ledger import BANK, Amount, Payment
from rulekit.engine.round import RoundResult
from rulekit.engine.state import RoundState
from rulekit.stats.moments import ci95


@dataclass
class Tally:
    seats: int
    units: int = 0  # rounds, or games
    rounds: int = 0
    voids: int = 0
    turns: int = 0
    # each seat's sum of results, then its sum of squares, apart: the int results (added as
    # ints) and the rest (fractions; once a sum holds a half, adding to it costs twenty times
    # an int addition). `total` and `squares` join them, exactly.
    int_sums: list[int] = field(default_factory=list)
    fraction_sums: list[Amount] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    teyaku: Counter[str] = field(default_factory=Counter)
    yaku: Counter[str] = field(default_factory=Counter)
    ended_by: Counter[str] = field(default_factory=Counter)
    continued: int = 0

    def __post_init__(self) -> None:
        self.int_sums = self.int_sums or [0] * (2 * self.seats)
        self.fraction_sums = self.fraction_sums or [0] * (2 * self.seats)
        self.wins = self.wins or [0] * self.seats

    @property
    def total(self) -> list[Amount]:
        """Each seat's sum of results (a Fraction once a fraction was added, as ever)."""
        return [self.int_sums[s] + self.fraction_sums[s] for s in range(self.seats)]

    @property
    def squares(self) -> list[Amount]:
        """Each seat's sum of squared results."""
        n = self.seats
        return [self.int_sums[n + s] + self.fraction_sums[n + s] for s in range(n)]

    def add_round(self, r: RoundResult) -> None:
        """Per-round facts: what was made, how it ended, how long it took."""
        if r.void:
            self.voids += 1
            return
        self.rounds += 1
        self.turns += r.turns
        self.continued += r.continued
        self.ended_by[r.ended_by] += 1
        for names in r.teyaku.values():
            self.teyaku.update(names)
        for names in r.yaku.values():
            self.yaku.update(names)

    def add_played(self, r: RoundState) -> None:
        """add_round() and add_unit() of a round played (over, not void), read from its state
        rather than from a RoundResult built for it: the same counts, in the same order."""
        self.rounds += 1
        self.units += 1
        self.turns += r.turn
        self.continued += sum(r.continues)
        self.ended_by[r.ended_by] += 1
        if r.teyaku_counted:
            table = r.c.teyaku
            if table is not None:
                names = table.names
                teyaku = self.teyaku
                for counted in r.teyaku_counted.values():
                    for i in counted:
                        teyaku[names[i]] += 1
        if r.yaku_made:
            yaku = self.yaku
            for made in r.yaku_made.values():
                for name in made:
                    yaku[name] += 1
        # each seat's net (engine.ledger.net), then add_unit's sums (nothing paid: all 0)
        ledger = r.ledger
        if len(ledger) == 1:
            self._add_payment(ledger[0])
        elif ledger:
            self._add_net(ledger)
        wins = self.wins
        for w in r.winners:
            wins[w] += 1

    def _add_payment(self, p: Payment) -> None:
        """add_unit's sums of a round whose ledger is this one payment (most rounds that pay):
        the payer's net is minus the amount, the payee's the amount, the others' nothing."""
        payer = p.payer
        payee = p.payee
        amount = p.amount
        if amount.__class__ is not int:  # a fraction: its sums, as _add_net adds them
            self._add_net([p])
            return
        if payer == payee or not amount:
            return
        ints = self.int_sums
        n = self.seats
        square = amount * amount
        if payer != BANK:
            ints[payer] -= amount
            ints[n + payer] += square
        if payee != BANK:
            ints[payee] += amount
            ints[n + payee] += square

    def _add_net(self, ledger: list[Payment]) -> None:
        """add_unit's sums of each seat's net over the ledger."""
        n = self.seats
        net: list[Amount] = [0] * n
        for p in ledger:
            payer = p.payer
            payee = p.payee
            if payer != BANK:
                net[payer] -= p.amount
            if payee != BANK:
                net[payee] += p.amount
        ints = self.int_sums
        for s, v in enumerate(net):
            if v.__class__ is int:
                if v:
                    ints[s] += v
                    ints[n + s] += v * v
            else:
                self.fraction_sums[s] += v
                self.fraction_sums[n + s] += v * v

    def add_unit(self, net: list[Amount], winners: list[int]) -> None:
        """One sample of the seats' results (a round, or a whole game)."""
        self.units += 1
        n = self.seats
        ints = self.int_sums
        for s, v in enumerate(net):
            if isinstance(v, int):
                ints[s] += v
                ints[n + s] += v * v
            else:
                self.fraction_sums[s] += v
                self.fraction_sums[n + s] += v * v
        for w in winners:
            self.wins[w] += 1

    def merge(self, other: Tally) -> None:
        self.units += other.units
        self.rounds += other.rounds
        self.voids += other.voids
        self.turns += other.turns
        self.continued += other.continued
        for i in range(2 * self.seats):
            self.int_sums[i] += other.int_sums[i]
            self.fraction_sums[i] += other.fraction_sums[i]
        for s in range(self.seats):
            self.wins[s] += other.wins[s]
        self.teyaku.update(other.teyaku)
        self.yaku.update(other.yaku)
        self.ended_by.update(other.ended_by)

    # ------------------------------------------------------------ statistics
    def mean(self, seat: int) -> float:
        return float(Fraction(self.total[seat]) / self.units) if self.units else 0.0

    def ci95(self, seat: int) -> float | None:
        """Half-width of the 95% confidence interval of the seat's mean; None with fewer than
        two samples."""
        return ci95(self.units, Fraction(self.total[seat]), Fraction(self.squares[seat]))
