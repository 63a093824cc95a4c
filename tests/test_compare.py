"""Comparing variants: common random numbers, paired differences, reports a browser renders,
diff from the IR, exact odds that simulation agrees with, and the Dask backend."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.diff import diff
from rulekit.engine.round import Round
from rulekit.errors import UsageError
from rulekit.lang import load_rules
from rulekit.odds import teyaku_odds
from rulekit.sim.compare import compare
from tests.conftest import compiled, rules

HOUSE = 'extends "hachihachi/fudawiki"\nteyaku\n  triple 12\n  red: ribbons = 2 and plains = 5\n'


def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.rk"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_a_variant_against_itself_differs_by_exactly_nothing() -> None:
    r = rules("hachihachi")
    result = compare([r, r], ["a", "b"], rounds=300, seed=4)
    for figure, d in result["differences"][0]["figures"].items():
        assert d["mean"] == 0 and not d["significant"], figure
    assert result["variants"][0]["position"] == result["variants"][1]["position"]


def test_the_same_deals_and_the_report_of_a_house_rule(tmp_path: Path) -> None:
    result = compare(
        [rules("hachihachi"), load_rules(house(tmp_path))],
        ["fudawiki", "house"],
        rounds=600,
        seed=1,
    )
    a, b = result["variants"]
    assert a["rounds"] == b["rounds"] == 600
    assert a["teyaku"]["three_pairs"]["count"] == b["teyaku"]["three_pairs"]["count"]  # same deals
    assert a["teyaku"]["red"]["count"] > b["teyaku"]["red"]["count"]  # Red is rarer
    # a Triple pays 12 instead of 10: its average payment rises by a fifth
    ratio = b["teyaku"]["triple"]["average_payment"] / a["teyaku"]["triple"]["average_payment"]
    assert ratio == pytest.approx(1.2, rel=0.01)
    d = result["differences"][0]["figures"]
    assert set(d) >= {"position 0", "position 1", "position 2", "teyaku", "turns", "decisiveness"}
    assert d["teyaku"]["significant"] and d["teyaku"]["mean"] < 0
    for v in result["variants"]:
        assert {
            "spread",
            "fairness",
            "decisiveness",
            "continuation",
            "ended_by",
            "histogram",
        } <= set(v)


def test_jobs_give_the_same_comparison_as_one_job() -> None:
    args = dict(rounds=450, seed=9, seats=4)
    one = compare(
        [rules("hachihachi"), rules("hachihachi/wikipedia-draft")], ["a", "b"], jobs=1, **args
    )  # type: ignore[arg-type]
    two = compare(
        [rules("hachihachi"), rules("hachihachi/wikipedia-draft")], ["a", "b"], jobs=2, **args
    )  # type: ignore[arg-type]
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


def test_compare_refuses_what_cannot_be_compared() -> None:
    with pytest.raises(UsageError, match="cannot seat 4"):
        compare([rules("hachihachi"), rules("hachihachi/kirisame")], ["a", "b"], seats=4, rounds=10)
    with pytest.raises(UsageError, match="two variants or more"):
        compare([rules("hachihachi")], ["a"], rounds=10)


def test_compare_command_json_report_and_plot(tmp_path: Path) -> None:
    report, plot = tmp_path / "r.html", tmp_path / "r.png"
    args = ["compare", "hachihachi", str(house(tmp_path)), "--rounds", "300", "--json"]
    result = CliRunner().invoke(cli, [*args, "--report", str(report), "--plot", str(plot)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"rounds", "seats", "bots", "variants", "differences"} <= set(data)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = report.read_text(encoding="utf-8")
    assert text.count("<table>") >= 5 and text.count("data:image/png;base64,") == 3
    md = tmp_path / "r.md"
    CliRunner().invoke(
        cli, ["compare", "hachihachi", str(house(tmp_path)), "--rounds", "200", "--report", str(md)]
    )
    # variants by title (a shared title told apart by the file's name), not by path
    assert md.read_text(encoding="utf-8").startswith(
        "# Comparing Hachi-Hachi (Fudawiki) (hachihachi) with Hachi-Hachi (Fudawiki) (house)"
    )
    bad = CliRunner().invoke(
        cli, ["compare", "hachihachi", "hachihachi", "--rounds", "50", "--report", "x.pdf"]
    )
    assert bad.exit_code == 2 and "FILE.html or FILE.md" in bad.stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs it)")
def test_the_html_report_renders_its_tables_and_images_in_a_browser(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli,
        ["compare", "hachihachi", str(house(tmp_path)), "--rounds", "300", "--report", str(report)],
    )
    assert result.exit_code == 0, result.stderr
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [
                str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom",
                report.as_uri(),
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body[^>]*>", dom.stdout)
    assert body is not None, dom.stdout[:500]
    assert 'data-images="3"' in body.group(0)  # all three plots decoded and laid out
    tables = re.search(r'data-tables="(\d+)"', body.group(0))
    assert tables is not None and int(tables.group(1)) >= 5
    page = dom.stdout
    # it opens with the summary, then the verdict and the correction note, then what differs
    summary = page.index('<section id="summary">')
    changes = page.index("What differs")
    assert "triple value: 10 -&gt; 12" in page and "red condition" in page
    verdict = re.search(r'<p id="verdict">([^<]+)</p>', page)
    assert verdict is not None and summary < verdict.start() < changes < page.index("<table>")
    assert '<li data-topic="dealer">Who gains and loses in ' in page
    assert "Red (aka) made per round falls" in verdict.group(1)  # by label, with its size
    note = re.search(r'<p id="correction">([^<]+)</p>', page)
    assert note is not None and "Holm" in note.group(1) and "tested" in note.group(1)
    # the net-score plot is an ECDF with both axes labelled
    figure = re.search(r'<figure data-x-label="([^"]+)" data-y-label="([^"]+)">', page)
    assert figure is not None and "net score" in figure.group(1) and "ECDF" in figure.group(2)
    assert "x axis: net score" in page
    assert "paired differences per teyaku" in page  # per-teyaku rows with a CI
    assert "/tmp" not in page.split("Rule files:")[0]  # variants by title, not by path


def test_diff_of_a_house_rule_against_its_parent_is_exactly_its_overrides(tmp_path: Path) -> None:
    changes = diff(rules("hachihachi"), load_rules(house(tmp_path)))
    assert [(c.section, c.what, c.before, c.after) for c in changes] == [
        ("teyaku", "red condition", "ribbons >= 2 and rest plain", "ribbons = 2 and plains = 5"),
        ("teyaku", "triple value", "10", "12"),
    ]
    assert diff(rules("hachihachi"), rules("hachihachi")) == []


def test_diff_fudawiki_kirisame_lists_what_the_sources_disagree_on() -> None:
    changes = {
        (c.section, c.what): (c.before, c.after)
        for c in diff(rules("hachihachi"), rules("hachihachi/kirisame"))
    }
    assert changes[("round", "seats.max")] == ("6", "3")
    assert changes[("round", "continuation.paid")] == ("made", "stop")
    assert changes[("round", "continuation.if_unfinished")] == ("keep", "pay_half")
    before, after = changes[("round", "liability")]  # a mechanic added whole: one change
    assert before is None and str(after).startswith("Red Poems, Blue Poems, Four Lights completed")
    assert changes[("yaku", "four_lights value")] == ("50", "120")
    assert ("teyaku", "two_three") in changes and ("yaku", "simple_16") in changes
    assert ("yaku", "boar_deer_butterflies") in changes  # kirisame has no inoshikacho


def test_a_count_by_points_has_no_par_to_differ() -> None:
    """Hana-Awase's additive house file counts points: the par it keeps from the file it
    extends (132 at two players, 88 by default) is no rule of it: the par is gone, not 88."""
    changes = {c.what: c.words for c in diff(rules("hanaawase"), rules("hanaawase/house/additive"))}
    assert changes["count.par"] == "the par of the count: 132 -> none (the count is not by par)"
    assert changes["count.par_at"].endswith("-> none (the count is not by par)")


def test_a_condition_in_the_same_words_over_other_cards_says_which() -> None:
    """Go-Stop's jokers count as plains: `plains >= 10` reads the same, over three more cards
    (it said `plains >= 10 -> plains >= 10`)."""
    there = {c.what: c.sentence() for c in diff(rules("gostop"), rules("gostop/house/jokers"))}
    back = {c.what: c.sentence() for c in diff(rules("gostop/house/jokers"), rules("gostop"))}
    assert there["ten_plains condition"] == (
        "ten_plains condition: plains >= 10 (now also counting bonus_two_1, bonus_two_2,"
        " bonus_three)"
    )
    assert back["ten_plains condition"].endswith(
        "(no longer counting bonus_two_1, bonus_two_2, bonus_three)"
    )


def test_diff_command_markdown() -> None:
    result = CliRunner().invoke(
        cli, ["diff", "sakura", "sakura/round-wins", "--format", "markdown"]
    )
    assert result.exit_code == 0
    assert result.stdout.startswith("# sakura -> sakura/round-wins")
    assert "the count at the end of the round: each scores his card points" in result.stdout


@pytest.mark.parametrize("name", ["hachihachi/fudawiki", "hachihachi/kirisame"])
def test_odds_agree_with_simulation(name: str) -> None:
    odds = teyaku_odds(rules(name))
    assert sum(e["probability"] for e in odds["teyaku"]) + odds["no_teyaku"] == pytest.approx(1)
    c = compiled(name)
    table = c.teyaku
    assert table is not None
    deals = 9000
    seen: dict[str, int] = {}
    received = 0.0
    received_squares = 0.0
    hands = 0
    for i in range(deals):
        rnd = Round(c, 3, 0, seed="odds", deal_no=i)
        if rnd.void:
            continue
        for s in range(3):
            hands += 1
            names = [table.names[k] for k in rnd.teyaku_counted.get(s, ())]
            for n in names:
                seen[n] = seen.get(n, 0) + 1
            got = float(sum(p.amount for p in rnd.ledger if p.payee == s and p.reason == "teyaku"))
            received += got
            received_squares += got * got
    for e in odds["teyaku"]:
        expected = e["probability"] * hands
        if expected < 30:
            continue
        sigma = math.sqrt(hands * e["probability"] * (1 - e["probability"]))
        assert abs(seen.get(e["name"], 0) - expected) < 4 * sigma, e["name"]
    mean = received / hands
    sd = math.sqrt(received_squares / hands - mean * mean)
    assert abs(mean - odds["expected_payment"]) < 4 * sd / math.sqrt(hands)


def test_odds_count_the_instant_wins_exactly() -> None:
    """Go-Stop's chongtong is four of a month among 7 cards of 48: 12 x C(44, 3) hands."""
    odds = teyaku_odds(rules("gostop"))
    (win,) = odds["instant_wins"]
    assert odds["teyaku"] == [] and win["hands"] == 12 * math.comb(44, 3)
    assert win["probability"] == pytest.approx(12 * math.comb(44, 3) / math.comb(48, 7))
    assert odds["any_instant_win"] == win["probability"]
    text = " ".join(CliRunner().invoke(cli, ["odds", "gostop"]).stdout.split())
    assert "instant win" in text and "a hand that wins at once: 0.0022" in text


