"""Fuzz rulekit's inputs: mutants of every bundled rule file, of their JSON IR, and of the
bundled scenario files; house files written from every kind of statement of the language (the
scoring stage, conditions on the round, sit-outs, removals, units, targets...) on top of each
bundled file; and `tune --vary` specs. Each must load cleanly or fail with a located
RulekitError within a time bound; a rule file that loads must play whole games at its smallest
and largest table without an error.

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

from rulekit.errors import InternalError, RulekitError
from rulekit.lang import kept, load_rules
from rulekit.resources import rules_dir
from rulekit.scenario.runner import run_scenario
from rulekit.sim.simulate import simulate
from rulekit.sim.tune import parse_spec, tune

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
    kind: str  # "rk", "json", "scenario", "house" (statements drawn afresh) or "vary" (a spec)
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
    out.append(Seed("house", "house.rk", ""))  # written afresh by each mutant (house_file)
    out.append(Seed("vary", "vary.txt", ""))  # the same (vary_spec)
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
    """A mutant of a seed: one to four mutations, then an encoding. A house file is drawn from
    the language's statements, and a spec from the forms of `--vary`, then mutated at times."""
    if seed.kind == "vary":
        return f"{rng.choice(list(BASES))}\n{vary_spec(rng)}".encode()
    if seed.kind == "house":
        text = house_file(rng)
        for _ in range(rng.choice((0, 0, 0, 1))):
            text = mutate_text(text, rng)
        return text.encode()
    text = seed.text
    if seed.kind == "scenario" and rng.random() < 0.3:  # house rules inline, drawn too
        lines = "\n".join(statement(rng, ()) for _ in range(rng.randint(1, 2)))
        inline = f'house_rules = """\n{lines}\n"""\ntitle = '
        text = re.sub(r"(?m)^title = ", inline, text, count=1)
        if text.count("house_rules =") > 1:
            text = seed.text
    for _ in range(rng.randint(1, 4)):
        text = mutate_text(text, rng)
    return encode(text, rng)


# ---------------------------------------------------------------- house files from statements

# the bundled files a house file extends, and the entry names each has (to change or remove)
BASES = {
    "hachihachi/fudawiki": ("triple", "red", "four_three", "poetry_ribbons", "all_eights"),
    "hachihachi/kirisame": ("three", "red", "blue_poems", "diving", "all_eights"),
    "hachihachi/wikipedia-draft": ("sanbon", "aka", "poetry_ribbons"),
    "hachihachi/two-player": ("three", "red_poems"),
    "koikoi/sloper": ("ten_plains", "moon_viewing", "dry_three", "instant_win"),
    "sakura/hawaii": ("i", "ro", "chi"),
}
CARD_ATOMS = (
    "all of crane, curtain",
    "any of rainman, phoenix",
    "none of sake",
    "2 of crane, moon, phoenix",
    "lights >= {n}",
    "ribbons = {n}",
    "plains > {n}",
    "ribbons >= 1 and rest plain",
    "a month of {n}",
    "{n} months of 2",
    "a month of 3 in april, may",
    "points >= {big}",
)
ROUND_ATOMS = (
    "round >= {n}",
    "round = {n}",
    "all of round month",
    "{n} of round month",
    "dealer",
    "not dealer",
    "the field had any of crane, moon",
    "second",  # seats from the dealer (issue 25)
    "not third",
)
PLAY_ATOMS = ("continued", "an opponent continued", "continued {n} or more times")
PLAY_ATOMS += ("declared mizuten", "not declared shake")  # the file's declaration (Tensho)
END_ATOMS = ("score >= {n}", "nobody won", "everyone has points >= {big}", "dealt triple")
END_ATOMS += ("after a drawn round", "after {n} drawn rounds")
COUNT_ATOMS = ("everyone has points = 88", "captured dealt triple", "dealt triple")
# conditions on a factor's payer (issue 25), and one it refuses inside (a round atom)
PAYER_ATOMS = (
    "the payer has lights = 0",
    "the payer has (plains >= 1 and plains <= {n})",
    "the payer has none of lights, animals, ribbons, plains",
    "lights >= 3 and the payer has animals = 0",
    "the payer has dealer",
)
KINDS = ("yaku", "teyaku", "the count", "everything")
REMOVABLE = (
    "hiki", "wild", "fold", "void", "continue", "liability", "teams", "joker", "multiplier",
    "instant wins", "sit out", "setup", "first dealer", "dealer captures", "deal at 4 seats",
    "teams at 6 seats", "void hand", "show scores", "declare", "tie break", "play out the stock",
    "the dealer may take", "draw", "still draws",
)  # fmt: skip
TIE_BREAKS = ("the most rounds won", "the first in play order from the dealer")
SETUP_STEPS = ("hands", "field", "fold", "teyaku", "swap", "joker", "instant_win")


