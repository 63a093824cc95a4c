"""A comparison as a document: a self-contained HTML or Markdown report that opens with a
summary a player reads in ten seconds (rulekit.sim.summary), the verdict in words and what
differs in the rules, then the tables (paired differences with their intervals, verdicts after
a multiple-testing correction) and the plots (drawn with matplotlib, embedded as images, axes
labelled); and the plots alone as one PNG. Text from rule files (titles, labels) is shown as
written everywhere: escaped for HTML and Markdown, and never read as math by matplotlib."""

from __future__ import annotations

import base64
import html
import io
import math
import re
from pathlib import Path
from typing import Any

from rulekit.errors import UsageError
from rulekit.output import check_writable, write_atomic
from rulekit.sim.exercise import across_warning, warning
from rulekit.sim.simulate import MAX_COUNT
from rulekit.sim.summary import corrected, summary
from rulekit.sim.summary import variant_names as variant_names  # where callers have read it

# A report's suffix and its format.
REPORT_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown"}
PLOT_SUFFIX = ".png"

LABELS = {
    "teyaku": "rounds with a teyaku (share)",
    "turns": "turns per round",
    "by_yaku": "rounds ended by yaku (share)",
    "by_count": "rounds ended by the count (share)",
    "decisiveness": "decisiveness (largest payment share)",
    "swing": "swing (mean absolute net of a seat)",
    "continued": "continues per round",
    "paid_off": "continues that paid off, per round",
    "folds": "voluntary folds per round",
    "swaps": "hand swaps per round",
    "hikis": "hiki declared per round",
    "fairness": "fairness (best - worst seat)",
    "spread": "spread (sd of a seat's net)",
}


SMALL = 30  # a rate from fewer events than this shows its count
NET_X = "net score of a seat in a round (points)"
NET_Y = "share of seat-rounds at or below (ECDF)"


def _label(figure: str) -> str:
    """A paired figure's name for a person ("position 1" is the seat after the dealer)."""
    if figure.startswith("position "):
        k = int(figure.split()[1])
        return "dealer's net per round" if k == 0 else f"dealer + {k}'s net per round"
    return LABELS.get(figure, figure)


def _sig(d: dict[str, Any]) -> list[str]:
    """A difference and its verdict, as two cells."""
    ci = d.get("ci95")
    if ci is None:
        return [f"{d['mean']:+.3f}", "too few rounds to say"]
    verdict = "significant" if corrected(d) else "not significant"
    if "p_adjusted" in d and (ci > 0 or d["mean"] != 0):
        verdict += f" (adjusted p {_p(d['p_adjusted'])})"
    elif ci == 0 and d["mean"] == 0:
        verdict = "identical in every round"
    return [f"{d['mean']:+.3f} ± {ci:.3f}", verdict]


def _p(x: float) -> str:
    return "< 0.001" if x < 0.001 else f"{x:.3f}"


def _ci(mean: float, ci: float | None, fmt: str = ".2f") -> str:
    return f"{mean:{fmt}}" + (f" ± {ci:{fmt}}" if ci is not None else "")


def _share(x: float, rounds: int, count: int | None = None) -> str:
    """A share with its 95% interval (normal approximation), and its count when small."""
    n = round(x * rounds) if count is None else count
    half = 1.959964 * math.sqrt(max(x * (1 - x), 0.0) / rounds) if rounds > 1 else None
    text = f"{x:.1%}" + (f" ± {half:.1%}" if half is not None else "")
    return text + (f" ({n} of {rounds})" if n < SMALL else "")


Table = tuple[str, list[str], list[list[str]]]  # title, header, rows


def tables(result: dict[str, Any]) -> list[Table]:
    """Every table, as the terminal shows them: the summary's sentences first (one a row), then
    the report's tables."""
    said = [[s["text"]] for s in summary(result)]
    return [("Summary", ["in short (95% confidence intervals)"], said), *report_tables(result)]


