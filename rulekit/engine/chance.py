"""A player's chance for a round, cheap to re-seed and simple enough to mirror bit for bit.

Bots are re-seeded before every round a simulation plays. A Mersenne Twister seeded from a
string costs more than a fast round's play (and its 624-word state, more than a batch engine's
whole budget per round), so the bots draw from this instead: the SHA-512 of the seed string,
read as one 512-bit number and spent as mixed-radix digits, hashed again when fewer than 64
bits are left. Each draw is exactly uniform up to 2**-64. A batch engine (issue 15) mirrors it.

It lives in the engine because the engine spends it too: a player that draws every choice
uniformly from one (playout.UniformPlayer) lets the generated turn loop write the draw inline
(specialise.compile_turns, `uniform`), the same digits as `below`.
"""

from __future__ import annotations

from collections.abc import Callable
from hashlib import sha512 as _openssl_sha512
from importlib import import_module
from typing import Any

REFILL = 1 << 64  # fewer bits left than this: the next block


def _builtin_sha512() -> Callable[[bytes], Any]:
    """CPython's own SHA-512 (the same digests as hashlib's): on a message this short it
    costs about two thirds of OpenSSL's, whose every new hash sets up a context; hashlib's
    where the interpreter has none."""
    for module in ("_sha512", "_sha2"):  # its name up to Python 3.11, and from 3.12
        try:
            found: Callable[[bytes], Any] = import_module(module).sha512
        except (ImportError, AttributeError):
            continue
        return found
    return _openssl_sha512


sha512 = _builtin_sha512()


class Chance:
    """A player's chance for a round: the SHA-512 of its seed string, read as one big number
    and spent as mixed-radix digits (exactly uniform up to 2**-64; cheap to re-seed)."""

    __slots__ = ("block", "x")

    def __init__(self, seed: int | str = 0) -> None:
        self.block = sha512(str(seed).encode()).digest()
        self.x = int.from_bytes(self.block, "big")

    def reseed(self, seed: int | str) -> None:
        """Chance(seed)'s state, in place (a bot is re-seeded before every round)."""
        self.block = block = sha512(str(seed).encode()).digest()
        self.x = int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """A uniform int in range(n), n >= 1."""
        x = self.x
        if x < REFILL:  # fewer than 64 bits left: the next block, the hash of this one
            self.block = sha512(self.block).digest()
            x = int.from_bytes(self.block, "big")
        self.x, r = divmod(x, n)
        return r