def _number(rng: random.Random) -> str:
    return str(rng.choice((0, 1, 2, 3, 4, 5, 7, 12, rng.randint(0, 100))))


def _at_seats(rng: random.Random, step: str) -> str:
    """A scoring step, now and then only at a table size (`  at 4 seats: s0 ...`)."""
    if rng.random() < 0.25:
        return f"  at {rng.randint(2, 7)} seats: {step.strip()}"
    return step


def _unit(rng: random.Random) -> str:
    """A value written bare, or in the unit (` kan`; an unknown one now and then)."""
    return rng.choice(("", "", " kan", " kanz"))


def _fill(template: str, rng: random.Random) -> str:
    return template.format(n=rng.choice("012345"), big=rng.choice(("10", "88", "168", "300")))


def condition(rng: random.Random, atoms: tuple[str, ...], depth: int = 0) -> str:
    """A condition of a few atoms, with and, or, not and parentheses."""
    atom = _fill(rng.choice(atoms), rng)
    if depth > 2 or rng.random() < 0.4:
        return atom
    op = rng.choice(("and", "or", "not", "()", "everyone"))
    if op == "not":
        return f"not ({condition(rng, atoms, depth + 1)})"
    if op == "()":
        return f"({condition(rng, atoms, depth + 1)})"
    if op == "everyone":
        return f"everyone has ({condition(rng, atoms, depth + 1)})"
    return f"{atom} {op} {condition(rng, atoms, depth + 1)}"


def _scoring_step(rng: random.Random, name: str) -> str:
    cond = condition(rng, CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS + END_ATOMS + PAYER_ATOMS)
    cond = f" if {cond}" if rng.random() < 0.8 else ""
    if rng.random() < 0.1:  # an exemption: the payer pays nothing (issue 25)
        kind = f" on {rng.choice(KINDS)}" if rng.random() < 0.4 else ""
        return f'  {name} "Step" the payer pays nothing{kind}{cond}'
    if rng.random() < 0.5:
        kind = f" on {rng.choice(KINDS)}" if rng.random() < 0.6 else ""
        return f'  {name} "Step" x{rng.choice((1, 2, 3, 10))}{kind}{cond}'
    payee = rng.choice(("dealer", "winner", "second", "third"))
    share = rng.choice(("", " from each other", " split between the others"))
    opts = rng.choice(("", "; times multiplier", "; flat"))
    unit = rng.choice(("", "", " kan"))
    return f'  {name} "Step" the {payee} takes {_number(rng)}{unit}{share}{cond}{opts}'


