"""Every mechanic option the IR allows has a handler in the engine's dispatch tables.

The IR's Literal-typed fields are walked (typing.get_args on the annotations, through Optional
and tuples of steps): a new option, or a new mechanic field, without a handler fails here.
"""

from __future__ import annotations

import types
import typing

import pydantic
import pytest

from rulekit import ir
from rulekit.engine.handlers import HANDLERS, STEPS
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules

# Literal fields that are not engine mechanics: the condition language's discriminators and
# operators (compiled by tables.py's code generator), and the language's own bookkeeping.
NOT_MECHANICS = {
    (ir.Reclass, "mode"),  # resolved by the language before the IR reaches the engine
    (ir.Expectation, "scope"),  # checked by `rulekit check`
}
# Options the IR contract of issue 11 added before the engine plays them (their defaults keep
# today's meaning). Strict: handling one without removing it here fails too.
PENDING: set[tuple[type, str]] = set()


def _literal_values(annotation: object) -> tuple[object, ...] | None:
    """The values a Literal annotation allows (None included when Optional; a tuple's items);
    None when the annotation is not a Literal."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        values: list[object] = []
        literal = False
        for arg in typing.get_args(annotation):
            if arg is type(None):
                values.append(None)
                continue
            inner = _literal_values(arg)
            if inner is None:
                return None
            literal = True
            values.extend(inner)
        return tuple(values) if literal else None
    if origin is tuple:
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return _literal_values(args[0]) if len(args) == 1 else None
    return None


def _ir_models() -> list[type[pydantic.BaseModel]]:
    return [
        m
        for m in vars(ir).values()
        if isinstance(m, type) and issubclass(m, pydantic.BaseModel) and m.__module__ == ir.__name__
    ]


def _mechanic_fields() -> list[tuple[type, str, tuple[object, ...]]]:
    """Every Literal field of the IR but the discriminators (`kind`, a single value)."""
    out = []
    for model in _ir_models():
        for name, info in model.model_fields.items():
            values = _literal_values(info.annotation)
            if values is None or (name == "kind" and len(values) == 1):
                continue
            out.append((model, name, values))
    return out


def test_the_walk_finds_the_known_mechanics() -> None:
    found = {(m, n) for m, n, _ in _mechanic_fields()}
    assert (ir.Continuation, "if_unfinished") in found
    assert (ir.Ruleset, "setup") in found
    assert (ir.Continuation, "if_other_stops") in found


@pytest.mark.parametrize(
    ("model", "name", "values"),
    _mechanic_fields(),
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_every_ir_option_has_a_handler(model: type, name: str, values: tuple[object, ...]) -> None:
    if (model, name) in NOT_MECHANICS or name == "op":
        return
    if (model, name) in PENDING:
        table = HANDLERS.get((model, name), {})
        assert not all(v in table for v in values), f"handled now: remove {name} from PENDING"
        pytest.xfail(f"{model.__name__}.{name}: not played by the engine yet")
    assert (model, name) in HANDLERS, f"no engine table handles {model.__name__}.{name}"
    table = HANDLERS[(model, name)]
    missing = [v for v in values if v not in table]
    assert not missing, f"{model.__name__}.{name}: no handler for {missing}"


def test_every_handler_is_an_ir_option() -> None:
    """A table keyed by a value the IR no longer allows is dead code."""
    allowed = {(m, n): set(v) for m, n, v in _mechanic_fields()}
    for key, table in HANDLERS.items():
        assert set(table) <= allowed[key], key


def test_a_missing_handler_is_caught() -> None:
    """The walk sees a new option: an extra Literal value with no handler is reported."""
    values = _literal_values(typing.Literal["keep", "new_option"] | None)
    assert values == ("keep", "new_option", None)
    assert "new_option" not in HANDLERS[(ir.Continuation, "if_other_stops")]


def _step_types() -> list[type]:
    """Every type of step the IR's scoring stage may hold (the members of ir.ScoringStep)."""
    union = typing.get_args(ir.ScoringStep)[0]
    return list(typing.get_args(union))


def test_every_scoring_step_type_has_a_handler() -> None:
    kinds = _step_types()
    assert ir.Factor in kinds and ir.Award in kinds
    for kind in [ir.Settlement, ir.Fold, *kinds]:
        assert kind in STEPS, f"the scoring stage has no handler for {kind.__name__}"
    assert set(STEPS) == {ir.Settlement, ir.Fold, *kinds}, "a handler for no step type"


def test_the_stage_is_the_count_then_the_fold_fees_then_the_rule_files_steps() -> None:
    rules = load_rules("koikoi/house/oya-ken")
    stage = CompiledRules(rules).stage
    assert stage[0] is rules.count and stage[1] is rules.fold
    assert list(stage[2:]) == list(rules.scoring) and rules.scoring
    assert all(type(step) in STEPS for step in stage)
