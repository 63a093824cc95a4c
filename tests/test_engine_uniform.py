"""Players that draw every choice uniformly (engine.playout.UniformPlayer: the random bot) are
played without views or calls (playout.play_uniform, the turn loop drawing inline:
capture.uniform_turns), and that must play exactly what their act() plays through views: the
same state at the end and the same digits spent from each player's chance.

play_out with `moves` always asks act() through a view, so each round is played both ways from
the same seeds and compared."""

from __future__ import annotations

from hashlib import sha512 as openssl_sha512

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekit.agents.base import SeededAgent
from rulekit.agents.random_agent import RandomAgent
from rulekit.engine.chance import Chance, sha512
from rulekit.engine.playout import offers, play_out, uniform_draws
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules

FILES = [
    ("hachihachi/fudawiki", 3),
    ("hachihachi/fudawiki", 4),  # a fold phase
    ("hachihachi/kirisame", 3),  # a bonus, liability (feeders tracked)
    ("hachihachi/two-player", 2),
    ("hachihachi/wikipedia-draft", 7),
    ("koikoi/sloper", 2),  # a swap, stop or continue, a bonus
    ("koikoi/house/tsukifuda", 2),  # a yaku table that reads the round: no generated loop
    ("sakura/hawaii", 2),  # a wild card and hiki: not plain
    ("sakura/hawaii", 3),
    ("common/hanafuda", 3),  # no yaku table
]


def facts(rnd: Round) -> tuple[object, ...]:
    return (
        rnd.phase,
        rnd.ledger,
        rnd.captured,
        rnd.turn,
        rnd.ended_by,
        rnd.winners,
        rnd.yaku_made,
        rnd.hands,
        rnd.field,
        rnd.stock,
        rnd.feeders,
        rnd.hits,
        rnd.made_value,
        rnd.pos,
        rnd.current,
        rnd.turn_got,
        rnd.fed_this_turn,
        rnd.drawn,
        rnd.folded,
        rnd.void,
    )


def both_ways(c: CompiledRules, seats: int, deal: int, spent: int = 0) -> list[tuple[object, ...]]:
    """The round's facts and each player's chance at its end, played without views, then
    through views; each chance first spent down to `spent` bits or so (0: fresh)."""
    out = []
    for moves in (None, []):
        players = [RandomAgent(f"5:{deal}:{s}") for s in range(seats)]
        for p in players:
            if spent:
                p.chance.below(1 << (512 - spent))
        rnd = Round(c, seats, deal % seats, seed=5, deal_no=deal)
        if moves is None:  # the uniform road is taken
            assert uniform_draws(players) is not None
        play_out(rnd, players, moves)
        chances = [(p.chance.x, p.chance.block) for p in players]
        out.append((facts(rnd), chances))
    return out


@pytest.mark.parametrize(("name", "seats"), FILES)
def test_uniform_play_is_the_same_as_through_views(name: str, seats: int) -> None:
    c = CompiledRules(load_rules(name))
    for deal in range(20):
        fast, viewed = both_ways(c, seats, deal)
        assert fast == viewed, f"{name} at {seats} seats, deal {deal}"


@pytest.mark.parametrize(("name", "seats"), [("koikoi/sloper", 2), ("hachihachi/kirisame", 3)])
def test_a_chance_refilled_in_the_loop_draws_the_same(name: str, seats: int) -> None:
    """Chances with about 70 bits left: the loop takes the next block mid-round, as below()."""
    c = CompiledRules(load_rules(name))
    for deal in range(15):
        fast, viewed = both_ways(c, seats, deal, spent=442)
        assert fast == viewed, f"{name} at {seats} seats, deal {deal}"
        assert fast[1] != both_ways(c, seats, deal)[0][1]  # the blocks did move on


class Loaded(RandomAgent):
    """A random bot with an act of its own: it must be asked, in every phase."""

    def act(self, view: PlayerView) -> int:
        return view.legal_actions()[-1]


def test_only_players_that_all_draw_uniformly_are_drawn_for() -> None:
    bot, other = RandomAgent("a"), RandomAgent("b")
    assert uniform_draws([bot, other]) == [bot.chance, other.chance]
    assert uniform_draws([bot, Loaded()]) is None
    assert uniform_draws([bot, SeededAgent()]) is None  # no uniform_draws at all


def test_a_subclass_with_its_own_act_plays_its_own_way() -> None:
    c = CompiledRules(load_rules("koikoi/sloper"))
    rnd = Round(c, 2, 0, seed=3)
    play_out(rnd, [Loaded("x"), Loaded("y")])
    again = Round(c, 2, 0, seed=3)
    play_out(again, [Loaded("x"), Loaded("y")], [])
    assert facts(rnd) == facts(again)


@given(st.one_of(st.integers(), st.text(max_size=30)))
def test_reseed_is_a_new_chance_of_the_seed(seed: int | str) -> None:
    c = Chance("old")
    c.below(1000)
    c.reseed(seed)
    fresh = Chance(seed)
    assert (c.block, c.x) == (fresh.block, fresh.x)
    bot = RandomAgent("before")
    kept = bot.chance
    bot.start(seed)
    assert bot.chance is kept and (kept.block, kept.x) == (fresh.block, fresh.x)


@given(st.binary(max_size=200))
def test_the_builtin_sha512_is_hashlibs(data: bytes) -> None:
    assert sha512(data).digest() == openssl_sha512(data).digest()


def test_offers_name_the_draws_and_play_the_round_play_out_plays_without_them() -> None:
    """offers() gives each uniform player's own chance (none when one player chooses
    otherwise), and a round played with offers, even offers asked for another compiled copy
    of the rules, is the round play_out plays asking the players itself."""
    koikoi = CompiledRules(load_rules("koikoi/sloper"))
    players = [RandomAgent("a"), RandomAgent("b")]
    asked = offers(koikoi, players)
    assert asked.draws is not None and asked.draws[0] is players[0].chance
    assert offers(koikoi, [players[0], Loaded()]).draws is None
    other_rules = CompiledRules(load_rules("koikoi/sloper"))
    rnd = Round(other_rules, 2, 0, seed=1)
    again = Round(other_rules, 2, 0, seed=1)
    for p in players:
        p.start("s:0")
    play_out(rnd, players, None, asked)
    for p in players:
        p.start("s:0")
    play_out(again, players)
    assert rnd.ledger == again.ledger and rnd.turn == again.turn