def statement(rng: random.Random, names: tuple[str, ...], kind: int | None = None) -> str:
    """One statement of the language, of any kind (or of the kind given: 0 to 23), with
    numbers and conditions drawn."""
    n = _number
    entry = rng.choice((*names, "probe", "probe2"))
    if kind is None:
        kind = rng.randrange(24)
    if kind == 0:
        return "scoring\n" + "\n".join(
            _at_seats(rng, _scoring_step(rng, f"s{i}")) for i in range(rng.randint(1, 3))
        )
    if kind == 1:
        return f"scoring\n  remove {rng.choice(('s0', 'oya_ken', 'seven_doubled'))}"
    if kind == 2:
        opts = rng.choice(
            ("", "; at count", "; +1 per extra", "; flat", "; unless ten_plains",
             # a yaku that cancels the others' or wins the round at once (issue 25)
             "; at count; cancels every yaku", "; at count; cancels the yaku of the others",
             "; wins the round")
        )  # fmt: skip
        atoms = CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS + (COUNT_ATOMS if "count" in opts else ())
        return f'yaku\n  {entry} "Probe" {n(rng)}: {condition(rng, atoms)}{opts}'
    if kind == 3:
        return f'teyaku\n  {entry} "Probe" {n(rng)}: {condition(rng, CARD_ATOMS + ROUND_ATOMS)}'
    if kind == 4:
        if rng.random() < 0.3:  # a dealt hand's void rule asks what an instant win may
            return f"void if a hand has {condition(rng, CARD_ATOMS + ROUND_ATOMS)}"
        return f"void if the field has {condition(rng, CARD_ATOMS + ROUND_ATOMS[:3])}"
    if kind == 5:
        if rng.random() < 0.2:  # every hand winning at once: a draw (GS 12), or its removal
            return rng.choice(("every hand winning at once is a draw", "remove instant draw"))
        cond = condition(rng, CARD_ATOMS + ROUND_ATOMS)
        return f"instant win {n(rng)}{_unit(rng)} if a hand has {cond}"
    if kind == 6:
        tier = f"  x{rng.choice((2, 3, 4))} if {condition(rng, CARD_ATOMS + ROUND_ATOMS[:3])}"
        return "multiplier\n" + tier + rng.choice(("", "; carry if 2 or more"))
    if kind == 7:
        return "sit out: " + rng.choice(
            ("by folding", "the players after the dealer, in turn", "the dealer",
             "the dealer, then the players after him", "the loser of the last round",
             "the winner", "each in turn")
        )  # fmt: skip
    if kind == 8:
        return "remove " + ", ".join(rng.sample(REMOVABLE, rng.randint(1, 2)))
    if kind == 9:
        return f"{rng.choice(('yaku', 'teyaku', 'instant wins'))}\n  remove {entry}"
    if kind == 10:
        show = rng.choice(("", "", "\nshow scores in kan", "\nshow scores in kanz"))
        return f"unit kan = {n(rng)} points{show}"
    if kind == 11 and rng.random() < 0.3:
        return "tie break: " + ", then ".join(rng.sample(TIE_BREAKS, rng.randint(1, 2)))
    if kind == 11 and rng.random() < 0.2:  # a round drawn at the count (issue 25, Dandruff)
        atoms = CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS + COUNT_ATOMS + ("score >= {n}",)
        return f"the round is a draw if a player has {condition(rng, atoms)}"
    if kind == 11:
        opts = rng.sample(
            ["winner deals", "dealer keeps on a draw", "dealer rotates",
             f"until a score of {rng.choice((1, 50, 500, 100000))}{_unit(rng)}",
             f"start at {rng.choice(('', '-'))}{n(rng)}{_unit(rng)}"],
            rng.randint(0, 3),
        )  # fmt: skip
        return "; ".join([f"rounds {rng.choice((1, 2, 6, 12, 13))}", *opts])
    if kind == 12:
        low = rng.randint(2, 7)
        return rng.choice(
            (f"seats {low}", f"seats {low} to {rng.randint(low, 8)}",
             f"seats {low} to {rng.randint(low, 8)}, {rng.randint(2, low)} play")
        )  # fmt: skip
    if kind == 13:
        at = f"at {rng.randint(2, 7)} seats: " if rng.random() < 0.4 else ""
        return f"deal {at}{rng.randint(1, 10)} to each, {rng.randint(0, 12)} to the field"
    if kind == 14:
        steps = rng.sample(SETUP_STEPS, rng.randint(2, 6))
        if "hands" not in steps:
            steps.insert(0, "hands")
        return "setup: " + ", ".join(steps)
    if kind == 15:
        method = rng.choice(
            ("par 88", f"par {n(rng)}{_unit(rng)}", "difference", "points", "round wins", "none",
             f"par 88, {n(rng)} at {rng.randint(2, 7)} seats",
             # a round won by criteria in turn (issue 25, Tensho)
             "round wins by " + ", then ".join(
                 rng.choice(("yaku points", "points", "plains", "lights", "plainz"))
                 for _ in range(rng.randint(1, 5))),
             f"par 88 at 3 seats, {n(rng)}{_unit(rng)} at 4, 60 at 5 seats",
             f"{n(rng)} per {n(rng)} points")  # steps of card points (issue 25, Sanju-sen-me)
        )  # fmt: skip
        opts = rng.sample(
            ["only without yaku", "always", "opponents lose each yaku", "teams pool their cards",
             "team members count apart", "a tie is a draw",
             "a tie goes to the first in play order", "the best net wins", "the best count wins",
             "paid by each other player", "each yaku scores for its maker"],
            rng.randint(0, 2),
        )  # fmt: skip
        return "; ".join([f"count: {method}", *opts])
    if kind == 16:
        opts = rng.sample(
            ["paid when made", "paid when stopping", "paid at the count", "multiplier per yaku",
             "yaku do not end the round", "if beaten refund half and pay for all",
             "if beaten forfeit", "if unfinished keep", "if unfinished pay half to each",
             "if unfinished earn half", "if unfinished forfeit",
             "if another stops first forfeit", "if another stops first keep",
             "if another stops first the first continuer pays for all",  # go-bak (issue 25)
             # conditions on the choice (issue 23)
             f"stop only if {condition(rng, CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS + END_ATOMS)}",
             f"continue only if {condition(rng, CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS)}",
             "continue at most once per round", "continue not with an empty hand",
             # the choice as a whole, a stop minimum (issue 25)
             f"choice only if {condition(rng, CARD_ATOMS + ROUND_ATOMS + PLAY_ATOMS)}",
             "after a lost yaku, a stop needs more than what is left",
             "after a lost yaku, a stop needs more than the value declared",
             f"paid when stopping; +{n(rng)}{_unit(rng)} per continue"],
            rng.randint(1, 3),
        )  # fmt: skip
        return "continue: " + "; ".join(opts)
    if kind == 17:
        opts = rng.sample(
            [f"fee {n(rng)}{_unit(rng)}", "times multiplier", "flat", "forced folds free",
             f"forced folds pay {n(rng)}{_unit(rng)}", "starts at dealer", "starts after dealer",
             "to the winner", "to the players", "to the dealer", "to the bank",
             "before the deal", "after the deal",
             # conditions on joining and folding (issue 23)
             f"fold only if {condition(rng, CARD_ATOMS + ROUND_ATOMS)}",
             f"join only if {condition(rng, CARD_ATOMS + ROUND_ATOMS)}"],
            rng.randint(1, 3),
        )  # fmt: skip
        return "fold: " + "; ".join(opts)
    if kind == 18:
        return f"every {rng.choice(('yaku', 'teyaku'))} is worth {n(rng)}"
    if kind == 19:
        return f"teams at {rng.randint(2, 7)} seats: {rng.choice(('pairs', 'threes'))}"
    if kind == 20:
        return f"joker at {rng.randint(2, 7)} seats: replaced from the stock"
    if kind == 21:
        return rng.choice(
            ("hiki: capture all four cards of a month seen in hand and field",
             "wild lightning: captures any field card from the hand; collects its month at the"
             " end; cannot break a hiki; may be laid on the field when blocked",
             f"the dealer captures a month of {rng.randint(2, 4)} on the field",
             "play out the stock",  # (issue 25)
             # the dealer's claim of the field (issue 25, Tensho's TE 10), some numbers wrong
             f"the dealer may take {rng.randint(1, 3)} of a month of {rng.randint(2, 5)} on the"
             " field and play second",
             "wild lightning: captures any field card from the hand",
             _wild(rng),  # any of the wild card's options (issue 25: Mushi's)
             # conditions on a hiki and on the swap (issue 23)
             f"hiki only if {condition(rng, CARD_ATOMS + ROUND_ATOMS)}",
             f"swap only if {condition(rng, CARD_ATOMS + ROUND_ATOMS)}",
             # a teyaku shown or kept hidden, its cards capturable; an emptied hand drawing on
             # (issue 25, Hana-Awase's chaff teyaku); the option on a yaku is refused
             f'{rng.choice(("teyaku", "yaku"))}\n  {entry} "Probe" {n(rng)}:'
             f" {condition(rng, CARD_ATOMS)}; shown: the others may capture its cards",
             "the player with no hand card still draws")
        )  # fmt: skip
    if kind == 22:
        return f"{rng.choice(('yaku', 'teyaku'))}\n  {entry} {n(rng)}{rng.choice(('', ' kan'))}"
    return f"liable {entry}: the feeder pays; if holding {n(rng)} or more"


