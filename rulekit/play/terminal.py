"""The game loop at the terminal: the person's prompts and commands, the bots' moves, the
screen, and saving on quit, Ctrl-C, the end of input, the end of the game or an error."""

from __future__ import annotations

import os
import shlex
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from rulekit.agents.search import SearchAgent
from rulekit.describe import declaration_sentence, rulebook, to_rich
from rulekit.engine import actions as A
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
    Round,
)
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError, RulekitError, UsageError
from rulekit.output import check_writable, score_text
from rulekit.play import screen
from rulekit.play.session import Session
from rulekit.scenario.record import chosen_card

HELP = """\
Pick a card by its position in your hand (1, 2, ...), its id (10) or its name (crane).
When two field cards match, add the one to take (crane onto 12), or answer the question.
  hiki MONTH     capture a whole month you can see (where the rules allow it)
  help           this help
  rules          the variant's rulebook
  why            the payments so far, and what each was for
  hint           what the search bot would do, and why
  quit           save the game and stop (Ctrl-C and the end of input save too)"""


class Quit(Exception):
    """The person stops: the game is saved."""


def resume_command(path: Path) -> str:
    """The command that continues a game saved at `path`, ready to paste into a shell."""
    return f"rulekit play --resume {shlex.quote(str(path))}"


def stop_value(view: PlayerView) -> str:
    """What stopping now is worth, in words (the stakes of a stop/continue decision)."""
    rules = view.compiled.rules
    cont = rules.continuation
    made = view.made_value[view.seat]
    yaku = ", ".join(screen.labels(rules, view.yaku_made.get(view.seat, [])))
    what = f"{yaku} ({made})" if yaku else str(made)
    if cont.paid == "stop":
        koi = view.continues[view.seat] + 1 if cont.multiplier_per_yaku else 1
        pays = made * koi * view.multiplier * (len(view.order) - 1)
        return f"you have made {what}; stopping now pays you {pays}."
    return f"you have made {what} and been paid for it; stopping ends the round."


