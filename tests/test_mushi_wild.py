"""Mushi's wild card, the rest of it (issue 25): drawn, the lightning "must capture a non-Willow
card on the field" (`captures any field card when drawn`), its player choosing which; and at
the end "the last Willow will be added to the scoring area of the player who captured the other
two non-wild Willows" (`the last of its month goes to the holder of the other two`). Both
engines play them; the rulewise bot weighs the drawn wild card's target by its rollouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.agents.greedy import card_worth
from rulekit.describe import rulebook
from rulekit.diff import diff
from rulekit.engine import actions as A
from rulekit.engine.round import Phase, Round
from rulekit.engine.tables import CompiledRules
from rulekit.errors import MoveError
from rulekit.lang.loader import load_rules_text
from rulekit.sim.exercise import Counting
from tests.engine_helpers import play, stacked
from tests.lang_helpers import errors_of, write
from tests.test_batch_identity import assert_same_rounds, scalar_deal

HERE = Path(__file__).parent
WILD = (
    "wild lightning: captures any field card from the hand; collects its month at the end;"
    " cannot take its own month; taken from the field by the next card drawn; takes the whole"
    " field when drawn last"
)
DRAWN = "; captures any field card when drawn"


def mushi(extra: str = "") -> CompiledRules:
    """Mushi (rules/mushi/fudawiki.rk) with its wild card's line written here, `extra` added."""
    text = f'extends "mushi/fudawiki"\n{WILD}{extra}\n'
    return CompiledRules(load_rules_text(text, "v.rk", HERE / "v.rk"))


def lightning_drawn(c: CompiledRules) -> Round:
    """Alice (the dealer) lays plum 23 and draws the lightning: on the field, the swallow (a
    willow), the cuckoo and six plains of other months (with her plum)."""
    hands = [[10, 11, 20, 21, 30, 31, 42, 23], [13, 22, 33, 41, 50, 51, 80, 81]]
    rnd = Round(c, 2, 0, deal=stacked(c, hands, [12, 32, 40, 52, 82, 92, 102, 111], [113]))
    play(rnd, [(0, "play 23")])
    return rnd


# ---------------------------------------------------------------- drawn, it captures


def test_a_drawn_wild_card_captures_a_non_willow_card_of_its_players_choice() -> None:
    rnd = lightning_drawn(mushi(DRAWN))
    ids = rnd.ix.mask
    assert rnd.phase == Phase.TAKE
    targets = [12, 23, 32, 40, 52, 82, 92, 102]  # the swallow, its own month, is not one
    assert rnd.legal_actions() == [A.TAKE + rnd.ix.bit[i] for i in targets]
    with pytest.raises(MoveError, match="one of the drawn wild card's targets"):
        rnd.apply(A.TAKE + rnd.ix.bit[111])
    play(rnd, [(0, "take 52")])
    assert rnd.captured[0] == ids([52, 113])
    assert rnd.field == ids([12, 23, 32, 40, 82, 92, 102, 111])
    assert rnd.current_player == 1
    assert (rnd.wild_owner, rnd.wild_month) == (0, ids([50, 51, 52, 53]))


def test_without_the_option_a_drawn_wild_card_is_an_ordinary_willow() -> None:
    rnd = lightning_drawn(mushi())
    assert rnd.phase == Phase.PLAY and rnd.current_player == 1
    assert rnd.captured[0] == rnd.ix.mask([111, 113])  # it took the swallow


def test_a_drawn_wild_card_with_one_target_takes_it_and_with_none_is_laid() -> None:
    c = mushi(DRAWN)
    ids = c.index.mask

    def alice_draws(field: list[int]) -> Round:
        """Alice takes pine 12 with pine 13 from `field` and draws the lightning."""
        rnd = Round(c, 2, 0, deal=stacked(c, [[13], [22]], field, [113]))
        play(rnd, [(0, "play 13")])
        return rnd

    one = alice_draws([111, 112, 12, 42])
    assert one.captured[0] == ids([12, 13, 42, 113]) and one.field == ids([111, 112])
    assert (one.wild_owner, one.wild_month) == (0, ids([40, 41, 42, 43]))
    laid = alice_draws([111, 112, 12])
    assert laid.field == ids([111, 112, 113]) and laid.captured[0] == ids([12, 13])
    assert laid.wild_owner == -1


def test_greedy_takes_the_drawn_wild_cards_best_target_by_its_card_values() -> None:
    from rulekit.agents.greedy import GreedyAgent
    from rulekit.engine.view import PlayerView

    rnd = lightning_drawn(mushi(DRAWN))
    view = PlayerView(rnd, 0)
    assert view.wild_drawn
    worth = card_worth(rnd.c)
    best = max(rnd.legal_actions(), key=lambda a: worth[a - A.TAKE])
    assert rnd.ix.ids[best - A.TAKE] == 40  # the cuckoo: an animal, 10 points, the rest plains
    assert GreedyAgent(1).act(view) == best


