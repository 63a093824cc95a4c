"""The games played in browsers: each browser (a random session cookie) has its own games,
built on the terminal's Session (seats, bots, saving as a scenario) and read through the
person's PlayerView, so the web layer holds no game logic of its own."""

from __future__ import annotations

import secrets
import tempfile
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.agents import AGENTS, make_agent
from rulekit.agents.search import SearchAgent
from rulekit.describe import declaration_sentence
from rulekit.engine import actions as A
from rulekit.engine.asking import Reading
from rulekit.engine.round import (
    ANSWER,
    CLAIM,
    COUNT,
    DECIDE,
    DECLARE,
    FOLD,
    PLAY,
    SHOW,
    SWAP,
    TAKE,
)
from rulekit.engine.state import Phase
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RulekitError, UsageError
from rulekit.output import amount_text, plain_amount, score_text
from rulekit.play import screen
from rulekit.play.session import Move, Session, resume
from rulekit.play.terminal import stop_value
from rulekit.scenario.record import chosen_card, to_toml
from rulekit.web.catalog import Catalog, Said
from rulekit.web.faces import card_object
from rulekit.web.round_end import round_end
from rulekit.web.ruletext import NAME, beside_of, house_rules, parent_of, text_of

BOTS = ("random", "greedy", "search")  # offered on the page; any of AGENTS is accepted
THINK_MS = (10, 2000)  # the search bots' budget per decision, bounded
HINT_MS = 150
STAND_IN = "greedy"  # the bot that plays a person's seat while he is away
GAMES_PER_BROWSER = 4  # the oldest is dropped beyond this
GAMES = 64  # in all: the least recently seen browser's oldest is dropped beyond this
SAVED = "saved.scenario.toml"  # how a saved game sent back is named in messages
LOG_LINES = 60