class Terminal:
    def __init__(
        self,
        session: Session,
        console: Console,
        read: Callable[[str], str],
        save_path: Path,
        watch_delay: float | None = None,
        hint_ms: int = 150,
    ) -> None:
        self.s = session
        self.console = console
        self.read = read
        self.save_path = save_path
        self.watch_delay = watch_delay
        self.hint_ms = hint_ms
        self.last_ledger: list[str] = []

    # ------------------------------------------------------------ the loop
    def run(self) -> None:
        """Play the game to its end, or until the person stops. The game is saved whatever
        happens: on quit, Ctrl-C, the end of input, the end of the game, and an error too."""
        check_writable(self.save_path, "save the game to")  # before a card is dealt
        s = self.s
        self.console.print(
            f"{s.compiled.rules.title}: seed {s.seed}; "
            + ", ".join(f"{seat.name} ({seat.bot or 'you'})" for seat in s.seats)
        )
        try:
            self._play()
        except (Quit, EOFError):
            self._saved_and_how_to_resume()
            return
        except KeyboardInterrupt:  # saved, and still an interrupt: the command exits 130
            self._saved_and_how_to_resume()
            raise
        except (BrokenPipeError, SystemExit) as exc:  # rich exits on a closed output
            if isinstance(exc, SystemExit) and not self._output_closed():
                self._saved_and_how_to_resume()
                raise
            self._saved_when_output_closed()
            return
        except Exception:
            try:
                self._saved_and_how_to_resume()
            except Exception as exc:  # the error that stopped the game matters more
                self.console.print(f"the game could not be saved: {exc}", soft_wrap=True)
            raise
        self.console.print(self._final())
        where = self.save()
        self.console.print(
            f"the game is saved to {where} (it replays with rulekit test)", soft_wrap=True
        )

    def _output_closed(self) -> bool:
        """Whether the screen's output was closed (`rulekit play ... | head`): rich then
        points it at the null device and exits."""
        try:
            self.console.file.write("")
            self.console.file.flush()
        except (BrokenPipeError, ValueError):
            return True
        try:
            return os.path.samefile(f"/proc/self/fd/{self.console.file.fileno()}", os.devnull)
        except (OSError, ValueError, AttributeError):
            return False

    def _saved_when_output_closed(self) -> None:
        """The output was closed: the game is saved all the same, and said on stderr."""
        self._silence_stdout()
        self.console = Console(stderr=True, highlight=False, markup=False)  # text as written
        self._saved_and_how_to_resume()

    def _silence_stdout(self) -> None:
        """Point a closed standard output at the null device, so that nothing written to it
        later fails again."""
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.console.file.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def _saved_and_how_to_resume(self) -> None:
        where = self.save()
        self.console.print(f"\ngame saved to {where}", soft_wrap=True)
        self.console.print(f"resume it with: {resume_command(where)}", soft_wrap=True)

    def save(self) -> Path:
        """Save the game where asked or, if that fails now, to a new file in the temporary
        folder (said on the screen): a game played is never lost. Where it was saved."""
        try:
            self.s.save(self.save_path)
            return self.save_path
        except RulekitError as err:
            self.console.print(f"✗ {err.message}", style="red", soft_wrap=True)
        stem = self.save_path.name.removesuffix(".toml").removesuffix(".scenario")
        try:
            handle, name = tempfile.mkstemp(prefix=f"{stem}-", suffix=".scenario.toml")
        except OSError as exc:
            raise UsageError(
                f"cannot save the game in the temporary folder either: {exc.strerror or exc}"
            ) from None
        os.close(handle)  # a free name; the save replaces the empty file with the whole game
        fallback = Path(name)
        try:
            self.s.save(fallback)
        except RulekitError:
            fallback.unlink(missing_ok=True)
            raise
        self.console.print(f"the game is saved to {fallback} instead", soft_wrap=True)
        return fallback

    def _play(self) -> None:
        s = self.s
        while not s.game.is_over:
            rnd = s.round or s.start_round()
            if not s.moves:
                dealer = s.names[rnd.dealer]
                self.console.rule(f"round {s.game.round_no + 1}: {screen.says(dealer, 'deal')}")
            while not rnd.is_terminal:
                seat = rnd.current
                bot = s.seats[seat].bot is not None
                action = s.bot_action() if bot else self.ask(s.views[seat])
                move = s.apply(action)
                said = screen.narrate(s.compiled.rules, rnd.ix, s.names, move)
                self.console.print(said, style="dim" if bot else "bold")  # wrapped by words
                if bot and self.watch_delay is not None:  # the board after the move it shows
                    self._show(s.views[seat])
                    time.sleep(self.watch_delay)
            self._round_over(rnd)

    def _round_over(self, rnd: Round) -> None:
        result = self.s.finish_round()
        names = self.s.names
        if result.void:
            self.console.print("the deal is void: it is dealt again", style="bold")
            return
        winner = "nobody (a drawn round)" if result.winner is None else names[result.winner]
        self.console.print(f"round over ({result.ended_by}); it goes to {winner}", style="bold")
        for line in screen.ledger_lines(
            self.s.compiled.rules, result.ledger, names, empty="no payments"
        ):
            self.console.print("  " + line)
        view = self.s.views[0]  # (the finished round's piles are public: any seat's view)
        for seat, name in enumerate(names):  # how the owner's choice read each pile
            reading = screen.reading_text(view, seat)
            if reading:
                self.console.print(f"  {name}: {reading}")
        self.last_ledger = [screen.payment_sentence(p, names, view) for p in result.ledger]
        unit = self.s.compiled.rules.unit
        self.console.print(screen.scores_line(names, self.s.totals(), unit))

    def _final(self) -> str:
        totals = self.s.totals()
        order = sorted(range(len(totals)), key=lambda i: -totals[i])
        lines = ["", "game over"]
        for i in order:
            score = score_text(totals[i], self.s.compiled.rules.unit)
            lines.append(f"  {self.s.names[i]:>10}  {score}")
        return "\n".join(lines)

    def _show(self, view: PlayerView) -> None:
        s = self.s
        person = s.seats[view.seat].bot is None
        self.console.print(
            screen.table(
                view,
                s.names,
                s.totals(),
                s.game.round_no + 1,
                s.compiled.rules.length.rounds,
                you=person,
            )
        )
        if person:
            self.console.print(screen.hand_block(view))

    # ------------------------------------------------------------ the person's turn
    def ask(self, view: PlayerView) -> int:
        if view.phase == SWAP or (view.phase == DECLARE and not view.hand):
            # asked before the hand is seen: none on the screen
            s = self.s
            block = screen.swap_block if view.phase == SWAP else screen.declare_block
            self.console.print(
                block(
                    view, s.names, s.totals(), s.game.round_no + 1, s.compiled.rules.length.rounds
                )
            )
        else:
            self._show(view)
            if view.phase == DECLARE:  # with his hand in view: what it is, and its stake
                rules = view.compiled.rules
                said = " ".join(declaration_sentence(d, rules) for d in rules.declarations)
                self.console.print(said, style="bold")
            claim = view.compiled.rules.dealer_claim
            if view.phase == CLAIM and claim is not None:  # the dealer's claim, in words
                self.console.print(screen.claim_line(view, claim), style="bold")
            if view.phase == SHOW:  # a teyaku the others may capture, in words
                self.console.print(screen.show_line(view), style="bold")
            if view.phase == ANSWER:  # a draw offered: by whom, and what a refusal costs
                self.console.print(screen.draw_offer_line(view, self.s.names), style="bold")
            if view.phase == COUNT:  # the owner's choice, asked at the count
                rules = view.compiled.rules
                self.console.print("the count: how does your pile read?", style="bold")
                for i, reading in enumerate(view.readings_offered(), start=1):
                    self.console.print(f"  {i}) {screen.reading_line(rules, reading)}")
        return self._answer(view, self._question(view), lambda line: self._parse(view, line))

    def _answer(self, view: PlayerView, question: str, parse: Callable[[str], int]) -> int:
        """Ask until an answer parses: every prompt also takes the commands (help, rules, why,
        hint, quit), and a bad answer is said and asked again, never played."""
        while True:
            line = self.read(question).strip()
            if not line:
                continue
            word = line.lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "?"):
                self.console.print(HELP)
                continue
            if word == "rules":
                self._rules(view)
                continue
            if word == "why":
                self._why(view)
                continue
            if word == "hint":
                self._hint(view)
                continue
            try:
                return parse(line)
            except UsageError as err:
                self.console.print(
                    f"✗ {err.message}" + (f" ({err.hint})" if err.hint else ""), style="red"
                )

    def _question(self, view: PlayerView) -> str:
        phase = view.phase
        if phase == FOLD:
            return "join or fold? "
        if phase == SWAP:
            return "swap your hand, unseen, for the dealer's, or keep it? (swap/keep) "
        if phase == DECLARE:
            d = view.compiled.rules.declarations[0]
            return f"declare {d.label or d.name}, or pass? (declare/pass) "
        if phase == CLAIM:
            return "take the field's cards and play second, or pass? (claim/pass) "
        if phase == SHOW:
            return "show your teyaku, or keep it hidden? (show/pass) "
        if phase == DECIDE:
            call = screen.call_word(view.compiled.rules)
            return f"{self._stop_value(view)} stop or {call}? (stop/{call}) "
        if phase == TAKE:
            options = self._options(view, view.legal_actions())
            return f"the drawn card matches {options}: take which? "
        if phase == COUNT:
            return "count your pile which way? (1/2) "
        if phase == ANSWER:
            return "accept the draw offered, or refuse? (accept/refuse) "
        if A.OFFER in view.legal_actions():  # no safe play: he may offer a draw
            return "your move (or 'offer' a draw): "
        return "your move: "

    def _stop_value(self, view: PlayerView) -> str:
        return stop_value(view)

    def _options(self, view: PlayerView, actions: list[int]) -> str:
        ix = view.compiled.index
        out = []
        for i, a in enumerate(actions, start=1):
            target = chosen_card(a)
            out.append(
                f"{i}) {ix.short(ix.ids[target])}"
                if target is not None
                else f"{i}) {A.describe(a, ix, view.compiled.rules.owners_choice)}"
            )
        return ", ".join(out)

    def _parse(self, view: PlayerView, line: str) -> int:
        legal = view.legal_actions()
        words = line.replace(",", " ").split()
        phase = view.phase
        join, fold, swap, keep = A.JOIN, A.FOLD, A.SWAP, A.KEEP
        stop, more = A.STOP, A.CONTINUE
        call = screen.call_word(view.compiled.rules)
        calls = {call, call.replace("-", ""), call.replace(" ", ""), call.split("-")[0]}
        choices = {
            FOLD: {"join": join, "j": join, "1": join, "fold": fold, "f": fold, "2": fold},
            SWAP: {"swap": swap, "s": swap, "1": swap, "keep": keep, "k": keep, "2": keep},
            DECLARE: {
                "declare": A.DECLARE, "d": A.DECLARE, "1": A.DECLARE,
                "pass": A.PASS, "p": A.PASS, "2": A.PASS,
                **{n.name.lower(): A.DECLARE for n in view.compiled.rules.declarations},
            },
            CLAIM: {
                "claim": A.CLAIM, "c": A.CLAIM, "take": A.CLAIM, "1": A.CLAIM,
                "pass": A.PASS, "p": A.PASS, "2": A.PASS,
            },
            SHOW: {
                "show": A.SHOW, "s": A.SHOW, "1": A.SHOW,
                "pass": A.PASS, "p": A.PASS, "hide": A.PASS, "2": A.PASS,
            },
            ANSWER: {
                "accept": A.ACCEPT, "a": A.ACCEPT, "1": A.ACCEPT,
                "refuse": A.REFUSE, "r": A.REFUSE, "2": A.REFUSE,
            },
            DECIDE: {
                "stop": stop, "s": stop, "1": stop,
                "continue": more, "c": more, "2": more, **dict.fromkeys(calls, more),
            },
        }  # fmt: skip
        if phase in choices:
            action = choices[phase].get(words[0].lower()) if len(words) == 1 else None
            if action is None:
                raise UsageError(
                    f"'{line}' is not an answer here", hint=self._question(view).strip()
                )
            return action
        if phase == COUNT:
            return self._reading(view, legal, line)
        if phase == TAKE:
            words = [w for w in words if w.lower() != "take"]
            if len(words) != 1:
                raise UsageError(
                    f"'{line}' is not one card to take", hint=self._options(view, legal)
                )
            return self._pick_target(view, legal, words[0])
        if phase != PLAY:
            raise UsageError("it is not your turn")
        if [w.lower() for w in words] == ["skip"] and A.SKIP in legal:  # after a bomb
            return A.SKIP
        if [w.lower() for w in words] in (["offer"], ["offer", "a", "draw"]):
            if A.OFFER not in legal:
                raise UsageError(
                    "you may not offer a draw now: only with no safe play (no card of your hand"
                    " captures, and no flip could reach the stop minimum), one offer a round"
                )
            return A.OFFER
        if words and words[0].lower() in ("hiki", "bomb"):  # (a bomb is played as a hiki)
            if len(words) != 2:
                raise UsageError(f"{words[0].lower()} needs a month: {words[0].lower()} willow")
            action = A.HIKI + A.month_index(words[1], view.compiled.index)
            if action not in legal:
                raise UsageError(f"no hiki of {words[1]}: you do not see its four cards")
            return action
        words = [w for w in words if w.lower() not in ("play", "onto")]
        if not words:
            raise UsageError(
                f"'{line}' names no card",
                hint="a card by its position in your hand (1, 2, ...), its id or its name",
            )
        card = self._hand_card(view, words[0])
        options = [a for a in legal if A.is_play(a) and A.played_card(a) == card]
        if len(words) > 2:
            raise UsageError(
                f"'{line}' is not a move", hint="a card, and the field card to take if two match"
            )
        if len(options) == 1:
            if len(words) == 2 and A.play_target(options[0]) is None:
                raise UsageError("there is no choice of field card to make with that card")
            return options[0]
        if len(words) == 2:
            return self._pick_target(view, options, words[1])
        question = f"{self._options(view, options)}: take which? "
        return self._answer(view, question, lambda line: self._pick_target(view, options, line))

    def _reading(self, view: PlayerView, legal: list[int], line: str) -> int:
        """The answer at the count: a reading by its number (1, the better, or 2) or in words
        (`sake as 2 plains`, `read as animal`, `plains`)."""
        word = line.strip().lower()
        if word.isdigit() and 1 <= int(word) <= len(legal):
            return legal[int(word) - 1]
        text = word.removeprefix("read ").strip()
        try:
            return A.parse_reading(text, view.compiled.index, view.compiled.rules.owners_choice)
        except MoveError as err:
            hint = "1 or 2, or the reading in words: " + (err.hint or "")
            raise UsageError(f"'{line}' is not a reading of your pile", hint=hint) from None

    def _hand_card(self, view: PlayerView, word: str) -> int:
        ix = view.compiled.index
        hand = screen.hand_ids(view)
        if word.isdigit() and 1 <= int(word) <= len(hand):
            return ix.bit[hand[int(word) - 1]]
        cid = ix.parse(word)
        if cid not in hand:
            raise UsageError(
                f"you do not hold {ix.short(cid)}",
                hint=f"your hand: 1 to {len(hand)}, or a card's id or name",
            )
        return ix.bit[cid]

    def _pick_target(self, view: PlayerView, options: list[int], word: str) -> int:
        ix = view.compiled.index
        word = word.removeprefix("take ").strip()  # "take 11" as the TAKE prompt takes it
        targets = [chosen_card(a) for a in options]
        if word.isdigit() and 1 <= int(word) <= len(options) and int(word) < 10:
            return options[int(word) - 1]
        cid = ix.parse(word)
        for a, t in zip(options, targets, strict=True):
            if t is not None and ix.ids[t] == cid:
                return a
        raise UsageError(
            f"{ix.short(cid)} is not one of the cards to take", hint=self._options(view, options)
        )

    # ------------------------------------------------------------ commands
    def _rules(self, view: PlayerView) -> None:
        """The rulebook as rich tables, in a pager when the screen is a terminal."""
        parts = to_rich(rulebook(view.compiled.rules))
        if not self.console.is_terminal:
            for part in parts:
                self.console.print(part)
            return
        with self.console.pager(styles=False):
            for part in parts:
                self.console.print(part)

    def _why(self, view: PlayerView) -> None:
        """The round's payments so far, each in words: what for (each yaku or teyaku with its
        value) and the factor that multiplied it; else the last round's."""
        lines = [screen.payment_sentence(p, self.s.names, view) for p in view.ledger]
        if lines:
            self.console.print("payments this round:")
        elif self.last_ledger:
            self.console.print("nothing paid yet this round; last round:")
            lines = self.last_ledger
        else:
            lines = ["no payments yet"]
        for line in lines:
            self.console.print("  " + line)

    def _hint(self, view: PlayerView) -> None:
        bot = SearchAgent(f"hint:{view.turn}", rollouts=2000, think_ms=self.hint_ms)
        estimates = bot.evaluate(view)
        best = estimates[0]
        rules, ix = view.compiled.rules, view.compiled.index
        self.console.print(
            f"the search bot would {screen.action_words(rules, best.action, ix)}", style="bold"
        )
        if best.rollouts:
            self.console.print(
                "  (it dealt the cards it cannot see at random and played each choice out"
                " with the greedy bot; average result against the others:)"
            )
            for e in estimates[:4]:
                self.console.print(
                    f"  {screen.action_words(rules, e.action, ix):40} {e.mean:+8.1f}"
                    f"  over {e.rollouts} deals"
                )
