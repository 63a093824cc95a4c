"""A scenario that leaves the first dealer to the rule file's card draw (`dealer = "drawn"`,
with the cards of `first_dealer_draw`): the draw chooses as a game's does (engine/game.py's
stay_in), and a draw that cannot choose is a located error. Each game that draws for its first
dealer has a scenario of it (rules/*/scenarios/*first-dealer-drawn.scenario.toml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.engine.game import first_dealer, stay_in
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.scenario.runner import ScenarioRun

HEAD = 'title = "t"\nrules = "{rules}"\nseats = [{seats}]\ndealer = "{dealer}"\nseed = 5\n'


def scenario(tmp_path: Path, body: str, rules: str = "tensho/fudawiki", dealer: str = "drawn",
             seats: str = '"Alice", "Bob"') -> Path:  # fmt: skip
    path = tmp_path / "t.scenario.toml"
    path.write_text(HEAD.format(rules=rules, seats=seats, dealer=dealer) + body, "utf-8")
    return path


def dealer_of(path: Path) -> int:
    return ScenarioRun(path).first_dealer()


def test_the_first_dealer_drawn_in_a_scenario_is_the_draws_choice(tmp_path: Path) -> None:
    body = 'first_dealer_draw = [{ Alice = "cherry_plain_1", Bob = "curtain" }]\n'
    assert dealer_of(scenario(tmp_path, body)) == 1  # March both: the curtain is better


def test_a_tie_on_the_month_draws_again_among_the_tied(tmp_path: Path) -> None:
    seats = '"Alice", "Bob", "Carol"'
    first = '{ Alice = "pine_plain_1", Bob = "crane", Carol = "moon" }'
    again = '{ Alice = "warbler", Bob = "wisteria_plain_1" }'
    body = f"first_dealer_draw = [{first}, {again}]\n"
    assert dealer_of(scenario(tmp_path, body, "gostop/gostop", seats=seats)) == 0
    body = f"first_dealer_draw = [{first}]\n"
    with pytest.raises(RulekitError, match="Alice, Bob tie: the draw chooses no dealer yet"):
        dealer_of(scenario(tmp_path, body, "gostop/gostop", seats=seats))


@pytest.mark.parametrize(
    ("body", "rules", "message"),
    [
        ("", "tensho/fudawiki", 'dealer = "drawn" needs the cards drawn'),
        ('first_dealer_draw = [{ Alice = "curtain" }]\n', "tensho/fudawiki",
         "this draw is made by Alice, Bob"),
        ('first_dealer_draw = [{ Alice = "curtain", Bob = "curtain" }]\n', "tensho/fudawiki",
         "drawn twice: 30 curtain"),
        ('first_dealer_draw = [{ Alice = "curtain", Bob = "moon" }, { Alice = "crane" }]\n',
         "tensho/fudawiki", "Alice is the first dealer already"),
        ('first_dealer_draw = [{ Alice = "curtain", Bob = "bonus_two_1" }]\n',
         "gostop/house/matgo-jokers", "bonus_two_1 is a bonus card"),
    ],
)  # fmt: skip
def test_a_draw_that_cannot_choose_is_a_located_error(
    tmp_path: Path, body: str, rules: str, message: str
) -> None:
    with pytest.raises(RulekitError, match=message) as err:
        dealer_of(scenario(tmp_path, body, rules))
    assert "t.scenario.toml:" in str(err.value)


def test_a_file_that_rolls_dice_is_not_drawn_for(tmp_path: Path) -> None:
    body = 'first_dealer_draw = [{ Alice = "curtain", Bob = "moon", Carol = "crane" }]\n'
    seats = '"Alice", "Bob", "Carol"'
    with pytest.raises(RulekitError, match="chooses the first dealer by dice, not by a card draw"):
        dealer_of(scenario(tmp_path, body, "hachihachi/fudawiki", seats=seats))


def test_a_named_dealer_with_cards_drawn_is_refused(tmp_path: Path) -> None:
    body = 'first_dealer_draw = [{ Alice = "curtain", Bob = "moon" }]\n'
    with pytest.raises(RulekitError, match="the cards drawn choose no dealer here"):
        dealer_of(scenario(tmp_path, body, dealer="Bob"))


def test_a_seat_named_drawn_is_a_seat(tmp_path: Path) -> None:
    path = scenario(tmp_path, "", seats='"drawn", "Bob"')
    assert dealer_of(path) == 0


def test_games_draw_their_first_dealer_by_the_same_rule() -> None:
    """game.first_dealer's draw, replayed through stay_in from the cards it drew: the same
    seat (the scenarios' draw is the games' draw)."""
    c = CompiledRules(load_rules("tensho"))
    ix = c.index
    for seed in range(20):
        rng = random.Random(f"{seed}:first-dealer")
        candidates = [0, 1]
        while len(candidates) > 1:
            cards = rng.sample([i for i in ix.ids if ix.card(i).month], len(candidates))
            drawn = {s: ix.card(x) for s, x in zip(candidates, cards, strict=True)}
            candidates = stay_in(c, drawn)
        assert candidates[0] == first_dealer(c, 2, seed)