WILD_OPTIONS = (
    "captures any field card from the hand", "collects its month at the end",
    "cannot break a hiki", "may be laid on the field when blocked", "cannot take its own month",
    "taken from the field by the next card drawn", "takes the whole field when drawn last",
    "captures any field card when drawn",
    "the last of its month goes to the holder of the other two",
)  # fmt: skip


def _wild(rng: random.Random) -> str:
    """`wild CARD: ...`: some of the wild card's options, in any order."""
    card = rng.choice(("lightning", "lightning", "rainman", "sake"))
    return f"wild {card}: " + "; ".join(rng.sample(WILD_OPTIONS, rng.randint(1, 5)))


def declaration(rng: random.Random) -> str:
    """`declare NAME "Label": ...`: a few of its options, any order, a number drawn."""
    opts = rng.sample(
        ["by the dealer", "before the deal", "he must join",
         f"{_number(rng)} from each who folds", "times multiplier",
         "flat", f"only if {condition(rng, CARD_ATOMS + ROUND_ATOMS)}",
         # other moments, who, stakes (issue 23, item 2)
         "by any player", f"by a player who holds {condition(rng, CARD_ATOMS)}",
         "after seeing the hand", "before the first play", f"x{rng.randint(1, 4)} on his winnings",
         f"{_number(rng)} from each other player", "he must win the round",
         "he must make a yaku", f"{_number(rng)} to each other player if he fails",
         # x2 per triplet shown (issue 25, GS 48), the month's size drawn, some wrong
         f"x{rng.randint(1, 4)} on his winnings for each month of {rng.randint(0, 5)}"],
        rng.randint(0, 5),
    )  # fmt: skip
    label = rng.choice(("", ' "Mizuten"'))
    return f"declare {rng.choice(('mizuten', 'shake'))}{label}: " + "; ".join(opts)


