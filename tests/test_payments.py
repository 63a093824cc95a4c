"""Issue 25's payments: who pays and what is added to a payment (conditions on the payer, a
payer who pays nothing, `+N per continue`, a round won paid by each other player). The fixture
files of tests/payments_rules/ are pinned by their scenarios and played deal by deal by both
engines; each statement's errors are located, `describe` and `diff` say it in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit import ir
from rulekit.cli import cli
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from tests.lang_helpers import errors_of, write
from tests.test_batch_identity import assert_same_rounds, seat_range

FIXTURES = Path(__file__).parent / "payments_rules"
FILES = sorted(FIXTURES.glob("*.rk"))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_the_payments_scenarios_pass() -> None:
    result = CliRunner().invoke(cli, ["test", str(FIXTURES), "-q"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(" passed, 0 failed")
    assert int(result.stdout.strip().splitlines()[-1].split()[0]) >= 7


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_both_engines_play_the_payments_fixtures_alike(path: Path) -> None:
    c = CompiledRules(load_rules(path))
    sizes = list(seat_range(c))
    for seats in sorted({sizes[0], sizes[-1]}):  # (the table sizes between play no new rule)
        assert_same_rounds(c, path.stem, seats)


# ---------------------------------------------------------------- conditions on the payer


def test_the_payer_has_resolves_to_a_test_of_the_payers_pile() -> None:
    rules = load_rules(FIXTURES / "double-penalties.rk")
    steps = {s.name: s for s in rules.scoring}
    gwang = steps["gwang_bak"]
    assert isinstance(gwang, ir.Factor) and gwang.factor == 2 and gwang.condition is not None
    payer = [c for c in ir.parts_of(gwang.condition) if isinstance(c, ir.PayerHas)]
    assert payer == [
        ir.PayerHas(item=ir.Count(cards=(10, 30, 80, 110, 120), op="=", n=0, label="lights"))
    ]
    exempt = steps["exempt"]
    assert isinstance(exempt, ir.Factor) and exempt.factor == 0 and exempt.on == "all"


def test_the_payer_has_in_an_award_is_a_located_error(tmp_path: Path) -> None:
    text = errors_of(
        write(
            tmp_path,
            'extends "koikoi/sloper"\nscoring\n'
            '  bak "Bak" the winner takes 2 if the payer has lights = 0\n',
        )
    )
    assert "house.rk:3:3: award 'bak': 'the payer has' cannot be used in an award" in text
    assert "x2 if the payer has lights = 0" in text


@pytest.mark.parametrize(
    ("line", "where", "message"),
    [
        ("yaku\n  probe 5: the payer has lights = 0", "3:12", "in a yaku condition"),
        (
            "scoring\n  probe x2 if the payer has dealer",
            "3:29",
            "'dealer' cannot be used in 'the payer has ...'",
        ),
        (
            "scoring\n  probe x2 if everyone has the payer has lights = 0",
            "3:28",
            "'the payer has' cannot be used in 'everyone has ...'",
        ),
    ],
)
def test_the_payer_has_is_refused_where_it_means_nothing(
    tmp_path: Path, line: str, where: str, message: str
) -> None:
    text = errors_of(write(tmp_path, f'extends "koikoi/sloper"\n{line}\n'))
    assert f"house.rk:{where}:" in text and message in text, text


def test_the_payer_conditions_are_said_in_words() -> None:
    rules = load_rules(FIXTURES / "double-penalties.rk")
    book = to_markdown(rulebook(rules))
    assert "Gwang-bak: x2 on yaku payments if lights >= 3 and the payer has lights = 0" in book
    assert "Scoring exemption: the payer pays nothing of every payment if the payer has" in book
    said = render(diff(load_rules("koikoi/sloper"), rules), "a", "b")
    assert "gwang_bak" in said.lower() or "Gwang-bak" in said
    assert "Scoring exemption" in said


# ---------------------------------------------------------------- seats named from the dealer


def test_seats_from_the_dealer_resolve_and_are_said_in_words() -> None:
    rules = load_rules(FIXTURES / "compensation.rk")
    payees = [s.payee for s in rules.scoring if isinstance(s, ir.Award)]
    assert payees == ["dealer", "second", "third"]
    book = to_markdown(rulebook(rules))
    assert "Eight for the second: the second in play order from the dealer takes 30" in book
    house = load_rules(
        write(Path.cwd(), 'extends "hachihachi/fudawiki"\nscoring\n  s x2 if second or third\n')
    )
    step = house.scoring[-1]
    assert step.condition == ir.Or(items=(ir.SeatFromDealer(place=2), ir.SeatFromDealer(place=3)))
    assert "x2 on yaku payments if second or third" in to_markdown(rulebook(house))


def test_second_in_a_void_rule_is_a_located_error(tmp_path: Path) -> None:
    text = errors_of(
        write(tmp_path, 'extends "hachihachi/fudawiki"\nvoid if the field has second\n')
    )
    assert "house.rk:2:23: 'second' cannot be used in a void rule" in text


# ---------------------------------------------------------------- yaku that cancel or win at once


def test_a_yaku_that_cancels_or_wins_resolves_and_is_said_in_words() -> None:
    every = load_rules(FIXTURES / "willow-row.rk")
    others = load_rules(FIXTURES / "willow-row-others.rk")
    assert every.yaku is not None and others.yaku is not None
    assert every.yaku.entry("willow_row").cancels_yaku == "all"
    assert others.yaku.entry("willow_row").cancels_yaku == "others"
    assert every.yaku.entry("wisteria_row").cancels_yaku == "none"
    assert "cancels every yaku decided at the count" in to_markdown(rulebook(every))
    said = render(diff(every, others), "a", "b")
    assert "cancels the other players' yaku decided at the count" in said
    wins = load_rules(FIXTURES / "wins-at-once.rk")
    assert wins.yaku is not None and wins.yaku.entry("five_lights").wins_round
    assert "wins the round at once (no continue)" in to_markdown(rulebook(wins))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'extends "koikoi/sloper"\nyaku\n  row "Row" 5: all of willow; cancels every yaku\n',
            "house.rk:3:31: a yaku that cancels yaku is decided at the count: add '; at count'",
        ),
        (
            'extends "koikoi/sloper"\nyaku\n  row "Row" 5: all of willow; at count;'
            " wins the round\n",
            "house.rk:3:41: 'wins the round' is an option of a yaku made in play",
        ),
    ],
)
def test_a_yaku_that_cancels_or_wins_is_refused_where_it_means_nothing(
    tmp_path: Path, text: str, message: str
) -> None:
    assert message in errors_of(write(tmp_path, text))


# ---------------------------------------------------------------- the stock played out


def test_play_out_the_stock_resolves_is_said_in_words_and_removed(tmp_path: Path) -> None:
    rules = load_rules(FIXTURES / "stock-played-out.rk")
    assert rules.play_out_stock and not load_rules("hachihachi/two-player").play_out_stock
    assert "When nobody holds a card, the stock is played out" in to_markdown(rulebook(rules))
    said = render(diff(load_rules("hachihachi/two-player"), rules), "a", "b")
    assert "the players draw and play the rest of the stock in turn: no -> yes" in said
    removed = write(
        tmp_path, f'extends "{FIXTURES / "stock-played-out.rk"}"\nremove play out the stock\n'
    )
    assert not load_rules(removed).play_out_stock


def test_every_card_is_captured_when_the_stock_is_played_out() -> None:
    """Rounds of two players that end with the hands: the stock played out, every card of the
    deck is in a pile (without the statement, the last 8 stay in the stock)."""
    from rulekit.agents import make_agent
    from rulekit.engine.playout import play_deal

    c = CompiledRules(load_rules(FIXTURES / "stock-played-out.rk"))
    counted = 0
    for number in range(40):
        agents = [make_agent("greedy", 0), make_agent("random", 1)]
        rnd, result, _ = play_deal(c, 2, number, agents, seed=5)
        if result.ended_by in ("count", "draw") and not any(rnd.hands):
            assert not rnd.stock and sum(x.bit_count() for x in rnd.captured) == 48
            counted += 1
    assert counted


# ---------------------------------------------------------------- + N per continue


def test_plus_per_continue_resolves_and_is_said_in_words() -> None:
    rules = load_rules(FIXTURES / "go-bonus.rk")
    assert rules.continuation.per_continue == 1
    assert load_rules("koikoi/sloper").continuation.per_continue == 0
    book = to_markdown(rulebook(rules))
    assert "paid 1 more for each time he continued, before any multiplier" in book
    said = render(diff(load_rules("koikoi/sloper"), rules), "a", "b")
    assert "added to the yaku paid at a stop for each continue called" in said


def test_plus_per_continue_needs_yaku_paid_at_the_stop(tmp_path: Path) -> None:
    text = errors_of(
        write(
            tmp_path,
            'extends "hachihachi/fudawiki"\ncontinue "Sage": paid when made; +1 per continue\n',
        )
    )
    assert "house.rk:2:34: '+N per continue' is added to the yaku paid at the stop" in text
    assert "paid when stopping" in text


# ---------------------------------------------------------------- a round won paid by the others


def test_round_wins_paid_by_each_other_player_resolves_and_is_said_in_words() -> None:
    rules = load_rules(FIXTURES / "round-wins-paid.rk")
    assert rules.count.round_paid == "others"
    assert load_rules("sakura/round-wins").count.round_paid == "bank"
    book = to_markdown(rulebook(rules))
    assert "the best score wins the round, worth one, paid by each other player" in book
    said = render(diff(load_rules("sakura/round-wins"), rules), "a", "b")
    assert "nobody: it is scored against the bank -> each other player of the round" in said


def test_paid_by_each_other_player_needs_a_count_by_round_wins(tmp_path: Path) -> None:
    text = errors_of(
        write(tmp_path, 'extends "sakura/hawaii"\ncount: points; paid by each other player\n')
    )
    assert "house.rk:2:16: 'paid by each other player': only a count by round wins" in text
