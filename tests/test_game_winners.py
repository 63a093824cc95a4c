"""Who wins a game (issue 23, item 6): the best total, a tie broken by the file's `tie break`
(the most rounds won, the first in play order from the last round's dealer) or shared; the
language, both engines' `simulate --games` wins, and the scenario's `[game] winners`."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine.game import Game, game_winners
from rulekit.engine.playout import play_round
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate
from tests.lang_helpers import errors_of, write

TIE_BREAK = "sakura/house/tie-break"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def rules_with(tmp_path: Path, lines: str, base: str = TIE_BREAK) -> ir.Ruleset:
    return load_rules(write(tmp_path, f'extends "{base}"\n{lines}\n'))


# ---------------------------------------------------------------- the language


def test_tie_break_resolves_in_order_and_is_said_in_words(tmp_path: Path) -> None:
    rules = rules_with(
        tmp_path, "tie break: the most rounds won, then the first in play order from the dealer"
    )
    assert rules.length.tie_break == ("round_wins", "dealer_order")
    assert load_rules(TIE_BREAK).length.tie_break == ("dealer_order",)
    text = to_markdown(rulebook(rules))
    assert "A tie for the best total at the game's end goes to the most rounds won, then" in text
    said = render(diff(load_rules("sakura/hawaii"), load_rules(TIE_BREAK)), "a", "b")
    assert (
        "a tie for the best total at the game's end goes to: every tied player (shared) -> the"
        " first in play order from the last round's dealer" in said
    )


def test_tie_break_naming_a_part_twice_is_a_located_error(tmp_path: Path) -> None:
    lines = f'extends "{TIE_BREAK}"\ntie break: the most rounds won, then the most rounds won\n'
    text = errors_of(write(tmp_path, lines))
    assert "house.rk:2:1: 'tie break' names a part twice" in text


def test_remove_tie_break_shares_a_tie_again(tmp_path: Path) -> None:
    assert rules_with(tmp_path, "remove tie break").length.tie_break == ()
    text = errors_of(write(tmp_path, 'extends "sakura/hawaii"\nremove tie break\n'))
    assert "tie break" in text


# ---------------------------------------------------------------- game_winners


@pytest.mark.parametrize(
    ("tie_break", "net", "wins", "dealer", "expected"),
    [
        ((), [5, 5, 1], [1, 3, 0], 0, [0, 1]),  # shared
        (("round_wins",), [5, 5, 1], [1, 3, 0], 0, [1]),
        (("dealer_order",), [5, 5, 1], [1, 3, 0], 1, [1]),
        (("dealer_order",), [5, 1, 5], [0, 0, 0], 1, [2]),  # from the dealer on, round the table
        (("round_wins", "dealer_order"), [5, 5, 5], [2, 2, 1], 2, [0]),
        (("round_wins",), [5, 5, 5], [2, 2, 1], 2, [0, 1]),  # left tied: shared
        (("dealer_order",), [7, 5, 1], [0, 3, 3], 2, [0]),  # no tie: the best total
    ],
)
def test_game_winners_breaks_a_tie_as_the_file_says(
    tie_break: tuple[str, ...], net: list[int], wins: list[int], dealer: int, expected: list[int]
) -> None:
    rules = load_rules("koikoi/house/loser-sits-out")
    rules = rules.model_copy(update={"length": ir.Length(tie_break=tie_break)})
    assert game_winners(rules, 3, net, wins, dealer) == expected


def test_a_team_ties_and_wins_together() -> None:
    """Sakura at four: pairs (0, 2) and (1, 3); the tied teams, the first in play order from
    dealer 3 is his own team."""
    rules = load_rules(TIE_BREAK)
    assert game_winners(rules, 4, [10, 5, -5, 0], [1, 2, 1, 2], 3) == [1, 3]
    assert game_winners(rules, 4, [10, 5, -5, 0], [1, 2, 1, 2], 0) == [0, 2]


# ---------------------------------------------------------------- simulate --games


def test_simulate_games_counts_one_winner_per_game_with_a_tie_break(tmp_path: Path) -> None:
    """Seed 0's 300 games of two random players have tied games: with BGA's tie-break each game
    has one winner, in both engines alike; without it, a tie is a win for both."""
    broken = load_rules(TIE_BREAK)
    shared = rules_with(tmp_path, "remove tie break")
    runs = {
        (name, engine): simulate(rules, bots=["random"], seed=0, games=300, engine=engine)
        for name, rules in (("broken", broken), ("shared", shared))
        for engine in ("scalar", "batch")
    }
    wins = {k: sum(s["wins"] for s in run["seats"]) for k, run in runs.items()}
    assert wins[("broken", "scalar")] == wins[("broken", "batch")] == 300
    assert wins[("shared", "scalar")] == wins[("shared", "batch")] > 300
    for name in ("broken", "shared"):
        seats = [runs[(name, e)]["seats"] for e in ("scalar", "batch")]
        assert seats[0] == seats[1]


# ---------------------------------------------------------------- the round's winner by net

BEST_NET = "hachihachi/house/best-net-deals"


def test_the_best_net_wins_resolves_and_is_said_in_words() -> None:
    rules = load_rules(BEST_NET)
    assert rules.count.winner == "net" and load_rules("hachihachi/fudawiki").count.winner == "count"
    assert "The best net of the round (yaku, teyaku and the count) wins it" in to_markdown(
        rulebook(rules)
    )
    said = render(diff(load_rules("hachihachi/fudawiki"), rules), "a", "b")
    assert (
        "the yaku's maker, or the count's best -> the best net of the round, yaku included" in said
    )


def test_the_best_net_wins_with_teams_is_a_located_error(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, 'extends "sakura/hawaii"\ncount: points; the best net wins\n'))
    assert "house.rk:2:16: 'the best net wins': a round played in teams is won by a side" in text
    assert "remove teams" in text


def test_the_best_net_wins_every_round_of_a_game() -> None:
    """Round after round of whole games: the winner is the first in play order from the dealer
    of those with the best net, unless every net is the same; and Fudawiki's own winner is
    another player in some of the same rounds."""
    c = CompiledRules(load_rules(BEST_NET))
    differ = 0
    for i in range(4):
        game = Game(c, 3, seed=f"5:{i}")
        agents = [make_agent("greedy", 0) for _ in range(3)]
        for s, a in enumerate(agents):
            a.start(f"5:{i}:{s}")
        while not game.is_over:
            r = play_round(game.new_round(), agents)
            game.record(r)
            if r.void:
                continue
            players = [s % 3 for s in range(r.dealer, r.dealer + 3)]
            best = max(r.net[s] for s in players)
            if len({r.net[s] for s in players}) > 1:
                first = next(s for s in players if r.net[s] == best)
                assert r.winner == first and r.winners == [first] and r.next_dealer == first
            fees = [p for p in r.ledger if p.reason in ("fold fee", "forced fold")]
            assert not fees  # (three seats: nobody folds)
    c0 = CompiledRules(load_rules("hachihachi/fudawiki"))
    for i in range(4):
        game = Game(c0, 3, seed=f"5:{i}")
        agents = [make_agent("greedy", 0) for _ in range(3)]
        for s, a in enumerate(agents):
            a.start(f"5:{i}:{s}")
        while not game.is_over:
            r = play_round(game.new_round(), agents)
            game.record(r)
            if not r.void and r.winner is not None and r.net[r.winner] < max(r.net):
                differ += 1
    assert differ > 0
