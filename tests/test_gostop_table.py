"""Go-Stop's table rules as statements of the language (issue 25): the dropout's compensation
(GS 61). Each is in the IR, said in words by describe and diff, refused where it cannot apply,
and played alike by both engines; what it pays is pinned by the scenarios in
rules/gostop/house/scenarios/."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulekit import ir
from rulekit.cli import cli
from rulekit.describe import rulebook
from rulekit.lang import load_rules

COMPENSATION = (
    "compensation: 2 per card of lights + sake + paulownia_yellow + lightning;"
    " x2 if he holds a month of 3; paid by each player of the round but the dealer"
)


def _text(rules: ir.Ruleset) -> str:
    return " ".join(p for s in rulebook(rules) for p in s.paragraphs)


def _house(tmp_path: Path, body: str, base: str = "gostop/house/four-to-six") -> Path:
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{base}"\n{body}\n', encoding="utf-8")
    return path


# ------------------------------------------------------ GS 61: the dropout's compensation


def test_compensation_of_a_forced_dropout_is_in_the_ir() -> None:
    rules = load_rules("gostop/house/four-to-six")
    comp = rules.compensation
    assert comp is not None
    names = {rules.card(c).name for c in comp.cards}
    assert names == {
        "crane", "curtain", "moon", "rainman", "phoenix", "sake", "paulownia_yellow", "lightning"
    }  # fmt: skip
    assert (comp.per_card, comp.factor, comp.payers) == (2, 2, "non_dealers")
    assert isinstance(comp.condition, ir.Shape)
    assert rules.fold.start == "dealer"  # the dealer is asked first, and joins
    assert load_rules("gostop/gostop").compensation is None


def test_compensation_is_said_in_words_by_describe_and_diff(tmp_path: Path) -> None:
    text = _text(load_rules("gostop/house/four-to-six"))
    assert "A player forced to fold is paid 2 for each card of crane," in text
    assert "x2 if he holds a month of 3, by each player of the round but the dealer" in text
    house = _house(tmp_path, COMPENSATION.replace(" but the dealer", "").replace("x2", "x3"))
    out = CliRunner().invoke(cli, ["diff", "gostop/house/four-to-six", str(house)])
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert "the compensation of a forced fold: A player forced to fold" in said
    assert "x3 if he holds a month of 3, by each player of the round (flat" in said


def test_remove_compensation_drops_it(tmp_path: Path) -> None:
    assert load_rules(_house(tmp_path, "remove compensation")).compensation is None
    out = CliRunner().invoke(
        cli, ["diff", "gostop/house/four-to-six", str(_house(tmp_path, "remove compensation"))]
    )
    assert "the compensation of a forced fold: removed (was: A player forced" in " ".join(
        out.output.split()
    )


def test_compensation_where_nobody_folds_is_refused(tmp_path: Path) -> None:
    house = _house(tmp_path, COMPENSATION, base="gostop/gostop")
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1
    assert "house.rk:2:1: compensation: nobody is forced to fold in this variant" in out.output
    assert "seats 4 to 6, 3 play" in out.output


def test_compensation_with_a_mistyped_card_suggests_the_name(tmp_path: Path) -> None:
    house = _house(tmp_path, "compensation: 2 per card of lihgts + sake")
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1
    assert "house.rk:2:29: unknown card, class, tag, set or month 'lihgts'" in out.output
    assert "did you mean 'lights'?" in out.output


def test_compensation_of_nothing_is_refused(tmp_path: Path) -> None:
    out = CliRunner().invoke(
        cli, ["check", str(_house(tmp_path, "compensation: 0 per card of lights"))]
    )
    assert out.exit_code == 1
    assert "compensation: 0 per card pays nothing" in out.output


def test_compensation_condition_that_sees_every_pile_is_refused(tmp_path: Path) -> None:
    house = _house(
        tmp_path, "compensation: 2 per card of lights; x2 if he holds everyone has lights >= 1"
    )
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1
    assert "cannot be used in a condition on a folder's compensation" in out.output


def test_compensation_of_the_dropout_is_played_alike_by_both_engines() -> None:
    from rulekit.batch import engine as batch
    from rulekit.engine.tables import CompiledRules
    from tests.test_batch_identity import batch_deal, scalar_deal

    c = CompiledRules(load_rules("gostop/house/four-to-six"))
    bots = ("greedy",) * 6
    plan = batch.make_plan(c, 6, bots, 1)
    paid = 0
    for number in range(8):
        want = scalar_deal(c, 6, bots, 1, number)
        assert batch_deal(plan, number) == want, number
        paid += sum(p.reason == "compensation" for p in want["ledger"])
    assert paid  # (three forced out at six: some hold a bright)


def test_tune_varies_the_compensation_per_card() -> None:
    from rulekit.sim.tune import knobs

    rules = load_rules("gostop/house/four-to-six")
    (knob,) = [k for k in knobs(rules) if k.name == "compensation.per_card"]
    assert (knob.value, knob.low) == (2, 1)
    varied = knob.apply(rules, 3).compensation
    assert varied is not None and varied.per_card == 3
    assert not [k for k in knobs(load_rules("gostop/gostop")) if k.name.startswith("compens")]