def test_instant_win_odds_agree_with_dealt_hands() -> None:
    """Koi-Koi's four of a month or four pairs, counted, against 20,000 hands the engine deals."""
    from rulekit.engine.tables import condition_test

    odds = teyaku_odds(rules("koikoi"))
    c = compiled("koikoi")
    test = condition_test(c.rules.instant_wins[0].condition, c.index)
    hands = made = 0
    for i in range(10_000):
        rnd = Round(c, 2, 0, seed="odds", deal_no=i)
        for hand in rnd.initial_hands:
            hands += 1
            made += bool(test(hand & c.index.full, None))
    p = odds["instant_wins"][0]["probability"]
    assert abs(made - p * hands) < 4 * math.sqrt(hands * p * (1 - p))


def test_an_instant_win_that_asks_about_the_field_is_listed_not_counted(tmp_path: Path) -> None:
    house = tmp_path / "house.rk"
    house.write_text(
        'extends "gostop"\ninstant win 3 if a hand has a month of 4 and the field had any of'
        " crane\n"
    )
    odds = teyaku_odds(load_rules(house))
    assert odds["instant_wins"][0]["probability"] is None and odds["any_instant_win"] is None
    assert "asks more than the hand" in " ".join(odds["leaves_out"])


def test_odds_command() -> None:
    result = CliRunner().invoke(cli, ["odds", "hachihachi", "--json"])
    data = json.loads(result.stdout)
    assert data["hands"] == math.comb(48, 7)
    triple = next(e for e in data["teyaku"] if e["name"] == "triple")
    assert triple["probability"] == pytest.approx(0.0549, abs=0.0005)
    # Min-Hwatu deals no hand that scores or wins as dealt
    assert CliRunner().invoke(cli, ["odds", "minhwatu"]).exit_code == 2


