"""Fuzz rulekit's inputs: mutants of every bundled rule file, of their JSON IR, and of the
bundled scenario files, each of which must load cleanly or fail with a located RulekitError
within a time bound; a rule file that loads must play a few rounds without an error.

    python scripts/fuzz.py --minutes 3 [--seed 0] [--out fuzz-findings/]

The last line is `N files, N crashes, N hangs`; each crash or hang is written to --out (if
given) for reproduction. tests/test_fuzz.py runs the same mutants in a short profile.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulekit.agents.random_agent import RandomAgent
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.errors import InternalError, RulekitError
from rulekit.lang import load_rules
from rulekit.resources import rules_dir
from rulekit.scenario.runner import run_scenario

TIME_BOUND = 10.0  # seconds for one mutant: load, check, and a few rounds of play
HUGE = ("0", "-1", "1000000000", "9" * 5000, "99999999999999999999", "2147483648")
JUNK = ("(", ")", ",", ":", ";", "=", '"', "\x00", "\ufeff", "²", "not", "and", "or", "joker")
_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|\S')


class Hang(Exception):
    """A mutant ran past the time bound."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Raise Hang in the block after `seconds` (SIGALRM: the main thread of a Unix process)."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- the seeds


@dataclass(frozen=True)
class Seed:
    kind: str  # "rk", "json" or "scenario"
    name: str
    text: str


def seeds() -> list[Seed]:
    """Every bundled rule file, its JSON IR, and every bundled scenario file."""
    root = rules_dir()
    out: list[Seed] = []
    for path in sorted(root.rglob("*.rk")):
        if "scenarios" in path.parts:
            continue
        out.append(Seed("rk", path.name, path.read_text(encoding="utf-8")))
        ref = str(path.relative_to(root).with_suffix(""))
        out.append(Seed("json", path.stem + ".json", load_rules(ref).model_dump_json(indent=1)))
    for path in sorted(root.rglob("*.scenario.toml")):
        out.append(Seed("scenario", path.name, path.read_text(encoding="utf-8")))
    return out


# ---------------------------------------------------------------- mutations


def _tokens(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _misspell(word: str, rng: random.Random) -> str:
    if len(word) < 2:
        return word + "x"
    i = rng.randrange(len(word))
    return rng.choice(
        [word[:i] + word[i + 1 :], word[:i] + rng.choice("aeiouxz_") + word[i:], word[::-1]]
    )


def mutate_text(text: str, rng: random.Random) -> str:
    """One mutation of a text: a token deleted, inserted, swapped, a number replaced, a name
    misspelt, a line duplicated or deleted."""
    spans = _tokens(text)
    if not spans:
        return text + rng.choice(JUNK)
    op = rng.randrange(7)
    a, b = spans[rng.randrange(len(spans))]
    word = text[a:b]
    if op == 0:  # delete a token
        return text[:a] + text[b:]
    if op == 1:  # insert a token of the file, or junk
        c, d = spans[rng.randrange(len(spans))]
        new = rng.choice([text[c:d], rng.choice(JUNK)])
        return f"{text[:a]}{new} {text[a:]}"
    if op == 2:  # swap two tokens
        c, d = spans[rng.randrange(len(spans))]
        if c < a:
            a, b, c, d = c, d, a, b
        if c < b:
            return text
        return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    if op == 3:  # a number: 0, -1 or huge
        numbers = [(s, e) for s, e in spans if text[s:e].lstrip("-").isdigit()]
        if numbers:
            a, b = rng.choice(numbers)
        return text[:a] + rng.choice(HUGE) + text[b:]
    if op == 4:  # a name misspelt
        return text[:a] + _misspell(word, rng) + text[b:]
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    if op == 5:  # a line duplicated
        return "\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]])
    return "\n".join(lines[:i] + lines[i + 1 :])  # a line deleted


def encode(text: str, rng: random.Random) -> bytes:
    """The bytes of a file: mostly UTF-8, sometimes with a BOM, CRLF, a NUL, or another
    encoding."""
    op = rng.randrange(12)
    if op == 0:
        return b"\xef\xbb\xbf" + text.encode()
    if op == 1:
        return text.replace("\n", "\r\n").encode()
    if op == 2:
        i = rng.randrange(len(text) + 1)
        return (text[:i] + "\x00" + text[i:]).encode()
    if op == 3:
        return text.encode("utf-16")
    if op == 4:
        return text.encode("latin-1", errors="replace") + b"\xe9\xff"
    return text.encode()


def mutant(seed: Seed, rng: random.Random) -> bytes:
    """A mutant of a seed: one to four mutations, then an encoding."""
    text = seed.text
    for _ in range(rng.randint(1, 4)):
        text = mutate_text(text, rng)
    return encode(text, rng)


# ---------------------------------------------------------------- the oracle


def _play_a_few_rounds(path: Path) -> None:
    rules = load_rules(path)
    compiled = CompiledRules(rules)
    for seated in sorted({rules.seats.min, rules.seats.max}):
        players = [RandomAgent(s) for s in range(seated)]
        for number in range(2):
            play_deal(compiled, seated, number, players, seed=number)


def _load_and_play(path: Path) -> None:
    try:
        load_rules(path)
    except RulekitError as err:
        if isinstance(err, InternalError) or err.loc is None:
            raise AssertionError(f"an error without a location: {err.render()}") from err
        return
    _play_a_few_rounds(path)  # any error here is a crash: `check` should have found it


def _run_scenario(path: Path) -> None:
    try:
        run_scenario(path)
    except RulekitError as err:
        if isinstance(err, InternalError):
            raise AssertionError(err.render()) from err


CHECKS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "rk": (".rk", _load_and_play),
    "json": (".json", _load_and_play),
    "scenario": (".scenario.toml", _run_scenario),
}


def check(seed: Seed, data: bytes, folder: Path, bound: float = TIME_BOUND) -> str | None:
    """None if the mutant loads (and plays) or fails with a located RulekitError; otherwise
    "crash: ..." or "hang: ..."."""
    suffix, run = CHECKS[seed.kind]
    path = folder / f"mutant{suffix}"
    path.write_bytes(data)
    try:
        with time_bound(bound):
            run(path)
    except Hang as exc:
        return f"hang: {exc}"
    except Exception:
        return "crash: " + traceback.format_exc(limit=-3)
    return None


# ---------------------------------------------------------------- the long profile


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write crashes and hangs here")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    pool = seeds()
    rng = random.Random(args.seed)
    end = time.monotonic() + 60 * args.minutes
    files = crashes = hangs = 0
    by_kind = dict.fromkeys(CHECKS, 0)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        while time.monotonic() < end:
            kind = rng.choice(list(CHECKS))  # each kind as often, however many seeds it has
            seed = rng.choice([s for s in pool if s.kind == kind])
            data = mutant(seed, rng)
            verdict = check(seed, data, folder)
            files += 1
            by_kind[seed.kind] += 1
            if verdict is None:
                continue
            if verdict.startswith("hang"):
                hangs += 1
            else:
                crashes += 1
            print(f"--- {seed.kind} {seed.name} #{files}: {verdict}", file=sys.stderr)
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                suffix = CHECKS[seed.kind][0]
                (args.out / f"{files}-{seed.name}{suffix}").write_bytes(data)
    print(", ".join(f"{n} {kind}" for kind, n in by_kind.items()))
    print(f"{files} files, {crashes} crashes, {hangs} hangs")
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
