"""The compare report reads as a finding: what differs, a verdict, intervals everywhere, counts
behind small rates, per-entry paired rows, and Holm's correction so that a variant against
itself (or chance) flags nothing."""

from __future__ import annotations

import html
import itertools
import json
import math
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulekit.cli import cli
from rulekit.lang import load_rules
from rulekit.sim.compare import compare
from rulekit.sim.report import (
    NET_X,
    NET_Y,
    _dealer_bars,
    _net_ecdf,
    _yaku_bars,
    md,
    md_block,
    to_html,
    to_markdown,
    variant_names,
    verdict,
)
from rulekit.sim.summary import significance, summary
from rulekit.stats.moments import Moments
from rulekit.stats.significance import holm, p_value, t_two_sided
from tests.conftest import rules
from tests.test_compare import HOUSE


def test_a_variant_against_itself_flags_nothing_after_correction() -> None:
    result = CliRunner().invoke(
        cli, ["compare", "hachihachi", "hachihachi", "--rounds", "2000", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    d = json.loads(result.stdout)["differences"][0]
    tested = [*d["figures"].values(), d["fairness"], d["spread"]]
    for kind in ("teyaku", "yaku"):
        assert d[kind]  # per-entry paired rows are there
        for row in d[kind].values():
            tested += [row["per_round"], row["paid_per_round"]]
    assert len(tested) > 30
    assert not any(t["significant_corrected"] or t["significant"] for t in tested)
    assert d["correction"]["method"] == "holm" and d["changes"] == []


def test_holm_keeps_chance_findings_out_under_a_simulated_null() -> None:
    """Independent null differences: a plain 5% test flags about 5% of figures, and a family of
    40 almost always has one; after Holm a family has a false finding about 5% of the time."""
    rng = random.Random(7)
    families, figures, raw_any, corrected_any, raw_count = 200, 40, 0, 0, 0
    for _ in range(families):
        ps = []
        for _ in range(figures):
            m = Moments()
            for _ in range(60):
                m.add(rng.gauss(0, 1))
            ps.append(p_value(m.mean, m.ci95, m.n - 1))
        raw = sum(p < 0.05 for p in ps)
        raw_count += raw
        raw_any += raw > 0
        corrected_any += any(p < 0.05 for p in holm(ps))
    assert 0.03 < raw_count / (families * figures) < 0.07
    assert raw_any / families > 0.8
    assert corrected_any / families < 0.1


def test_t_tail_matches_the_table() -> None:
    assert math.isclose(t_two_sided(2.093, 19), 0.05, abs_tol=2e-4)
    assert math.isclose(t_two_sided(12.706, 1), 0.05, abs_tol=2e-4)
    assert math.isclose(t_two_sided(1.96, 10_000), 0.05, abs_tol=2e-4)
    assert t_two_sided(0, 5) == 1.0
    assert p_value(0.0, 0.0, 10) == 1.0 and p_value(1.0, 0.0, 10) == 0.0
    assert p_value(1.0, None, 10) == 1.0


@settings(deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_never_lowers_a_p_value_and_keeps_the_order(ps: list[float]) -> None:
    adjusted = holm(ps)
    assert all(a >= p and a <= 1 for a, p in zip(adjusted, ps, strict=True))
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    assert all(adjusted[i] <= adjusted[j] for i, j in itertools.pairwise(order))


def _house_result(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    path = tmp_path / "house.rk"
    path.write_text(HOUSE, encoding="utf-8")
    return compare(
        [rules("hachihachi"), load_rules(path)], ["hachihachi", str(path)], rounds=600, seed=1
    )


def test_the_report_opens_with_the_summary_the_verdict_and_the_diff_by_title(
    tmp_path: Path,
) -> None:
    result = _house_result(tmp_path)
    md = to_markdown(result)
    names = variant_names(result)
    assert names == ["Hachi-Hachi (Fudawiki) (hachihachi)", "Hachi-Hachi (Fudawiki) (house)"]
    order = ["## Summary", "## Verdict", "## What differs", "## Figures per variant"]
    assert [md.index(h) for h in order] == sorted(md.index(h) for h in order)
    assert "- triple value: 10 -> 12" in md
    said = verdict(result)
    assert "changes 2 rules" in said and "Red (aka) made per round falls" in said
    assert "\n\n" not in said  # one paragraph
    assert "Holm" in md and "tested" in md
    assert str(tmp_path) not in md.split("Rule files:")[0]  # by title, not by path
    summary = md[md.index("## Figures per variant") :].split("\n\n")[1]
    assert re.search(r"spread .*\| [\d.]+ ± [\d.]+ \|", summary)  # the JSON's CIs kept
    assert re.search(r"fairness .*\| [\d.]+ ± [\d.]+ \|", summary)
    assert re.search(r"Haneken \| 0\.\d+ \(1\) /", md)  # a rare rate shows its count
    per_teyaku = md[md.index("paired differences per teyaku") :]
    assert re.search(r"\| Red \(aka\) \| -0\.\d+ ± 0\.\d+ \| significant", per_teyaku)


def test_a_same_title_is_told_apart_without_a_path() -> None:
    result = {"variants": [{"title": "T", "rules": "a/x.rk"}, {"title": "T", "rules": "b/x.rk"}]}
    assert variant_names(result) == ["T (#1)", "T (#2)"]
    result["variants"][1]["title"] = "U"
    assert variant_names(result) == ["T", "U"]


def test_the_net_plot_is_an_ecdf_with_labelled_axes(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = _house_result(tmp_path)
    fig, ax = plt.subplots()
    _net_ecdf(ax, result)
    assert ax.get_xlabel() == NET_X and ax.get_ylabel() == NET_Y
    for line in ax.get_lines():
        ys = list(line.get_ydata())
        assert ys == sorted(ys) and math.isclose(ys[-1], 1.0)  # a CDF rises to 1
    assert [t.get_text() for t in ax.get_legend().get_texts()] == variant_names(result)
    plt.close(fig)


def test_json_keys_are_only_added(tmp_path: Path) -> None:
    result = _house_result(tmp_path)
    for figure in result["differences"][0]["figures"].values():
        assert {"mean", "ci95", "significant", "p_value", "p_adjusted"} <= set(figure)
    for v in result["variants"]:
        for e in v["yaku"].values():
            assert {"count", "per_round", "average_payment", "label"} <= set(e)
    assert {"rounds", "seats", "bots", "seed", "variants", "differences"} <= set(result)
    assert {"section", "what", "before", "after", "text"} <= set(
        result["differences"][0]["changes"][0]
    )
    assert {s["topic"] for s in result["summary"]} >= {"rules", "dealer", "swing", "length"}


# ---------------------------------------------------------------- issue 21: labels as written
DOLLARS = """extends "hachihachi/fudawiki"
game "Hachi-Hachi" variant "$x^$ <b>&amp; _table_"
dekiyaku
  blue_ribbons "$5 $bonus" 35: all of blue
  boar_deer_butterflies "Boar $x^$ *deer* [b](c)" 35: all of boar, deer, butterflies
"""


def _dollar_result(tmp_path: Path) -> tuple[dict, Path]:  # type: ignore[type-arg]
    path = tmp_path / "dollars.rk"
    path.write_text(DOLLARS, encoding="utf-8")
    result = compare([rules("hachihachi"), load_rules(path)], ["a", str(path)], rounds=60, seed=1)
    return result, path


def test_a_dollar_label_renders_literally_in_every_plot_and_in_html(tmp_path: Path) -> None:
    """`$x^$` is not matplotlib math (it failed to draw), and `$5 $bonus` is not read as math:
    every text of every plot is drawn as the rule file writes it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.cbook import is_math_text

    result, _ = _dollar_result(tmp_path)
    title = "Hachi-Hachi ($x^$ <b>&amp; _table_)"
    assert variant_names(result)[1] == title
    for draw in (_net_ecdf, _yaku_bars, _dealer_bars):
        fig, ax = plt.subplots()
        draw(ax, result)
        fig.canvas.draw()  # draws every text: math that does not parse raises here
        texts = [t.get_text() for t in [*ax.get_legend().get_texts(), *ax.get_yticklabels()]]
        assert not any(is_math_text(t) for t in texts)
        shown = [t.replace(r"\$", "$").removeprefix("\u200b") for t in texts]
        assert title in shown
        if draw is _yaku_bars:
            assert "Blue ribbons (aotan) / $5 $bonus" in shown  # relabelled: both labels
            assert "Boar, deer, butterflies (inoshikacho) / Boar $x^$ *deer* [b](c)" in shown
        plt.close(fig)
    page = to_html(result)
    assert "$5 $bonus" in page and "Boar $x^$ *deer* [b](c)" in page
    assert "$x^$ &lt;b&gt;&amp;amp; _table_" in page and "<b>" not in page


def test_a_dollar_label_renders_in_the_cli_report_and_plot(tmp_path: Path) -> None:
    _, path = _dollar_result(tmp_path)
    report, plot, md = tmp_path / "r.html", tmp_path / "r.png", tmp_path / "r.md"
    args = ["compare", "hachihachi", str(path), "--rounds", "60", "--seed", "1"]
    ran = CliRunner().invoke(cli, [*args, "--report", str(report), "--plot", str(plot)])
    assert ran.exit_code == 0, ran.output
    assert plot.read_bytes()[:4] == b"\x89PNG" and "$5 $bonus" in report.read_text("utf-8")
    ran = CliRunner().invoke(cli, [*args, "--report", str(md)])
    assert ran.exit_code == 0, ran.output
    assert r"\$5 \$bonus" in md.read_text("utf-8")


def test_a_markdown_report_shows_rule_file_text_as_written(tmp_path: Path) -> None:
    """Rendered by a CommonMark renderer, the Markdown report's labels read as written: no
    emphasis, link, tag or entity made of them, and `$` escaped for renderers with math."""
    markdown_it = pytest.importorskip("markdown_it")
    result, _ = _dollar_result(tmp_path)
    text = to_markdown(result)
    rendered = markdown_it.MarkdownIt("commonmark").enable("table").render(text)
    for label in ("$5 $bonus", "Boar $x^$ *deer* [b](c)", "$x^$ <b>&amp; _table_"):
        assert html.escape(label) in rendered, label
    assert "<em>" not in rendered and "<a href" not in rendered
    assert r"\$5 \$bonus" in text


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40))
def test_markdown_escaping_keeps_any_text_as_written(text: str) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    text = text.strip()
    assume(text)
    block = markdown_it.MarkdownIt("commonmark").render(md_block(text))
    assert block.startswith("<p>") and html.unescape(block[3:].removesuffix("</p>\n")) == text
    cell = (
        markdown_it.MarkdownIt("commonmark")
        .enable("table")
        .render(f"| x |\n|---|\n| {md(text)} |\n")
    )
    found = re.search(r"<td>(.*)</td>", cell)
    assert found is not None and html.unescape(found.group(1)) == text
    heading = markdown_it.MarkdownIt("commonmark").render(f"## {md(text)}")
    assert html.unescape(heading.removeprefix("<h2>").removesuffix("</h2>\n")) == text


# ---------------------------------------------------------------- issue 21: the summary
def _four_seats() -> dict:  # type: ignore[type-arg]
    variants = [rules("hachihachi"), rules("hachihachi/wikipedia-draft")]
    return compare(variants, ["hachihachi", "wikipedia-draft"], rounds=300, seats=4, seed=1)


def _said(result: dict, topic: str) -> list[str]:  # type: ignore[type-arg]
    return [s["text"] for s in result["summary"] if s["topic"] == topic]


def test_the_summary_sentences_match_the_figures() -> None:
    result = _four_seats()
    assert result["summary"] == summary(result)  # the JSON's summary is the report's
    fudawiki, draft = result["variants"]
    d = result["differences"][0]
    tested = d["correction"]["figures"]
    [rules_said] = _said(result, "rules")
    assert f"changes {d['rules_changed']} rules of Hachi-Hachi (Fudawiki)" in rules_said
    dealer = _said(result, "dealer")
    for v, sentence in zip((fudawiki, draft), dealer, strict=False):
        p = v["position"][0]
        assert sentence.startswith(f"Who gains and loses in {v['title']}: ")
        if p["significant"]:
            way = "gains" if p["mean"] > 0 else "loses"
            assert f"the dealer {way} {abs(p['mean']):.3g} ± {p['ci95']:.2g} points" in sentence
        else:
            assert f"nets {p['mean']:+.3g} ± {p['ci95']:.2g} points a round: no clear edge" in (
                sentence
            )
    f = d["figures"]["position 0"]
    assert dealer[2] == (
        "Against Hachi-Hachi (Fudawiki), Hachi-Hachi (Wikipedia draft) moves the dealer's net by"
        f" {f['mean']:+.3g} ± {f['ci95']:.2g} points a round ({significance(f, tested)})."
    )
    swing = " ".join(_said(result, "swing"))
    for v in (fudawiki, draft):
        assert f"{v['spread']['value']:.3g} ± {v['spread']['ci95']:.2g} points in" in swing
    length = " ".join(_said(result, "length"))
    assert "a game is 12 rounds in both" in length
    for v in (fudawiki, draft):
        assert f"{v['turns']:.3g} ± {v['figures']['turns']['ci95']:.2g} turns" in length
    folds = next(s for s in _said(result, "choices") if s.startswith("Join or fold"))
    taken, offered = fudawiki["choices"]["fold"], fudawiki["choices"]["fold offered"]
    assert f"{taken} of {offered} ({taken / offered:.1%}) in Hachi-Hachi (Fudawiki)" in folds
    f = d["figures"]["folds"]
    assert f"{f['mean']:+.3g} ± {f['ci95']:.2g} folds per round (significant)" in folds
    assert f["significant_corrected"]  # the bots fold more with the draft's rules


def test_the_summary_claims_no_gain_that_its_interval_covers() -> None:
    """Every gain, loss, 'swingier' or 'steadier' said is beyond its interval; a change whose
    interval covers 0 says so, and a raw result that the correction undoes says that."""
    result = _four_seats()
    for s in result["summary"]:
        for amount, ci in re.findall(
            r"(?:gains|loses|by) (\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)", s["text"]
        ):
            assert float(amount) > float(ci), s["text"]
    p = result["variants"][1]["position"][0]
    p.update(mean=3.0, ci95=4.0, significant=False)
    d = result["differences"][0]
    d["spread"].update(mean=5.0, ci95=4.0, significant=True, significant_corrected=False)
    d["figures"]["position 0"].update(mean=2.0, ci95=3.0, significant_corrected=False)
    said = " ".join(s["text"] for s in summary(result))
    assert "the dealer nets +3 ± 4 points a round: no clear edge (the interval covers 0)" in said
    assert "swingier" not in said and "steadier" not in said
    tested = d["correction"]["figures"]
    assert f"+5 ± 4 points (not significant once corrected for testing {tested} figures)" in said
    assert "net by +2 ± 3 points a round (not significant: the interval covers 0)" in said


def test_the_terminal_output_opens_with_the_summary() -> None:
    ran = CliRunner().invoke(
        cli, ["compare", "hachihachi", "hachihachi/kirisame", "--rounds", "40", "--seed", "1"]
    )
    assert ran.exit_code == 0, ran.output
    out = ran.stdout
    assert out.index("Summary") < out.index("Who gains and loses in") < out.index("Figures per")
    assert "the same rule under another name" in out
