"""Tuning one number of a rule file: every candidate value is played on the same deals as the
file itself (common random numbers, through `compare`), and the candidates are ranked by one
figure of the comparison, each with its 95% interval and its paired difference from the file.

What can be varied is a *named number* of the rule file, set on the IR and re-validated (never
by editing engine code): the value of a teyaku, yaku (dekiyaku) or instant-win entry, a scoring
step's factor or award, the fold fees, a forced folder's compensation per card, the par of the
count, the size of the unit (every value in that unit follows), a field multiplier tier's
factor.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulekit import ir
from rulekit.agents import BotOptions
from rulekit.errors import UsageError, did_you_mean, suggest
from rulekit.output import write_atomic
from rulekit.sim.compare import PER_ROUND
from rulekit.sim.compare import compare as run_compare
from rulekit.sim.report import LABELS

MAX_CANDIDATES = 50
MAX_VALUE = 1_000_000  # as any number written in a rule file (docs/language.md, Bounds)
WHOLE_RUN = ("fairness", "spread")  # figures of the whole run (jackknife intervals)
NAMED_PREFIXES = ("teyaku:", "yaku:", "teyaku paid:", "yaku paid:")
DEFAULT_AIMS = {"fairness": "min", "spread": "min"}  # figures whose better way goes unsaid


_QUOTED = 80  # the most of a command-line value an error quotes


class SpecError(UsageError):
    """A wrong part of a command-line value (--vary, --target, --aim): the value is quoted
    with a caret under the part that is wrong."""

    def __init__(
        self, option: str, text: str, message: str, start: int = 0, width: int = 0, hint: str = ""
    ) -> None:
        super().__init__(message, hint=hint or None)
        self.option = option
        self.text = text
        self.start = start
        self.width = width or max(1, len(text) - start)

    def render(self) -> str:
        text, start, width = self.text, self.start, self.width
        if len(text) > _QUOTED:  # a window around the wrong part, not the whole of a long value
            left = max(0, min(start - 20, len(text) - _QUOTED))
            text = text[left : left + _QUOTED]
            start, width = start - left, min(width, _QUOTED - (start - left))
            text = (
                ("..." if left else "") + text + ("..." if left + _QUOTED < len(self.text) else "")
            )
            start += 3 if left else 0
        caret = " " * start + "^" * width
        quoted = text if len(self.text) <= _QUOTED else f"{self.text[:20]}..."
        lines = [f"{self.option} '{quoted}': {self.message}", f"    {text}", f"    {caret}"]
        if self.hint:
            lines.append(f"  = {self.hint}")
        return "\n".join(lines)


# ---------------------------------------------------------------- what can be varied

Setter = Callable[[ir.Ruleset, int], ir.Ruleset]


@dataclass(frozen=True)
class Knob:
    """A named number of a rule file: what it is, its value in the file, the least value it
    may take, and how a candidate value is set on the IR."""

    name: str
    what: str
    value: int
    low: int | None
    apply: Setter


def _set_entry(kind: str, name: str) -> Setter:
    """A teyaku or yaku entry's value; a combined entry that is the sum of its parts in the
    file (kirisame's red + three) follows the part."""

    def apply(rules: ir.Ruleset, v: int) -> ir.Ruleset:
        table: ir.YakuTable = getattr(rules, kind)
        old = {e.name: e.value for e in table.entries}
        new = {**old, name: v}
        entries = []
        for e in table.entries:
            if e.name == name:
                e = e.model_copy(update={"value": v})
            elif name in e.parts and e.value == sum(old[p] for p in e.parts):
                e = e.model_copy(update={"value": sum(new[p] for p in e.parts)})
            entries.append(e)
        return rules.model_copy(update={kind: table.model_copy(update={"entries": tuple(entries)})})

    return apply


def _set_instant(name: str) -> Setter:
    def apply(rules: ir.Ruleset, v: int) -> ir.Ruleset:
        wins = tuple(
            w.model_copy(update={"value": v}) if w.name == name else w for w in rules.instant_wins
        )
        return rules.model_copy(update={"instant_wins": wins})

    return apply


def _set_step(name: str, attr: str) -> Setter:
    def apply(rules: ir.Ruleset, v: int) -> ir.Ruleset:
        steps = tuple(
            s.model_copy(update={attr: v}) if s.name == name else s for s in rules.scoring
        )
        return rules.model_copy(update={"scoring": steps})

    return apply


def _set_field(section: str, attr: str) -> Setter:
    def apply(rules: ir.Ruleset, v: int) -> ir.Ruleset:
        part = getattr(rules, section).model_copy(update={attr: v})
        return rules.model_copy(update={section: part})

    return apply


def _set_tier(factor: int) -> Setter:
    def apply(rules: ir.Ruleset, v: int) -> ir.Ruleset:
        tiers = tuple(
            t.model_copy(update={"factor": v}) if t.factor == factor else t
            for t in rules.multiplier.tiers
        )
        return rules.model_copy(
            update={"multiplier": rules.multiplier.model_copy(update={"tiers": tiers})}
        )

    return apply


def _set_unit(rules: ir.Ruleset, v: int) -> ir.Ruleset:
    """The unit's size: every value counted in the unit (entries, bonuses, fees, instant wins,
    awards) is rescaled to it and must stay whole, as `unit kan = N points` would; card points
    and the par are not in the unit and stay."""
    assert rules.unit is not None
    old = rules.unit.points

    def scale(x: int) -> int:
        if x * v % old:
            raise ValueError(f"a value of {x} at {old} points to the unit is {x * v / old:g}")
        return x * v // old

    def table(t: ir.YakuTable | None) -> ir.YakuTable | None:
        if t is None:
            return None
        entries = tuple(
            e.model_copy(
                update={
                    "value": scale(e.value),
                    "bonus": e.bonus.model_copy(update={"amount": scale(e.bonus.amount)})
                    if e.bonus
                    else None,
                }
            )
            for e in t.entries
        )
        return t.model_copy(update={"entries": entries})

    steps = tuple(
        s.model_copy(update={"value": scale(s.value)}) if isinstance(s, ir.Award) else s
        for s in rules.scoring
    )
    fold = rules.fold.model_copy(
        update={"fee": scale(rules.fold.fee), "forced_fee": scale(rules.fold.forced_fee)}
    )
    comp = rules.compensation
    if comp is not None:
        comp = comp.model_copy(update={"per_card": scale(comp.per_card)})
    return rules.model_copy(
        update={
            "compensation": comp,
            "unit": rules.unit.model_copy(update={"points": v}),
            "teyaku": table(rules.teyaku),
            "yaku": table(rules.yaku),
            "instant_wins": tuple(
                w.model_copy(update={"value": scale(w.value)}) for w in rules.instant_wins
            ),
            "scoring": steps,
            "fold": fold,
        }
    )


def knobs(rules: ir.Ruleset) -> list[Knob]:
    """Every named number of a rule file that tune can vary, in the file's order."""
    out: list[Knob] = []
    for kind, said in (("teyaku", "teyaku"), ("yaku", "yaku")):
        table: ir.YakuTable | None = getattr(rules, kind)
        for e in table.entries if table else ():
            out.append(
                Knob(
                    f"{kind}.{e.name}", f"{said} {e.label}", e.value, None, _set_entry(kind, e.name)
                )
            )
    for w in rules.instant_wins:
        out.append(
            Knob(f"instant.{w.name}", f"instant win {w.label}", w.value, 0, _set_instant(w.name))
        )
    for s in rules.scoring:
        if isinstance(s, ir.Factor) and s.name:
            out.append(
                Knob(
                    f"scoring.{s.name}",
                    f"scoring step {s.label}: factor",
                    s.factor,
                    1,
                    _set_step(s.name, "factor"),
                )
            )
        elif isinstance(s, ir.Award):
            out.append(
                Knob(
                    f"scoring.{s.name}", f"award {s.label}", s.value, 0, _set_step(s.name, "value")
                )
            )
    if "fold" in rules.setup:
        out.append(Knob("fold.fee", "the fold fee", rules.fold.fee, 0, _set_field("fold", "fee")))
        out.append(
            Knob(
                "fold.forced_fee",
                "the forced fold fee",
                rules.fold.forced_fee,
                0,
                _set_field("fold", "forced_fee"),
            )
        )
    if rules.compensation is not None:
        out.append(
            Knob(
                "compensation.per_card",
                "a forced folder's compensation per card",
                rules.compensation.per_card,
                1,
                _set_field("compensation", "per_card"),
            )
        )
    if rules.count.method == "par":
        out.append(
            Knob(
                "count.par", "the par of the count", rules.count.par, 0, _set_field("count", "par")
            )
        )
    if rules.unit is not None:
        out.append(
            Knob(
                f"unit.{rules.unit.name}",
                f"points to the {rules.unit.name}",
                rules.unit.points,
                1,
                _set_unit,
            )
        )
    for t in rules.multiplier.tiers:
        out.append(
            Knob(
                f"multiplier.x{t.factor}",
                f"the field multiplier x{t.factor}",
                t.factor,
                1,
                _set_tier(t.factor),
            )
        )
    return out


def short_names(found: list[Knob]) -> dict[str, Knob]:
    """Every name a knob answers to: its full name (`teyaku.triple`) and, when no other knob
    shares it, the part after the dot (`triple`, `par`, `kan`)."""
    out = {k.name: k for k in found}
    tails: dict[str, list[Knob]] = {}
    for k in found:
        tails.setdefault(k.name.split(".", 1)[1], []).append(k)
    for tail, ks in tails.items():
        if len(ks) == 1 and tail not in out:
            out[tail] = ks[0]
    return out


def knob_table(rules: ir.Ruleset) -> list[dict[str, Any]]:
    """The knobs for a person (--list, --json): the name to give, what it is, its value."""
    names = short_names(knobs(rules))
    shortest: dict[str, str] = {}
    for n, k in names.items():
        if k.name not in shortest or len(n) < len(shortest[k.name]):
            shortest[k.name] = n
    return [
        {"name": shortest[k.name], "full_name": k.name, "what": k.what, "value": k.value}
        for k in knobs(rules)
    ]


# ---------------------------------------------------------------- the --vary spec

_SPEC = re.compile(
    r"^(?P<name>\S+)\s+(?:(?P<lo>-?\d+)\.\.(?P<hi>-?\d+)(?:\s+step\s+(?P<step>-?\d+))?"
    r"|(?P<list>-?\d+(?:\s*,\s*-?\d+)*))\s*$"
)
GRAMMAR = "NAME LO..HI [step S], or NAME A,B,C: triple 10..40 step 5"


@dataclass(frozen=True)
class Spec:
    name: str
    values: tuple[int, ...]
    text: str


def parse_spec(text: str) -> Spec:
    """`triple 10..40 step 5` or `triple 10,15,25`: a name and its candidate values (whole
    numbers, at most MAX_CANDIDATES, each once)."""
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    parts = stripped.split(None, 1)
    if not parts:
        raise SpecError("--vary", text, "name a number and its values", hint=GRAMMAR)
    if len(parts) == 1:
        raise SpecError("--vary", text, f"no values for '{parts[0]}'", len(text), 1, GRAMMAR)
    m = _SPEC.match(stripped)
    rest_at = lead + len(stripped) - len(parts[1])
    if m is None:
        raise SpecError(
            "--vary", text, "the values are not LO..HI [step S] or A,B,C", rest_at, 0, GRAMMAR
        )
    for number in re.finditer(r"-?\d+", stripped[m.end("name") :]):
        at = m.end("name") + number.start()
        digits = number[0].lstrip("-").lstrip("0")
        if len(digits) > len(str(MAX_VALUE)) or int(digits or 0) > MAX_VALUE:
            raise SpecError(
                "--vary",
                text,
                f"{number[0][:12]}{'...' if len(number[0]) > 12 else ''}: a value is at most"
                f" {MAX_VALUE:,} either way",
                lead + at,
                len(number[0]),
                GRAMMAR,
            )
    if m["list"] is not None:
        values = [int(v) for v in m["list"].split(",")]
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise SpecError(
                "--vary", text, f"{repeated[0]} is listed twice", rest_at, 0, "list each value once"
            )
    else:
        lo, hi = int(m["lo"]), int(m["hi"])
        step = int(m["step"]) if m["step"] is not None else 1
        step_at = lead + m.start("step") if m["step"] is not None else rest_at
        if lo > hi:
            raise SpecError(
                "--vary",
                text,
                f"the range {lo}..{hi} is empty: LO is above HI",
                lead + m.start("lo"),
                m.end("hi") - m.start("lo"),
                f"for example: {parts[0]} {hi}..{lo}",
            )
        if step <= 0:
            raise SpecError(
                "--vary",
                text,
                f"step {step}: a step is a whole number of 1 or more",
                step_at,
                len(m["step"] or ""),
                f"for example: {parts[0]} {lo}..{hi} step 5",
            )
        count = (hi - lo) // step + 1
        if count > MAX_CANDIDATES:
            raise SpecError(
                "--vary",
                text,
                f"{count} candidates: at most {MAX_CANDIDATES}",
                rest_at,
                0,
                f"a larger step: step {-(-(hi - lo) // (MAX_CANDIDATES - 1))}",
            )
        values = list(range(lo, hi + 1, step))
    if len(values) > MAX_CANDIDATES:
        raise SpecError(
            "--vary",
            text,
            f"{len(values)} candidates: at most {MAX_CANDIDATES}",
            rest_at,
            0,
            "list fewer values",
        )
    return Spec(parts[0], tuple(values), text)


def resolve(rules: ir.Ruleset, spec: Spec, hint_command: str = "") -> Knob:
    """The knob a spec names, or a SpecError with the closest name and where to see them all."""
    found = knobs(rules)
    names = short_names(found)
    at = len(spec.text) - len(spec.text.lstrip())
    knob = names.get(spec.name)
    if knob is None:
        listing = f"`{hint_command} --list` shows them all" if hint_command else ""
        close = did_you_mean(spec.name, names)
        ambiguous = sorted(k.name for k in found if k.name.split(".", 1)[1] == spec.name)
        if ambiguous:
            message = f"'{spec.name}' is in more than one table: {' or '.join(ambiguous)}"
            hint = "say which"
        else:
            message = f"no number named '{spec.name}' in {rules.title}"
            hint = " ".join(h for h in (close, listing) if h) or _some(names)
        raise SpecError("--vary", spec.text, message, at, len(spec.name), hint)
    if knob.low is not None:
        below = [v for v in spec.values if v < knob.low]
        if below:
            start, width = _where(spec, below[0])
            message = f"{knob.what} is at least {knob.low}, not {below[0]}"
            raise SpecError("--vary", spec.text, message, start, width)
    return knob


def _some(names: dict[str, Knob]) -> str:
    return "names: " + ", ".join(sorted(n for n in names if "." not in n)[:12])


def candidate(rules: ir.Ruleset, knob: Knob, value: int, spec: Spec) -> ir.Ruleset:
    """The rule file with the knob set to `value`, re-validated as a whole."""
    try:
        changed = knob.apply(rules, value)
        return ir.Ruleset.model_validate(changed.model_dump())
    except (ValidationError, ValueError) as err:
        reason = err.errors()[0]["msg"] if isinstance(err, ValidationError) else str(err)
        start, width = _where(spec, value)
        message = f"{knob.name} = {value} is not a valid rule: {reason}"
        raise SpecError("--vary", spec.text, message, start, width) from None


def _where(spec: Spec, value: int) -> tuple[int, int]:
    """Where a value is written in the spec (the values part when a range made it)."""
    named = spec.text.index(spec.name) + len(spec.name)
    found = re.search(rf"(?<![\d-]){value}(?!\d)", spec.text[named:])
    if found and ".." not in spec.text[named:]:
        return named + found.start(), len(str(value))
    rest = spec.text[named:]
    return named + len(rest) - len(rest.lstrip()), 0


# ---------------------------------------------------------------- targets


def target_names(rules: ir.Ruleset) -> list[str]:
    """The figures a tune can aim at: those compare reports, per-entry ones included."""
    out = [*WHOLE_RUN, *PER_ROUND, *(f"position {k}" for k in range(rules.seats.max))]
    for kind in ("teyaku", "yaku"):
        table: ir.YakuTable | None = getattr(rules, kind)
        for e in table.entries if table else ():
            out += [f"{kind}:{e.name}", f"{kind} paid:{e.name}"]
    return out


def check_target(rules: ir.Ruleset, target: str, aim: str | None) -> str:
    """The target's name checked (did-you-mean, the list in the hint) and its aim: min, max or
    a number written as text; the default aim where the figure has an obvious better way."""
    known = target_names(rules)
    if target not in known:
        close = did_you_mean(target, known)
        figures = ", ".join([*WHOLE_RUN, *PER_ROUND, "position K", "teyaku:NAME", "yaku paid:NAME"])
        raise SpecError(
            "--target",
            target,
            f"no figure '{target}'",
            0,
            len(target),
            "; ".join(h for h in (close, f"figures: {figures}") if h),
        )
    if aim is None:
        if target not in DEFAULT_AIMS:
            raise SpecError(
                "--target",
                target,
                "say what is better for this figure",
                0,
                len(target),
                "--aim min, --aim max, or --aim VALUE (closest to VALUE)",
            )
        return DEFAULT_AIMS[target]
    if aim in ("min", "max"):
        return aim
    try:
        float(aim)
    except ValueError:
        raise SpecError(
            "--aim",
            aim,
            "not min, max or a number",
            0,
            len(aim),
            f"did you mean '{suggest(aim, ['min', 'max']) or 'min'}'?"
            if suggest(aim, ["min", "max"])
            else "--aim min, --aim max or --aim 0",
        ) from None
    return aim


def figure_label(target: str) -> str:
    if target.startswith("position "):
        k = int(target.split()[1])
        return "dealer's net per round" if k == 0 else f"dealer + {k}'s net per round"
    for prefix, said in (
        ("teyaku paid:", "paid per round for teyaku"),
        ("yaku paid:", "paid per round for yaku"),
        ("teyaku:", "teyaku made per round:"),
        ("yaku:", "yaku made per round:"),
    ):
        if target.startswith(prefix):
            return f"{said} {target[len(prefix) :]}"
    return LABELS.get(target, target)


def _own(variant: dict[str, Any], target: str) -> dict[str, Any]:
    """A variant's own value of the target and its 95% half-width (None where compare has no
    interval: the per-entry rates)."""
    if target in WHOLE_RUN:
        return {"mean": variant[target]["value"], "ci95": variant[target]["ci95"]}
    if target.startswith("position "):
        p = variant["position"][int(target.split()[1])]
        return {"mean": p["mean"], "ci95": p["ci95"]}
    if target in PER_ROUND:
        f = variant["figures"][target]
        return {"mean": f["mean"], "ci95": f["ci95"]}
    kind, name = target.split(":", 1)
    table = "teyaku" if kind.startswith("teyaku") else "yaku"
    e = variant[table].get(name)
    if e is None:
        return {"mean": 0.0, "ci95": None}
    if kind.endswith("paid"):
        return {"mean": e["average_payment"] * e["count"] / variant["rounds"], "ci95": None}
    return {"mean": e["per_round"], "ci95": None}


def _paired(difference: dict[str, Any], target: str) -> dict[str, Any]:
    """The paired difference of the target in one comparison, with its interval and raw
    (uncorrected: one figure is the question) significance."""
    if target in WHOLE_RUN:
        d = difference[target]
    elif target.startswith("position ") or target in PER_ROUND:
        d = difference["figures"].get(target, {"mean": 0.0, "ci95": 0.0})
    else:
        kind, name = target.split(":", 1)
        table = "teyaku" if kind.startswith("teyaku") else "yaku"
        row = difference[table].get(name)
        key = "paid_per_round" if kind.endswith("paid") else "per_round"
        d = row[key] if row else {"mean": 0.0, "ci95": 0.0}
    ci = d.get("ci95")
    return {
        "mean": d["mean"],
        "ci95": ci,
        "significant": ci is not None and abs(d["mean"]) > ci,
    }


def _score(value: float, aim: str) -> float:
    """Smaller is better."""
    if aim == "min":
        return value
    if aim == "max":
        return -value
    return abs(value - float(aim))


# ---------------------------------------------------------------- the run


def tune(
    rules: ir.Ruleset,
    ref: str,
    spec: Spec,
    *,
    target: str = "fairness",
    aim: str | None = None,
    rounds: int = 2000,
    seats: int | None = None,
    bots: list[str] | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    bot_options: BotOptions | None = None,
    hint_command: str = "",
    engine: str = "auto",
    notice: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play the file and each candidate on the same deals; rank the candidates by the target
    (`engine` and `notice` as compare's: the batch engine plays the candidates it serves).

    The best candidate is then played against the runner-up on those same deals, so that
    their paired difference says whether the best is better beyond chance."""
    knob = resolve(rules, spec, hint_command)
    direction = check_target(rules, target, aim)
    variants = [rules, *(candidate(rules, knob, v, spec) for v in spec.values)]
    names = [ref, *(f"{knob.name}={v}" for v in spec.values)]
    weight = len(variants) + (2 if len(spec.values) > 1 else 0)

    def first(done: int, total: int) -> None:
        if progress:
            progress(done * len(variants), total * weight)

    def play(
        chosen: list[ir.Ruleset], called: list[str], moved: Callable[[int, int], None]
    ) -> dict[str, Any]:
        return run_compare(
            chosen,
            called,
            rounds=rounds,
            seats=seats,
            bots=bots,
            seed=seed,
            jobs=jobs,
            progress=moved,
            bot_options=bot_options,
            engine=engine,
            notice=notice,
        )

    result = play(variants, names, first)
    file_value = _own(result["variants"][0], target)
    rows: list[dict[str, Any]] = []
    for i, v in enumerate(spec.values, start=1):
        rows.append(
            {
                "value": v,
                "figure": _own(result["variants"][i], target),
                "against_file": _paired(result["differences"][i - 1], target),
                "changes": [c["text"] for c in result["differences"][i - 1]["changes"]],
            }
        )
    order = sorted(
        range(len(rows)),
        key=lambda i: (_score(rows[i]["figure"]["mean"], direction), bool(rows[i]["changes"]), i),
    )
    best = rows[order[0]]
    out: dict[str, Any] = {
        "rules": ref,
        "title": rules.title,
        "vary": {
            "name": knob.name,
            "what": knob.what,
            "file_value": knob.value,
            "values": list(spec.values),
        },
        "target": {"figure": target, "label": figure_label(target), "aim": direction},
        "rounds": result["rounds"],
        "seats": result["seats"],
        "bots": result["bots"],
        "seed": result["seed"],
        "file": file_value,
        "candidates": rows,
        "best": best["value"],
        "runner_up": None,
        "seconds": result["seconds"],
    }
    if len(rows) > 1:
        runner = rows[order[1]]

        def second(done: int, total: int) -> None:
            if progress:
                progress(total * len(variants) + done * 2, total * weight)

        pair = [variants[order[1] + 1], variants[order[0] + 1]]
        head = play(pair, [names[order[1] + 1], names[order[0] + 1]], second)
        d = _paired(head["differences"][0], target)  # best - runner-up
        out["runner_up"] = {
            "value": runner["value"],
            "difference": d,
            "better": _beyond_chance(
                best["figure"]["mean"], runner["figure"]["mean"], d, direction
            ),
        }
        out["seconds"] = round(out["seconds"] + head["seconds"], 3)
    out["verdict"] = verdict(out)
    return out


def _beyond_chance(best: float, runner: float, d: dict[str, Any], aim: str) -> bool:
    """Whether the best is better than the runner-up beyond chance: the paired difference
    (best - runner-up) goes the better way and its interval leaves out 0. Aiming at a value,
    two candidates on either side of it are not told apart this way: not claimed."""
    if not d["significant"]:
        return False
    if aim == "min":
        return bool(d["mean"] < 0)
    if aim == "max":
        return bool(d["mean"] > 0)
    goal = float(aim)
    if (best - goal) * (runner - goal) < 0:
        return False
    return bool(abs(best - goal) < abs(runner - goal))


def _identical(d: dict[str, Any]) -> bool:
    """A paired difference of exactly 0 in every round (0 +- 0)."""
    return bool(d["mean"] == 0 and d["ci95"] == 0)


def _pm(m: dict[str, Any], fmt: str = ".3f") -> str:
    ci = m.get("ci95")
    return f"{m['mean']:{fmt}}" + (f" ± {ci:{fmt}}" if ci is not None else "")


def verdict(out: dict[str, Any]) -> str:
    """The finding in plain words: the best value, against the file and the runner-up."""
    name, label = out["vary"]["name"], out["target"]["label"]
    aim = out["target"]["aim"]
    goal = {"min": "lowest", "max": "highest"}.get(aim, f"closest to {aim}")
    best = next(r for r in out["candidates"] if r["value"] == out["best"])
    said = [f"Best: {name} = {out['best']}, the {goal} {label} ({_pm(best['figure'])})."]
    against = best["against_file"]
    file_is = f"the file ({name} = {out['vary']['file_value']})"
    if all(_identical(r["against_file"]) for r in out["candidates"]):
        return (
            f"Every candidate has exactly the {label} of {file_is}, round by round, in"
            f" these {out['rounds']} rounds: {name} does not move it at this table with these"
            " bots (other --seats, --bots or more --rounds may)."
        )
    if not best["changes"]:
        said.append("That is the file's own value.")
    else:
        beyond = "beyond chance" if against["significant"] else "not beyond chance"
        said.append(f"Against {file_is} it differs by {_pm(against)}: {beyond}.")
    r = out["runner_up"]
    if r is not None:
        runner = f"the runner-up ({name} = {r['value']})"
        paired = f"paired difference {_pm(r['difference'])}"
        if _identical(r["difference"]):
            said.append(f"It plays exactly like {runner}: identical in every round.")
        elif r["better"]:
            said.append(f"It is better than {runner} beyond chance ({paired}).")
        else:
            said.append(
                f"It is NOT significantly better than {runner}: {paired} in {out['rounds']}"
                " rounds; more rounds may tell them apart."
            )
    return " ".join(said)


# ---------------------------------------------------------------- for a person


def table_rows(out: dict[str, Any]) -> list[list[str]]:
    """One row per candidate: the value, the target with its interval, the paired difference
    from the file with its verdict, and a mark on the best and the file's own value."""
    rows = []
    for r in out["candidates"]:
        d = r["against_file"]
        if not r["changes"]:
            said = "the file's own rules"
        elif _identical(d):
            said = "identical in every round"
        elif d["ci95"] is None:
            said = "too few rounds to say"
        else:
            said = "significant" if d["significant"] else "not significant"
        marks = [m for m, on in (("best", r["value"] == out["best"]),) if on]
        rows.append(
            [
                str(r["value"]),
                _pm(r["figure"]),
                ("+" if d["mean"] >= 0 else "") + _pm(d),
                said,
                ", ".join(marks),
            ]
        )
    return rows


def write_plot(out: dict[str, Any], path: Path) -> None:
    """The target against the value, each candidate with its 95% interval, the file's own
    value as a line and its interval as a band, the best marked; one PNG, written whole."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [r["value"] for r in out["candidates"]]
    fig, (ax, paired) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    ys = [r["figure"]["mean"] for r in out["candidates"]]
    errors = [r["figure"]["ci95"] or 0.0 for r in out["candidates"]]
    ax.errorbar(xs, ys, yerr=errors, fmt="o-", capsize=4, label="candidate (95% CI)")
    own = out["file"]
    ax.axhline(own["mean"], color="grey", linestyle="--", linewidth=1, label="the file as is")
    if own["ci95"]:
        ax.axhspan(own["mean"] - own["ci95"], own["mean"] + own["ci95"], color="grey", alpha=0.15)
    best = next(r for r in out["candidates"] if r["value"] == out["best"])
    ax.plot([best["value"]], [best["figure"]["mean"]], "r*", markersize=14, label="best")
    ax.set_ylabel(out["target"]["label"])
    ax.set_title(
        f"{out['title']}: {out['target']['figure']} against {out['vary']['name']}"
        f" ({out['rounds']} rounds, seed {out['seed']})"
    )
    ax.grid(True, alpha=0.3)
    ax.legend()
    diffs = [r["against_file"] for r in out["candidates"]]
    paired.errorbar(
        xs,
        [d["mean"] for d in diffs],
        yerr=[d["ci95"] or 0.0 for d in diffs],
        fmt="o-",
        capsize=4,
        color="tab:green",
    )
    paired.axhline(0, color="black", linewidth=0.8)
    paired.set_ylabel("candidate - file, paired (95% CI)")
    paired.set_xlabel(f"{out['vary']['name']} ({out['vary']['what']})")
    paired.set_title("Paired difference from the file (same deals)")
    paired.grid(True, alpha=0.3)
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    write_atomic(path, buffer.getvalue())