def test_compare_counts_the_drawn_wild_cards_target_as_a_wild_card_play() -> None:
    from rulekit.agents.greedy import GreedyAgent
    from rulekit.engine.view import PlayerView

    rnd = lightning_drawn(mushi(DRAWN))
    bot = Counting(GreedyAgent(1))
    bot.act(PlayerView(rnd, 0))
    assert bot.counts["wild offered"] == bot.counts["wild"] == 1


def test_the_drawn_wild_card_option_is_said_in_words() -> None:
    rules = mushi(DRAWN).rules
    said = " ".join(p for s in rulebook(rules) for p in s.paragraphs)
    assert "drawn, it captures a field card it could take from the hand" in said
    words = " ".join(str(d) for d in diff(mushi().rules, rules))
    assert "drawn, the wild card captures a field card it could take from the hand" in words


def test_a_misspelt_drawn_wild_option_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, f'extends "mushi/fudawiki"\n{WILD}; captures any field card if drawn\n')
    text = errors_of(path).replace(f"{tmp_path}/", "")
    assert text.startswith("house.rk:2:222: unexpected 'if'; expected 'from', 'when'")


# ---------------------------------------------------------------- both engines


def test_both_engines_play_the_drawn_wild_card_alike() -> None:
    assert_same_rounds(mushi(DRAWN), "mushi, drawn wild", 2, 20)


def test_the_identity_deals_meet_the_drawn_wild_cards_choice() -> None:
    """A kernel that ignored the option would fail the test above: some of its deals play
    differently with it (and the rulewise bot weighs the choice in the kernel)."""
    with_it, without = mushi(DRAWN), mushi()
    bots = ("rulewise", "rulewise")
    changed = sum(
        scalar_deal(with_it, 2, bots, 1, n) != scalar_deal(without, 2, bots, 1, n)
        for n in range(20)
    )
    assert changed


# ---------------------------------------------------------------- the last willow


LAST = "; the last of its month goes to the holder of the other two"


def last_turns(c: CompiledRules) -> Round:
    """The round's last turns, the stock empty: Alice holds the rain man and the willow ribbon,
    Bob the lightning with the iris it took; on the field the swallow, iris 53 and pine 12.
    Alice takes pine 12 with 13, Bob lays plum 22: the hands are played out."""
    ids = c.index.mask
    rnd = Round(c, 2, 0, deal=stacked(c, [[13], [22]], [111, 12, 53]))
    rnd.stock = []
    rnd.captured = [ids([110, 112]), ids([113, 52])]
    rnd.wild_owner, rnd.wild_month = 1, ids([50, 51, 52, 53])
    play(rnd, [(0, "play 13"), (1, "play 22")])
    return rnd


def test_the_last_willow_goes_to_the_holder_of_the_other_two() -> None:
    rnd = last_turns(mushi(LAST))
    ids = rnd.ix.mask
    assert rnd.field == ids([22])
    assert rnd.captured == [ids([110, 112, 111, 12, 13]), ids([113, 52, 53])]
    kept = last_turns(mushi())  # without the option: the swallow stays on the field
    assert kept.field == ids([22, 111])


def test_the_last_willow_stays_when_nobody_holds_the_other_two() -> None:
    c = mushi(LAST)
    ids = c.index.mask
    rnd = Round(c, 2, 0, deal=stacked(c, [[13], [22]], [111, 12]))
    rnd.stock = []
    rnd.captured = [ids([110]), ids([112])]
    play(rnd, [(0, "play 13"), (1, "play 22")])
    assert rnd.field == ids([22, 111])


def test_the_last_of_its_month_needs_a_month_of_four(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'extends "koikoi/sloper"\nwithout 121, paulownia_plain_1 + paulownia_plain_2\n'
        f"wild phoenix: captures any field card from the hand{LAST}\n",
    )
    text = errors_of(path).replace(f"{tmp_path}/", "")
    assert text.startswith("house.rk:3:54: the wild card's month has 0 other cards")


def test_the_last_of_its_month_is_said_in_words() -> None:
    rules = mushi(LAST).rules
    said = " ".join(p for s in rulebook(rules) for p in s.paragraphs)
    assert "the last card of its month left on the field goes to the player who captured" in said
    words = " ".join(str(d) for d in diff(mushi().rules, rules))
    assert "the last card of the wild card's month goes to the holder of the other two" in words


def test_both_engines_give_the_last_willow_alike() -> None:
    assert_same_rounds(mushi(DRAWN + LAST), "mushi, drawn wild, last willow", 2, 20)


def test_the_identity_deals_meet_the_last_willow() -> None:
    """Some of the deals above end with the last willow given (a kernel that ignored the
    option would fail them)."""
    with_it, without = mushi(DRAWN + LAST), mushi(DRAWN)
    bots = ("greedy", "greedy")
    changed = sum(
        scalar_deal(with_it, 2, bots, 1, n) != scalar_deal(without, 2, bots, 1, n)
        for n in range(20)
    )
    assert changed
