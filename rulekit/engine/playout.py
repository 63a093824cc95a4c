"""Playing rounds to their end with players that choose from a PlayerView.

One loop for every caller that plays whole rounds (simulation, comparison, scenario recording,
the search bot's rollouts, benchmarks), and one rule for a void deal: it is redealt by the same
dealer, as deal `"{number}.{k}"` for the k-th redeal, with every player re-seeded before each
try; after MAX_VOID_IN_A_ROW void deals in a row the rule file is at fault and play stops with
an error. A player is anything with `act(view) -> action`; `play_deal` also calls its
`start(seed)`. The engine knows no particular bot.

A player may also offer `plain_choice(compiled, seat)`: a function choosing its play in a plain
round from the legal plays, the field, its pile and the value it has made, the same play its
`act` would choose from a view. When every player of a plain round offers one, the play phase
runs without views (capture.plain_turns); other phases still ask `act`.

A player may instead offer `uniform_draws()`: the Chance (engine.chance) it draws its every
choice from, uniformly among the legal actions in their order, `legal[chance.below(len(legal))]`,
as its `act` does. When every player of a round offers one, the round is played without views
and without calling the players: the plain play phase by a turn loop that draws inline
(capture.uniform_turns), every other choice drawn here from the legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rulekit.engine.capture import (
    PlainChoice,
    legal_actions,
    next_turn,
    plain_turns,
    play_plain,
    uniform_turns,
)
from rulekit.engine.capture import play as play_any
from rulekit.engine.chance import Chance
from rulekit.engine.continuation import continue_play, stop
from rulekit.engine.game import MAX_VOID_IN_A_ROW
from rulekit.engine.round import DECIDE, DONE, FOLD, PLAY, SWAP, Round, RoundResult
from rulekit.engine.setup import choose_fold, choose_swap
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RuleError

Moves = list[tuple[int, int]]


class Player(Protocol):
    def act(self, view: PlayerView) -> int:
        """One of view.legal_actions()."""
        ...


class SeededPlayer(Player, Protocol):
    def start(self, seed: int | str) -> None:
        """Re-seed before a round, so that a seed replays it exactly."""


class UniformPlayer(Player, Protocol):
    def uniform_draws(self) -> Chance | None:
        """The chance this player's act() draws every choice from: `legal[chance.below(
        len(legal))]` of the legal actions in their order, in every phase; None when it
        chooses otherwise. The same answer every round (start() re-seeds that chance in
        place), so that a caller playing many rounds asks once (Offers)."""


@dataclass(frozen=True)
class Offers:
    """What a table of players offers to be played without views (uniform_draws, else
    plain_choices), for rounds of one rule file: asked once by a caller that plays many rounds
    with the same players, and passed down, rather than asked every round."""

    compiled: CompiledRules
    draws: list[Chance] | None
    choose: list[PlainChoice] | None


def offers(compiled: CompiledRules, players: Sequence[Player]) -> Offers:
    """The players' offers for rounds of `compiled` (the plain choices only when they do not
    all draw uniformly: a uniform round never asks them)."""
    draws = uniform_draws(players)
    choose = None if draws is not None else _plain_choices(compiled, players)
    return Offers(compiled, draws, choose)


def play_out(
    rnd: Round,
    players: Sequence[Player],
    moves: Moves | None = None,
    asked: Offers | None = None,
) -> None:
    """Play a round to its end (players[seat] acts for the seat); with `moves`, write down
    every (seat, action). The hot path of simulation and of the search bot's rollouts.
    `asked`: the players' offers for this round's rule file, if the caller asked already."""
    apply = rnd.apply
    if moves is None:
        if asked is None or asked.compiled is not rnd.c:
            draws = uniform_draws(players)
            choose = None if draws is not None else plain_choices(rnd, players)
        else:
            draws = asked.draws
            choose = asked.choose
        if draws is not None:
            play_uniform(rnd, draws)
            return
        if choose is not None:  # the play phase without views: each seat's view made if asked
            views: list[PlayerView | None] = [None] * rnd.seated
            while (phase := rnd.phase) != DONE:
                if phase == PLAY:
                    plain_turns(rnd, choose)
                else:
                    seat = rnd.current
                    view = views[seat]
                    if view is None:
                        view = views[seat] = PlayerView(rnd, seat)
                    apply(players[seat].act(view))
            return
    every = [PlayerView(rnd, s) for s in range(rnd.seated)]
    acts = [p.act for p in players]
    if moves is None:
        play = play_plain if rnd.c.plain else play_any
        while (phase := rnd.phase) != DONE:
            seat = rnd.current
            if phase == PLAY:  # most moves: straight to the turn, without apply's dispatch
                play(rnd, acts[seat](every[seat]))
            else:
                apply(acts[seat](every[seat]))
    else:
        while rnd.phase != DONE:
            seat = rnd.current
            action = acts[seat](every[seat])
            moves.append((seat, action))
            apply(action)


def uniform_draws(players: Sequence[Player]) -> list[Chance] | None:
    """Each player's uniform_draws(), when every player offers one; else None."""
    out: list[Chance] = []
    for p in players:
        offer = getattr(p, "uniform_draws", None)
        chance = offer() if offer is not None else None
        if chance is None:
            return None
        out.append(chance)
    return out


def play_uniform(rnd: Round, draws: Sequence[Chance]) -> None:
    """Play a round to its end, seat s choosing `legal[draws[s].below(len(legal))]` each time:
    what players offering uniform_draws() would choose through their views, without the views
    or the calls. The play phase is the generated turn loop's (capture.uniform_turns); a
    two-way choice (stop or continue, swap or keep, join or fold) is drawn straight to its
    handler, its legal actions being known in their order; any other through apply."""
    plain = rnd.c.plain
    apply = rnd.apply
    while (phase := rnd.phase) != DONE:
        if phase == PLAY and plain:
            uniform_turns(rnd, draws)
        elif phase == DECIDE:  # legal: STOP, CONTINUE (capture.legal_actions), as apply does
            p = rnd.current
            if draws[p].below(2):
                continue_play(rnd)
                next_turn(rnd)
            else:
                stop(rnd, p)
        elif phase == SWAP:  # legal: SWAP, KEEP
            choose_swap(rnd, not draws[rnd.current].below(2))
        elif phase == FOLD:  # legal: JOIN, FOLD
            choose_fold(rnd, not draws[rnd.current].below(2))
        else:
            legal = legal_actions(rnd)
            apply(legal[draws[rnd.current].below(len(legal))])


def plain_choices(rnd: Round, players: Sequence[Player]) -> list[PlainChoice] | None:
    """Each seat's plain_choice, for a plain round whose every player offers one (a seat
    nobody plays never chooses); else None. A caller playing many rounds with the same players
    asks once (offers) and passes the answer down."""
    return _plain_choices(rnd.c, players)


def _plain_choices(c: CompiledRules, players: Sequence[Player]) -> list[PlainChoice] | None:
    """Each seat's plain_choice for rounds of `c`, asked now; None unless all offer one."""
    if not c.plain:
        return None
    out = []
    for s, p in enumerate(players):
        offer = getattr(p, "plain_choice", None)
        choice = offer(c, s) if offer is not None else None
        if choice is None:
            return None
        out.append(choice)
    return out


def play_round(rnd: Round, players: Sequence[Player], moves: Moves | None = None) -> RoundResult:
    """Play a round to its end and return its result; with `moves`, write down every move."""
    play_out(rnd, players, moves)
    return rnd.result()


def play_deal(
    compiled: CompiledRules,
    seated: int,
    number: int,
    players: Sequence[SeededPlayer],
    *,
    seed: int | str,
    dealer: int | None = None,
    round_no: int | None = None,
    moves: Moves | None = None,
) -> tuple[Round, RoundResult, int]:
    """Deal `number` of `seed` (dealt by seat number % seated unless `dealer` is given) and
    play it out, redealing a void deal; returns the round played, its result and how many void
    deals came before it. Before every try, player s is re-seeded with "{seed}:{number}:{s}",
    so a deal's play depends only on (seed, number), never on how the work was split. `moves`,
    if given, holds the moves of the round returned only."""
    rnd, voids = play_deal_out(
        compiled, seated, number, players, seed=seed, dealer=dealer, round_no=round_no, moves=moves
    )
    return rnd, rnd.result(), voids


def play_deal_out(
    compiled: CompiledRules,
    seated: int,
    number: int,
    players: Sequence[SeededPlayer],
    *,
    seed: int | str,
    dealer: int | None = None,
    round_no: int | None = None,
    moves: Moves | None = None,
    asked: Offers | None = None,
    voided: list[tuple[Round, Moves]] | None = None,
) -> tuple[Round, int]:
    """play_deal() without the result: the round played (over, not void) and the void deals
    before it (a simulation tallies the round's state: rulekit.stats.tally.Tally.add_played).
    `asked`: the players' offers, if the caller asked already (play_out). `voided`, if given,
    gets each void deal before it with its moves (a recording writes them down)."""
    who_deals = number % seated if dealer is None else dealer
    return _deal_out(
        compiled,
        seated,
        number,
        players,
        seed,
        who_deals,
        number if round_no is None else round_no,
        moves,
        asked,
        0,
        voided,
    )


def _deal_out(
    compiled: CompiledRules,
    seated: int,
    number: int,
    players: Sequence[SeededPlayer],
    seed: int | str,
    who_deals: int,
    round_no: int,
    moves: Moves | None,
    asked: Offers | None,
    voids: int,
    voided: list[tuple[Round, Moves]] | None = None,
) -> tuple[Round, int]:
    """play_deal_out()'s tries, from the try after `voids` void deals of this number."""
    while True:
        deal_no: int | str = f"{number}.{voids}" if voids else number
        for s, p in enumerate(players):
            p.start(f"{seed}:{number}:{s}")
        rnd = Round(compiled, seated, who_deals, seed=seed, deal_no=deal_no, round_no=round_no)
        if moves is not None:
            moves.clear()
        play_out(rnd, players, moves, asked)
        if not rnd.void:
            return rnd, voids
        if voided is not None:
            voided.append((rnd, list(moves or ())))
        voids += 1
        if voids > MAX_VOID_IN_A_ROW:
            raise RuleError(
                f"more than {MAX_VOID_IN_A_ROW} void deals in a row (deal {number}, seed "
                f"{seed}): the rule file voids (almost) every deal",
                hint="check its 'void if' conditions",
            )


def play_deals_out(
    compiled: CompiledRules,
    seated: int,
    start: int,
    stop: int,
    players: Sequence[SeededPlayer],
    *,
    seed: int | str,
    each: Callable[[Round], object],
) -> int:
    """play_deal_out() of deals start..stop-1 in turn, each round played handed to `each`;
    returns the void deals before them all. The loop of a simulation's single rounds: the
    players' offers are asked once, after the first start(), and a round of players that all
    draw uniformly is played straight away (play_uniform), the same as play_out would."""
    asked: Offers | None = None
    voids = 0
    # player s is re-seeded with "{seed}:{number}:{s}", as play_deal_out does: its two fixed
    # parts written once
    tails = [(p, f":{s}") for s, p in enumerate(players)]
    prefix = f"{seed}:"
    for number in range(start, stop):
        key = f"{prefix}{number}"
        for p, tail in tails:
            p.start(key + tail)
        if asked is None:
            asked = offers(compiled, players)
        who_deals = number % seated
        rnd = Round(compiled, seated, who_deals, seed=seed, deal_no=number, round_no=number)
        draws = asked.draws
        if draws is not None:
            play_uniform(rnd, draws)
        else:
            play_out(rnd, players, None, asked)
        if rnd.void:
            rnd, redealt = _deal_out(
                compiled, seated, number, players, seed, who_deals, number, None, asked, 1
            )
            voids += redealt
        each(rnd)
    return voids