def report_tables(result: dict[str, Any]) -> list[Table]:
    """The report's tables: the figures per variant, the paired differences, the entries."""
    vs = result["variants"]
    names = variant_names(result)
    out = [("Figures per variant", ["", *names], _figure_rows(vs))]
    seats = len(vs[0]["position"])
    rows = []
    for k in range(seats):
        label = "dealer" if k == 0 else f"dealer + {k}"
        rows.append([label, *[_pm(v["position"][k]) for v in vs]])
    out.append(("Mean net score per seat position (dealer advantage)", ["position", *names], rows))
    for i, d in enumerate(result["differences"], start=1):
        paired = {**d["figures"], "fairness": d["fairness"], "spread": d["spread"]}
        # Significant differences first: they are what the comparison found.
        order = sorted(paired, key=lambda k: not corrected(paired[k]))
        rows = [[_label(k), *_sig(paired[k])] for k in order]
        against = f"{names[i]} against {names[0]}"
        mechanics = d.get("mechanics")
        if mechanics and mechanics["differing"]:
            out.append(_mechanics_table(mechanics, against, names[0], names[i]))
        out.append(
            (
                f"{against}: paired differences",
                ["figure", "difference (95% CI)", "verdict"],
                rows,
            )
        )
        for kind in ("teyaku", "yaku"):
            entries = d.get(kind) or {}
            if entries:
                out.append(
                    (
                        f"{against}: paired differences per {kind}",
                        [kind, "made per round (95% CI)", "verdict", "paid per round (95% CI)",
                         "verdict"],
                        _named_rows(entries),
                    )
                )  # fmt: skip
    for key in ("teyaku", "yaku"):
        rows = [
            [
                label,
                *[_frequency(e, v["rounds"]) if e else "-" for e, v in zip(es, vs, strict=True)],
            ]
            for label, es in by_rule(result, key)
        ]
        if rows:
            out.append(
                (f"{key.capitalize()}: frequency per round / average payment", [key, *names], rows)
            )
    return out


def by_rule(result: dict[str, Any], key: str) -> list[tuple[str, list[dict[str, Any] | None]]]:
    """Each teyaku or yaku (`key`) made in some variant, with its entry in each variant (None:
    not made there), by its labels: an entry a variant renames alike is one rule, under the
    first variant's name and both labels (`Blue ribbons (aotan) / Blue Poems`)."""
    vs = result["variants"]
    as_first: list[dict[str, str]] = [{}]
    labels: dict[str, str] = {}
    for d in result["differences"]:
        renamed = [r for r in d.get("renamed") or [] if r["kind"] == key]
        as_first.append({r["as"]: r["name"] for r in renamed})
        labels.update({r["name"]: f"{r['label']} / {r['as_label']}" for r in renamed})
    rows: dict[str, list[dict[str, Any] | None]] = {}
    for i, v in enumerate(vs):
        for name, e in v[key].items():
            rows.setdefault(as_first[i].get(name, name), [None] * len(vs))[i] = e
    out = []
    for name in sorted(rows):
        said = [e.get("label", name) for e in rows[name] if e]
        out.append((labels.get(name) or " / ".join(dict.fromkeys(said)), rows[name]))
    return out


def _mechanics_table(
    mechanics: dict[str, Any], against: str, base: str, other: str
) -> tuple[str, list[str], list[list[str]]]:
    """How often the bots exercised each rule that differs (taken / offered, per variant)."""
    rows = []
    for key, r in mechanics["differing"].items():
        pairs = zip(r["taken"], r["offered"], strict=True)
        cells = [f"{t} {r['taken_as']} / {o} offered" for t, o in pairs]
        seen = "NEVER EXERCISED" if key in mechanics["unseen"] else "exercised"
        rows.append([r["label"], *cells, seen])
    header = ["rule that differs", base, other, "seen by the bots"]
    return (f"{against}: the differing rules, as the bots exercised them", header, rows)


