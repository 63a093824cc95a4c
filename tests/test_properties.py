"""Properties over many inputs: evaluation never fails, best-only counts the best, and any
mutation of a rule file gives either a variant or located errors, never a crash."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.errors import RuleErrors, RulekitError
from rulekit.evaluate import eval_captured, eval_field, eval_hand
from rulekit.lang import bundled_names, find_rules, load_rules
from tests.conftest import compiled

BUNDLED = [n for n in bundled_names() if "/" in n and not n.startswith("common/")]


def cards_of(name: str, low: int, high: int) -> st.SearchStrategy[list[int]]:
    """Distinct cards of the file's own deck (Mushi's leaves months out, Go-Stop's adds)."""
    ids = [c.id for c in compiled(name).rules.deck.cards]
    return st.lists(st.sampled_from(ids), min_size=low, max_size=min(high, len(ids)), unique=True)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(BUNDLED), data=st.data())
def test_any_seven_cards_evaluate_and_best_only_counts_the_highest(
    name: str, data: st.DataObject
) -> None:
    c = compiled(name)
    if c.teyaku is None:
        return
    hand = data.draw(cards_of(name, 7, 7))
    result = eval_hand(c, hand)
    values = [e["value"] for e in result["teyaku"]]
    if c.teyaku.best_only:
        assert result["value"] == max(values, default=0)
        assert len(result["counted"]) == (1 if values else 0)
    counted = {e["name"] for e in result["counted"]}
    assert counted <= {e["name"] for e in result["teyaku"]}


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(BUNDLED), data=st.data())
def test_any_pile_and_field_evaluate(name: str, data: st.DataObject) -> None:
    c = compiled(name)
    pile = data.draw(cards_of(name, 0, 48))
    if c.yaku is not None:
        result = eval_captured(c, pile)
        assert result["value"] == sum(e["value"] for e in result["yaku"])
        assert result["value"] >= 0
    field = eval_field(c, pile)
    assert field["multiplier"] >= 1 and field["next_round_at_least"] >= 1


WORDS = [
    "teyaku",
    "yaku",
    "dekiyaku",
    "all",
    "of",
    "any",
    "and",
    "or",
    "not",
    "month",
    "months",
    "a",
    "3",
    "-1",
    "99999",
    "crane",
    "cran",
    ":",
    ";",
    ",",
    "=",
    ">=",
    "(",
    ")",
    '"',
    '"x"',
    "x2",
    "+",
    "-",
    "extends",
    "view",
    "treat",
    "as",
    "also",
    "rest",
    "plain",
    "points",
    "\n",
    "  ",
    "unless",
    "exclusive",
    "remove",
    "set",
    "expect",
    "#",
    "\t",
    "é",
    "\x00",
]


@st.composite
def mutations(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(BUNDLED))
    text = find_rules(name).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate_line"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if op == "delete":
            j = min(len(text), i + draw(st.integers(1, 12)))
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(WORDS)) + text[i:]
        elif op == "replace":
            j = min(len(text), i + draw(st.integers(1, 8)))
            text = text[:i] + draw(st.sampled_from(WORDS)) + text[j:]
        else:
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            text = "".join(lines)
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutations())
def test_mutated_rule_files_only_produce_located_errors(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.rk"
        path.write_text(text, encoding="utf-8")
        try:
            load_rules(path)
        except RulekitError as err:
            errors = err.errors if isinstance(err, RuleErrors) else [err]
            for e in errors:
                assert e.loc is not None, e.render()
                assert e.loc.line >= 1 and e.loc.col >= 1
                assert e.render().startswith(str(e.loc))
