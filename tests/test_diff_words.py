"""`rulekit diff` speaks in words: every mechanic of the IR has a phrase, entries keep their
whole text, and the count agrees with its noun."""

from __future__ import annotations

import re
import typing

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from rulekit import ir
from rulekit.cli import cli
from rulekit.diff import LABELS, MECHANICS, diff, render
from rulekit.lang import load_rules

PAIRS = [
    ("hachihachi", "hachihachi/kirisame"),
    ("hachihachi", "hachihachi/wikipedia-draft"),
    ("hachihachi", "koikoi"),
    ("koikoi", "sakura"),
    ("sakura", "sakura/round-wins"),
    ("koikoi", "koikoi/six-rounds"),
]


def _keys(prefix: str, annotation: object) -> list[str]:
    """The dotted keys diff makes of a mechanic: models (or optional models) open up, tuples
    and plain values are one key."""
    if typing.get_origin(annotation) is tuple:
        return [prefix]
    model = next(
        (
            a
            for a in getattr(annotation, "__args__", (annotation,))
            if isinstance(a, type) and issubclass(a, BaseModel)
        ),
        None,
    )
    if model is None:
        return [prefix]
    return [
        k for name, f in model.model_fields.items() for k in _keys(f"{prefix}.{name}", f.annotation)
    ]


def test_every_mechanic_field_has_words() -> None:
    fields = ir.Ruleset.model_fields
    keys = [k for m in MECHANICS for k in _keys(m, fields[m].annotation)]
    assert "continuation.beaten_forfeit" in keys and "seats.active" in keys
    shown = [k for k in keys if ".condition" not in k]  # a condition is shown as its text
    assert [k for k in shown if k not in LABELS] == []


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_no_field_names_or_raw_values_in_the_round_section(a: str, b: str) -> None:
    text = render(diff(load_rules(a), load_rules(b)), a, b)
    round_part = text.split("The round:")[-1] if "The round:" in text else ""
    assert not re.search(r"\b[a-z_]+\.[a-z_]+:", round_part), round_part
    assert not re.search(r"\b(true|false)\b", round_part), round_part
    assert "_" not in round_part.replace("hachihachi", ""), round_part


def test_the_examples_of_the_issue_read_in_words() -> None:
    text = render(diff(load_rules("hachihachi"), load_rules("hachihachi/kirisame")), "a", "b")
    assert "seats.active: 3 -> none" not in text
    assert "players who play each round (the others fold): 3 -> everyone seated" in text
    assert "a continuer beaten by another yaku refunds half" in text
    assert "yaku are paid: when made -> when their maker stops" in text


def test_an_added_entry_keeps_its_whole_text() -> None:
    text = render(diff(load_rules("hachihachi"), load_rules("hachihachi/kirisame")), "a", "b")
    line = next(x for x in text.splitlines() if x.strip().startswith("simple_16: added"))
    assert "plains >= 16; +24 per card over 16; at the count" in line


@pytest.mark.parametrize(("n", "noun"), [(1, "1 difference\n"), (2, "2 differences\n")])
def test_the_count_agrees_with_its_noun(n: int, noun: str) -> None:
    from rulekit.diff import Change

    changes = [Change("round", f"x{i}", "a", "b") for i in range(n)]
    assert render(changes, "a", "b").splitlines()[0] + "\n" == "a -> b: " + noun


def test_diff_command_says_one_difference() -> None:
    result = CliRunner().invoke(cli, ["diff", "koikoi", "koikoi/six-rounds"])
    assert result.exit_code == 0
    assert result.stdout.startswith("koikoi -> koikoi/six-rounds: 1 difference\n")
    assert "rounds in a game: 12 -> 6" in result.stdout