def warnings(result: dict[str, Any]) -> list[str]:
    """One warning per comparison whose differing rules the bots never exercised."""
    out = []
    for d in result["differences"]:
        mechanics = d.get("mechanics") or {}
        said = warning(mechanics, result["rounds"], advice(result, _offered(mechanics)))
        if said:
            out.append(f"{d['rules']} against {d['against']}: {said}")
        across = across_warning(mechanics)
        if across:
            out.append(f"{d['rules']} against {d['against']}: {across}")
    return out


def _offered(mechanics: dict[str, Any]) -> bool:
    """Whether a rule the bots never exercised was offered to them (they chose not to)."""
    rows = mechanics.get("differing") or {}
    return any(sum(rows[k]["offered"]) for k in mechanics.get("unseen") or [] if k in rows)


def advice(result: dict[str, Any], offered: bool = True) -> str:
    """What the comparison can try to see more, and only that: other bots, when the bots were
    offered the choice and declined it; more rounds, below the most there can be; another
    table size, one that every variant seats."""
    tries = ["other bots (--bots)"] if offered else []
    if result["rounds"] < MAX_COUNT:
        tries.append("more rounds (--rounds)")
    sizes = other_sizes(result)
    if sizes:
        tries.append(f"another table size (--seats {_numbers(sizes)})")
    if not tries:
        return ""
    return "Try " + (", ".join(tries[:-1]) + " or " if len(tries) > 1 else "") + tries[-1] + "."


def other_sizes(result: dict[str, Any]) -> list[int]:
    """The table sizes other than the comparison's that every variant seats (none known for a
    result without the variants' sizes)."""
    allowed = [v.get("seats_allowed") for v in result["variants"]]
    if not all(allowed):
        return []
    low = max(a[0] for a in allowed if a)
    high = min(a[1] for a in allowed if a)
    return [n for n in range(low, high + 1) if n != result["seats"]]


def _numbers(ns: list[int]) -> str:
    """`4`, `4 to 6`, or `3, 5, 6`."""
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]}"
    return ", ".join(str(n) for n in ns)


def _figure_rows(vs: list[dict[str, Any]]) -> list[list[str]]:
    """Each variant's whole-run figures, with the intervals the result has."""

    def ended(v: dict[str, Any], *how: str) -> str:
        return _share(sum(v["ended_by"].get(h, 0) for h in how), v["rounds"])

    return [
        ["rounds (void deals redealt)", *[f"{v['rounds']} ({v['voids']})" for v in vs]],
        ["rounds ended by yaku", *[ended(v, "yaku") for v in vs]],
        ["rounds ended by the count", *[ended(v, "count") for v in vs]],
        ["rounds drawn or won at once", *[ended(v, "draw", "instant") for v in vs]],
        ["rounds with a teyaku", *[_share(v["rounds_with_teyaku"], v["rounds"]) for v in vs]],
        ["turns per round", *[f"{v['turns']:.1f}" for v in vs]],
        ["continued (per round)", *[f"{v['continuation']['per_round']:.3f}" for v in vs]],
        ["continues that paid off", *[_paid_off(v["continuation"]) for v in vs]],
        ["spread (sd of a seat's net)", *[_ci(v["spread"]["value"], v["spread"]["ci95"], ".1f")
                                          for v in vs]],
        ["fairness (best - worst seat)", *[_ci(v["fairness"]["value"], v["fairness"]["ci95"])
                                           for v in vs]],
        ["decisiveness (largest payment share)",
         *[_share_ci(v["decisiveness"]) for v in vs]],
    ]  # fmt: skip


def _share_ci(m: dict[str, Any]) -> str:
    ci = m.get("ci95")
    return f"{m['mean']:.1%}" + (f" ± {ci:.1%}" if ci is not None else "")


def _paid_off(c: dict[str, Any]) -> str:
    if c["paid_off_rate"] is None:
        return "-"
    return _share(c["paid_off_rate"], c["continued"], c["paid_off"])