# ---------------------------------------------------------------- one game
@dataclass
class WebGame:
    """A game in a browser: the session, what was said, the last round's outcome."""

    id: str
    session: Session
    log: list[str] = field(default_factory=list)
    last_round: dict[str, Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_moves: dict[int, Move] = field(default_factory=dict)  # each seat's, this round
    stand_ins: set[int] = field(default_factory=set)  # people's seats a bot plays for now

    @property
    def seat(self) -> int:
        """The person's seat (of a game with one person; a table's seats: rulekit.web.tables)."""
        human = self.session.human
        assert human is not None
        return human

    def waits_for(self, seat: int) -> bool:
        """Whether a person plays this seat now (no bot, nor a bot standing in)."""
        return self.session.seats[seat].bot is None and seat not in self.stand_ins

    def stand_in(self, seat: int, on: bool) -> None:
        """A bot plays a person's seat while he is away (`on`), or hands it back."""
        if on:
            self.stand_ins.add(seat)
            self.session.agents.setdefault(
                seat, make_agent(STAND_IN, f"{self.session.seed}:{seat}")
            )
        else:
            self.stand_ins.discard(seat)

    @property
    def waiting(self) -> bool:
        """Between rounds: the person has the last round's outcome and starts the next."""
        return self.session.round is None and not self.session.game.is_over

    def advance(self) -> None:
        """Let the bots move until it is the person's turn, or the round is over."""
        s = self.session
        if s.game.is_over:
            return
        rnd = s.round or s.start_round()
        if not s.moves:
            self.last_moves = {}
            self._say(f"round {s.game.round_no + 1}: {screen.says(s.names[rnd.dealer], 'deal')}")
        while not rnd.is_terminal and not self.waits_for(rnd.current):
            self._moved(s.apply(s.bot_action()))
        if rnd.is_terminal:
            self._round_over()

    def move(self, action: int, seat: int | None = None) -> None:
        """A person's move (the game's person, or `seat` at a table; a UsageError if it is not
        his turn or the move is not legal now), then the bots'."""
        s = self.session
        rnd = s.round
        seat = self.seat if seat is None else seat
        if rnd is None or rnd.is_terminal or rnd.current != seat or not self.waits_for(seat):
            raise UsageError("it is not your turn", hint="start the next round, or wait")
        legal = s.views[seat].legal_actions()
        if action not in legal:
            raise UsageError(f"{action} is not a legal move now", hint="click a highlighted card")
        self._moved(s.apply(action))
        self.advance()

    def _moved(self, move: Move) -> None:
        """A move made: said in the log, and kept as its player's last (the page marks it)."""
        s = self.session
        assert s.round is not None
        self._say(screen.narrate(s.compiled.rules, s.round.ix, s.names, move))
        self.last_moves[move.seat] = move

    def next_round(self) -> None:
        if not self.waiting:
            raise UsageError("the round is not over" if self.session.round else "the game is over")
        self.advance()

    def _round_over(self) -> None:
        s = self.session
        result = s.finish_round()
        names = s.names
        if result.void:
            self._say("the deal is void: it is dealt again")
        winner = None if result.winner is None else names[result.winner]
        self.last_round = {
            "number": len(s.recorded),
            "void": result.void,
            "ended_by": result.ended_by,
            "winner": winner,
            "payments": screen.ledger_lines(
                s.compiled.rules, result.ledger, names, empty="no payments"
            ),
            "net": [amount_text(v) for v in result.net],
            **round_end(s.views[0], result, names, lambda c: _card(s.compiled.rules, c)),
        }
        self._say(
            f"round over ({result.ended_by}); it goes to {winner or 'nobody (a drawn round)'}"
        )

    def _say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    # ------------------------------------------------------------ what the page shows
    def hint(self) -> dict[str, Any]:
        view = self._my_view()
        bot = SearchAgent(f"hint:{view.turn}", rollouts=2000, think_ms=HINT_MS)
        estimates = bot.evaluate(view)
        rules, ix = view.compiled.rules, view.compiled.index
        return {
            "action": estimates[0].action,
            "words": screen.action_words(rules, estimates[0].action, ix),
            "estimates": [
                {
                    "action": e.action,
                    "words": screen.action_words(rules, e.action, ix),
                    "mean": round(e.mean, 2),
                    "rollouts": e.rollouts,
                }
                for e in estimates[:4]
            ],
        }

    def _my_view(self) -> PlayerView:
        s = self.session
        if s.round is None or s.round.is_terminal or s.round.current != self.seat:
            raise UsageError("it is not your turn: there is nothing to hint")
        return s.views[self.seat]

    def scenario(self, rounds: int | None = None) -> str:
        """The game as a scenario file (`rulekit play --resume` continues it); `rounds`: only
        the first finished rounds, to keep one round's record."""
        doc = self.session.document()
        if rounds is not None:
            if not 1 <= rounds <= len(self.session.recorded):
                raise UsageError(f"no finished round {rounds}")
            doc["rounds"] = doc["rounds"][:rounds]
        return to_toml(doc)

    def state(self, seat: int | None = None) -> dict[str, Any]:
        """What the page shows the game's person, or the person at `seat` of a table; with
        seat -1, a spectator: no hand, no move, nothing hidden from the table."""
        s = self.session
        rules = s.compiled.rules
        seat = self.seat if seat is None else seat
        watching = seat < 0
        out: dict[str, Any] = {
            "id": self.id,
            "title": rules.title,
            "rules": s.rules_ref,
            "seed": s.seed,
            "names": s.names,
            "bots": [seat.bot for seat in s.seats],
            "you": None if watching else seat,
            "round": s.game.round_no + (0 if s.round is None else 1),
            "rounds": rules.length.rounds,
            "scores": [score_text(v, rules.unit) for v in s.totals()],
            "game_over": s.game.is_over,
            "waiting": self.waiting,
            "log": self.log,
            "last_round": self.last_round,
            # each finished round's net, by seat (a void deal is no round)
            "history": [[amount_text(v) for v in r.net] for r in s.game.results if not r.void],
            "months": {m.number: m.label or m.name for m in rules.deck.months},
            "points_count": rules.card_points_count(),  # else the page shows no card points
            "call": screen.call_word(rules),
            "table": None,
        }
        if s.game.is_over:
            totals = s.totals()
            out["final"] = [
                {
                    "name": s.names[i],
                    "score": plain_amount(totals[i]),
                    "score_text": score_text(totals[i], rules.unit),
                }
                for i in sorted(range(len(totals)), key=lambda i: -totals[i])
            ]
        if s.round is not None:
            out["table"] = self._table(s.views[max(seat, 0)], watching)
        return out

    def _last(self, seat: int) -> dict[str, Any] | None:
        """A seat's last move this round, for the page to mark: the cards it laid on the field
        (a play or a draw that took nothing) and those it took, and the move in words."""
        move = self.last_moves.get(seat)
        s = self.session
        if move is None or s.round is None:
            return None
        ix = s.round.ix
        laid = []
        if A.is_play(move.action) and not move.took:
            laid.append(ix.ids[A.played_card(move.action)])
        if move.drawn is not None and (move.draw_to_field or move.draw_waits):
            laid.append(move.drawn)
        return {
            "laid": laid,
            "took": [*move.took, *move.draw_took],
            "said": screen.narrate(s.compiled.rules, ix, s.names, move),
        }

    def _table(self, view: PlayerView, watching: bool = False) -> dict[str, Any]:
        """The table as `view`'s seat sees it; `watching`: as a spectator (no hand, no move)."""
        s = self.session
        rules = view.compiled.rules
        ix = view.compiled.index
        mine = view.current_player == view.seat and view.phase is not None and not watching
        mine = mine and self.waits_for(view.seat)
        hidden = (view.phase == SWAP and mine) or watching  # a hand asked about unseen
        players = []
        for seat, name in enumerate(s.names):
            pile = sorted(ix.ids_of(view.captured[seat]))
            groups: dict[str, list[int]] = {c: [] for c in rules.deck.classes}  # deck order
            for cid in pile:
                groups.setdefault(rules.card(cid).classes[0], []).append(cid)
            players.append(
                {
                    "name": name,
                    "dealer": seat == view.dealer,
                    "folded": view.folded[seat],
                    "hand_size": view.hand_size(seat),
                    "points": ix.points(view.captured[seat]),
                    "captured": [
                        {"class": c, "cards": [_card(rules, i) for i in ids]}
                        for c, ids in groups.items()
                        if ids
                    ],
                    "yaku": screen.labels(rules, view.yaku_made.get(seat, [])),
                    "calls": view.continues[seat],  # koi-koi or sage called this round
                    "last": self._last(seat),
                    "progress": screen.progress_text(view, seat),
                    "teyaku": screen.labels(rules, view.teyaku.get(seat, [])),
                    "shown": [
                        _card(rules, i) for i in sorted(ix.ids_of(view.revealed.get(seat, 0)))
                    ],
                }
            )
        legal = view.legal_actions() if mine else []
        readings = {o.action: o for o in view.readings_offered()} if mine else {}
        return {
            "phase": Phase(view.phase).name.lower() if mine else None,
            "your_turn": mine,
            "current": view.current_player,
            "multiplier": view.multiplier,
            "stock": view.stock_count,
            "field": field_cards(rules, view),
            "drawn": None if view.drawn < 0 else _card(rules, ix.ids[view.drawn]),
            "hand": [] if hidden else [_card(rules, i) for i in sorted(ix.ids_of(view.hand))],
            "players": players,
            # the round's payments so far in words (Why): each yaku with its value, the factor
            "payments": [screen.payment_sentence(p, s.names, view) for p in view.ledger]
            or ["no payments yet"],
            "moves": [_action(view, a, readings) for a in legal],
            "stakes": _stakes(view, s.names) if mine else None,
        }


def field_cards(rules: Any, view: PlayerView) -> list[dict[str, Any]]:
    """The field's cards as the page draws them, a bonus card riding a stack after its cards
    and marked `rides` (screen.field_ids)."""
    return [
        {**_card(rules, i), **({"rides": True} if riding else {})}
        for i, riding in screen.field_ids(view)
    ]


def _card(rules: Any, cid: int) -> dict[str, Any]:
    return card_object(rules, cid)


def _action(
    view: PlayerView, action: int, readings: dict[int, Reading] | None = None
) -> dict[str, Any]:
    """A legal move as the page offers it: a card to click (and the field card it takes when
    two match), or a button (a reading at the count says what it makes: `readings`)."""
    ix = view.compiled.index
    reading = (readings or {}).get(action)
    move: dict[str, Any] = {
        "action": action,
        "words": screen.action_words(view.compiled.rules, action, ix)
        if reading is None
        else screen.reading_line(view.compiled.rules, reading),
    }
    if A.is_play(action):
        move["kind"] = "play"
        move["card"] = ix.ids[A.played_card(action)]
        target = A.play_target(action)
        move["target"] = None if target is None else ix.ids[target]
    elif view.phase == TAKE and (target := chosen_card(action)) is not None:
        move["kind"] = "take"
        move["target"] = ix.ids[target]
    elif action >= A.HIKI:
        move["kind"] = "hiki"
    else:
        move["kind"] = "button"
    return move


def _stakes(view: PlayerView, names: Sequence[str] = ()) -> str | None:
    """What a decision is worth, said next to its buttons."""
    phase = view.phase
    if phase == DECIDE:
        return stop_value(view)
    if phase == FOLD:
        return f"the multiplier is x{view.multiplier}: join to play the round, or fold"
    if phase == SWAP:
        return "swap your hand, unseen, for the dealer's, or keep it"
    if phase == DECLARE:
        rules = view.compiled.rules
        return " ".join(declaration_sentence(d, rules) for d in rules.declarations)
    claim = view.compiled.rules.dealer_claim
    if phase == CLAIM and claim is not None:
        return screen.claim_line(view, claim)
    if phase == SHOW:
        return screen.show_line(view)
    if phase == ANSWER:  # a draw offered: who, his hand, what each answer does
        return screen.draw_offer_line(view, names or [f"seat {s}" for s in range(view.seated)])
    if phase == COUNT:
        choice = view.compiled.rules.owners_choice
        assert choice is not None
        return f"the count: how does your pile read? ({choice.text})"
    if phase == PLAY:
        return None
    return None


# ---------------------------------------------------------------- every browser's games
class Games:
    """Games by browser (the session cookie) and id: one browser's games are not found from
    another. Bounded: a few games per browser, GAMES in all."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._by_browser: OrderedDict[str, OrderedDict[str, WebGame]] = OrderedDict()
        self._lock = threading.Lock()
        self._folder = tempfile.TemporaryDirectory(prefix="rulekit-serve-")  # saved games read
        self._reading = threading.Lock()  # one saved game at a time, under one name

    def __len__(self) -> int:
        """The games kept, over every browser."""
        with self._lock:
            return sum(len(games) for games in self._by_browser.values())

    def get(self, browser: str | None, game_id: str) -> WebGame | None:
        with self._lock:
            games = self._by_browser.get(browser or "")
            if games is None:
                return None
            self._by_browser.move_to_end(browser or "")
            return games.get(game_id)

    def _add(self, browser: str, session: Session) -> WebGame:
        game = WebGame(secrets.token_urlsafe(12), session)
        with self._lock:
            games = self._by_browser.setdefault(browser, OrderedDict())
            self._by_browser.move_to_end(browser)
            games[game.id] = game
            while len(games) > GAMES_PER_BROWSER:
                games.popitem(last=False)
            self._forget()
        with game.lock:
            game.advance()
        return game

    def _forget(self) -> None:
        """Beyond GAMES in all, the oldest game of the least recently seen browser (under
        the lock)."""
        while sum(len(games) for games in self._by_browser.values()) > GAMES:
            browser, games = next(iter(self._by_browser.items()))
            games.popitem(last=False)
            if not games:
                del self._by_browser[browser]

    def start(self, browser: str, spec: dict[str, Any]) -> WebGame:
        """A new game from the page's choices: rules (a name offered), seats, bots, budget."""
        return self._add(browser, self.session_of(spec))

    def session_of(self, spec: dict[str, Any]) -> Session:
        """The session the page's choices describe (rules or the editor's text, seats, bots,
        budget, seed), the person in the first seat."""
        rules = _text(spec, "rules", "hachihachi")
        seats = _int(spec, "seats", None, 2, 8)
        seed = _int(spec, "seed", None, 0, 2**31 - 1)
        think = _int(spec, "think_ms", 150, *THINK_MS)
        bots = spec.get("bots", ["search"])
        if not isinstance(bots, list) or not bots or len(bots) > 8:
            raise UsageError("bots: a list of one to eight bot names", hint=", ".join(AGENTS))
        bot_names = [str(b)[:20] for b in bots]
        if "text" in spec:  # "Play this" on the rules editor page
            compiled, ref, house = self._from_text(spec)
        else:
            from rulekit.lang import load_rules

            ref, house = self.catalog.ref(rules), None
            compiled = CompiledRules(load_rules(ref))
        session = Session.new(
            compiled,
            ref,
            seed=secrets.randbelow(10**6) if seed is None else seed,
            seats=seats,
            bots=bot_names,
            think_ms=think,
        )
        session.house_rules = house
        return session

    def again(self, browser: str, game: WebGame) -> WebGame:
        """A new game like `game`: the same rules (house rules from the editor included), the
        same seats, bots and budget, the person in the same seat, a new seed."""
        old = game.session
        person = old.human
        assert person is not None
        session = Session.new(
            old.compiled,
            old.rules_ref,
            seed=secrets.randbelow(10**6),
            seats=len(old.seats),
            bots=[seat.bot for seat in old.seats if seat.bot is not None] or ["search"],
            seat=person,
            name=old.seats[person].name,
            think_ms=old.think_ms,
        )
        session.house_rules = old.house_rules
        return self._add(browser, session)

    def _from_text(self, spec: dict[str, Any]) -> tuple[CompiledRules, str, str | None]:
        """Rule text from the editor as a game that saves as a scenario: its rules are the
        offered file it extends, its house rules the text without the `extends` line."""
        text, beside = text_of(spec), beside_of(spec, self.catalog)
        compiled = CompiledRules(self.catalog.rules_of_text(text, NAME, beside))
        parent = parent_of(self.catalog, text, beside)
        if parent is None or parent.offered is None:
            raise UsageError(
                "Play this needs rule text that extends a rule file offered here"
                + ("" if parent is None else f" ('{parent.written[:60]}' is not offered)"),
                hint='begin the text with: extends "hachihachi" (or another offered name)',
            )
        return compiled, self.catalog.ref(parent.offered), house_rules(self.catalog, text, beside)

    def resume(self, browser: str, text: str) -> WebGame:
        """A saved game (the scenario file `rulekit play` writes) sent from the page. It may
        name only rule files this server offers; its house rules reach only what rule text from
        the page does."""
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise UsageError(f"the saved game is not TOML: {err}") from None
        except RecursionError:
            raise UsageError(
                "the saved game is not TOML rulekit reads: it is nested too deeply"
            ) from None
        except ValueError as err:  # a number of more digits than Python reads
            raise UsageError(f"the saved game is not TOML rulekit reads: {str(err)[:80]}") from None
        rules = doc.get("rules")
        if not isinstance(rules, str) or not self.catalog.allows(rules):
            raise UsageError(
                f"the saved game's rules ({str(rules)[:60]!r}) are not offered by this server",
                hint="start the server with that rule file: rulekit serve FILE",
            )
        session = self._replay(text)
        session.rules_ref = rules
        if session.human is None:
            raise UsageError("the saved game has no person at the table (play.human)")
        return self._add(browser, session)

    def _replay(self, text: str) -> Session:
        """A saved game replayed from the one file of the server's folder, one at a time, its
        errors rendered there: no request leaves a name of its own in the sources that
        messages quote (one text is kept per name), and none quotes another's text. Its rules
        and house rules reach only what rule text from the page does."""
        from rulekit.lang import reaching_only

        path = Path(self._folder.name) / SAVED
        with self._reading:
            path.write_text(text, encoding="utf-8")
            try:
                with reaching_only(self.catalog.reach):
                    return resume(path)
            except RulekitError as err:  # located by the file's name, not our folder's path
                raise Said(err.render().replace(str(path), SAVED)) from None


def _text(spec: dict[str, Any], key: str, default: str) -> str:
    value = spec.get(key, default)
    if not isinstance(value, str) or len(value) > 200:
        raise UsageError(f"{key}: a name, at most 200 characters")
    return value


def _int(spec: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    value = spec.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UsageError(f"{key}: a whole number from {lo} to {hi}")
    return value
