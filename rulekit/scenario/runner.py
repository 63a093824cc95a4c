"""Playing a scenario and checking its expectations.

A malformed scenario (unknown seat, card or key, a move that is not a move) raises a located
ScenarioError. A well-formed one that the rules do not bear out gives failures: what was
expected, what happened, and the round's ledger.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.agents.base import Agent
from rulekit.engine import actions as A
from rulekit.engine.game import Game, stay_in
from rulekit.engine.ledger import BANK, Amount, Payment
from rulekit.engine.playout import play_out
from rulekit.engine.round import COUNT, DONE, Round, RoundResult, StackedDeal
from rulekit.engine.tables import ChoiceTable, CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import (
    InternalError,
    Loc,
    MoveError,
    RulekitError,
    ScenarioError,
    UsageError,
    did_you_mean,
    register_source,
)
from rulekit.lang import find_rules, load_rules
from rulekit.lang.files import display_name
from rulekit.lang.loader import load_rules_text
from rulekit.output import amount_text, ledger_lines
from rulekit.scenario import model as m
from rulekit.scenario.load import KeyPath, line_of, load_scenario, path_text

DRAWN = "drawn"  # `dealer = "drawn"`: the rule file's card draw chooses the first dealer

JOKER_NAMES = ("joker",)


@dataclass
class Failure:
    round: int | None
    what: str
    expected: str
    actual: str


@dataclass
class Outcome:
    name: str
    title: str
    seats: list[str]
    failures: list[Failure] = field(default_factory=list)
    ledgers: dict[int, list[Payment]] = field(default_factory=dict)
    rounds: list[RoundResult] = field(default_factory=list)  # played out; a void deal is no round
    voids: int = 0  # the void deals, each redealt by the same dealer

    @property
    def passed(self) -> bool:
        return not self.failures

    def render(self) -> str:
        """Each failure: what was expected, what happened; then the ledger of its round."""
        lines = [f"FAIL {self.name}: {self.title}"]
        shown: set[int | None] = set()
        for f in self.failures:
            where = f"round {f.round}: " if f.round is not None and len(self.ledgers) > 1 else ""
            lines.append(f"  {where}{f.what}")
            lines.append(f"    expected: {f.expected}")
            lines.append(f"    got:      {f.actual}")
        for f in self.failures:
            if f.round in shown or f.round not in self.ledgers:
                continue
            shown.add(f.round)
            title = f"ledger of round {f.round}" if len(self.ledgers) > 1 else "ledger"
            lines.append(f"  {title}:")
            lines.extend("    " + line for line in ledger_lines(self.ledgers[f.round], self.seats))
        return "\n".join(lines)


RULES_KEPT = 32  # compiled rule sets kept for the next scenario


class _RulesCache:
    """Compiled rules by base file and house rules, the RULES_KEPT most recently used: a long
    process (`rulekit serve` resuming saved games) keeps no house rules for ever."""

    def __init__(self) -> None:
        self.compiled: OrderedDict[tuple[str, str], CompiledRules] = OrderedDict()

    def get(self, sc: m.Scenario, path: Path, name: str, text: str) -> CompiledRules:
        base = find_rules(sc.rules, path, Loc(name, line_of(text, ("rules",)) or 1, 1))
        key = (str(base.resolve()), sc.house_rules or "")
        if key not in self.compiled:
            if sc.house_rules:
                key_line = line_of(text, ("house_rules",)) or 1
                lines = text.split("\n")
                written = lines[key_line - 1] if key_line <= len(lines) else ""
                # `house_rules = """` then a newline: the rules start on the next line;
                # `house_rules = "seats 2"`: on the key's own line
                after = written.split("=", 1)[-1].strip()
                first = key_line + 1 if after in ('"""', "'''") else key_line
                # absolute: the inline rules are read relative to the scenario, and `base` was
                # already found relative to it (a `../x.rk` would otherwise be joined twice)
                source = f'extends "{base.resolve().as_posix()}"\n' + sc.house_rules
                try:
                    rules = load_rules_text(source, name, path, first_line=first - 1)
                finally:  # errors quote the scenario's own lines, not the padded rules
                    register_source(name, text)
            else:
                rules = load_rules(base)
            self.compiled[key] = CompiledRules(rules)
        self.compiled.move_to_end(key)
        while len(self.compiled) > RULES_KEPT:
            self.compiled.popitem(last=False)
        return self.compiled[key]


_CACHE = _RulesCache()


class ScenarioRun:
    """One scenario being played: its seats, its rules, its rounds."""

    def __init__(self, path: Path) -> None:
        self.sc, self.name, self.text = load_scenario(path)
        self.path = path
        self.seats = self.sc.seats
        if len(set(self.seats)) != len(self.seats):
            raise self.error(("seats",), "two seats have the same name")
        self.c = _CACHE.get(self.sc, path, self.name, self.text)
        self.n = len(self.seats)
        r = self.c.rules
        refusal = r.seats.refusal(r.title, self.n)
        if refusal:
            raise self.error(("seats",), refusal)
        self.outcome = Outcome(self.name, self.sc.title, list(self.seats))

    # ------------------------------------------------------------ errors and names
    def error(self, path: KeyPath, message: str, hint: str | None = None) -> ScenarioError:
        line = line_of(self.text, path) or 1
        return ScenarioError(f"{path_text(path)}: {message}", Loc(self.name, line, 1), hint)

    def seat(self, ref: m.SeatRef, path: KeyPath) -> int:
        if isinstance(ref, int):
            if 0 <= ref < self.n:
                return ref
            raise self.error(path, f"no seat {ref}: seats are 0 to {self.n - 1}")
        if ref in self.seats:
            return self.seats.index(ref)
        raise self.error(
            path,
            f"no seat named '{ref}'",
            did_you_mean(ref, self.seats) or f"seats: {', '.join(self.seats)}",
        )

    def card(self, ref: m.CardRef, path: KeyPath) -> int:
        if isinstance(ref, str) and ref.lower() in JOKER_NAMES:
            return 0
        try:
            return self.c.index.parse(str(ref))
        except UsageError as err:
            raise self.error(path, err.message, err.hint) from None

    def cards(self, refs: list[m.CardRef], path: KeyPath) -> tuple[int, ...]:
        return tuple(self.card(r, (*path, i)) for i, r in enumerate(refs))

    # ------------------------------------------------------------ playing
    def run(self) -> Outcome:
        specs = self.sc.round_specs()
        game_mode = self.sc.rounds is not None
        first = self.first_dealer()
        game = Game(self.c, self.n, seed=self.sc.seed, dealer=first, round_no=self.sc.round - 1)
        for i, spec in enumerate(specs):
            prefix: KeyPath = ("rounds", i) if game_mode else ()
            dealer = None if spec.dealer is None else self.seat(spec.dealer, (*prefix, "dealer"))
            deal = self.stacked(spec.deal, (*prefix, "deal")) if spec.deal is not None else None
            try:  # the game numbers the deal and the round: a void deal is redealt, not counted
                rnd = game.new_round(dealer=dealer, seed=spec.seed, deal=deal)
            except UsageError as err:
                raise self.error((*prefix, "deal"), err.message, err.hint) from None
            try:
                played = self.play(rnd, spec, prefix, i + 1)
            except UsageError as err:  # a written deal that the folds show wrong
                raise self.error((*prefix, "deal"), err.message, err.hint) from None
            self.outcome.ledgers[i + 1] = list(rnd.ledger)
            if spec.expect is not None and played:  # a round gone astray is reported at its move
                self.check(rnd, spec.expect, i + 1, (*prefix, "expect"))
            if played and rnd.phase == DONE:
                result = rnd.result()
                if result.void:
                    self.outcome.voids += 1
                else:
                    self.outcome.rounds.append(result)
                game.record(result)
                if game_mode and game.is_over and not result.void and i + 1 < len(specs):
                    self.fail(i + 1, "the game", "more rounds to be played", _game_over(game))
                    break
            elif game_mode and i + 1 < len(specs):
                self.fail(
                    i + 1, "the game", "every round to be played out", "the round is not over"
                )
                break
        expect = self.sc.game
        if expect is not None and expect.net is not None:
            net = game.result().net
            self.compare(None, "game net", self.named(expect.net, ("game", "net")), net)
        if expect is not None and expect.totals is not None:
            totals = game.result().totals
            named = self.named(expect.totals, ("game", "totals"))
            self.compare(None, "game totals", named, totals)
        if expect is not None and expect.winners is not None:
            path = ("game", "winners")
            want = sorted({self.seat(x, (*path, k)) for k, x in enumerate(expect.winners)})
            won = sorted(game.winners())
            if want != won:
                names = [", ".join(self.seats[s] for s in x) for x in (want, won)]
                self.fail(None, "the game's winners", *names)
        if expect is not None and expect.over is not None and expect.over != game.is_over:
            said = _game_over(game) if game.is_over else "the game goes on"
            self.fail(None, "the game over", "yes" if expect.over else "no", said)
        return self.outcome

    def first_dealer(self) -> int:
        """The dealer of the first round: the seat named, or (`dealer = "drawn"`) the one the
        rule file's card draw chooses from the cards written in `first_dealer_draw`."""
        draws = self.sc.first_dealer_draw
        if self.sc.dealer != DRAWN or DRAWN in self.seats:
            if draws is not None:
                raise self.error(
                    ("first_dealer_draw",),
                    "the cards drawn choose no dealer here: the dealer is named",
                    'to draw for the first dealer: dealer = "drawn"',
                )
            return self.seat(self.sc.dealer, ("dealer",))
        method = self.c.rules.first_dealer.method
        if method != "draw":
            raise self.error(
                ("dealer",),
                f"{self.c.rules.title} chooses the first dealer by {method}, not by a card draw",
                f'name the dealer: dealer = "{self.seats[0]}"',
            )
        if not draws:
            example = ", ".join(f'{name} = "..."' for name in self.seats)
            raise self.error(
                ("dealer",),
                'dealer = "drawn" needs the cards drawn',
                f"first_dealer_draw = [{{ {example} }}]",
            )
        candidates = list(range(self.n))
        for k, draw in enumerate(draws):
            path: KeyPath = ("first_dealer_draw", k)
            if len(candidates) == 1:
                raise self.error(
                    path, f"{self.seats[candidates[0]]} is the first dealer already: no draw left"
                )
            drawn = {
                self.seat(name, (*path, name)): self.index_card(card, (*path, name))
                for name, card in draw.items()
            }
            if sorted(drawn) != candidates:
                who = ", ".join(self.seats[s] for s in candidates)
                raise self.error(path, f"this draw is made by {who}, each drawing one card")
            self.no_dupes([c.id for c in drawn.values()], path, "drawn twice")
            candidates = stay_in(self.c, drawn)
        if len(candidates) > 1:
            who = ", ".join(self.seats[s] for s in candidates)
            raise self.error(
                ("first_dealer_draw",),
                f"{who} tie: the draw chooses no dealer yet",
                "write their next draw after it",
            )
        return candidates[0]

    def index_card(self, ref: m.CardRef, path: KeyPath) -> ir.Card:
        """A card drawn for the first dealer: a card of the deck with a month (no bonus)."""
        card = self.c.index.card(self.card(ref, path))
        if not card.month:
            raise self.error(path, f"{card.name} is a bonus card: it is not drawn for the dealer")
        return card

    def stacked(self, d: m.Deal, path: KeyPath) -> StackedDeal:
        hands: list[tuple[int, ...]] = [()] * self.n
        for name, cards in d.hands.items():
            hands[self.seat(name, (*path, "hands", name))] = self.cards(
                cards, (*path, "hands", name)
            )
        missing = [self.seats[s] for s in range(self.n) if not hands[s]]
        if missing:
            raise self.error((*path, "hands"), f"no hand for {', '.join(missing)}")
        field_ = self.cards(d.field, (*path, "field"))
        stock = self.cards(d.stock, (*path, "stock"))
        dealt = [c for h in hands for c in h if c]
        laid = list(field_) + list(stock)
        for group in (dealt, laid):  # the field may come from folded hands (field after the fold)
            self.no_dupes(group, path, "dealt twice")
        in_stock = sorted(set(dealt) & set(stock))
        if in_stock:
            raise self.error(
                (*path, "stock"), f"in a hand and in the stock: {self.shown(in_stock)}"
            )
        steps = self.c.rules.setup
        folds_first = "fold" in steps[
            : steps.index("field")
        ] and self.n > self.c.rules.seats.playing(self.n)
        on_field = sorted(set(dealt) & set(field_))
        if on_field and not folds_first:
            raise self.error(
                (*path, "field"), f"in a hand and on the field: {self.shown(on_field)}"
            )
        rest = tuple(c for c in self.c.index.ids if c not in dealt and c not in laid)
        restock = self.cards(d.restock, (*path, "restock")) if d.restock is not None else None
        if restock is not None:
            self.check_restock(restock, field_, (*path, "restock"))
        return StackedDeal(tuple(hands), field_, stock + rest, restock)

    def shown(self, cards: list[int]) -> str:
        return ", ".join(self.c.index.short(c) if c else "joker" for c in cards)

    def no_dupes(self, cards: list[int], path: KeyPath, what: str) -> None:
        dupes = sorted({c for c in cards if cards.count(c) > 1})
        if dupes:
            raise self.error(path, f"{what}: {self.shown(dupes)}")

    def check_restock(
        self, restock: tuple[int, ...], field_: tuple[int, ...], path: KeyPath
    ) -> None:
        """The stock after the fold: real cards, each once, none of them on the field."""
        if 0 in restock:
            raise self.error(path, "the joker is dealt only in a hand, not in the restock")
        self.no_dupes(list(restock), path, "in the restock twice")
        both = sorted(set(restock) & set(field_))
        if both:
            raise self.error(path, f"on the field and in the restock: {self.shown(both)}")

    def play(self, rnd: Round, spec: m.RoundSpec, prefix: KeyPath, number: int) -> bool:
        """Apply the moves, then let the bot play the rest; False if the round went astray. A
        seat whose moves state how his pile reads the owner's choice (`read sake as 2 plains`)
        is asked at the count (engine/asking.py); the others keep the reading worth more."""
        rnd.ask_readings(self.readers(spec, prefix))
        agents: list[Agent] | None = None
        for j, move in enumerate(spec.moves):
            path = (*prefix, "moves", j)
            text = move if isinstance(move, str) else move.move
            seat, action = self.parse_move(text, path)
            if action in (A.READ_FIRST, A.READ_SECOND) and spec.rest is not None:
                # the rest bot plays up to the count, where the seat answers
                agents = agents or self.rest_agents(spec, prefix, number)
                views = [PlayerView(rnd, s) for s in range(self.n)]
                while rnd.phase not in (COUNT, DONE):
                    rnd.apply(agents[rnd.current].act(views[rnd.current]))
            if rnd.phase == DONE and action in (A.READ_FIRST, A.READ_SECOND):
                self.fail(
                    number,
                    f"move {j + 1} ({text})",
                    f"{self.seats[seat]} asked at the count how the pile reads",
                    "the round is over: not asked (the pile holds none of the owner's choice's"
                    " cards, or both readings pay alike)",
                )
                return False
            if rnd.phase == DONE:
                self.fail(
                    number, f"move {j + 1} ({text})", "the round still on", "the round is over"
                )
                return False
            if rnd.current != seat and isinstance(move, m.RejectedMove):
                said = f"it is {self.seats[rnd.current]}'s turn, not {self.seats[seat]}'s"
                self.check_refusal(number, j, move, said)
                continue
            if rnd.current != seat:
                whose = self.seats[rnd.current]
                self.fail(
                    number,
                    f"move {j + 1} ({text})",
                    f"{self.seats[seat]} to move",
                    f"it is {whose}'s turn",
                )
                return False
            if isinstance(move, m.RejectedMove):
                try:
                    rnd.apply(action)
                except MoveError as err:
                    said = self.names(err.message + (f" ({err.hint})" if err.hint else ""))
                    self.check_refusal(number, j, move, said)
                    continue
                self.fail(number, f"move {j + 1} ({text})", "rejected", "accepted")
                return False
            try:
                rnd.apply(action)
            except MoveError as err:
                refusal = self.names(f"refused: {err.message}; {err.hint or ''}")
                self.fail(number, f"move {j + 1} ({text})", "a legal move", refusal)
                return False
        if spec.rest is not None and rnd.phase != DONE:
            play_out(rnd, agents or self.rest_agents(spec, prefix, number))
        return True

    def rest_agents(self, spec: m.RoundSpec, prefix: KeyPath, number: int) -> list[Agent]:
        """The `rest` bot at every seat, seeded by the round."""
        assert spec.rest is not None
        try:
            return [make_agent(spec.rest, f"{self.sc.seed}:{number}:{s}") for s in range(self.n)]
        except UsageError as err:
            raise self.error((*prefix, "rest"), err.message, err.hint) from None

    def readers(self, spec: m.RoundSpec, prefix: KeyPath) -> int:
        """The seats (bits) that state a reading of the owner's choice among the moves."""
        seats = 0
        for j, move in enumerate(spec.moves):
            text = move if isinstance(move, str) else move.move
            seat, action = self.parse_move(text, (*prefix, "moves", j))
            if action in (A.READ_FIRST, A.READ_SECOND):
                seats |= 1 << seat
        return seats

    def check_refusal(self, number: int, j: int, move: m.RejectedMove, said: str) -> None:
        if move.rejected.lower() not in said.lower():
            what = f"move {j + 1} ({move.move}) rejected"
            self.fail(number, what, f"a message with '{move.rejected}'", said)

    def parse_move(self, text: str, path: KeyPath) -> tuple[int, int]:
        who, sep, what = text.partition(":")
        if not sep:
            raise self.error(
                path,
                f"'{text}' names no seat",
                "write 'Seat: move', for example 'Leonardo: play crane'",
            )
        seat = self.seat(who.strip(), path)
        try:
            return seat, A.parse(what.strip(), self.c.index, self.c.rules.owners_choice)
        except MoveError as err:
            raise self.error(path, err.message, err.hint) from None

    def names(self, message: str) -> str:
        """The engine says `seat 2`; the scenario's reader knows the seat by its name."""
        return re.sub(
            r"\bseat (\d+)\b",
            lambda m: self.seats[int(m.group(1))] if int(m.group(1)) < self.n else m.group(0),
            message,
        )

    # ------------------------------------------------------------ expectations
    def fail(self, number: int | None, what: str, expected: str, actual: str) -> None:
        self.outcome.failures.append(Failure(number, what, expected, actual))

    def named(self, values: dict[str, int | float], path: KeyPath) -> dict[int, int | float]:
        return {self.seat(k, (*path, k)): v for k, v in values.items()}

    def seat_text(self, values: dict[int, object]) -> str:
        return (
            ", ".join(f"{self.seats[s]} {_show(v)}" for s, v in sorted(values.items())) or "nothing"
        )

    def compare(
        self,
        number: int | None,
        what: str,
        expected: dict[int, int | float],
        actual: Sequence[Amount],
    ) -> None:
        got = {s: actual[s] for s in expected}
        if any(_number(got[s]) != _number(expected[s]) for s in expected):
            self.fail(
                number,
                what,
                self.seat_text(dict(expected)),
                self.seat_text(dict(enumerate(actual))),
            )

    def check(self, rnd: Round, e: m.Expect, n: int, path: KeyPath) -> None:
        """The expectations `e` (written at `path`) of round `n`."""
        over = rnd.phase == DONE
        if e.void is not None and rnd.void != e.void:
            self.fail(n, "void", str(e.void).lower(), str(rnd.void).lower())
        if e.multiplier is not None and (rnd.multiplier or 1) != e.multiplier:
            self.fail(n, "multiplier", f"x{e.multiplier}", f"x{rnd.multiplier or 1}")
        if e.carry is not None and rnd.carry_out != e.carry:
            self.fail(n, "carry-over", f"x{e.carry}", f"x{rnd.carry_out}")
        if isinstance(e.declared, list):  # exactly these seats made it
            want = sorted(self.seat(d, (*path, "declared")) for d in e.declared)
            made = [s for s in range(len(self.seats)) if rnd.declared >> s & 1]
            if made != want:
                names = [", ".join(self.seats[s] for s in x) or "nobody" for x in (want, made)]
                self.fail(n, "declared", *names)
        elif e.declared is not None:
            declarer = None if e.declared == "none" else self.seat(e.declared, (*path, "declared"))
            declared = rnd.declarer if rnd.declarer >= 0 else None
            if declared != declarer:
                self.fail(n, "declared", self.seat_name(declarer), self.seat_name(declared))
        if e.teyaku is not None:
            table = self.c.teyaku
            got = (
                {s: [table.names[i] for i in c] for s, c in rnd.teyaku_counted.items()}
                if table
                else {}
            )
            self.compare_names(n, "teyaku", e.teyaku, got, (*path, "teyaku"))
        if e.yaku is not None:
            self.compare_names(n, "yaku", e.yaku, rnd.yaku_made, (*path, "yaku"))
        if e.payments is not None:
            self.check_payments(n, rnd.ledger, e.payments, (*path, "payments"), exact=False)
        if e.ledger is not None:
            self.check_payments(n, rnd.ledger, e.ledger, (*path, "ledger"), exact=True)
        if e.captured is not None:
            self.check_piles(rnd, e.captured, n, (*path, "captured"))
        if e.field is not None:
            self.check_field(rnd, e.field, n, (*path, "field"))
        if e.shown is not None:
            self.check_shown(rnd, e.shown, n, (*path, "shown"))
        if e.counted_as is not None:
            self.check_counted_as(rnd, e.counted_as, n, (*path, "counted_as"))
        if e.dealer is not None:
            want_dealer = self.seat(e.dealer, (*path, "dealer"))
            if rnd.dealer != want_dealer:
                self.fail(n, "dealer", self.seats[want_dealer], self.seats[rnd.dealer])
        if e.sat_out is not None:
            want = sorted({self.seat(x, (*path, "sat_out", k)) for k, x in enumerate(e.sat_out)})
            sitting = [s for s in range(rnd.seated) if rnd.folded[s]]
            if want != sitting:
                said = [", ".join(self.seats[s] for s in x) or "nobody" for x in (want, sitting)]
                self.fail(n, "sat out", *said)
        needs_end = [
            k
            for k in ("net", "points", "winner", "next_dealer", "ended_by")
            if getattr(e, k) is not None
        ]
        if needs_end and not over:
            self.fail(
                n,
                ", ".join(needs_end),
                "the round to be over",
                'it is still on: add moves, or rest = "greedy"',
            )
            return
        if not needs_end:
            return
        result = rnd.result()
        if e.net is not None:
            self.compare(n, "net", self.named(e.net, (*path, "net")), result.net)
        if e.points is not None:
            self.compare(n, "points", self.named(dict(e.points), (*path, "points")), result.points)
        if e.winner is not None:
            expected = None if e.winner == "none" else self.seat(e.winner, (*path, "winner"))
            if result.winner != expected:
                self.fail(n, "winner", self.seat_name(expected), self.seat_name(result.winner))
        if e.next_dealer is not None:
            expected_dealer = self.seat(e.next_dealer, (*path, "next_dealer"))
            if result.next_dealer != expected_dealer:
                self.fail(
                    n, "next dealer", self.seats[expected_dealer], self.seats[result.next_dealer]
                )
        if e.ended_by is not None and result.ended_by != e.ended_by:
            self.fail(n, "the round ended by", e.ended_by, result.ended_by)

    def check_piles(
        self, rnd: Round, piles: dict[str, list[m.CardRef]], n: int, path: KeyPath
    ) -> None:
        ix = self.c.index
        for name, cards in piles.items():
            s = self.seat(name, (*path, name))
            want = self.cards(cards, (*path, name))
            missing = [c for c in want if not rnd.captured[s] >> ix.bit[c] & 1]
            if missing:
                held = ", ".join(ix.short(c) for c in ix.ids_of(rnd.captured[s])) or "an empty pile"
                self.fail(
                    n,
                    f"the pile of {name}",
                    "holding " + ", ".join(ix.short(c) for c in missing),
                    held,
                )

    def check_field(self, rnd: Round, cards: list[m.CardRef], n: int, path: KeyPath) -> None:
        """Exactly these cards on the field (a stack's riders with it: engine/riders.py)."""
        ix = self.c.index
        want = sorted(self.cards(cards, path))
        held = sorted(ix.ids_of(rnd.field))
        if want != held:
            said = [", ".join(ix.short(c) for c in x) or "an empty field" for x in (want, held)]
            self.fail(n, "the field", *said)

    def check_counted_as(self, rnd: Round, readings: dict[str, str], n: int, path: KeyPath) -> None:
        """Which way each seat's pile read the owner's choice (engine/tables.ChoiceTable)."""
        choice = self.c.rules.owners_choice
        if choice is None or not isinstance(self.c.yaku, ChoiceTable):
            raise self.error(path, "counted_as: this rule set has no owner's choice")
        classes = [choice.first, choice.second]
        for name, cls in readings.items():
            s = self.seat(name, (*path, name))
            if cls not in classes:
                raise self.error(
                    (*path, name),
                    f"'{cls}' is not a reading of the owner's choice: {choice.text}",
                    did_you_mean(cls, classes) or f"one of {', '.join(classes)}",
                )
            table = rnd.c.yaku  # (the round's: read as an asked owner said, engine/asking.py)
            assert isinstance(table, ChoiceTable)
            took = classes[table.second_reading(rnd.captured[s])]
            if took != cls:
                self.fail(n, f"the owner's choice in the pile of {name}", cls, took)

    def check_shown(
        self, rnd: Round, shown: dict[str, list[m.CardRef]], n: int, path: KeyPath
    ) -> None:
        """Exactly the cards each named seat showed for its teyaku."""
        ix = self.c.index
        for name, cards in shown.items():
            s = self.seat(name, (*path, name))
            want = sorted(self.cards(cards, (*path, name)))
            got = ix.ids_of(rnd.teyaku_revealed.get(s, 0) & ix.full)
            if want != got:
                self.fail(
                    n,
                    f"the cards {name} showed",
                    ", ".join(ix.short(c) for c in want) or "none",
                    ", ".join(ix.short(c) for c in got) or "none",
                )

    def seat_name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.seats[seat]

    def compare_names(
        self,
        n: int,
        what: str,
        expected: dict[str, list[str]],
        got: dict[int, list[str]],
        path: KeyPath,
    ) -> None:
        for name, names in expected.items():
            s = self.seat(name, (*path, name))
            if sorted(got.get(s, [])) != sorted(names):
                self.fail(
                    n,
                    f"{what} of {name}",
                    ", ".join(names) or "none",
                    ", ".join(got.get(s, [])) or "none",
                )

    def check_payments(
        self,
        n: int,
        ledger: list[Payment],
        expected: list[m.Payment],
        path: KeyPath,
        exact: bool,
    ) -> None:
        def side(ref: m.SeatRef, where: KeyPath) -> int:
            return BANK if ref == "bank" else self.seat(ref, where)

        sides = [
            (side(e.payer, (*path, k, "payer")), side(e.payee, (*path, k, "payee")))
            for k, e in enumerate(expected)
        ]  # every seat named is checked, before any comparison

        def matches(p: Payment, k: int) -> bool:
            e = expected[k]
            return (
                (p.payer, p.payee) == sides[k]
                and _number(p.amount) == _number(e.amount)
                and (e.reason is None or e.reason == p.reason)
                and (e.detail is None or e.detail == p.detail)
            )

        if exact:
            if len(ledger) != len(expected) or not all(
                matches(p, k) for k, p in enumerate(ledger[: len(expected)])
            ):
                self.fail(
                    n,
                    "the ledger",
                    f"{len(expected)} payments as written",
                    f"{len(ledger)} payments (below)",
                )
            return
        left = list(ledger)
        for k, e in enumerate(expected):
            hit = next((p for p in left if matches(p, k)), None)
            if hit is None:
                reason = f" ({e.reason})" if e.reason else ""
                self.fail(
                    n,
                    "a payment",
                    f"{e.payer} pays {e.payee} {amount_text(e.amount)}{reason}",
                    "no such payment in the ledger (below)",
                )
            else:
                left.remove(hit)


def _game_over(game: Game) -> str:
    """Why a game is over: its rounds played, or a total at the target score."""
    length = game.c.rules.length
    if game.round_no >= length.rounds:
        return f"the game is over after its {length.rounds} rounds"
    return f"the game is over after round {game.round_no}: a total of {length.target} reached"


def _number(v: Amount | float) -> float:
    return float(v)


def _show(v: object) -> str:
    return amount_text(v) if isinstance(v, int | float | Fraction) else str(v)


def run_scenario(path: Path) -> Outcome:
    """Play a scenario file and check it; a located RulekitError if it is malformed. Whatever
    goes wrong stays with this file: a run of many files reports it and goes on."""
    try:
        return ScenarioRun(path).run()
    except RulekitError:
        raise
    except Exception as exc:  # one file's failure must not end the run
        raise InternalError(
            f"rulekit failed on this scenario ({type(exc).__name__}: {str(exc)[:120]})",
            Loc(display_name(path), 1, 1),
            "this is a bug in rulekit: please report it with the file",
        ) from exc
