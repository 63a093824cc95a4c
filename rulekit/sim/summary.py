"""A comparison in ten seconds: the few plain sentences that open its report, for a player. Who
gains and who loses (the dealer's edge), how swingy a round is, how long a game and a round
last, and what the players' own choices did. Each sentence is read from figures of the result
(the same ones the report's tables show), and says how sure it is: a difference whose interval
covers 0 is "not significant", never a gain or a loss."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekit.sim.exercise import MECHANICS

# The paired per-round figure of each rule choice (the wild card's target has none).
CHOICE_FIGURES = {"continue": "continued", "fold": "folds", "swap": "swaps", "hiki": "hikis"}


def variant_names(result: dict[str, Any]) -> list[str]:
    """Each variant by its title; two variants with one title are told apart by their rule
    file's name, or by their place on the command line."""
    vs = result["variants"]
    titles = [v["title"] for v in vs]
    out = []
    for i, v in enumerate(vs):
        name = v["title"]
        if titles.count(name) > 1:
            stem = Path(v["rules"]).stem
            stems = [Path(x["rules"]).stem for x, t in zip(vs, titles, strict=True) if t == name]
            name += f" ({stem})" if stems.count(stem) == 1 else f" (#{i + 1})"
        out.append(name)
    return out


def corrected(d: dict[str, Any]) -> bool:
    """A paired difference's verdict after the multiple-testing correction (the raw flag for a
    result made before it)."""
    return bool(d.get("significant_corrected", d.get("significant", False)))


def significance(d: dict[str, Any], tested: int | None = None) -> str:
    """How sure a paired difference is, in words: significant only after the correction;
    `tested`: the number of figures it was corrected among."""
    ci = d.get("ci95")
    if ci is None:
        return "too few rounds to say"
    if ci == 0 and d["mean"] == 0:
        return "identical in every round"
    if corrected(d):
        return "significant"
    if abs(d["mean"]) <= ci:
        return "not significant: the interval covers 0"
    among = f" {tested} figures" if tested else " the figures"
    return f"not significant once corrected for testing{among}"


def summary(result: dict[str, Any]) -> list[dict[str, str]]:
    """The summary's sentences, each with its topic: rules, dealer, swing, length, choices."""
    said: list[tuple[str, str]] = [("rules", s) for s in _rules(result)]
    said += [("dealer", s) for s in _dealer(result)]
    said += [("swing", s) for s in _swing(result)]
    said += [("length", s) for s in _length(result)]
    said += [("choices", s) for s in _choices(result)]
    return [{"topic": topic, "text": text} for topic, text in said]


def _pm(mean: float, ci: float | None, signed: bool = True, scale: float = 1.0) -> str:
    """A figure and its 95% interval: `+3.1 ± 0.8`."""
    text = f"{mean * scale:+.3g}" if signed else f"{mean * scale:.3g}"
    return text + (f" ± {ci * scale:.2g}" if ci is not None else " (no interval)")


def _share(mean: float, ci: float | None) -> str:
    return f"{mean:.1%}" + (f" ± {ci:.1%}" if ci is not None else "")


def _tested(d: dict[str, Any]) -> int | None:
    return (d.get("correction") or {}).get("figures")


