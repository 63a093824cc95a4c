"""A comparison as a document: a self-contained HTML or Markdown report (tables, and plots drawn
with matplotlib and embedded as images), and the plots alone as one PNG."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from rulekit.errors import UsageError
from rulekit.output import check_writable, write_atomic

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
    "fairness": "fairness (best - worst seat)",
    "spread": "spread (sd of a seat's net)",
}


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
    return [
        f"{d['mean']:+.3f} ± {ci:.3f}",
        "significant" if d["significant"] else "not significant",
    ]


def tables(result: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report's tables: (title, header, rows)."""
    vs = result["variants"]
    names = [f"{v['rules']}" for v in vs]
    out = []
    rows = [
        ["title", *[v["title"] for v in vs]],
        ["rounds (void deals redealt)", *[f"{v['rounds']} ({v['voids']})" for v in vs]],
        ["rounds ended by yaku", *[f"{v['ended_by'].get('yaku', 0):.1%}" for v in vs]],
        ["rounds ended by the count", *[f"{v['ended_by'].get('count', 0):.1%}" for v in vs]],
        [
            "rounds drawn or won at once",
            *[f"{v['ended_by'].get('draw', 0) + v['ended_by'].get('instant', 0):.1%}" for v in vs],
        ],
        ["rounds with a teyaku", *[f"{v['rounds_with_teyaku']:.1%}" for v in vs]],
        ["turns per round", *[f"{v['turns']:.1f}" for v in vs]],
        ["continued (per round)", *[f"{v['continuation']['per_round']:.3f}" for v in vs]],
        ["continues that paid off", *[_rate(v["continuation"]["paid_off_rate"]) for v in vs]],
        ["spread (sd of a seat's net)", *[f"{v['spread']['value']:.1f}" for v in vs]],
        ["fairness (best - worst seat)", *[f"{v['fairness']['value']:.2f}" for v in vs]],
        ["decisiveness (largest payment share)", *[f"{v['decisiveness']['mean']:.1%}" for v in vs]],
    ]
    out.append(("Summary", ["", *names], rows))
    seats = len(vs[0]["position"])
    rows = []
    for k in range(seats):
        label = "dealer" if k == 0 else f"dealer + {k}"
        rows.append([label, *[_pm(v["position"][k]) for v in vs]])
    out.append(("Mean net score per seat position (dealer advantage)", ["position", *names], rows))
    for d in result["differences"]:
        paired = {**d["figures"], "fairness": d["fairness"], "spread": d["spread"]}
        # Significant differences first: they are what the comparison found.
        order = sorted(paired, key=lambda k: not paired[k].get("significant", False))
        rows = [[_label(k), *_sig(paired[k])] for k in order]
        out.append(
            (
                f"{d['rules']} against {d['against']}: paired differences",
                ["figure", "difference (95% CI)", "verdict"],
                rows,
            )
        )
    for key in ("teyaku", "yaku"):
        every = sorted({n for v in vs for n in v[key]})
        if not every:
            continue
        rows = []
        for n in every:
            cells = []
            for v in vs:
                e = v[key].get(n)
                cells.append(f"{e['per_round']:.4f} / {e['average_payment']:.1f}" if e else "-")
            rows.append([n, *cells])
        out.append(
            (f"{key.capitalize()}: frequency per round / average payment", [key, *names], rows)
        )
    return out


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _pm(m: dict[str, Any]) -> str:
    ci = m.get("ci95")
    return f"{m['mean']:+.2f}" + (f" ± {ci:.2f}" if ci is not None else "")


