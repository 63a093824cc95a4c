"""Every condition atom in every place a condition is written (issue 21, item 6): `check`
refuses it there with an error located at the atom, or the file plays (a whole game, then
rounds of the greedy bot) without an error. The places each atom may be written are written
out here, from docs/language.md's table, not read from the resolver: a change to either shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekit.errors import RuleErrors, RulekitError
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate

# a sample of each atom, written so that a hand, a pile or a field can make it
ATOMS = {
    "all of": "all of crane, curtain",
    "any of": "any of crane, moon",
    "none of": "none of crane",
    "N of": "2 of crane, curtain, moon",
    "count": "lights >= 1",
    "rest": "ribbons >= 1 and rest plain",
    "shape": "a month of 2",
    "points": "points >= 10",
    "everyone has": "everyone has points >= 10",
    "dealt": "dealt triple",
    "captured dealt": "captured dealt triple",
    "round": "round >= 2",
    "all of round month": "all of round month",
    "N of round month": "1 of round month",
    "dealer": "dealer",
    "second": "second",
    "third": "third",
    "continued": "continued",
    "an opponent continued": "an opponent continued",
    "score": "score >= 1",
    "the field had": "the field had any of crane",
    "nobody won": "nobody won",
    "after a drawn round": "after a drawn round",
    "the payer has": "the payer has lights >= 1",
    "declared": "declared probe",  # (the place's declaration, or one added: write)
}
CARDS = ("all of", "any of", "none of", "N of", "count", "rest", "shape", "points")

# where each atom may be written (docs/language.md, "Conditions that see the round")
EVERYWHERE = frozenset(
    {"yaku", "yaku at count", "teyaku", "instant win", "void", "void hand", "tier", "scoring",
     "choice", "join or fold", "swap", "hiki", "declaration", "declaration seen", "draw"}
)  # fmt: skip
# places whose player has seen no card of his (the swap, a declaration before the deal): his
# cards are not tested there, the field's are (inside `the field had`)
UNSEEN = frozenset({"swap", "declaration"})
ALLOWED: dict[str, frozenset[str]] = {
    **dict.fromkeys(CARDS, EVERYWHERE - UNSEEN | {"the field had", "everyone has"}),
    "round": EVERYWHERE | {"everyone has"},
    "all of round month": EVERYWHERE - UNSEEN | {"the field had", "everyone has"},
    "N of round month": EVERYWHERE - UNSEEN | {"the field had", "everyone has"},
    "dealer": frozenset(
        {
            "yaku",
            "yaku at count",
            "teyaku",
            "instant win",
            "void hand",
            "scoring",
            "choice",
            "join or fold",
            "swap",
            "hiki",
            "declaration",
            "declaration seen",
            "draw",
        }
    ),
    "second": frozenset(),  # (as the dealer's: below)
    "third": frozenset(),
    "continued": frozenset({"yaku", "yaku at count", "scoring", "choice", "draw"}),
    "an opponent continued": frozenset({"yaku", "yaku at count", "scoring", "choice", "draw"}),
    "score": frozenset({"scoring", "choice"}),
    "the field had": EVERYWHERE | {"everyone has"},
    "nobody won": frozenset({"scoring", "everyone has"}),
    "after a drawn round": frozenset({"scoring", "everyone has"}),
    "everyone has": frozenset({"yaku at count", "scoring", "draw", "everyone has"}),
    "dealt": frozenset({"yaku at count", "scoring", "draw"}),
    "captured dealt": frozenset({"yaku at count", "scoring", "draw"}),
    "the payer has": frozenset({"scoring factor"}),  # (an award's condition has no payer)
    "declared": frozenset({"yaku", "yaku at count", "scoring", "choice", "draw"}),
}

ALLOWED["second"] = ALLOWED["third"] = ALLOWED["dealer"]  # seats from the dealer (issue 25)

# each place: the file extended, and the lines that put a condition {c} there (a void rule and
# an instant win ask for a month of 4 too, so that most deals play on)
PLACES: dict[str, tuple[str, str]] = {
    "yaku": ("hachihachi/fudawiki", 'dekiyaku\n  probe "Probe" 10: {c}\n'),
    "yaku at count": ("hachihachi/fudawiki", 'dekiyaku\n  probe "Probe" 10: {c}; at count\n'),
    "teyaku": ("hachihachi/fudawiki", 'teyaku\n  probe "Probe" 10: {c}\n'),
    "instant win": ("koikoi/sloper", 'instant wins\n  probe "Probe" 6: ({c}) and a month of 4\n'),
    "void": ("hachihachi/fudawiki", "void if the field has ({c}) and a month of 4\n"),
    "void hand": ("koikoi/sloper", "void if a hand has ({c}) and a month of 4\n"),
    "draw": ("hachihachi/fudawiki", "the round is a draw if a player has ({c}) and points <= 40\n"),
    "tier": ("hachihachi/fudawiki", "multiplier\n  x3 if {c}\n"),
    "scoring factor": ("hachihachi/fudawiki", 'scoring\n  probe "Probe" x2 on everything if {c}\n'),
    "scoring award": (
        "hachihachi/fudawiki",
        'scoring\n  probe "Probe" the dealer takes 6 if {c}\n',
    ),
    "choice": ("koikoi/sloper", 'continue "Koi-koi": multiplier per yaku; stop only if {c}\n'),
    "join or fold": ("hachihachi/fudawiki", "seats 4, 3 play\nfold: fee 10; fold only if {c}\n"),
    "swap": ("koikoi/sloper", "swap only if {c}\n"),
    "hiki": ("sakura/hawaii", "hiki only if {c}\n"),
    "declaration": (
        "hachihachi/house/mizuten",
        "seats 4, 3 play\ndeclare mizuten: by the dealer; before the deal; only if {c};"
        " he must join; 10 from each who folds\n",
    ),
    "declaration seen": (
        "koikoi/sloper",
        "declare shaking: by any player; before the first play; only if {c}; x2 on his winnings\n",
    ),
}
NESTS = {
    "": "{a}",
    "not": "not ({a})",
    "everyone has": "everyone has ({a})",
    "the field had": "the field had ({a})",
    "the payer has": "the payer has ({a})",
}


def allowed(atom: str, place: str, nest: str) -> bool:
    """Inside `everyone has`, an atom is tested in the place too; inside `the field had`, only
    on the field."""
    where = "scoring" if place.startswith("scoring") else place
    if "the payer has" in (atom, nest):  # a factor's payer: his cards only
        inner = atom in CARDS if nest == "the payer has" else nest in ("", "not")
        return place == "scoring factor" and inner
    if nest in ("", "not"):
        return where in ALLOWED[atom]
    inner = nest in ALLOWED[atom] and (nest == "the field had" or where in ALLOWED[atom])
    return where in ALLOWED[nest] and inner


def write(tmp_path: Path, atom: str, place: str, nest: str) -> tuple[Path, int]:
    """The house file, and the line its condition is on."""
    base, lines = PLACES[place]
    cond = NESTS[nest].format(a=ATOMS[atom])
    declared = ""
    if atom == "declared":  # it names the file's declaration: the place's, or one added
        named = re.search(r"declare (\w+)", lines)
        if named:
            cond = cond.replace("probe", named.group(1))
        else:
            declared = 'declare probe "Probe": by the dealer; before the deal\n'
    text = f'extends "{base}"\n' + lines.format(c=cond)
    path = tmp_path / "probe.rk"
    # a game of three rounds: enough for the conditions across rounds, a fourth of the time
    path.write_text(text + declared + "rounds 3\n", encoding="utf-8")
    return path, text.count("\n")


@pytest.mark.parametrize("nest", list(NESTS))
@pytest.mark.parametrize("place", list(PLACES))
def test_every_atom_is_refused_where_it_means_nothing_or_plays(
    place: str, nest: str, tmp_path: Path
) -> None:
    for atom in ATOMS:
        path, line = write(tmp_path, atom, place, nest)
        case = f"{atom!r} {nest and 'inside ' + nest + ' '}in {place}"
        if allowed(atom, place, nest):
            rules = load_rules(path)  # no error: then a whole game plays
            simulate(
                rules, seats=rules.seats.min, bots=["random"], seed=3, games=1, engine="scalar"
            )
            continue
        with pytest.raises(RulekitError) as info:
            load_rules(path)
        errors = info.value.errors if isinstance(info.value, RuleErrors) else [info.value]
        refusals = [e for e in errors if "cannot be used in" in e.message]
        assert refusals, f"{case}: {[e.message for e in errors]}"
        loc = refusals[0].loc
        assert loc is not None and loc.file.endswith("probe.rk") and loc.line == line, case


def test_the_matrix_covers_every_atom_of_the_grammar() -> None:
    grammar = (Path(__file__).parent.parent / "grammar" / "rulekit.lark").read_text()
    atoms = grammar[grammar.index("?atom:") : grammar.index("times:")]
    aliases = {line.split("->")[-1].strip() for line in atoms.splitlines() if "->" in line}
    # each alias of the grammar's atoms has a sample here (the round month forms, and the two
    # `continued`, are two each; `second` and `third` one each)
    assert len(aliases) == len(ATOMS)
