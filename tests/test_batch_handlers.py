"""Every mechanic option the IR allows has a handler in the batch kernel, as in the scalar
engine (tests/test_engine_handlers.py): the IR's Literal-typed fields, the scoring stage's step
types and every condition type. A new option, step or condition that the scalar engine plays
and the kernel does not fails here: a mechanic is done when both engines play it."""

from __future__ import annotations

import random
import typing

import numpy as np
import pytest

from rulekit import ir
from rulekit.batch import tables as bt
from rulekit.batch.handlers import HANDLERS, NOT_A_ROUND, STEPS
from rulekit.engine.handlers import HANDLERS as SCALAR_HANDLERS
from rulekit.engine.tables import _Codegen
from tests.test_batch_tables import IX, random_round
from tests.test_engine_handlers import NOT_MECHANICS, PENDING, _literal_values, _mechanic_fields


def _mechanics() -> list[tuple[type, str, tuple[object, ...]]]:
    return [
        (m, n, v)
        for m, n, v in _mechanic_fields()
        if (m, n) not in NOT_MECHANICS and n != "op" and (m, n) not in PENDING
    ]


@pytest.mark.parametrize(
    ("model", "name", "values"),
    _mechanics(),
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_every_ir_option_has_a_kernel_handler(
    model: type, name: str, values: tuple[object, ...]
) -> None:
    if (model, name) in NOT_A_ROUND:
        assert (model, name) not in HANDLERS, "handled by the kernel now: remove from NOT_A_ROUND"
        return
    assert (model, name) in HANDLERS, f"no kernel table handles {model.__name__}.{name}"
    missing = [v for v in values if v not in HANDLERS[(model, name)]]
    assert not missing, f"{model.__name__}.{name}: the kernel has no handler for {missing}"


def test_the_kernel_handles_what_the_scalar_engine_handles() -> None:
    """Every table of the scalar engine's has the kernel's twin (or is a game's, not a
    round's), and every kernel table is keyed by values the IR allows."""
    for key in SCALAR_HANDLERS:
        assert key in HANDLERS or key in NOT_A_ROUND, key
    allowed = {(m, n): set(v) for m, n, v in _mechanic_fields()}
    for key, table in HANDLERS.items():
        assert set(table) <= allowed[key], key


def test_a_missing_kernel_handler_is_caught() -> None:
    values = _literal_values(typing.Literal["par", "new_count"])
    assert values is not None and "new_count" not in HANDLERS[(ir.Settlement, "method")]


def test_every_scoring_step_type_has_a_kernel_handler() -> None:
    union = typing.get_args(ir.ScoringStep)[0]
    assert set(typing.get_args(union)) == set(STEPS)


def _condition_types() -> set[type]:
    union = typing.get_args(ir.Condition)[0]
    return set(typing.get_args(union))


# one of each condition type, each asking about what it asks (with `everyone` and `the field
# had` around card tests); a type with no sample here fails: add one, and the VM's handler
SAMPLES: list[ir.Condition] = [
    ir.AllOf(cards=(10, 11)),
    ir.AnyOf(cards=(10, 40)),
    ir.Count(cards=(10, 11, 20), op=">=", n=2),
    ir.Shape(groups=(ir.ShapeGroup(size=2, count=1),)),
    ir.PointsCmp(op=">", n=20),
    ir.Everyone(item=ir.PointsCmp(op=">=", n=10)),
    ir.RoundCmp(op=">=", n=2),
    ir.RoundMonth(op=">=", n=1),
    ir.IsDealer(),
    ir.SeatFromDealer(place=2),
    ir.SeatFromDealer(place=3),
    ir.Continued(who="opponent"),
    ir.ScoreCmp(op=">", n=5),
    ir.OnField(item=ir.AnyOf(cards=(10, 11, 12, 13))),
    ir.PayerHas(item=ir.Count(cards=(10, 30, 80, 110, 120), op="=", n=0)),
    ir.NobodyWon(),
    ir.DrawnBefore(n=2),
    ir.Declared(name="han_yaku"),
    ir.And(items=(ir.AnyOf(cards=(10,)), ir.IsDealer())),
    ir.Or(items=(ir.AnyOf(cards=(10,)), ir.NobodyWon())),
    ir.Not(item=ir.IsDealer()),
]


def test_every_condition_type_has_a_sample() -> None:
    """The samples below cover the IR's condition types but `dealt` (tested with the teyaku
    it asks about, in test_batch_tables' rule file tables)."""
    assert {type(c) for c in SAMPLES} | {ir.Dealt} == _condition_types()


@pytest.mark.parametrize("cond", SAMPLES, ids=lambda c: c.kind)
def test_every_condition_type_is_played_by_the_vm(cond: ir.Condition) -> None:
    """Each sample becomes a program (no Unsupported) that answers as the scalar's code, with
    no round and with rounds as a player sees them."""
    prog = np.array(bt.condition_program(cond, IX), dtype=np.int64)
    scalar = _Codegen(IX).function(cond)
    rng = random.Random(cond.kind)
    empty = np.zeros(0, dtype=np.int64)
    for _ in range(200):
        x = rng.getrandbits(len(IX.ids))
        assert bt.holds(prog, 0, x, empty, 0) == bool(scalar(x, None))
        piles = [x, rng.getrandbits(len(IX.ids))]
        view = random_round(IX, piles, rng)
        assert bt.holds(prog, 0, x, view.array(12), 2) == bool(scalar(x, view)), view