def figures(result: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The plots, as PNG images: distribution of net, yaku frequency, dealer advantage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    vs = result["variants"]
    out = []

    fig, ax = plt.subplots(figsize=(8, 4))
    for v in vs:
        hist = {int(k): n for k, n in v["histogram"].items()}
        xs = sorted(hist)
        total = sum(hist.values())
        ax.plot(xs, [hist[x] / total for x in xs], drawstyle="steps-mid", label=v["rules"])
    ax.set_xlabel("net score of a seat in a round")
    ax.set_ylabel("share of seat-rounds")
    ax.set_title("Distribution of net score")
    ax.set_yscale("log")
    ax.legend()
    out.append(("Distribution of net score per variant", _png(fig, plt)))

    names = sorted({n for v in vs for n in v["yaku"]})
    if names:
        fig, ax = plt.subplots(figsize=(8, max(3, 0.3 * len(names) + 1)))
        height = 0.8 / len(vs)
        for i, v in enumerate(vs):
            ax.barh(
                [k + i * height for k in range(len(names))],
                [v["yaku"].get(n, {}).get("per_round", 0) for n in names],
                height,
                label=v["rules"],
            )
        ax.set_yticks([k + 0.4 - height / 2 for k in range(len(names))], names)
        ax.set_xlabel("per round")
        ax.set_title("Yaku frequency")
        ax.legend()
        out.append(("Yaku frequency", _png(fig, plt)))

    fig, ax = plt.subplots(figsize=(8, 4))
    seats = len(vs[0]["position"])
    width = 0.8 / len(vs)
    for i, v in enumerate(vs):
        means = [p["mean"] for p in v["position"]]
        errors = [p["ci95"] or 0 for p in v["position"]]
        ax.bar(
            [k + i * width for k in range(seats)],
            means,
            width,
            yerr=errors,
            capsize=4,
            label=v["rules"],
        )
    ax.set_xticks(
        [k + 0.4 - width / 2 for k in range(seats)],
        ["dealer" if k == 0 else f"dealer+{k}" for k in range(seats)],
    )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("mean net per round (95% CI)")
    ax.set_title("Dealer advantage")
    ax.legend()
    out.append(("Dealer advantage, with 95% confidence intervals", _png(fig, plt)))
    return out


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


def to_html(result: dict[str, Any]) -> str:
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>rulekit comparison</title>",
        "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}img{max-width:100%}</style>",
        # On load, the page notes how many images decoded and how many tables it holds
        # (the browser test reads them).
        "<script>window.addEventListener('load',function(){var b=document.body;"
        "b.dataset.images=Array.prototype.filter.call(document.images,"
        "function(i){return i.complete&&i.naturalWidth>0}).length;"
        "b.dataset.tables=document.querySelectorAll('table').length;});</script>",
        "</head><body>",
        f"<h1>Comparing {html.escape(' / '.join(v['rules'] for v in result['variants']))}</h1>",
        f"<p>{html.escape(_heading(result))}</p>",
    ]
    for title, header, rows in tables(result):
        parts.append(f"<h2>{html.escape(title)}</h2><table><tr>")
        parts.extend(f"<th>{html.escape(h)}</th>" for h in header)
        parts.append("</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    for title, png in figures(result):
        data = base64.b64encode(png).decode()
        name = html.escape(title)
        parts.append(f"<h2>{name}</h2><img alt='{name}' src='data:image/png;base64,{data}'>")
    parts.append("</body></html>")
    return "\n".join(parts)


def to_markdown(result: dict[str, Any]) -> str:
    out = [
        f"# Comparing {' / '.join(v['rules'] for v in result['variants'])}",
        "",
        _heading(result),
        "",
    ]
    for title, header, rows in tables(result):
        out += [
            f"## {title}",
            "",
            "| " + " | ".join(header) + " |",
            "|" + "|".join("---" for _ in header) + "|",
        ]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    for title, png in figures(result):
        out += [
            f"## {title}",
            "",
            f"![{title}](data:image/png;base64,{base64.b64encode(png).decode()})",
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

    images = [mpimg.imread(io.BytesIO(png), format="png") for _, png in figures(result)]
    fig, axes = plt.subplots(len(images), 1, figsize=(8, 4 * len(images)))
    for ax, img in zip(axes, images, strict=True):
        ax.imshow(img)
        ax.axis("off")
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    write_atomic(path, buffer.getvalue())
