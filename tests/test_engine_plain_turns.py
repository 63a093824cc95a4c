"""The view-less play phase (capture.plain_turns, used when every player offers a plain_choice)
plays exactly what the players' act() plays through views: the same moves, ledgers and piles.

play_out with `moves` always asks act() through a view, so each round is played both ways from
the same seeds and compared."""

from __future__ import annotations

import pytest

from rulekit.agents.greedy import GreedyAgent
from rulekit.agents.random_agent import RandomAgent
from rulekit.agents.rulewise import RulewiseAgent
from rulekit.engine.capture import PlainChoice
from rulekit.engine.playout import plain_choices, play_out
from rulekit.engine.round import PLAY, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError
from rulekit.lang import load_rules

FILES = [
    ("hachihachi/fudawiki", 3),
    ("hachihachi/fudawiki", 4),
    ("hachihachi/kirisame", 3),
    ("hachihachi/two-player", 2),
    ("koikoi/sloper", 2),
    ("koikoi/house/seven-or-more-doubled", 2),
]


def facts(rnd: Round) -> tuple[object, ...]:
    return (
        rnd.ledger,
        rnd.captured,
        rnd.turn,
        rnd.ended_by,
        rnd.winners,
        rnd.yaku_made,
        rnd.hands,
        rnd.field,
        rnd.feeders,
        rnd.hits,
        rnd.made_value,
        rnd.pos,
        rnd.current,
        rnd.turn_got,
        rnd.fed_this_turn,
    )


def both_ways(
    c: CompiledRules, seats: int, bot: type[RandomAgent | GreedyAgent], deal: int
) -> list[tuple[object, ...]]:
    """The round's facts played view-less, then through views (with moves written down)."""
    out = []
    for moves in (None, []):
        players = [bot(f"5:{deal}:{s}") for s in range(seats)]
        rnd = Round(c, seats, deal % seats, seed=5, deal_no=deal)
        if moves is None:  # the view-less road is taken
            assert plain_choices(rnd, players) is not None
        play_out(rnd, players, moves)
        out.append(facts(rnd))
    return out


@pytest.mark.parametrize(("name", "seats"), FILES)
@pytest.mark.parametrize("bot", [RandomAgent, GreedyAgent, RulewiseAgent])
def test_view_less_play_is_the_same(
    name: str, seats: int, bot: type[RandomAgent | GreedyAgent]
) -> None:
    c = CompiledRules(load_rules(name))
    assert c.plain
    for deal in range(25):
        fast, viewed = both_ways(c, seats, bot, deal)
        assert fast == viewed, f"{name} at {seats} seats, deal {deal}, {bot.name}"


def test_a_file_with_a_wild_card_or_hiki_asks_act() -> None:
    c = CompiledRules(load_rules("sakura/hawaii"))
    assert not c.plain
    rnd = Round(c, 2, 0, seed=1)
    assert plain_choices(rnd, [RandomAgent(), RandomAgent()]) is None


class OwnAct(GreedyAgent):
    """A greedy bot with an act of its own, which does not say it plays plain turns greedily."""

    def act(self, view: PlayerView) -> int:
        return view.legal_actions()[-1]


def test_a_greedy_subclass_that_plays_otherwise_offers_no_plain_choice() -> None:
    c = CompiledRules(load_rules("koikoi/sloper"))
    assert GreedyAgent().plain_choice(c, 0) is not None
    assert RulewiseAgent().plain_choice(c, 0) is not None  # its plain plays are greedy's
    assert OwnAct().plain_choice(c, 0) is None  # its own act
    rnd = Round(c, 2, 0, seed=1)
    assert plain_choices(rnd, [GreedyAgent(), OwnAct()]) is None


class Cheat(RandomAgent):
    """Plays a card it does not hold."""

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice:
        return lambda legal, field, mine, made: 47

    def act(self, view: PlayerView) -> int:
        return view.legal_actions()[0]


def test_a_refused_play_is_named_as_through_a_view() -> None:
    c = CompiledRules(load_rules("hachihachi/fudawiki"))
    rnd = Round(c, 3, 0, seed=1)
    assert rnd.phase == PLAY and not rnd.hands[0] >> 47 & 1
    with pytest.raises(MoveError, match="does not hold that card"):
        play_out(rnd, [Cheat(), Cheat()])
