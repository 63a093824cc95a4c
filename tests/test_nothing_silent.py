"""Nothing silent (issue 21, items 9 to 13): a statement that contradicts itself, a payment
that the file's options would never make, a sit-out nobody sits, a ledger line that names only
part of what it pays."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.diff import diff
from rulekit.engine.actions import SWAP as SWAP_ACTION
from rulekit.engine.round import Round
from rulekit.engine.state import SWAP
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RuleErrors
from rulekit.lang import load_rules
from rulekit.lang.checks import check_yaku_paid, rule_warnings
from rulekit.lang.files import bundled_names
from tests.conftest import rules


def _load(tmp_path: Path, text: str) -> None:
    path = tmp_path / "house.rk"
    path.write_text(text, encoding="utf-8")
    load_rules(path)


@pytest.mark.parametrize(
    ("line", "second", "message"),
    [
        ('continue "Sage": paid when made; if unfinished keep; if unfinished forfeit',
         "forfeit", "'forfeit' contradicts 'keep'"),
        ("teyaku best only, all add", "all add", "'all add' contradicts 'best only'"),
        ("dekiyaku\n  poetry_ribbons 40; flat; times multiplier", "times multiplier",
         "'times multiplier' contradicts 'flat'"),
        ("rounds 12; winner deals; dealer rotates", "dealer rotates",
         "'dealer rotates' contradicts 'winner deals'"),
        ("fold: fee 10; times multiplier; fee 20", "fee 20", "'fee 20' contradicts 'fee 10'"),
        ("count: par 88; always; always", "always", "'always' is given twice"),
        ('scoring\n  aw "Aw" the dealer takes 6; flat; times multiplier', "times multiplier",
         "'times multiplier' contradicts 'flat'"),
        ("continue: if beaten refund half and no penalty", "if beaten refund half and no penalty",
         "says a part twice, or 'no penalty' with a penalty"),
    ],
)  # fmt: skip
def test_contradictory_options_of_one_statement_are_an_error_at_the_second(
    tmp_path: Path, line: str, second: str, message: str
) -> None:
    """Issue 21, item 12: the last one won, silently."""
    text = f'extends "hachihachi/fudawiki"\n{line}\n'
    with pytest.raises(RuleErrors) as info:
        _load(tmp_path, text)
    (err,) = info.value.errors
    assert message in err.message
    assert err.loc is not None
    last = text.splitlines()[err.loc.line - 1]
    assert last[err.loc.col - 1 :].startswith(second)


@pytest.mark.parametrize(
    ("base", "lines", "said"),
    [
        ("hachihachi/fudawiki", "continue: yaku do not end the round",
         "a count by par pays only the cards"),
        ("koikoi/sloper", "continue: yaku do not end the round", "'count: none' counts nothing"),
        ("sakura/hawaii", "count: points; always",
         "a count by points scores them only with 'opponents lose each yaku'"),
        ("hachihachi/fudawiki",
         "continue: yaku do not end the round\\ncount: par 88; always; opponents lose each yaku",
         "'opponents lose each yaku' is an option of a count by points or round wins"),
    ],
)  # fmt: skip
def test_yaku_never_paid_at_the_count_are_a_warning(
    tmp_path: Path, base: str, lines: str, said: str
) -> None:
    """Issue 21, item 9: yaku scored at a count that never pays them, and an option a par count
    ignores, were accepted without a word."""
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{base}"\n{lines}\n'.replace("\\n", "\n"), encoding="utf-8")
    warnings = rule_warnings(load_rules(path))
    assert any(said in w.message for w in warnings), [w.message for w in warnings]
    assert all(w.loc is not None and w.loc.file.endswith("house.rk") for w in warnings)


def test_every_bundled_file_pays_its_yaku() -> None:
    for name in bundled_names():
        assert not check_yaku_paid(load_rules(name)), name


def test_diff_says_yaku_that_do_not_end_the_round_are_paid_at_the_count() -> None:
    """`diff` said "yaku are paid: when their maker stops -> when made"."""
    changes = diff(rules("koikoi/sloper"), rules("sakura/hawaii"))
    words = [c.sentence() for c in changes if c.what == "continuation.paid"]
    assert words == ["yaku are paid: when their maker stops -> at the count"]


def test_check_prints_the_warning_and_passes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "house.rk"
    path.write_text('extends "hachihachi/fudawiki"\ncontinue: yaku do not end the round\n')
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 0
    assert "house.rk:2:1: warning: the yaku are never paid" in result.output


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ("extends \"hachihachi/house/rotating-sit-out\"\nsetup: hands, field, teyaku",
         "at 4 seats 3 play, but setup has no 'fold' step"),
        ("extends \"koikoi/sloper\"\nseats 3, 2 play\nsit out: the dealer",
         "at 3 seats 2 play, but setup has no 'fold' step"),
        ("extends \"koikoi/sloper\"\nseats 3, 2 play\nsit out: the dealer\n"
         "setup: hands, swap, field, fold, instant_win",
         "the hands are swapped before the 'fold' step"),
    ],
)  # fmt: skip
def test_a_sit_out_needs_a_fold_step_before_any_swap(tmp_path: Path, lines: str, said: str) -> None:
    """Issue 21, item 11: with no fold step nobody sat out (and every opponent paid); a swap
    before it was offered to a player who then sat out."""
    with pytest.raises(RuleErrors) as info:
        _load(tmp_path, lines + "\n")
    (err,) = info.value.errors
    assert said in err.message
    assert err.loc is not None and err.loc.file.endswith("house.rk")


SWAP_AND_SIT_OUT = (
    'extends "koikoi/sloper"\nseats 3, 2 play\nsit out: {who}\n'
    "setup: hands, fold, swap, field, instant_win\n"
)


@pytest.mark.parametrize("who", ["the dealer", "the players after the dealer, in turn"])
def test_the_swap_is_between_the_two_who_play(tmp_path: Path, who: str) -> None:
    """The swap is offered to the first player after the dealer (or after who leads in his
    place) who plays, and trades with the leader: never with a hand out of play."""
    path = tmp_path / "house.rk"
    path.write_text(SWAP_AND_SIT_OUT.format(who=who), encoding="utf-8")
    c = CompiledRules(load_rules(path))
    for number in range(30):
        rnd = Round(c, 3, number % 3, seed=2, deal_no=number)
        assert rnd.phase == SWAP
        playing = [s for s in range(3) if not rnd.folded[s]]
        leader = next(s for s in ((rnd.dealer + k) % 3 for k in range(3)) if s in playing)
        assert rnd.current in playing and rnd.current != leader
        before, offered = list(rnd.hands), rnd.current
        rnd.apply(SWAP_ACTION)
        assert rnd.hands[leader] == before[offered] and rnd.hands[offered] == before[leader]
        out = next(s for s in range(3) if s not in playing)
        assert rnd.hands[out] == before[out]


def test_the_batch_engine_swaps_as_the_scalar_engine_with_a_sit_out(tmp_path: Path) -> None:
    from rulekit.batch import engine as batch
    from tests.test_batch_identity import batch_deal, scalar_deal

    path = tmp_path / "house.rk"
    path.write_text(SWAP_AND_SIT_OUT.format(who="the dealer"), encoding="utf-8")
    c = CompiledRules(load_rules(path))
    for bots in (("random",) * 3, ("greedy",) * 3):
        plan = batch.make_plan(c, 3, bots, 4)
        for number in range(40):
            assert batch_deal(plan, number) == scalar_deal(c, 3, bots, 4, number), number