CHOICE_CARDS = ("sake", "crane", "sake + boar", "animals", "willow", "90", "sak", "lights - moon")
CHOICE_CLASSES = ("animal", "plain", "plains", "ribbons", "light", "animl")


def owners_choice(rng: random.Random) -> str:
    """`treat CARDS as CLASS or N CLASSES, owner's choice` (issue 23): cards, classes and a
    weight drawn, some of them wrong."""
    first, second = (rng.choice(CHOICE_CLASSES) for _ in range(2))
    weight = rng.choice(("", "1 ", "2 ", "2 ", "4 ", "5 "))
    cards = rng.choice(CHOICE_CARDS)
    return f"treat {cards} as {first} or {weight}{second}, owner's choice"


EVENT_KINDS = (
    "the field is swept", "a stack is left", "a stack is taken",
    "the play and the draw take a pair", "the draw takes the card played", "a stak is taken",
    "a bomb",
)  # fmt: skip


ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "first")  # the last two refused


def event_statement(rng: random.Random) -> str:
    """An event during play (issue 25), the stacking draw, or their removal: kinds, classes
    and numbers drawn, some of them wrong."""
    if rng.random() < 0.25:
        return rng.choice(
            ("the draw stacks on the pair just made", "remove events", "remove stacks",
             "remove event jjok", "remove bomb", "remove draw offer",
             # a draw offered (GS 55, shodang), with and without the refuser's liability
             "offer a draw: when he has no safe play",
             "offer a draw: when he has no safe play; the refuser pays for all if another wins",
             "offer a draw: when he has a safe play",
             f"bomb: {rng.randint(1, 4)} of a month from the hand take the rest from the field",
             f"bomb: 3 of a month from the hand take the rest from the field; he may skip the"
             f" play on {rng.randint(0, 3)} later turns")
        )  # fmt: skip
    opts = rng.sample(
        [f"each opponent gives a {rng.choice(CHOICE_CLASSES)}",
         f"each opponent pays {_number(rng)}{_unit(rng)}", f"x{rng.randint(1, 4)} on his winnings",
         "on his first turn", "not on the last turn",
         # GS 42-43: a streak from the first turn, the Nth time, a doubling steal, a win
         "on his first turns in a row", f"only the {rng.choice(ORDINALS)} time",
         f"each opponent pays {_number(rng)}, doubled each time", "he wins the round",
         # cheodddadak: another event's turns in the row (a name of the file's, or not)
         f"turns of {rng.choice(('ttadak', 'jjok', 'sseul, ppeok', 'tadak'))} count in the row"],
        rng.randint(0, 4),
    )  # fmt: skip
    name = rng.choice(("jjok", "sseul", "ppeok", "ttadak"))
    label = rng.choice(("", ' "Jjok"'))
    return f"event {name}{label}: {rng.choice(EVENT_KINDS)}" + "".join(f"; {o}" for o in opts)


