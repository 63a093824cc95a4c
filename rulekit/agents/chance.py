"""A bot's chance for a round (rulekit.engine.chance.Chance, kept here under its old name).

The SHA-512 of the seed string, read as one 512-bit number and spent as mixed-radix digits,
hashed again when fewer than 64 bits are left: cheap to re-seed before every round, and simple
enough for a batch engine (issue 15) to mirror bit for bit. The engine holds it because its
generated turn loop spends it inline for players that draw uniformly (engine.playout).
"""

from __future__ import annotations

from rulekit.engine.chance import Chance

__all__ = ["Chance"]
