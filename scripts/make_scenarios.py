"""Regenerate the recorded scenarios of the bundled Hachi-Hachi files.

    python scripts/make_scenarios.py [--only NAME]

Each scenario is a real round (or game) found by searching seeded deals and played by the bots,
written down with its stacked deal, every move and its whole ledger (rulekit.scenario.record):
"each teyaku and dekiyaku occurring in a real round", special hands, a whole game. The
hand-written scenarios next to them, which pin the rule readings with figures worked out from
the sources, are not touched.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

from rulekit.agents import make_agent
from rulekit.engine.game import Game
from rulekit.engine.round import Round, RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.scenario.record import round_record, scenario_record, seat_names, to_toml
from rulekit.sim.simulate import play_round

ROOT = Path(__file__).resolve().parent.parent / "rules" / "hachihachi" / "scenarios"
HEADER = (
    "# Recorded by scripts/make_scenarios.py: a real round found by search and played by the\n"
    "# bots named in the title, written down with its deal, its moves and its whole ledger.\n"
)
MAX_TRIES = 400_000


def bots_for(k: int, seats: int) -> list[str]:
    """Greedy and random bots in turn, so that the searches see varied play."""
    return ["greedy" if (k + s) % 2 else "random" for s in range(seats)]


def rounds(
    c: CompiledRules, seats: int, bots: Callable[[int], list[str]] = lambda k: []
) -> Iterator[tuple[int, Round, list[tuple[int, int]], RoundResult, list[str]]]:
    for k in range(MAX_TRIES):
        names = bots(k) or bots_for(k, seats)
        rnd = Round(c, seats, k % seats, seed="scenarios", deal_no=k)
        agents = [make_agent(names[s], f"scenarios:{k}:{s}") for s in range(seats)]
        moves: list[tuple[int, int]] = []
        result = play_round(rnd, agents, moves)
        yield k, rnd, moves, result, names


def write(
    folder: str,
    stem: str,
    title: str,
    rules: str,
    seats: int,
    recorded: list[dict[str, object]],
    description: str,
) -> None:
    names = seat_names(seats)
    doc = scenario_record(title, rules, names, recorded)
    doc["description"] = description
    text = to_toml(
        {
            k: doc[k]
            for k in (
                "title",
                "description",
                *[k for k in doc if k not in ("title", "description")],
            )
        }
    )
    path = ROOT / folder / f"{stem}.scenario.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + text, encoding="utf-8")
    print("wrote", path.relative_to(ROOT.parent.parent.parent))


def first(
    c: CompiledRules, seats: int, test: Callable[[Round, RoundResult], bool]
) -> tuple[Round, list[tuple[int, int]], list[str]] | None:
    for _, rnd, moves, result, names in rounds(c, seats):
        if test(rnd, result):
            return rnd, moves, names
    return None


def teyaku_of(rnd: Round) -> set[str]:
    table = rnd.c.teyaku
    return {table.names[i] for c in rnd.teyaku_counted.values() for i in c} if table else set()


def record_entries(folder: str, rules: str, seats: int, teyaku: list[str], yaku: list[str]) -> None:
    c = CompiledRules(load_rules(rules))
    names = seat_names(seats)
    for name in teyaku:
        label = c.rules.teyaku.entry(name).label if c.rules.teyaku else name
        found = first(c, seats, lambda r, res, n=name: n in teyaku_of(r))
        if found is None:
            print("not found: teyaku", name)
            continue
        rnd, moves, bots = found
        holder = next(
            names[s]
            for s, cs in rnd.teyaku_counted.items()
            if name in {c.teyaku.names[i] for i in cs}
        )  # type: ignore[union-attr]
        write(
            folder,
            f"teyaku-{name}",
            f"Teyaku {label}, dealt in a real round ({', '.join(bots)})",
            rules,
            seats,
            [round_record(rnd, moves, names)],
            f"{holder} is dealt {label} and is paid by each other player; the round is played out.",
        )
    for name in yaku:
        label = c.rules.yaku.entry(name).label if c.rules.yaku else name
        found = first(c, seats, lambda r, res, n=name: any(n in v for v in res.yaku.values()))
        if found is None:
            print("not found: yaku", name)
            continue
        rnd, moves, bots = found
        maker = next(names[s] for s, v in rnd.result().yaku.items() if name in v)
        entry = c.rules.yaku.entry(name)  # type: ignore[union-attr]
        how = (
            f"the dealer, {maker}, collects {label}"
            if entry.paid_to_dealer
            else f"{maker} makes {label}"
        )
        when = " when the hands are counted" if entry.at_count else ""
        write(
            folder,
            f"yaku-{name}",
            f"Yaku {label}, made in a real round ({', '.join(bots)})",
            rules,
            seats,
            [round_record(rnd, moves, names)],
            f"In this round {how}{when}.",
        )


def record_game(folder: str, rules: str, seats: int, seed: int) -> None:
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
    doc_rounds = recorded
    net = game.result().net
    write(
        folder,
        "whole-game",
        f"A whole game of {len(doc_rounds)} rounds (greedy bots)",
        rules,
        seats,
        doc_rounds,
        "Twelve rounds in a row: the winner of each deals the next, the multiplier carries over.",
    )
    path = ROOT / folder / "whole-game.scenario.toml"
    text = path.read_text(encoding="utf-8")
    totals = ", ".join(
        f"{names[s]} = {int(v) if float(v).is_integer() else float(v)}" for s, v in enumerate(net)
    )
    path.write_text(text + f"\n[game]\nnet = {{ {totals} }}\n", encoding="utf-8")


def record_carry(folder: str, rules: str, seats: int) -> None:
    """Two rounds: the first field carries its multiplier into the second, whose own field
    would give less."""
    c = CompiledRules(load_rules(rules))
    names = seat_names(seats)
    for k in itertools.count():
        game = Game(c, seats, seed=f"scenarios:carry:{k}", dealer=0)
        agents = [make_agent("greedy", f"carry:{k}:{s}") for s in range(seats)]
        first_round = game.new_round()
        if first_round.void or first_round.carry_out < 2:
            continue
        moves1: list[tuple[int, int]] = []
        r1 = play_round(first_round, agents, moves1)
        game.record(r1)
        second = game.new_round()
        own, _ = c.multiplier.of_field(second.field) if second.field_laid else (1, 1)
        if second.void or own >= r1.carry:
            continue
        moves2: list[tuple[int, int]] = []
        play_round(second, agents, moves2)
        write(
            folder,
            "multiplier-carry-over",
            "The multiplier carries over to the next round",
            rules,
            seats,
            [round_record(first_round, moves1, names), round_record(second, moves2, names)],
            f"Round 1's field holds two lights of its kind (x{r1.carry});"
            f" round 2's own field gives only x{own}, "
            f"but it is played at x{r1.carry}.",
        )
        return


def record_joker() -> None:
    """Seven at the draft's table: a joker is added; a player who joins with it draws a card."""
    rules = "hachihachi/wikipedia-draft"
    c = CompiledRules(load_rules(rules))
    names = seat_names(7)
    for _, rnd, moves, result, _bots in rounds(c, 7, lambda k: ["greedy"] * 7):
        holder = next(s for s in range(7) if rnd.initial_hands[s] >> rnd.joker_bit & 1)
        if result.void or rnd.folded[holder]:
            continue
        write(
            "wikipedia-draft",
            "joker-at-seven",
            "Seven at the table: the joker is replaced from the stock",
            rules,
            7,
            [round_record(rnd, moves, names)],
            "At 7 seats a joker is added (49 cards, 7 hands of 7)."
            f" {names[holder]} is dealt it, joins, "
            "takes it out of the game and draws the top card of the stock instead.",
        )
        return


