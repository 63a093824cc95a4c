"""The scoring stage in the language: factor and award lines, flat entries, split tables, the
unit and values written in it, `every yaku is worth`, a target and a starting score; what they
resolve to, how they are overridden, their errors, and their words in the rulebook and in diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekit import ir
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from tests.lang_helpers import errors_of, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


KOI = 'extends "koikoi/sloper"\n'
HACHI = 'extends "hachihachi/fudawiki"\n'
SAKURA = 'extends "sakura/hawaii"\n'


def values(table: ir.YakuTable | None) -> dict[str, int]:
    assert table is not None
    return {e.name: e.value for e in table.entries}


# ---------------------------------------------------------------- scoring steps


def test_factor_and_award_lines_resolve_in_order(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            KOI + "scoring\n"
            '  seven "Seven or more" x2 if score >= 7\n'
            "  x3 on everything if round = 12\n"
            "  x2 on the count\n"
            '  oya_ken "Oya-ken" the dealer takes 6 if nobody won\n'
            '  bonus "Bonus" the winner takes 10 from each other; times multiplier\n'
            '  share "Shared" the winner takes 30 split between the others\n',
        )
    )
    assert rules.scoring == (
        ir.Factor(
            factor=2,
            on="yaku",
            condition=ir.ScoreCmp(op=">=", n=7),
            text="score >= 7",
            name="seven",
            label="Seven or more",
        ),
        ir.Factor(factor=3, on="all", condition=ir.RoundCmp(op="=", n=12), text="round = 12"),
        ir.Factor(factor=2, on="count"),
        ir.Award(
            name="oya_ken",
            label="Oya-ken",
            payee="dealer",
            value=6,
            condition=ir.NobodyWon(),
            text="nobody won",
        ),
        ir.Award(name="bonus", label="Bonus", payee="winner", value=10, multiplied=True),
        ir.Award(name="share", label="Shared", payee="winner", value=30, split=True),
    )


def test_an_unnamed_factor_written_like_a_tier_is_a_factor_on_yaku(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, KOI + "scoring\n  x2 if an opponent continued\n"))
    (step,) = rules.scoring
    assert step == ir.Factor(
        factor=2,
        condition=ir.Continued(who="opponent", op=">=", n=1),
        text="an opponent continued",
    )
    assert rules.multiplier == load_rules("koikoi").multiplier  # not a tier


def test_a_step_is_replaced_whole_by_name_and_removed_by_name(tmp_path: Path) -> None:
    write(
        tmp_path,
        KOI + "scoring\n"
        '  seven "Seven" x2 if score >= 7\n'
        '  oya_ken "Oya-ken" the dealer takes 6 if nobody won\n',
        "base.rk",
    )
    changed = load_rules(
        write(tmp_path, 'extends "base.rk"\nscoring\n  seven "Seven" x3 if score >= 8\n')
    )
    assert [type(s).__name__ for s in changed.scoring] == ["Factor", "Award"]
    first = changed.scoring[0]
    assert isinstance(first, ir.Factor) and first.factor == 3
    assert first.condition == ir.ScoreCmp(op=">=", n=8)
    removed = load_rules(write(tmp_path, 'extends "base.rk"\nscoring\n  remove seven\n', "r.rk"))
    assert [s.name for s in removed.scoring] == ["oya_ken"]


def test_a_step_given_twice_in_one_file_is_an_error(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + "scoring\n  a x2 if score >= 7\n  a x3 if score >= 9\n"))
    assert "house.rk:4:3" in text and "given twice" in text


def test_removing_an_unknown_step_suggests_a_name(tmp_path: Path) -> None:
    write(tmp_path, KOI + 'scoring\n  oya_ken "Oya-ken" the dealer takes 6 if nobody won\n', "b.rk")
    text = errors_of(write(tmp_path, 'extends "b.rk"\nscoring\n  remove oyaken\n'))
    assert "no scoring step named 'oyaken'" in text and "oya_ken" in text


def test_a_step_outside_the_scoring_section_is_located(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + 'oya "Oya" the dealer takes 6 if nobody won\n'))
    assert "house.rk:2:1" in text and "scoring" in text


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("a x2 if points >= 10", ""),  # any card condition is fine
        ("a x2 if round = 0", "first round"),
        ("a x2 on teyaku", "no teyaku"),
        ("a the winner takes 5 if nobody won", "takes nothing when nobody won"),
        ("a x2 if scor >= 7", "unknown"),
    ],
)
def test_bad_steps_get_located_errors(tmp_path: Path, line: str, words: str) -> None:
    path = write(tmp_path, KOI + "scoring\n  " + line + "\n")
    if not words:
        load_rules(path)
        return
    text = errors_of(path)
    assert "house.rk:" in text and words in text


def test_score_is_refused_outside_a_scoring_step(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + 'yaku\n  big "Big" 3: score >= 7\n'))
    assert "'score' cannot be used" in text


# ---------------------------------------------------------------- flat entries and split tables


def test_flat_entries_and_split_tables(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            HACHI + "dekiyaku split between payers\n"
            "  poetry_ribbons; flat\n"
            '  sake_cup "Sake cup" 12: all of sake; flat\n',
        )
    )
    assert rules.yaku is not None and rules.yaku.split
    assert rules.yaku.entry("poetry_ribbons").flat
    assert rules.yaku.entry("sake_cup").flat and rules.yaku.entry("sake_cup").value == 12
    assert not rules.yaku.entry("blue_ribbons").flat
    assert not load_rules("hachihachi").yaku.split  # type: ignore[union-attr]
    back = load_rules(
        write(
            tmp_path,
            'extends "house.rk"\nyaku paid by each payer\n  poetry_ribbons; times multiplier\n',
            "back.rk",
        )
    )
    assert back.yaku is not None and not back.yaku.split
    assert not back.yaku.entry("poetry_ribbons").flat


# ---------------------------------------------------------------- units


def test_fudawiki_declares_its_unit_without_changing_a_value() -> None:
    rules = load_rules("hachihachi")
    assert rules.unit == ir.Unit(name="kan", points=10)
    assert values(rules.teyaku)["triple"] == 10 and rules.fold.fee == 10


def test_kan_12_rescales_every_value_written_in_kan() -> None:
    base, house = load_rules("hachihachi"), load_rules("hachihachi/house/kan-12")
    for kind in ("teyaku", "yaku"):
        old, new = values(getattr(base, kind)), values(getattr(house, kind))
        assert new == {name: v * 12 // 10 for name, v in old.items()}
    assert house.fold.fee == 12 and house.points == base.points
    assert house.count == base.count


def test_a_value_written_in_the_unit(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            HACHI
            + 'teyaku\n  triple 2 kan\nscoring\n  b "B" the dealer takes 1 kan if nobody won\n',
        )
    )
    assert values(rules.teyaku)["triple"] == 20
    assert rules.scoring[0].value == 10  # type: ignore[union-attr]
    rescaled = load_rules(write(tmp_path, 'extends "house.rk"\nunit kan = 12 points\n', "k.rk"))
    assert values(rescaled.teyaku)["triple"] == 24 and rescaled.scoring[0].value == 12  # type: ignore[union-attr]


def test_bonuses_and_values_of_the_file_itself_follow_their_own_unit(tmp_path: Path) -> None:
    write(
        tmp_path,
        KOI + "unit mon = 1 points\nyaku\n  tanzaku 2: ribbons >= 5; +1 per extra\n",
        "base.rk",
    )
    rules = load_rules(
        write(
            tmp_path, 'extends "base.rk"\nunit mon = 3 points\nyaku\n  own "Own" 5: all of crane\n'
        )
    )
    assert rules.yaku is not None
    assert rules.yaku.entry("own").value == 5  # written at 3 to the mon: as written
    assert rules.yaku.entry("tanzaku").value == 6  # written at 1: rescaled, its bonus too
    bonus = rules.yaku.entry("tanzaku").bonus
    assert bonus is not None and bonus.amount == 3
    # values written where no unit was declared (Sloper's) are not in the unit: as written
    assert rules.yaku.entry("ten_plains").value == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (HACHI + "unit kan = 15 points\n", "not a whole number"),
        (HACHI + "unit mon = 12 points\n", "a unit keeps its name"),
        (HACHI + "unit kan = 0 points\n", "at least 1 point"),
        (HACHI + "unit kan = 12 points\nunit kan = 14 points\n", "given twice"),
        (KOI + "yaku\n  x_yaku 2 kan: all of crane\n", "no unit is declared"),
        (HACHI + "teyaku\n  triple 2 kna\n", "unknown unit 'kna'"),
    ],
)
def test_unit_errors_are_located(tmp_path: Path, text: str, words: str) -> None:
    rendered = errors_of(write(tmp_path, text))
    assert "house.rk:" in rendered and words in rendered


@given(st.integers(min_value=1, max_value=40))
def test_a_unit_rescales_exactly_or_refuses(points: int) -> None:
    """Every value of Fudawiki times points/10: whole, or a located error; never rounded."""
    base = load_rules("hachihachi")
    written = [*values(base.teyaku).values(), *values(base.yaku).values(), base.fold.fee]
    whole = all(v * points % 10 == 0 for v in written)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "u.rk"
        path.write_text(HACHI + f"unit kan = {points} points\n", encoding="utf-8")
        if whole:
            rules = load_rules(path)
            assert values(rules.teyaku)["triple"] == points
        else:
            with pytest.raises(RulekitError):
                load_rules(path)


# ---------------------------------------------------------------- every entry worth


def test_every_yaku_is_worth_sets_inherited_entries_only() -> None:
    rules = load_rules("sakura/house/yaku-25")
    assert set(values(rules.yaku).values()) == {25}
    assert len(values(rules.yaku)) == len(values(load_rules("sakura").yaku))


def test_every_teyaku_is_worth_and_entries_after_it_keep_their_value(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, HACHI + "every teyaku is worth 1 kan\nteyaku\n  four 40\n"))
    v = values(rules.teyaku)
    assert v.pop("four") == 40 and set(v.values()) == {10}


def test_every_yaku_without_a_table_is_an_error(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, HACHI + "every teyaku is worth 5\nevery teyaku is worth 6\n"))
    assert "given twice" in text
    bare = 'game "G"\ndeck "common/hanafuda"\nevery yaku is worth 5\n'
    assert "no yaku to set" in errors_of(write(tmp_path, bare, "bare.rk"))


# ---------------------------------------------------------------- the game's length


def test_target_and_start(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, SAKURA + "rounds 12; start at 100; until a score of 500\n"))
    assert rules.length.target == 500 and rules.length.start == 100
    assert load_rules("sakura/house/target-score").length.target == 500
    assert load_rules("sakura").length.target is None


def test_a_target_not_above_the_start_is_an_error(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, SAKURA + "rounds 12; start at 100; until a score of 50\n"))
    assert "house.rk:2:" in text and "before it starts" in text


# ---------------------------------------------------------------- words


def test_rulebook_says_the_scoring_stage() -> None:
    md = to_markdown(rulebook(load_rules("koikoi/house/oya-ken")))
    assert "## Scoring" in md and "Oya-ken: the dealer takes 6 from each other player" in md
    kan = to_markdown(rulebook(load_rules("hachihachi/house/kan-12")))
    assert "12 to the kan" in kan
    target = to_markdown(rulebook(load_rules("sakura/house/target-score")))
    assert "reaches 500" in target


@pytest.mark.parametrize(
    ("parent", "house", "expected"),
    [
        ("koikoi", "koikoi/house/oya-ken", ["step oya_ken: added: Oya-ken"]),
        ("koikoi", "koikoi/house/seven-or-more-doubled", ["x2 on yaku payments if score >= 7"]),
        ("koikoi", "koikoi/house/koi-koi-doubles-stopper", ["if an opponent continued"]),
        ("sakura", "sakura/house/target-score", ["a total of: none (the rounds only) -> 500"]),
        ("sakura", "sakura/house/yaku-25", ["chi value: 50 -> 25"]),
        ("hachihachi", "hachihachi/house/kan-12", ["the unit: 10 points to the kan -> 12",
                                                   "the fee for folding: 10 -> 12"]),
    ],
)  # fmt: skip
def test_diff_of_each_house_file_says_its_changes(
    parent: str, house: str, expected: list[str]
) -> None:
    changes = diff(load_rules(parent), load_rules(house))
    text = render(changes, parent, house)
    for words in expected:
        assert words in text
    if house != "hachihachi/house/kan-12" and house != "sakura/house/yaku-25":
        # one change of the rules, besides the `game ... variant` line every house file restates
        assert len([c for c in changes if c.section != "game"]) == 1


def test_diff_says_a_split_table_and_a_flat_entry(tmp_path: Path) -> None:
    path = write(tmp_path, HACHI + "dekiyaku split between payers\n  poetry_ribbons; flat\n")
    text = render(diff(load_rules("hachihachi"), load_rules(path)), "a", "b")
    assert "an entry of the yaku is a total split between its payers: no -> yes" in text
    assert "flat (not multiplied by the field)" in text
