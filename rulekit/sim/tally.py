"""What a simulation counts, exactly (ints and fractions), so that any split over processes
adds up to the same totals; and the statistics reported from it."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from rulekit.engine.ledger import Amount
from rulekit.engine.round import RoundResult

Z95 = 1.959963984540054


@dataclass
class Tally:
    seats: int
    units: int = 0  # rounds, or games
    rounds: int = 0
    voids: int = 0
    turns: int = 0
    total: list[Amount] = field(default_factory=list)
    squares: list[Amount] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    teyaku: Counter[str] = field(default_factory=Counter)
    yaku: Counter[str] = field(default_factory=Counter)
    ended_by: Counter[str] = field(default_factory=Counter)
    continued: int = 0

    def __post_init__(self) -> None:
        self.total = self.total or [0] * self.seats
        self.squares = self.squares or [0] * self.seats
        self.wins = self.wins or [0] * self.seats

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

    def add_unit(self, net: list[Amount], winners: list[int]) -> None:
        """One sample of the seats' results (a round, or a whole game)."""
        self.units += 1
        for s, v in enumerate(net):
            self.total[s] += v
            self.squares[s] += v * v
        for w in winners:
            self.wins[w] += 1

    def merge(self, other: Tally) -> None:
        self.units += other.units
        self.rounds += other.rounds
        self.voids += other.voids
        self.turns += other.turns
        self.continued += other.continued
        for s in range(self.seats):
            self.total[s] += other.total[s]
            self.squares[s] += other.squares[s]
            self.wins[s] += other.wins[s]
        self.teyaku.update(other.teyaku)
        self.yaku.update(other.yaku)
        self.ended_by.update(other.ended_by)

    # ------------------------------------------------------------ statistics
    def mean(self, seat: int) -> float:
        return float(Fraction(self.total[seat]) / self.units) if self.units else 0.0

    def ci95(self, seat: int) -> float | None:
        """Half-width of the 95% confidence interval of the mean (normal approximation); None
        with fewer than two samples."""
        n = self.units
        if n < 2:
            return None
        s, q = Fraction(self.total[seat]), Fraction(self.squares[seat])
        variance = (q - s * s / n) / (n - 1)
        return Z95 * math.sqrt(float(variance) / n)