def _frequency(e: dict[str, Any], rounds: int) -> str:
    count = f" ({e['count']})" if e["count"] < SMALL else ""
    return f"{e['per_round']:.4f}{count} / {e['average_payment']:.1f}"


def _named_rows(entries: dict[str, Any]) -> list[list[str]]:
    """Per entry: the paired difference in how often it is made and in what it pays, the
    significant first; the entries identical in every round share one last row."""

    def same(n: str) -> bool:
        return all(
            entries[n][k]["mean"] == 0 and not entries[n][k]["ci95"]
            for k in ("per_round", "paid_per_round")
        )

    differ = sorted(
        (n for n in entries if not same(n)),
        key=lambda n: (
            not any(corrected(entries[n][k]) for k in ("per_round", "paid_per_round")),
            entries[n]["label"],
        ),
    )
    rows = [
        [entries[n]["label"], *_sig(entries[n]["per_round"]), *_sig(entries[n]["paid_per_round"])]
        for n in differ
    ]
    alike = sorted(entries[n]["label"] for n in entries if same(n))
    if alike:
        rows.append([", ".join(alike), "0", "identical in every round", "0", ""])
    return rows


def _pm(m: dict[str, Any]) -> str:
    return _ci(m["mean"], m.get("ci95")) if m["mean"] < 0 else "+" + _ci(m["mean"], m.get("ci95"))


# ---------------------------------------------------------------- words