def _pairs(result: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Each comparison: the variant, the first variant, and their paired differences."""
    names = variant_names(result)
    return [(names[i], names[0], d) for i, d in enumerate(result["differences"], start=1)]


def _in_each(values: list[str], names: list[str]) -> str:
    """`84 in A, 175 in B`, or `12 in both` when they are all alike."""
    if len(set(values)) == 1:
        return f"{values[0]} in {'both' if len(values) == 2 else 'every variant'}"
    return ", ".join(f"{v} in {n}" for v, n in zip(values, names, strict=True))


# ---------------------------------------------------------------- the sentences


def _rules(result: dict[str, Any]) -> list[str]:
    out = []
    for name, first, d in _pairs(result):
        n = d.get("rules_changed", len(d.get("changes", [])))
        text = (
            f"{name} changes {n} rule{'s' if n != 1 else ''} of {first}"
            if n
            else f"{name} has the same rules as {first}"
        )
        renamed = d.get("renamed") or []
        if renamed:
            r = renamed[0]
            alike = "entry is" if len(renamed) == 1 else "entries are"
            text += (
                f"; {len(renamed)} {alike} the same rule under another name, compared as one"
                f" (such as {r['label']}, called {r['as_label']})"
            )
        out.append(text + ".")
    return out


def _seat(k: int) -> str:
    return "the dealer" if k == 0 else f"dealer + {k}"


def _dealer(result: dict[str, Any]) -> list[str]:
    """Who gains and loses per variant (a seat's net when it differs from 0 beyond chance),
    then how each variant moves the dealer's net against the first."""
    out = []
    for v, name in zip(result["variants"], variant_names(result), strict=True):
        dealer = v["position"][0]
        if dealer["significant"]:
            way = "gains" if dealer["mean"] > 0 else "loses"
            amount = _pm(abs(dealer["mean"]), dealer["ci95"], False)
            said = f"the dealer {way} {amount} points a round"
        else:
            said = (
                f"the dealer nets {_pm(dealer['mean'], dealer['ci95'])} points a round:"
                " no clear edge (the interval covers 0)"
            )
        others = [
            f"{_seat(p['position'])} {'gains' if p['mean'] > 0 else 'loses'}"
            f" {_pm(abs(p['mean']), p['ci95'], False)}"
            for p in v["position"][1:]
            if p["significant"]
        ]
        rest = "; ".join(others) if others else "no other seat's net differs from 0 beyond chance"
        out.append(f"Who gains and loses in {name}: {said}; {rest}.")
    for name, first, d in _pairs(result):
        f = d["figures"].get("position 0")
        if f is not None:
            out.append(
                f"Against {first}, {name} moves the dealer's net by {_pm(f['mean'], f['ci95'])}"
                f" points a round ({significance(f, _tested(d))})."
            )
    return out


def _swing(result: dict[str, Any]) -> list[str]:
    """The spread of a seat's net per round, per variant and as a paired difference."""
    names = variant_names(result)
    values = [_pm(v["spread"]["value"], v["spread"]["ci95"], False) for v in result["variants"]]
    out = [
        "Swing (the standard deviation of a seat's net in a round): "
        + ", ".join(f"{x} points in {n}" for x, n in zip(values, names, strict=True))
        + "."
    ]
    for name, first, d in _pairs(result):
        f = d["spread"]
        verdict = significance(f, _tested(d))
        if corrected(f):
            way = "swingier" if f["mean"] > 0 else "steadier"
            out.append(
                f"{name} is {way} than {first} by {_pm(abs(f['mean']), f['ci95'], False)}"
                f" points ({verdict})."
            )
        else:
            out.append(
                f"The swing of {name} against {first}: {_pm(f['mean'], f['ci95'])} points"
                f" ({verdict})."
            )
    return out


def _length(result: dict[str, Any]) -> list[str]:
    """The rules' game length, and what the rounds measured: turns per round, and the share of
    rounds a yaku ends before the count."""
    names = variant_names(result)
    vs = result["variants"]
    out = []
    games = [v.get("game_length") for v in vs]
    if all(games):
        said = [
            f"{g['rounds']} rounds" + (f" or a total of {g['target']}" if g["target"] else "")
            for g in games
            if g
        ]
        out.append(
            f"By the rules a game is {_in_each(said, names)}; the comparison plays single rounds."
        )
    turns = [_pm(v["turns"], v["figures"]["turns"]["ci95"], False) for v in vs]
    out.append("A round lasts " + _in_each([f"{t} turns" for t in turns], names) + ".")
    early = [_share(v["figures"]["by_yaku"]["mean"], v["figures"]["by_yaku"]["ci95"]) for v in vs]
    if any(v["figures"]["by_yaku"]["mean"] for v in vs):
        out.append(
            "A yaku ends the round before the count in "
            + _in_each([f"{x} of rounds" for x in early], names)
            + "."
        )
    for name, first, d in _pairs(result):
        changes = []
        for key, what, scale, unit in (
            ("turns", "turns per round", 1.0, ""),
            ("by_yaku", "the share of rounds ended by a yaku", 100.0, " percentage points"),
        ):
            f = d["figures"].get(key)
            if f is not None and not (f["mean"] == 0 and f["ci95"] == 0):
                changes.append(
                    f"{what} by {_pm(f['mean'], f['ci95'], scale=scale)}{unit}"
                    f" ({significance(f, _tested(d))})"
                )
        if changes:
            out.append(f"Against {first}, {name} changes " + "; ".join(changes) + ".")
    return out


def _choices(result: dict[str, Any]) -> list[str]:
    """Each rule choice the bots were offered in some variant (or that the variants differ
    in): how often they took it, and the paired change in how often per round."""
    names = variant_names(result)
    vs = result["variants"]
    differing = {
        k for d in result["differences"] for k in (d.get("mechanics") or {}).get("differing", {})
    }
    out = []
    for m in MECHANICS:
        offered = [v["choices"].get(f"{m.key} offered", 0) for v in vs]
        taken = [v["choices"].get(m.key, 0) for v in vs]
        if not any(offered):
            if m.key in differing:
                out.append(
                    f"{m.label.capitalize()}: the rules differ, but the bots were never offered"
                    f" the choice in {result['rounds']} rounds of any variant, so the figures"
                    " cannot show what it does."
                )
            continue
        said = [
            f"{t} of {o} ({t / o:.1%})" if o else "never offered"
            for t, o in zip(taken, offered, strict=True)
        ]
        text = f"{m.label.capitalize()} ({m.taken} of the offers): {_in_each(said, names)}"
        if m.key == "continue":
            paid = [v["continuation"] for v in vs]
            if any(c["continued"] for c in paid):
                text += "; continues that paid off: " + _in_each(
                    [f"{c['paid_off']} of {c['continued']}" for c in paid], names
                )
        changes = []
        key = CHOICE_FIGURES.get(m.key)
        for name, first, d in _pairs(result):
            f = d["figures"].get(key) if key else None
            if f is not None:
                changes.append(
                    f"{name} against {first}: {_pm(f['mean'], f['ci95'])} {m.taken} per round"
                    f" ({significance(f, _tested(d))})"
                )
        out.append(text + (". " + "; ".join(changes) if changes else "") + ".")
    return out