SPECIAL_CARDS = (
    "peony, clover",
    "lightning",
    "month 12 - phoenix",
    "willow",
    "113",
    "boar",
    "pine",
)


def special_cards(rng: random.Random) -> str:
    """Special cards (issue 25): cards left out (`without`), a card counted as N of its class,
    a card's own points, lone cards, bonus cards; cards, classes and numbers drawn, some of them
    wrong."""
    cards = rng.choice(SPECIAL_CARDS)
    kind = rng.randrange(5)
    if kind == 0:
        return f"without {cards}"
    if kind == 4:
        weight = rng.choice((1, 2, 3, 7))
        cid = rng.choice((130, 139, 10, 0))
        return f'card {cid} extra "Extra" bonus as {weight} {rng.choice(CHOICE_CLASSES)}'
    if kind == 3:
        lone = rng.choice(("phoenix", "pine", "lightning", "113 + 10", "phenix"))
        return rng.choice((f"lone {lone}: goes to whoever plays or draws it", "remove lone"))
    if kind == 1:
        weight = rng.choice((0, 1, 2, 2, 3, 4, 5))
        return f"treat {cards.replace(',', ' +')} as {weight} {rng.choice(CHOICE_CLASSES)}"
    name = rng.choice(("moon", "rainman", "lightning", "moonn", "light", "boar"))
    return f"points {name} {rng.choice((0, 5, 25, -3, 10**6))}"