def changes(result: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """What differs in the rules, for each variant against the first: (heading, sentences)."""
    names = variant_names(result)
    out = []
    for i, d in enumerate(result["differences"], start=1):
        said = [c["text"] for c in d.get("changes", [])]
        out.append((f"{names[i]} against {names[0]}", said or ["the rules are the same"]))
    return out


def verdict(result: dict[str, Any]) -> str:
    """The finding in one paragraph: which figures differ beyond chance, after correction."""
    names = variant_names(result)
    parts = warnings(result)
    for i, d in enumerate(result["differences"], start=1):
        found = _findings(d)
        rules = d.get("rules_changed", len(d.get("changes", [])))
        changed = (
            f"changes {rules} rule{'s' if rules != 1 else ''}" if rules else "has the same rules"
        )
        tested = d.get("correction", {}).get("figures")
        if found:
            parts.append(
                f"{names[i]} {changed} against {names[0]}, and it plays differently: "
                + "; ".join(found)
                + "."
            )
        elif tested == 0:
            parts.append(
                f"{names[i]} {changed} against {names[0]}, and plays exactly alike: every"
                " figure is identical round by round."
            )
        else:
            parts.append(
                f"{names[i]} {changed} against {names[0]}, and no figure differs beyond"
                f" chance in {result['rounds']} rounds (more rounds may show a smaller effect)."
            )
    return " ".join(parts)


def _findings(d: dict[str, Any]) -> list[str]:
    """The corrected significant differences in words, largest evidence first."""
    rows: list[tuple[float, str]] = []
    figures = {**d["figures"], "fairness": d["fairness"], "spread": d["spread"]}
    for k, f in figures.items():
        if corrected(f):
            rows.append((f.get("p_adjusted", 0.0), f"{_label(k)} {_move(f)}"))
    for kind in ("teyaku", "yaku"):
        for e in (d.get(kind) or {}).values():
            for key, what in (
                ("per_round", "made per round"),
                ("paid_per_round", "paid per round"),
            ):
                if corrected(e[key]):
                    rows.append(
                        (e[key].get("p_adjusted", 0.0), f"{e['label']} {what} {_move(e[key])}")
                    )
    return [text for _, text in sorted(rows)[:6]] + (
        [f"and {len(rows) - 6} more"] if len(rows) > 6 else []
    )


def _move(f: dict[str, Any]) -> str:
    ci = f.get("ci95") or 0.0
    way = "rises" if f["mean"] > 0 else "falls"
    return f"{way} by {abs(f['mean']):.3g} (± {ci:.2g})"


def correction_note(result: dict[str, Any]) -> str:
    """How many figures were tested, and how chance findings are kept out."""
    notes = [d.get("correction") for d in result["differences"]]
    tested = sum(n["figures"] for n in notes if n)
    identical = sum(n.get("identical", 0) for n in notes if n)
    method = (
        "Holm's step-down method"
        if all(n and n["method"] == "holm" for n in notes)
        else ("no correction")
    )
    return (
        f"Multiple testing: {tested} paired figures were tested (figures identical in every"
        f" round, {identical} of them, are not tests). With that many, some would pass a plain"
        " 5% test by chance alone, so the p-values are adjusted by "
        f"{method}: a figure is called significant only if its adjusted p-value is below 0.05,"
        " which keeps the chance of any false finding among them at 5%."
    )


# ---------------------------------------------------------------- plots


def _net_ecdf(ax: Any, result: dict[str, Any]) -> None:
    """The net-score distribution of each variant as an empirical CDF: a step per variant, so
    that shifts and tails compare by eye."""
    for v, name in zip(result["variants"], variant_names(result), strict=True):
        hist = {int(k): n for k, n in v["histogram"].items()}
        xs = sorted(hist)
        total = sum(hist.values()) or 1
        ys, running = [], 0
        for x in xs:
            running += hist[x]
            ys.append(running / total)
        ax.step(xs, ys, where="post", label=literal(name))
    ax.set_xlabel(NET_X)
    ax.set_ylabel(NET_Y)
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.set_title("Distribution of net score (ECDF)")
    ax.legend(loc="lower right")  # (an ECDF rises left to right; "best" searches the data)


# A plot: its title, its axis labels, and the PNG.
Plot = tuple[str, str, str, bytes]


YAKU_X, YAKU_Y = "made per round", "yaku"
DEALER_X, DEALER_Y = "seat position", "mean net per round (95% CI)"


def _yaku_bars(ax: Any, result: dict[str, Any]) -> None:
    """How often each yaku is made, a bar per variant (a renamed one is one rule)."""
    names = variant_names(result)
    made = by_rule(result, "yaku")
    height = 0.8 / len(names)
    for i, name in enumerate(names):
        ax.barh(
            [k + i * height for k in range(len(made))],
            [(es[i] or {}).get("per_round", 0) for _, es in made],
            height,
            label=literal(name),
        )
    ticks = [k + 0.4 - height / 2 for k in range(len(made))]
    ax.set_yticks(ticks, [literal(label) for label, _ in made])
    ax.set_xlabel(YAKU_X)
    ax.set_ylabel(YAKU_Y)
    ax.set_title("Yaku frequency")
    ax.legend(loc="lower right")


def _dealer_bars(ax: Any, result: dict[str, Any]) -> None:
    """The mean net of each seat position with its interval, a bar per variant."""
    vs = result["variants"]
    seats = len(vs[0]["position"])
    width = 0.8 / len(vs)
    for i, (v, name) in enumerate(zip(vs, variant_names(result), strict=True)):
        means = [p["mean"] for p in v["position"]]
        errors = [p["ci95"] or 0 for p in v["position"]]
        ax.bar(
            [k + i * width for k in range(seats)],
            means,
            width,
            yerr=errors,
            capsize=4,
            label=literal(name),
        )
    ax.set_xticks(
        [k + 0.4 - width / 2 for k in range(seats)],
        ["dealer" if k == 0 else f"dealer+{k}" for k in range(seats)],
    )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel(DEALER_X)
    ax.set_ylabel(DEALER_Y)
    ax.set_title("Dealer advantage")
    ax.legend(loc="upper right")


def plots(result: dict[str, Any]) -> list[Plot]:
    """The plots with their axis labels: net-score ECDF, yaku frequency, dealer advantage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    _net_ecdf(ax, result)
    out = [("Distribution of net score per variant (ECDF)", NET_X, NET_Y, _png(fig, plt))]
    made = len(by_rule(result, "yaku"))
    if made:
        fig, ax = plt.subplots(figsize=(8, max(3, 0.3 * made + 1)))
        _yaku_bars(ax, result)
        out.append(("Yaku frequency", YAKU_X, YAKU_Y, _png(fig, plt)))
    fig, ax = plt.subplots(figsize=(8, 4))
    _dealer_bars(ax, result)
    title = "Dealer advantage, with 95% confidence intervals"
    out.append((title, DEALER_X, DEALER_Y, _png(fig, plt)))
    return out


def literal(text: str) -> str:
    """Text from a rule file as matplotlib draws it as written: a `$` escaped (else `$5 $bonus`
    is read as math, and `$x^$` fails to draw), a leading `_` kept (else the legend drops it)."""
    text = text.replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text


def figures(result: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The plots, as PNG images, with their titles."""
    return [(title, png) for title, _, _, png in plots(result)]


def _png(fig: Any, plt: Any) -> bytes:
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()


def _heading(result: dict[str, Any]) -> str:
    return (
        f"{result['rounds']} rounds of each variant on the same deals, {result['seats']} seats, "
        f"bots {', '.join(result['bots'])}, seed {result['seed']}; 95% confidence intervals."
    )


def _title(result: dict[str, Any]) -> str:
    names = variant_names(result)
    return f"Comparing {names[0]} with {', '.join(names[1:])}"


def _files(result: dict[str, Any]) -> str:
    return "Rule files: " + "; ".join(
        f"{n}: {v['rules']}" for n, v in zip(variant_names(result), result["variants"], strict=True)
    )


def to_html(result: dict[str, Any]) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(_title(result))}</title>",
        "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
        "#verdict{font-size:1.1em;background:#f4f7fb;padding:.8em;border-left:4px solid #36c}"
        "#summary li{margin:.3em 0}figcaption{color:#555;font-size:.9em}</style>",
        # On load, the page notes how many images decoded and how many tables it holds
        # (the browser test reads them).
        "<script>window.addEventListener('load',function(){var b=document.body;"
        "b.dataset.images=Array.prototype.filter.call(document.images,"
        "function(i){return i.complete&&i.naturalWidth>0}).length;"
        "b.dataset.tables=document.querySelectorAll('table').length;});</script>",
        "</head><body>",
        f"<h1>{e(_title(result))}</h1>",
        f"<p>{e(_heading(result))}</p>",
        "<section id='summary'><h2>Summary</h2><ul>",
        *[f"<li data-topic='{e(s['topic'])}'>{e(s['text'])}</li>" for s in summary(result)],
        "</ul></section>",
        f"<section><h2>Verdict</h2><p id='verdict'>{e(verdict(result))}</p>",
        f"<p id='correction'>{e(correction_note(result))}</p></section>",
        "<section id='changes'><h2>What differs</h2>",
    ]
    for heading, said in changes(result):
        parts.append(f"<h3>{e(heading)}</h3><ul>")
        parts.extend(f"<li>{e(line)}</li>" for line in said)
        parts.append("</ul>")
    parts += ["</section>", f"<p><small>{e(_files(result))}</small></p>"]
    for title, header, rows in report_tables(result):
        parts.append(f"<h2>{e(title)}</h2><table><tr>")
        parts.extend(f"<th>{e(h)}</th>" for h in header)
        parts.append("</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    for title, x_label, y_label, png in plots(result):
        data = base64.b64encode(png).decode()
        parts.append(
            f"<figure data-x-label='{e(x_label)}' data-y-label='{e(y_label)}'>"
            f"<h2>{e(title)}</h2><img alt='{e(title)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>x axis: {e(x_label)}; y axis: {e(y_label)}</figcaption></figure>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


# Markdown that text from a rule file could start by accident: emphasis, code, links, tags,
# entities, table cells, a heading's closing `#`, math (`$5 $bonus`), strikethrough. A `_`
# inside a word is no emphasis and stays (`simple_16`); `<` and `&` only where they could open
# a tag or an entity.
_MD_INLINE = re.compile(r"[\\`*\[\]|$~#]|(?<![^\W_])_|_(?![^\W_])|<(?=[^\s\d=])|&(?=[#A-Za-z])")
# What makes a paragraph a heading, a quote, a list or a rule: the mark to escape at its start.
_MD_BLOCK = re.compile(r"^(\s*(?:\d+(?=[.)]))?)([#>+=.)-])")


def md(text: str) -> str:
    """Text as Markdown shows it as written, inside a line (a table cell, a heading)."""
    return _MD_INLINE.sub(lambda m: "\\" + m.group(0), text)


def md_block(text: str) -> str:
    """Text as Markdown shows it as written, as a paragraph or a list item of its own."""
    return _MD_BLOCK.sub(lambda m: m.group(1) + "\\" + m.group(2), md(text))


def to_markdown(result: dict[str, Any]) -> str:
    out = [f"# {md(_title(result))}", "", md_block(_heading(result)), "", "## Summary", ""]
    out += [f"- {md_block(s['text'])}" for s in summary(result)]
    out += ["", "## Verdict", "", md_block(verdict(result)), "", md_block(correction_note(result))]
    out += ["", "## What differs", ""]
    for heading, said in changes(result):
        out += [f"### {md(heading)}", "", *[f"- {md_block(line)}" for line in said], ""]
    out += [md_block(_files(result)), ""]
    for title, header, rows in report_tables(result):
        out += [
            f"## {md(title)}",
            "",
            "| " + " | ".join(md(h) for h in header) + " |",
            "|" + "|".join("---" for _ in header) + "|",
        ]
        out += ["| " + " | ".join(md(c) for c in row) + " |" for row in rows]
        out.append("")
    for title, x_label, y_label, png in plots(result):
        out += [
            f"## {md(title)}",
            "",
            f"![{md(title)}](data:image/png;base64,{base64.b64encode(png).decode()})",
            "",
            md_block(f"x axis: {x_label}; y axis: {y_label}"),
            "",
        ]
    return "\n".join(out)


def check_outputs(report: Path | None = None, plot: Path | None = None) -> None:
    """Refuse, before a comparison runs, a report or plot path that could not be written: the
    wrong suffix, a folder that does not exist or takes no files."""
    if report is not None:
        _format(report)
        check_writable(report)
    if plot is not None:
        _check_plot(plot)
        check_writable(plot)


def _check_plot(path: Path) -> None:
    if path.suffix.lower() != PLOT_SUFFIX:
        raise UsageError(
            f"the plots are a PNG image: FILE{PLOT_SUFFIX}, not '{path}'",
            hint=f"for example: {path.with_suffix(PLOT_SUFFIX)}",
        )


def _format(path: Path) -> str:
    found = REPORT_FORMATS.get(path.suffix.lower())
    if found is None:
        raise UsageError(
            f"a report is FILE.html or FILE.md, not '{path}'",
            hint="suffixes: " + ", ".join(REPORT_FORMATS),
        )
    return found


def write_report(result: dict[str, Any], path: Path) -> None:
    """The report as HTML or Markdown, chosen by the file's suffix; written whole or not."""
    text = to_html(result) if _format(path) == "html" else to_markdown(result)
    write_atomic(path, text)


def write_plot(result: dict[str, Any], path: Path) -> None:
    """The three plots stacked in one PNG."""
    _check_plot(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    images = [mpimg.imread(io.BytesIO(png), format="png") for *_, png in plots(result)]
    fig, axes = plt.subplots(len(images), 1, figsize=(8, 4 * len(images)))
    for ax, img in zip(axes, images, strict=True):
        ax.imshow(img)
        ax.axis("off")
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    write_atomic(path, buffer.getvalue())
