"""A bot's chance for a round, cheap to re-seed and simple enough to mirror bit for bit.

Bots are re-seeded before every round a simulation plays. A Mersenne Twister seeded from a
string costs more than a fast round's play (and its 624-word state, more than a batch engine's
whole budget per round), so the bots draw from this instead: the SHA-512 of the seed string,
read as one 512-bit number and spent as mixed-radix digits, hashed again when fewer than 64
bits are left. Each draw is exactly uniform up to 2**-64. A batch engine (issue 15) mirrors it.
"""

from __future__ import annotations

from hashlib import sha512


class Chance:
    """A bot's chance for a round: the SHA-512 of its seed string, read as one big number
    and spent as mixed-radix digits (exactly uniform up to 2**-64; cheap to re-seed)."""

    __slots__ = ("block", "x")

    def __init__(self, seed: int | str = 0) -> None:
        self.block = sha512(str(seed).encode()).digest()
        self.x = int.from_bytes(self.block, "big")

    def below(self, n: int) -> int:
        """A uniform int in range(n), n >= 1."""
        x = self.x
        if x < 1 << 64:  # fewer than 64 bits left: the next block, the hash of this one
            self.block = sha512(self.block).digest()
            x = int.from_bytes(self.block, "big")
        self.x, r = divmod(x, n)
        return r
