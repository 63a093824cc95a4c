"""Go-Stop's play rules (issue 25): the statements that carry them, refused where they cannot
apply, said in words, and played alike by both engines on deals found by search. What they
pay is pinned by the scenarios in rules/gostop/scenarios/."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.batch import engine as batch
from rulekit.cli import cli
from rulekit.describe import event_sentence
from rulekit.engine.game import FIRST_DEALER
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from tests.test_batch_identity import batch_deal, scalar_deal


def _house(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.rk"
    path.write_text(f'extends "gostop/gostop"\n{body}\n', encoding="utf-8")
    return path


def _event(name: str, event: str) -> object:
    (e,) = [e for e in load_rules(name).events if e.name == event]
    return e


# ------------------------------------------ GS 42: cheodddadak opens the row of ppeok


def test_turns_of_first_ddadak_count_in_the_row_of_first_ppeok() -> None:
    for name in ("gostop/gostop", "gostop/matgo"):
        first = _event(name, "first_ppeok")
        assert first.row_with == ("first_ddadak",), name  # type: ignore[attr-defined]
        said = event_sentence(first)  # type: ignore[arg-type]
        assert "a turn on which first_ddadak happened to him counts in the row" in said


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (
            "each opponent pays 3; turns of first_ddadak count in the row",
            "turns of first_ddadak count in a row, and the event has none",
            "on his first turns in a row",
        ),
        (
            "on his first turns in a row; each opponent pays 3;"
            " turns of first_dadak count in the row",
            "turns of first_dadak count in the row: the variant has no event first_dadak",
            "did you mean 'first_ddadak'?",
        ),
        (
            "on his first turns in a row; each opponent pays 3;"
            " turns of first_ppeok count in the row",
            "its own turns count in it already",
            "the variant's other events:",
        ),
    ],
)
def test_turns_of_an_event_in_a_row_are_refused_where_they_cannot_apply(
    tmp_path: Path, body: str, message: str, hint: str
) -> None:
    house = _house(tmp_path, f"event first_ppeok: a stack is left; {body}")
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1
    assert "house.rk:2:" in out.output and message in out.output and hint in out.output
    assert "Traceback" not in out.output


def test_diff_says_the_row_joined(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        'event first_ppeok "First ppeok (cheodppeok)": a stack is left; on his first turns in'
        " a row; each opponent pays 3, doubled each time",
    )
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", str(house)])
    assert out.exit_code == 0, out.output
    (line,) = [x for x in out.output.splitlines() if "an event:" in x]
    was, now = line.split(" -> ")
    assert "first_ddadak happened to him counts in the row" in was
    assert "first_ddadak" not in now


# Deals of seed 1 (greedy bots) found by search in which a first-turn ddadak is followed by a
# ppeok on the same player's second turn: the row pays it double (3 then 6; 7 then 14).
ROW_DEALS = [("gostop/gostop", 3, 3445, 6), ("gostop/matgo", 2, 575, 14)]


@pytest.mark.parametrize(("name", "seats", "number", "doubled"), ROW_DEALS)
def test_a_ppeok_after_a_first_turn_ddadak_is_paid_double_in_both_engines(
    name: str, seats: int, number: int, doubled: int
) -> None:
    c = CompiledRules(load_rules(name))
    bots = ("greedy",) * seats
    want = scalar_deal(c, seats, bots, 1, number)
    steals = [(e.detail, e.amount) for e in want["ledger"] if e.reason == "event"]
    ddadak = [d for d, _ in steals if "cheodddadak" in d]
    ppeok = [a for d, a in steals if "cheodppeok" in d]
    assert ddadak and set(ppeok) == {doubled}, steals
    assert batch_deal(batch.make_plan(c, seats, bots, 1), number) == want


# ------------------------------------------------------------ GS 5, 6, 8, 9: deck, dealer, deal
# (the scenario format names the dealer and stacks the deal as written: these are pinned here)


@pytest.mark.parametrize(
    ("name", "seats", "hand", "field"), [("gostop/gostop", 3, 7, 6), ("gostop/matgo", 2, 10, 8)]
)
def test_the_deal_at_three_is_seven_and_six_and_at_two_ten_and_eight(
    name: str, seats: int, hand: int, field: int
) -> None:
    """GS 9: '7 cards are dealt to each player, and 6 to the field'; GS 8: '10 cards are dealt
    to each player, and 8 to the table'; the rest is the draw pile."""
    c = CompiledRules(load_rules(name))
    for number in range(20):
        rnd = Round(c, seats, number % seats, seed="gs-deal", deal_no=number)
        assert [h.bit_count() for h in rnd.initial_hands] == [hand] * seats
        assert len(rnd.initial_stock) == 48 - seats * hand  # (the field is dealt from it)
        if not rnd.void:  # (a field of four of a month is redealt, GS 15)
            assert rnd.field.bit_count() == field
            assert len(rnd.stock) == 48 - seats * hand - field


class _Drawn:
    """A first-dealer draw whose cards are given: each candidate's in turn."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards

    def sample(self, population: list[int], k: int) -> list[int]:
        assert set(self.cards) <= set(population) and k == len(self.cards)
        return self.cards


@pytest.mark.parametrize("name", ["gostop/gostop", "gostop/matgo"])
def test_the_first_dealer_draw_reads_the_willow_before_the_paulownia(name: str) -> None:
    """GS 5, 6: 'the player who drew a suit from the earliest month becomes the dealer'. The
    files' reading: the deck's months as numbered (the willow 11, the paulownia 12), not the
    Korean deck's swap ('Paulownia is associated with November, and Willow with December'),
    which changes nothing else a file plays (no `round month`)."""
    c = CompiledRules(load_rules(name))
    draw = FIRST_DEALER[c.rules.first_dealer.method]
    assert c.index.card(113).month < c.index.card(120).month  # the lightning, the phoenix
    assert draw(c, _Drawn([120, 113]), [0, 1]) == [1]  # type: ignore[arg-type]
    # the same month: both draw again (no better card breaks the tie)
    assert draw(c, _Drawn([120, 121]), [0, 1]) == [0, 1]  # type: ignore[arg-type]
    assert "round month" not in Path(f"rules/{name}.rk").read_text(encoding="utf-8")


def test_a_house_file_that_removes_the_joined_event_is_told_what_to_write(
    tmp_path: Path,
) -> None:
    house = _house(tmp_path, "remove event first_ddadak")
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "the variant has no event first_ddadak" in out.output
    assert "a file that removes first_ddadak writes first_ppeok again without it" in out.output
