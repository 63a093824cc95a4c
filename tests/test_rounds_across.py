"""State across rounds (issue 23, items 5 and 7): who sits a round out by the last round's
result or in turn whoever deals (`sit out: the loser of the last round`, `the winner`, `each in
turn`), and a scoring step that reads the rounds before (`after a drawn round`). The language
(errors, words), the scalar engine's game, and the batch kernel's games, game by game."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import get_args

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.describe import condition_text, rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine.game import NEXT_SITTERS, Game
from rulekit.engine.playout import play_round
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.sim.exercise import across_warning, exercised
from tests.lang_helpers import errors_of, write
from tests.test_batch_games import batch_game, scalar_game

LOSER = "koikoi/house/loser-sits-out"
DRAWS = "koikoi/house/doubled-after-a-draw"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def played(c: CompiledRules, seats: int, seed: str, bots: str = "random") -> list[tuple[int, int]]:
    """A game of the scalar engine: per round, (its drawn rounds before, its sitters as bits)."""
    game = Game(c, seats, seed=seed)
    agents = [make_agent(bots, 0) for _ in range(seats)]
    for s, a in enumerate(agents):
        a.start(f"{seed}:{s}")
    out = []
    while not game.is_over:
        rnd = game.new_round()
        result = play_round(rnd, agents)
        game.record(result)
        if not result.void:
            sat = sum(1 << s for s in range(seats) if s not in result.active)
            out.append((rnd.draws_before, sat))
    return out


# ---------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("after a drawn round", ir.DrawnBefore(n=1)),
        ("after 2 drawn rounds", ir.DrawnBefore(n=2)),
        ("after 3 drawn round", ir.DrawnBefore(n=3)),
    ],
)
def test_after_a_drawn_round_resolves_and_is_said_in_words(
    tmp_path: Path, text: str, expected: ir.Condition
) -> None:
    path = write(tmp_path, f'extends "{DRAWS}"\nscoring\n  probe "Probe" x3 if {text}\n')
    rules = load_rules(path)
    step = rules.scoring[-1]
    assert isinstance(step, ir.Factor) and step.condition == expected
    words = "after a drawn round" if expected == ir.DrawnBefore(n=1) else text.rstrip("s") + "s"
    assert condition_text(expected, rules) == words
    assert words in to_markdown(rulebook(rules))


def test_after_0_drawn_rounds_is_a_located_error(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, f'extends "{DRAWS}"\nscoring\n  x2 if after 0 drawn rounds\n'))
    assert "house.rk:3:9: 'after 0 drawn rounds' always holds" in text
    assert "after 2 drawn rounds" in text


def test_after_a_drawn_round_in_a_yaku_says_where_it_may_be_used(tmp_path: Path) -> None:
    lines = f'extends "{DRAWS}"\nyaku\n  late "Late" 4: after a drawn round\n'
    text = errors_of(write(tmp_path, lines))
    assert "'after a drawn round' cannot be used in a yaku condition" in text
    assert "'after a drawn round' may be used in a scoring step" in text


def test_sit_out_by_result_is_said_in_words_by_describe_and_diff() -> None:
    rules = load_rules(LOSER)
    text = to_markdown(rulebook(rules))
    assert "The loser of a round (his net the lowest" in text
    changes = render(diff(load_rules("koikoi/sloper"), rules), "a", "b")
    assert "those who fold -> the loser of the last round" in changes
    in_turn = rules.seats.model_copy(update={"sit_out": "in_turn"})
    turn = render(diff(rules, rules.model_copy(update={"seats": in_turn})), "a", "b")
    assert "the loser of the last round -> each seat in turn, whoever deals" in turn


@pytest.mark.parametrize("policy", ["the loser", "the winner of the last round"])
def test_sit_out_by_result_needs_one_player_out_each_round(tmp_path: Path, policy: str) -> None:
    lines = f'extends "{LOSER}"\nseats 3 to 4, 2 play\nsit out: {policy}\n'
    text = errors_of(write(tmp_path, lines))
    assert "house.rk:3:10:" in text
    assert "one player sits out a round, but at 4 seats 2 do" in text
    assert "seats 3, 2 play" in text


def test_each_in_turn_takes_any_number_out(tmp_path: Path) -> None:
    lines = f'extends "{LOSER}"\nseats 5, 2 play\nsit out: each in turn\n'
    rules = load_rules(write(tmp_path, lines))
    assert rules.seats.sit_out == "in_turn"


# ---------------------------------------------------------------- the scalar engine's games


def test_every_sit_out_policy_says_who_sits_the_next_round_out() -> None:
    policies = get_args(ir.Seats.model_fields["sit_out"].annotation)
    assert set(NEXT_SITTERS) == set(policies)


def test_loser_sits_out_the_next_round_in_a_whole_game() -> None:
    """Round after round: the first round sits out the last in play order from the dealer;
    then the player of the last round with the lowest net (a tie: the last in play order)."""
    c = CompiledRules(load_rules(LOSER))
    game = Game(c, 3, seed="7:0")
    agents = [make_agent("random", 0) for _ in range(3)]
    for s, a in enumerate(agents):
        a.start(f"7:0:{s}")
    last = None
    while not game.is_over:
        rnd = game.new_round()
        result = play_round(rnd, agents)
        game.record(result)
        if result.void:
            continue
        (sat,) = [s for s in range(3) if s not in result.active]
        if last is None:
            assert sat == (result.dealer + 2) % 3
        else:
            players = [s % 3 for s in range(last.dealer, last.dealer + 3) if s % 3 in last.active]
            low = min(last.net[s] for s in players)
            assert sat == [s for s in players if last.net[s] == low][-1]
        last = result


def test_draws_in_a_row_are_counted_and_a_won_round_ends_the_run() -> None:
    c = CompiledRules(load_rules(DRAWS))
    rounds = [d for i in range(40) for d, _ in played(c, 2, f"3:{i}")]
    assert rounds[0] == 0 and max(rounds) >= 2
    assert all(b in (0, a + 1) for a, b in itertools.pairwise(rounds))


# ---------------------------------------------------------------- both engines, game by game


@pytest.mark.parametrize(
    ("house", "seats", "bots"),
    [
        ("", 2, "random"),  # doubled after a drawn round
        ("sit out: the loser", 3, "random"),
        ("sit out: the winner", 3, "greedy"),
        ("seats 5, 2 play\nsit out: each in turn", 5, "random"),
        ("sit out: the loser\nscoring\n  d x2 on everything if after a drawn round", 3, "rulewise"),
    ],
)
def test_batch_plays_the_rounds_across_a_game_as_the_scalar_engine(
    tmp_path: Path, house: str, seats: int, bots: str
) -> None:
    """Whole games in both engines, game by game (nets, rounds, voids, the tally), over games
    where the state across rounds is seen: draws in a row, and sitters chosen by result."""
    base = DRAWS if seats == 2 else LOSER
    c = CompiledRules(load_rules(write(tmp_path, f'extends "{base}"\n{house}\n')))
    team = (bots,) * seats
    games = 6 if bots == "rulewise" else 12
    seen = [x for i in range(games) for x in played(c, seats, f"3:{i}", bots)]
    if seats == 2 or "drawn" in house:
        assert any(d >= 1 for d, _ in seen)
    if seats > 2:
        assert len({sat for _, sat in seen}) == seats  # every seat sat out once at least
    for i in range(games):
        assert scalar_game(c, seats, team, i) == batch_game(c, seats, team, i), i


# ---------------------------------------------------------------- what a comparison cannot see


def test_compare_says_it_cannot_see_rules_across_rounds() -> None:
    """A comparison plays single rounds: a rule across rounds that differs is named in its
    mechanics and warned of; other comparisons' JSON is as it was (no key)."""
    none: Counter[str] = Counter()
    sloper = load_rules("koikoi/sloper")
    drawn = exercised(sloper, load_rules(DRAWS), none, none)
    assert drawn["across_rounds"] == ["after a drawn round"]
    said = across_warning(drawn)
    assert said is not None and "act across rounds (after a drawn round)" in said
    assert "simulate --games" in said
    assert "across_rounds" not in exercised(sloper, load_rules("koikoi/house/oya-ken"), none, none)
    loser = load_rules(LOSER)
    folding = loser.model_copy(update={"seats": loser.seats.model_copy(update={"sit_out": "fold"})})
    sits = exercised(folding, loser, none, none)
    assert sits["across_rounds"] == ["who sits out by the last round"]
    ties = exercised(load_rules("sakura/hawaii"), load_rules("sakura/house/tie-break"), none, none)
    assert ties["across_rounds"] == ["the game's tie break"]


def test_a_json_ir_with_more_than_one_loser_out_is_refused() -> None:
    """The JSON IR, which the resolver's check does not see, is refused by the IR itself."""
    with pytest.raises(ValueError, match="one player sits out each round"):
        ir.Seats(min=4, max=4, active=2, sit_out="loser")
    assert ir.Seats(min=4, max=4, active=2, sit_out="in_turn").sit_out == "in_turn"
