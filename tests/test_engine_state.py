"""The round's state copy is generated from its fields: a copy played out leaves the original
exactly as it was, whatever field a mechanic writes."""

from __future__ import annotations

import copy
import random
from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.engine.round import Round, clone
from rulekit.engine.state import RoundState
from tests.conftest import compiled


def test_every_container_field_is_copied_or_shared() -> None:
    planned = set(RoundState._LISTS + RoundState._DICTS + RoundState._DICTS_OF_LISTS)
    for f in fields(RoundState):
        kind = str(f.type)
        if f.metadata.get("shared"):
            assert f.name not in planned
        elif kind.startswith(("list[", "dict[")):
            assert f.name in planned, f.name


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    game=st.sampled_from(["hachihachi", "koikoi", "sakura"]),
    at=st.integers(0, 40),
)
def test_a_copy_played_out_leaves_the_original_unchanged(seed: int, game: str, at: int) -> None:
    c = compiled(game)
    n = c.rules.seats.min
    rnd = Round(c, n, seed % n, seed=seed)
    rng = random.Random(seed)
    for _ in range(at):
        if rnd.is_terminal:
            break
        rnd.apply(rng.choice(rnd.legal_actions()))
    shared = {f.name for f in fields(RoundState) if f.metadata.get("shared")}
    before = {k: copy.deepcopy(v) for k, v in vars(rnd).items() if k not in shared}
    twin = clone(rnd)
    assert type(twin) is Round
    while not twin.is_terminal:
        twin.apply(rng.choice(twin.legal_actions()))
    after = {k: v for k, v in vars(rnd).items() if k not in shared}
    assert after == before