def house_file(rng: random.Random) -> str:
    """A house file: `extends` a bundled file, then one to four statements of any kind."""
    base = rng.choice(list(BASES))
    lines = [f'extends "{base}"']
    for _ in range(rng.randint(1, 4)):
        lines.append(statement(rng, BASES[base]))
    if rng.random() < 0.2:  # (drawn here: the statement kinds' draws stay as they were)
        lines.append(declaration(rng))
    if rng.random() < 0.2:  # (after the declaration's draws: theirs stay as they were)
        lines.append(owners_choice(rng))
    if rng.random() < 0.3:  # (after the owner's choice's draws: theirs stay as they were)
        lines.extend(event_statement(rng) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.2:  # special cards (after the events' draws)
        lines.append(special_cards(rng))
    if rng.random() < 0.2:  # a forced folder's compensation (after the special cards' draws)
        lines.append(compensation(rng))
    if rng.random() < 0.15:  # bonus cards riding a stack (after the compensation's draws)
        lines.append(bonus_on_pair(rng))
    return "\n".join(lines) + "\n"


RIDE = "the bonus cards drawn onto the pair just made stay with it if it becomes a stack"


def bonus_on_pair(rng: random.Random) -> str:
    """Bonus cards drawn onto the pair just made riding its stack (issue 25, GS 28): with the
    Korean deck's bonus cards and the stacking draw, or without either, misspelt, removed."""
    return rng.choice(
        (f'deck "common/korean"\nthe draw stacks on the pair just made\n{RIDE}',
         f'deck "common/korean"\nthe draw stacks on the pair just made\n{RIDE}\nremove stacks',
         f'deck "common/korean"\n{RIDE}', RIDE, "remove bonus_on_pair",
         "the bonus cards drawn onto the pair stay with it")
    )  # fmt: skip


def compensation(rng: random.Random) -> str:
    """What a player forced to fold is paid (issue 25, GS 61), or its removal: amounts, sets,
    conditions and payers drawn, some of them wrong."""
    if rng.random() < 0.15:
        return "remove compensation"
    cards = rng.choice(("lights", "lights + sake + lightning", "month 12", "boar", "lihgts", "113"))
    opts = rng.sample(
        [f"x{rng.randint(1, 4)} if he holds {condition(rng, CARD_ATOMS + ROUND_ATOMS)}",
         "paid by each player of the round", "paid by each player of the round but the dealer"],
        rng.randint(0, 2),
    )  # fmt: skip
    amount = f"{rng.choice((0, 1, 2, 3, 10**6))}{_unit(rng)}"
    return f"compensation: {amount} per card of {cards}" + "".join(f"; {o}" for o in opts)


def vary_spec(rng: random.Random) -> str:
    """A `tune --vary` spec: a name a bundled file has, or not, and values of every form."""
    name = rng.choice(("triple", "fee", "unit", "par", "x4", "ten_plains", "s0", "trpile", ""))
    lo, hi = (rng.choice((-5, 0, 1, 10, 36, 10**6, 10**20)) for _ in range(2))
    values = rng.choice(
        (f"{lo}..{hi}", f"{lo}..{hi} step {rng.choice((0, 1, 5, -1, 10**9))}", f"{lo},{hi}",
         f"{lo},{lo}", "9" * rng.choice((5, 5000)), f"{lo}..", "..", "1,,2")
    )  # fmt: skip
    return f"{name} {values}"


# ---------------------------------------------------------------- the oracle


def _play_a_few_rounds(path: Path) -> None:
    """A whole game at the smallest and largest table (random bots), a few rounds of the greedy
    bot, and one of the bot that weighs the rules' choices."""
    rules = load_rules(path)
    sizes = sorted({rules.seats.min, min(rules.seats.max, 8)})
    for seated in sizes:
        if rules.seats.refusal(rules.title, seated):
            continue
        simulate(rules, seats=seated, bots=["random"], seed=seated, games=1, engine="scalar")
        simulate(rules, seats=seated, bots=["greedy"], seed=1, rounds=3, engine="scalar")
    simulate(rules, seats=sizes[0], bots=["rulewise"], seed=2, rounds=1, engine="scalar")


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


def _vary(path: Path) -> None:
    """A bundled file (first line) and a spec (second): refused with a SpecError or a usage
    error, or tuned over a few rounds."""
    base, _, text = path.read_text(encoding="utf-8").partition("\n")
    rules = load_rules(base)
    try:
        spec = parse_spec(text)
        tune(rules, base, spec, rounds=6, bots=["random"], seed=1, engine="scalar")
    except RulekitError as err:
        if isinstance(err, InternalError):
            raise AssertionError(err.render()) from err


CHECKS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "rk": (".rk", _load_and_play),
    "json": (".json", _load_and_play),
    "scenario": (".scenario.toml", _run_scenario),
    "house": (".rk", _load_and_play),
    "vary": (".txt", _vary),
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
    kept.ENABLED = False  # every mutant loaded anew, none kept in the user's cache folder
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