def record_no_carry() -> None:
    """The draft: the rain man and the phoenix on the field do not carry over."""
    rules = "hachihachi/wikipedia-draft"
    c = CompiledRules(load_rules(rules))
    names = seat_names(3)
    for k in itertools.count():
        game = Game(c, 3, seed=f"scenarios:nocarry:{k}", dealer=0)
        agents = [make_agent("greedy", f"nocarry:{k}:{s}") for s in range(3)]
        first_round = game.new_round()
        rainman, phoenix = (1 << c.index.bit[110]), (1 << c.index.bit[120])
        if first_round.void or first_round.field & (rainman | phoenix) != rainman | phoenix:
            continue
        moves1: list[tuple[int, int]] = []
        game.record(play_round(first_round, agents, moves1))
        second = game.new_round()
        if second.void or second.multiplier != 1:
            continue
        moves2: list[tuple[int, int]] = []
        play_round(second, agents, moves2)
        write(
            "wikipedia-draft",
            "no-carry-over",
            "The multiplier does not carry over to the next round",
            rules,
            3,
            [round_record(first_round, moves1, names), round_record(second, moves2, names)],
            "Round 1's field holds the rain man and the phoenix (x4);"
            " in the draft that does not carry "
            "over: round 2, with no light on its field, is played at x1.",
        )
        return


def record_difference() -> None:
    rules = "hachihachi/two-player"
    c = CompiledRules(load_rules(rules))
    names = seat_names(2)
    for _, rnd, moves, result, _bots in rounds(c, 2):
        if result.ended_by == "count" and result.multiplier > 1:
            write(
                "two-player",
                "count-difference",
                "Two players: the lower card total pays the difference",
                rules,
                2,
                [round_record(rnd, moves, names)],
                "No captured hand is formed: the lower card total pays the winner"
                " the difference, times "
                "the multiplier. (The remaining stock is not played.)",
            )
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="fudawiki, kirisame, draft or two-player")
    only = parser.parse_args().only
    if only in (None, "fudawiki"):
        c = load_rules("hachihachi/fudawiki")
        assert c.teyaku and c.yaku
        record_entries(
            "fudawiki",
            "hachihachi/fudawiki",
            3,
            [e.name for e in c.teyaku.entries],
            [e.name for e in c.yaku.entries],
        )
        record_carry("fudawiki", "hachihachi/fudawiki", 3)
        record_game("fudawiki", "hachihachi/fudawiki", 3, 1)
    if only in (None, "kirisame"):
        k = load_rules("hachihachi/kirisame")
        assert k.teyaku and k.yaku
        basic = [e.name for e in k.teyaku.entries if not e.parts][:12]
        combos = ["red_three", "one_light_lead", "wither_four", "two_three"]
        record_entries(
            "kirisame", "hachihachi/kirisame", 3, basic + combos, [e.name for e in k.yaku.entries]
        )
        record_game("kirisame", "hachihachi/kirisame", 3, 2)
    if only in (None, "draft"):
        record_entries(
            "wikipedia-draft",
            "hachihachi/wikipedia-draft",
            3,
            ["triple", "red"],
            ["poetry_ribbons"],
        )
        record_joker()
        record_no_carry()
    if only in (None, "two-player"):
        record_entries(
            "two-player",
            "hachihachi/two-player",
            2,
            ["three", "one_light"],
            ["red_poems", "four_lights"],
        )
        record_difference()


if __name__ == "__main__":
    main()
