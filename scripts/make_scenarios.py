"""Regenerate the recorded scenarios of the bundled rule files.

    python scripts/make_scenarios.py [--only fudawiki|kirisame|draft|two-player|koikoi|sakura]
                                     [--out FOLDER]

Each scenario is a real round (or game) found by searching seeded deals and played by the bots,
written down with its stacked deal, every move and its whole ledger (rulekit.scenario.record):
"each teyaku and yaku occurring in a real round", special hands, whole games. The hand-written
scenarios next to them, which pin the rule readings with figures worked out from the sources,
are not touched. `--out` writes them under another folder instead of rules/ (to compare a
regeneration with the bundled files).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rulekit.agents import make_agent
from rulekit.engine.game import Game
from rulekit.engine.playout import play_round
from rulekit.engine.round import Round, RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.output import plain_amount
from rulekit.scenario.record import round_record, scenario_record, seat_names, to_toml

RULES = Path(__file__).resolve().parent.parent / "rules"
HEADER = (
    "# Recorded by scripts/make_scenarios.py: a real round found by search and played by the\n"
    "# bots named in the title, written down with its deal, its moves and its whole ledger.\n"
)
MAX_TRIES = 400_000  # deals searched for one scenario
MAX_GAMES = 10_000  # games searched for a two-round scenario
Moves = list[tuple[int, int]]
Found = tuple[Round, Moves, list[str]]
Test = Callable[[Round, RoundResult, Moves], bool]
Describe = Callable[[Round, list[str]], str]
out = RULES  # where the scenarios are written (--out)


def bots_for(k: int, seats: int) -> list[str]:
    """Greedy and random bots in turn, so that the searches see varied play."""
    return ["greedy" if (k + s) % 2 else "random" for s in range(seats)]


def rounds(
    c: CompiledRules, seats: int
) -> Iterator[tuple[Round, list[tuple[int, int]], RoundResult, list[str]]]:
    for k in range(MAX_TRIES):
        names = bots_for(k, seats)
        rnd = Round(c, seats, k % seats, seed="scenarios", deal_no=k)
        agents = [make_agent(names[s], f"scenarios:{k}:{s}") for s in range(seats)]
        moves: list[tuple[int, int]] = []
        result = play_round(rnd, agents, moves)
        yield rnd, moves, result, names


def first(c: CompiledRules, seats: int, test: Test) -> Found | None:
    for rnd, moves, result, names in rounds(c, seats):
        if test(rnd, result, moves):
            return rnd, moves, names
    return None


def write(
    folder: str,
    stem: str,
    title: str,
    rules: str,
    seats: int,
    recorded: list[dict[str, Any]],
    description: str,
    game_net: list[Any] | None = None,
) -> None:
    names = seat_names(seats)
    doc = scenario_record(title, rules, names, recorded)
    doc = {
        "title": doc["title"],
        "description": description,
        **{k: v for k, v in doc.items() if k != "title"},
    }
    text = to_toml(doc)
    if game_net is not None:
        totals = ", ".join(f"{names[s]} = {plain_amount(v)}" for s, v in enumerate(game_net))
        text += f"\n[game]\nnet = {{ {totals} }}\n"
    path = out / folder / f"{stem}.scenario.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + text, encoding="utf-8")
    print("wrote", path.relative_to(out.parent))


def record_found(
    c: CompiledRules,
    folder: str,
    stem: str,
    title: str,
    rules: str,
    seats: int,
    test: Test,
    description: Describe,
) -> None:
    """The first searched round (of `c`, at `seats`) that passes `test`, written down."""
    found = first(c, seats, test)
    if found is None:
        print("not found:", stem)
        return
    rnd, moves, bots = found
    names = seat_names(seats)
    write(
        folder,
        stem,
        f"{title} ({', '.join(bots)})",
        rules,
        seats,
        [round_record(rnd, moves, names)],
        description(rnd, names),
    )


def teyaku_of(rnd: Round) -> set[str]:
    table = rnd.c.teyaku
    return {table.names[i] for c in rnd.teyaku_counted.values() for i in c} if table else set()


def record_entries(
    c: CompiledRules, folder: str, rules: str, seats: int, teyaku: list[str], yaku: list[str]
) -> None:
    """A round for each named teyaku and yaku of `c` (the rule file `rules`)."""
    for name in teyaku:
        assert c.rules.teyaku is not None and c.teyaku is not None
        label = c.rules.teyaku.entry(name).label

        def holder(rnd: Round, names: list[str], n: str = name, lb: str = label) -> str:
            t = rnd.c.teyaku
            assert t is not None
            who = next(
                names[s] for s, cs in rnd.teyaku_counted.items() if n in {t.names[i] for i in cs}
            )
            return f"{who} is dealt {lb} and is paid by each other player; the round is played out."

        def dealt(r: Round, res: RoundResult, mv: Moves, n: str = name) -> bool:
            return n in teyaku_of(r)

        record_found(
            c,
            folder,
            f"teyaku-{name}",
            f"Teyaku {label}, dealt in a real round",
            rules,
            seats,
            dealt,
            holder,
        )
    for name in yaku:
        assert c.rules.yaku is not None
        entry = c.rules.yaku.entry(name)

        def made(rnd: Round, names: list[str], n: str = name, e: Any = entry) -> str:
            maker = next(names[s] for s, v in rnd.result().yaku.items() if n in v)
            how = (
                f"the dealer, {maker}, collects {e.label}"
                if e.paid_to_dealer
                else f"{maker} makes {e.label}"
            )
            return f"In this round {how}{' when the hands are counted' if e.at_count else ''}."

        def making(r: Round, res: RoundResult, mv: Moves, n: str = name) -> bool:
            return any(n in v for v in res.yaku.values())

        record_found(
            c,
            folder,
            f"yaku-{name}",
            f"Yaku {entry.label}, made in a real round",
            rules,
            seats,
            making,
            made,
        )


def record_all_yaku(folder: str, rules: str, seats: int) -> CompiledRules:
    """A round for every yaku of the rule file `rules`; its compiled tables, for more."""
    c = CompiledRules(load_rules(rules))
    assert c.rules.yaku
    record_entries(c, folder, rules, seats, [], [e.name for e in c.rules.yaku.entries])
    return c


def record_game(folder: str, rules: str, seats: int, seed: int, stem: str = "whole-game") -> None:
    c = CompiledRules(load_rules(rules))
    names = seat_names(seats)
    game = Game(c, seats, seed=f"scenarios:game:{seed}")
    agents = [make_agent("greedy", f"game:{seed}:{s}") for s in range(seats)]
    recorded = []
    while not game.is_over:
        rnd = game.new_round()
        moves: list[tuple[int, int]] = []
        result = play_round(rnd, agents, moves)
        game.record(result)
        if not result.void:
            recorded.append(round_record(rnd, moves, names))
    n = len(recorded)
    write(
        folder,
        stem,
        f"A whole game of {n} rounds (greedy bots)",
        rules,
        seats,
        recorded,
        f"{n} rounds in a row, dealt and scored as the rules say;"
        " the totals are checked at the end.",
        game.result().net,
    )


def record_two_rounds(
    folder: str,
    stem: str,
    title: str,
    rules: str,
    seats: int,
    test: Callable[[Round, RoundResult, Round], bool],
    description: str,
) -> None:
    """Two rounds of a game, the second shaped by the first (carry-over, or none)."""
    c = CompiledRules(load_rules(rules))
    names = seat_names(seats)
    for k in range(MAX_GAMES):
        game = Game(c, seats, seed=f"scenarios:{stem}:{k}", dealer=0)
        agents = [make_agent("greedy", f"{stem}:{k}:{s}") for s in range(seats)]
        one = game.new_round()
        if one.void:
            continue
        moves1: list[tuple[int, int]] = []
        r1 = play_round(one, agents, moves1)
        game.record(r1)
        two = game.new_round()
        if two.void or not test(one, r1, two):
            continue
        moves2: list[tuple[int, int]] = []
        play_round(two, agents, moves2)
        write(
            folder,
            stem,
            title,
            rules,
            seats,
            [round_record(one, moves1, names), round_record(two, moves2, names)],
            description,
        )
        return
    print("not found:", stem)


# ---------------------------------------------------------------- Hachi-Hachi


def hachihachi(only: str | None) -> None:
    if only in (None, "fudawiki"):
        f = load_rules("hachihachi/fudawiki")
        assert f.teyaku and f.yaku
        c = CompiledRules(f)
        record_entries(
            c,
            "hachihachi/scenarios/fudawiki",
            "hachihachi/fudawiki",
            3,
            [e.name for e in f.teyaku.entries],
            [e.name for e in f.yaku.entries],
        )
        record_two_rounds(
            "hachihachi/scenarios/fudawiki",
            "multiplier-carry-over",
            "The multiplier carries over to the next round",
            "hachihachi/fudawiki",
            3,
            lambda one, r1, two: r1.carry >= 2 and c.multiplier.of_field(two.field)[0] < r1.carry,
            "Round 1's field holds two lights of its kind; round 2's own field gives less,"
            " but it is "
            "played at round 1's multiplier.",
        )
        record_game("hachihachi/scenarios/fudawiki", "hachihachi/fudawiki", 3, 1)
    if only in (None, "kirisame"):
        k = load_rules("hachihachi/kirisame")
        assert k.teyaku and k.yaku
        basic = [e.name for e in k.teyaku.entries if not e.parts][:12]
        combos = ["red_three", "one_light_lead", "wither_four", "two_three"]
        record_entries(
            CompiledRules(k),
            "hachihachi/scenarios/kirisame",
            "hachihachi/kirisame",
            3,
            basic + combos,
            [e.name for e in k.yaku.entries],
        )
        record_game("hachihachi/scenarios/kirisame", "hachihachi/kirisame", 3, 2)
    if only in (None, "draft"):
        folder, rules = "hachihachi/scenarios/wikipedia-draft", "hachihachi/wikipedia-draft"
        c = CompiledRules(load_rules(rules))
        record_entries(c, folder, rules, 3, ["triple", "red"], ["poetry_ribbons"])
        record_found(
            c,
            folder,
            "joker-at-seven",
            "Seven at the table: the joker is replaced from the stock",
            rules,
            7,
            lambda r, res, mv: (
                not res.void
                and any(
                    not r.folded[s] and h >> r.joker_bit & 1 for s, h in enumerate(r.initial_hands)
                )
            ),
            lambda r, names: (
                "At 7 seats a joker is added (49 cards, 7 hands of 7). The player dealt it joins, "
                "takes it out of the game and draws the top card of the stock instead."
            ),
        )
        both = c.index.mask([110, 120])
        record_two_rounds(
            folder,
            "no-carry-over",
            "The multiplier does not carry over to the next round",
            rules,
            3,
            lambda one, r1, two: one.field & both == both and two.multiplier == 1,
            "Round 1's field holds the rain man and the phoenix (x4);"
            " in the draft that does not carry "
            "over: round 2, with no light on its field, is played at x1.",
        )
    if only in (None, "two-player"):
        folder, rules = "hachihachi/scenarios/two-player", "hachihachi/two-player"
        c = CompiledRules(load_rules(rules))
        record_entries(c, folder, rules, 2, ["three", "one_light"], ["red_poems", "four_lights"])
        record_found(
            c,
            folder,
            "count-difference",
            "Two players: the lower card total pays the difference",
            rules,
            2,
            lambda r, res, mv: res.ended_by == "count" and res.multiplier > 1,
            lambda r, names: (
                "No captured hand is formed: the lower card total pays the winner the difference, "
                "times the multiplier. (The rest of the stock is not played.)"
            ),
        )


# ---------------------------------------------------------------- Koi-Koi and Sakura


def koikoi(only: str | None) -> None:
    if only not in (None, "koikoi"):
        return
    folder, rules = "koikoi/scenarios", "koikoi/sloper"
    c = record_all_yaku(folder, rules, 2)
    record_found(
        c,
        folder,
        "drawn-round",
        "Nobody stops: the round is drawn and the dealer deals again",
        rules,
        2,
        lambda rnd, res, mv: res.ended_by == "draw",
        lambda rnd, names: (
            "The hands run out with nobody stopping (a koi-koi called and never cashed): "
            "no points, and the same dealer deals the next round."
        ),
    )
    record_found(
        c,
        folder,
        "koi-beaten",
        "A koi-koi overtaken: the caller loses, only the stopper scores",
        rules,
        2,
        lambda rnd, res, mv: (
            res.ended_by == "yaku" and any(rnd.continues[s] and s != res.winner for s in range(2))
        ),
        lambda rnd, names: (
            "One player calls koi-koi; the other then makes a yaku and stops: only the stopper "
            "scores, and the caller's yaku are worth nothing."
        ),
    )
    record_found(
        c,
        folder,
        "koi-twice-multiplier",
        "Two koi-koi and a third yaku: the score is tripled",
        rules,
        2,
        lambda rnd, res, mv: res.winner is not None and rnd.continues[res.winner] >= 2,
        lambda rnd, names: (
            "The winner called koi-koi twice before stopping: his yaku are worth three times "
            "their value (the 2nd yaku x2, the 3rd x3), times the field multiplier."
        ),
    )
    record_found(
        c,
        folder,
        "field-lights-multiplier",
        "Two lights on the field: every point is tripled",
        rules,
        2,
        lambda rnd, res, mv: res.multiplier == 3 and res.ended_by == "yaku",
        lambda rnd, names: "Each light on the field raises the multiplier by one: two lights, x3.",
    )
    record_game(folder, rules, 2, 3)
    record_game(folder, "koikoi/six-rounds", 2, 4, stem="whole-game-six-rounds")


def sakura(only: str | None) -> None:
    if only not in (None, "sakura"):
        return
    folder, rules = "sakura/scenarios", "sakura/hawaii"
    c = record_all_yaku(folder, rules, 3)
    record_found(
        c,
        folder,
        "dealer-captures-field-four",
        "Four of a month dealt to the field: the dealer takes them",
        rules,
        3,
        lambda rnd, res, mv: any((rnd.laid_field & m).bit_count() == 4 for m in rnd.ix.month_masks),
        lambda rnd, names: (
            f"The field is dealt all four cards of a month; the dealer, {names[rnd.dealer]}, "
            "captures them at once."
        ),
    )
    record_found(
        c,
        folder,
        "teams-of-two",
        "Four players in two teams: each yaku costs the opposing team 50",
        rules,
        4,
        lambda rnd, res, mv: sum(len(v) for v in res.yaku.values()) >= 2,
        lambda rnd, names: (
            "Alice and Carol play against Bob and Dave (partners sit opposite). Each yaku costs "
            "the opposing team 50, shared by its two members (25 each)."
        ),
    )
    record_found(
        c,
        folder,
        "teams-of-three",
        "Six players in two teams of three",
        rules,
        6,
        lambda rnd, res, mv: bool(res.yaku),
        lambda rnd, names: (
            "Alice, Carol and Erin against Bob, Dave and Frank (partners alternate). A yaku costs "
            "the opposing team 50, shared by its three members."
        ),
    )
    record_found(
        c,
        folder,
        "seven-players",
        "Seven players, each for himself: 3 cards each, 6 to the field",
        rules,
        7,
        lambda rnd, res, mv: bool(res.yaku),
        lambda rnd, names: (
            "At 7 players each plays for himself; a yaku costs each of the six others 50."
        ),
    )
    record_found(
        CompiledRules(load_rules("sakura/round-wins")),
        folder,
        "round-wins",
        "Scored by rounds won: the best score takes the round",
        "sakura/round-wins",
        4,
        lambda rnd, res, mv: bool(res.yaku),
        lambda rnd, names: (
            "The house rule counts rounds won instead of points: the best team score (points "
            "minus 50 per opposing yaku) wins the round, worth one to each of its members."
        ),
    )
    record_game(folder, rules, 3, 5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="fudawiki, kirisame, draft, two-player, koikoi or sakura")
    parser.add_argument("--out", type=Path, help="write under this folder instead of rules/")
    args = parser.parse_args()
    only = args.only
    if args.out is not None:
        global out
        out = args.out.resolve()
    hachihachi(only)
    koikoi(only)
    sakura(only)


if __name__ == "__main__":
    main()