def test_the_dask_backend_gives_the_local_numbers() -> None:
    distributed = pytest.importorskip("dask.distributed")
    variants = [rules("hachihachi"), rules("hachihachi/kirisame")]
    local = compare(variants, ["a", "b"], rounds=400, seed=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = compare(
            variants,
            ["a", "b"],
            rounds=400,
            seed=2,
            backend="dask",
            scheduler=cluster.scheduler_address,
        )
    local.pop("seconds")
    remote.pop("seconds")
    assert remote == local


def test_the_dask_backend_needs_a_scheduler() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(UsageError, match="needs --scheduler"):
        compare([rules("hachihachi"), rules("hachihachi")], ["a", "b"], rounds=10, backend="dask")


# ---------------------------------------------------------------- issue 21: renamed alike
RENAMED = """extends "hachihachi/fudawiki"
game "Hachi-Hachi" variant "Our table"
source "the back room"
teyaku
  triple 12
  red "Red"
dekiyaku
  remove blue_ribbons
  blue_poems "Blue Poems" 35: all of blue
"""


def test_renamed_equivalents_are_one_change_in_the_diff() -> None:
    """Kirisame's Blue Poems is Fudawiki's Blue ribbons (all of blue): one rule renamed, its
    value changed; plain `diff` keeps listing a removal and an addition."""
    a, b = rules("hachihachi"), rules("hachihachi/kirisame")
    paired = {c.what: c for c in diff(a, b, pair_renamed=True)}
    assert paired["blue_poems"].naming and paired["blue_poems"].sentence() == (
        "blue_ribbons -> blue_poems: renamed Blue ribbons (aotan) -> Blue Poems"
        " (the same condition: all of blue)"
    )
    assert paired["blue_poems value"].rule == "blue_poems"
    assert (paired["blue_poems value"].before, paired["blue_poems value"].after) == ("35", "84")
    assert "blue_ribbons" not in paired and paired["three"].before == "Triple (sanbon)"
    assert paired["november_plain -> november_dregs"].naming  # a view renamed alike
    assert not any(c.what in ("blue_ribbons", "november_plain") for c in paired.values())
    plain = {c.what for c in diff(a, b)}
    assert {"blue_ribbons", "blue_poems"} <= plain and "blue_poems value" not in plain


def test_renamed_equivalents_are_paired_as_one_rule_in_the_report() -> None:
    from rulekit.sim.report import by_rule, to_markdown

    result = compare([rules("hachihachi"), rules("hachihachi/kirisame")], ["a", "b"], rounds=60)
    d = result["differences"][0]
    assert {"kind": "yaku", "name": "blue_ribbons", "label": "Blue ribbons (aotan)",
            "as": "blue_poems", "as_label": "Blue Poems"} in d["renamed"]  # fmt: skip
    assert "blue_poems" not in d["yaku"]
    row = d["yaku"]["blue_ribbons"]
    assert row["label"] == "Blue ribbons (aotan) / Blue Poems"
    a, b = (v["yaku"] for v in result["variants"])
    made = b["blue_poems"]["per_round"] - a["blue_ribbons"]["per_round"]  # paired, round by round
    assert row["per_round"]["mean"] == pytest.approx(made)
    labels = [label for label, _ in by_rule(result, "yaku")]
    assert "Blue ribbons (aotan) / Blue Poems" in labels
    assert not {"Blue Poems", "Blue ribbons (aotan)"} & set(labels)
    md = to_markdown(result)
    assert "blue\\_poems: added" not in md and "blue\\_ribbons: removed" not in md
    assert "- blue_ribbons -> blue_poems: renamed Blue ribbons (aotan) -> Blue Poems" in md


def test_the_rule_count_leaves_out_the_variants_name_labels_and_renames(tmp_path: Path) -> None:
    """The house file renames the variant, gives a source, relabels Red and renames Blue
    ribbons alike: of its changes only the Triple's value is a rule."""
    from rulekit.sim.report import verdict

    path = tmp_path / "renamed.rk"
    path.write_text(RENAMED, encoding="utf-8")
    result = compare([rules("hachihachi"), load_rules(path)], ["a", "b"], rounds=20, seed=1)
    d = result["differences"][0]
    assert d["rules_changed"] == 1
    assert {c["what"] for c in d["changes"] if c["naming"]} == {
        "variant",
        "red label",
        "blue_poems",
    }
    assert " changes 1 rule against " in verdict(result)
    kirisame = compare([rules("hachihachi"), rules("hachihachi/kirisame")], ["a", "b"], rounds=2)
    k = kirisame["differences"][0]
    assert k["rules_changed"] < len(k["changes"])
    assert not any(c["section"] == "game" and not c["naming"] for c in k["changes"])


def test_no_advice_about_table_sizes_for_a_variant_that_seats_only_3() -> None:
    """Fudawiki's fold is never offered at 3 seats, and kirisame seats only 3: the warning
    says so, but suggests neither another table size nor other bots (none can fold there)."""
    from rulekit.sim.report import warnings

    variants = [rules("hachihachi"), rules("hachihachi/kirisame")]
    result = compare(variants, ["a", "b"], rounds=200)
    assert result["differences"][0]["mechanics"]["unseen"] == ["fold"]  # the bots continued
    [said] = warnings(result)
    assert "CANNOT SEE" in said and said.endswith("Try more rounds (--rounds).")
    assert "table size" not in said and "--seats" not in said and "--bots" not in said


def test_advice_names_the_table_sizes_every_variant_seats(tmp_path: Path) -> None:
    from rulekit.sim.report import warnings

    path = tmp_path / "fee.rk"
    path.write_text('extends "hachihachi/fudawiki"\nfold: fee 20\n', encoding="utf-8")
    result = compare([rules("hachihachi"), load_rules(path)], ["a", "b"], rounds=20)
    [said] = warnings(result)
    assert said.endswith("Try more rounds (--rounds) or another table size (--seats 4 to 6).")
