"""An observation holds only what its seat may know, and its sampled worlds agree with it.

Every bundled rule file at every table size it allows, dealt from a seed or written down (with
the stock after a fold), observed at random points of the round, fold decisions included.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.cards import bits
from rulekit.engine.observation import Observation, known_cards
from rulekit.engine.round import DONE, FOLD, JOKER_ID, Round, StackedDeal, card_places
from rulekit.engine.view import PlayerView
from rulekit.scenario.runner import ScenarioRun
from tests.conftest import compiled, rules

ROOT = Path(__file__).parent.parent
BUNDLED = sorted(
    str(p.relative_to(ROOT / "rules").with_suffix(""))
    for p in (ROOT / "rules").glob("*/*.rk")
    if p.parent.name != "common"
)
TABLES = [
    (name, n) for name in BUNDLED for n in range(rules(name).seats.min, rules(name).seats.max + 1)
]
WORKED_EXAMPLE = ROOT / "rules/hachihachi/scenarios/fudawiki/worked-example.scenario.toml"
JOKER_AT_SEVEN = ROOT / "rules/hachihachi/scenarios/wikipedia-draft/joker-at-seven.scenario.toml"

# Every attribute of a round, sorted by whether it can hold a card.
CARD_MASKS = ("field", "laid_field", "stacked_field", "fed_this_turn", "turn_got")
# what the turn's two cards did, for the events (engine/events.py): cards everyone saw
CARD_MASKS += ("turn_laid", "turn_played_took", "turn_drawn_took", "turn_stacked", "turn_whole")
CARD_MASKS += ("exposed",)  # the shown teyaku cards still in a hand (ir.Yaku.shown): seen by all
CARD_MASK_LISTS = ("hands", "captured", "initial_hands")
CARD_MASK_MAPS = ("dealt_hands", "teyaku_revealed")
CARD_BIT_LISTS = ("stock", "initial_stock", "restocked", "stacked_restock")
OTHER_CARDS = ("stacked", "feeders", "drawn", "_setup_seed", "rides")  # checked one by one below
NO_CARDS = frozenset(
    """c carry_in carry_out continue_wins continues continuing cover current dealer ended_by
    field_laid field_size fold_at fold_fees fold_queue folded forfeited hand_size hiki hits ix
    joined joker_bit last_maker ledger liable_for made_entries made_value declared_value months
    multiplier next_dealer order paid_base pending_teyaku phase pos prepaid round_no rules
    seated stake stake_flat step steps teams teyaku_counted total_turns track_feeders turn void
    wild_bit wild_month wild_owner winner winners yaku_made declarer declare_payers draws_before
    sitters_in declared declare_at asked count_ending count_offer readings to_ask event_factor
    events_happened skips won_at_once event_times declared_times first_continue
    compensations claimed rides_made show_at showed offered offerer refuser""".split()
)


def _bits_of(rnd: Round, cards: list[int] | tuple[int, ...] | None) -> int:
    mask = 0
    for b in cards or ():
        mask |= 1 << b
    return mask


def _placed(rnd: Round) -> int:
    """The cards of the deck that are somewhere: a hand, the field, a pile, the stock, drawn."""
    return rnd.ix.full & _bits_of(rnd, [b for b, n in enumerate(card_places(rnd)) if n])


def _record(name: str, n: int, seed: int) -> tuple[Round, list[int]]:
    """A round dealt from `seed` and played out at random, and its moves."""
    rnd = Round(compiled(name), n, seed % n, seed=seed)
    moves = random.Random(seed)
    actions = []
    while not rnd.is_terminal:
        action = moves.choice(rnd.legal_actions())
        actions.append(action)
        rnd.apply(action)
    return rnd, actions


def _written_down(rnd: Round) -> StackedDeal:
    """The deal of a played round as a scenario writes it: hands, field, stock, restock."""
    ix = rnd.ix
    field = set(ix.ids_of(rnd.laid_field))

    def ids(seq: list[int]) -> tuple[int, ...]:
        return tuple(ix.ids[b] for b in seq if b != rnd.joker_bit and ix.ids[b] not in field)

    hands = tuple(
        tuple(JOKER_ID if b == rnd.joker_bit else ix.ids[b] for b in bits(h))
        for h in rnd.initial_hands
    )
    restock = ids(rnd.restocked) if rnd.restocked is not None else None
    return StackedDeal(hands, tuple(sorted(field)), ids(rnd.initial_stock), restock)


def check_observation(rnd: Round, seat: int, rng: random.Random, worlds: int = 3) -> None:
    """The observation of `seat` holds no card he cannot know; its worlds agree with it."""
    obs = Observation(rnd, seat)
    masked = obs.round
    known = known_cards(rnd, seat)
    full = rnd.ix.full
    joker = 1 << rnd.joker_bit if rnd.joker_bit >= 0 else 0

    unclassified = set(vars(rnd)) - NO_CARDS - set(CARD_MASKS + CARD_MASK_LISTS + CARD_MASK_MAPS)
    unclassified -= set(CARD_BIT_LISTS + OTHER_CARDS)
    assert not unclassified, f"say whether these attributes can hold cards: {unclassified}"
    for name in CARD_MASKS:
        assert getattr(masked, name) & full & ~known == 0, name
    for name in CARD_MASK_LISTS:
        for m in getattr(masked, name):
            assert m & full & ~known == 0, name
    for name in CARD_MASK_MAPS:
        for m in getattr(masked, name).values():
            assert m & full & ~known == 0, name
    for name in CARD_BIT_LISTS:
        assert _bits_of(rnd, getattr(masked, name)) & ~known == 0, name
    assert masked.stacked is None
    assert _bits_of(rnd, list(masked.feeders)) & ~known == 0
    for b, stack in masked.rides:  # bonus cards riding a stack: on the field, as their stacks
        assert (1 << b | stack) & ~known == 0
    assert masked.drawn < 0 or known >> masked.drawn & 1
    assert masked._setup_seed != rnd._setup_seed  # the fold's reshuffle could be replayed
    # the unknown cards are exactly the rest (and a joker a hidden hand holds)
    hidden_joker = sum(rnd.hands[s] & joker for s in obs.hidden)
    assert obs.unknown == (full & ~known) | hidden_joker
    unplaced = full & ~_placed(rnd)
    for s in range(rnd.seated):
        own = s == seat and s not in obs.hidden  # with his joker, if he holds it
        assert masked.hands[s] == (rnd.hands[s] if own else rnd.hands[s] & known)

    for _ in range(worlds):
        world = obs.sample(rng)
        assert card_places(world) == [1] * len(rnd.ix.ids)  # every card in exactly one place
        assert world.field == rnd.field and world.captured == rnd.captured
        assert world.drawn == rnd.drawn
        for s in range(rnd.seated):
            assert world.hands[s] & known == rnd.hands[s] & known  # known cards stay put
            assert (world.hands[s] & (full | joker)).bit_count() == (
                rnd.hands[s] & (full | joker)
            ).bit_count()
        assert len(world.stock) == len(rnd.stock) + unplaced.bit_count()
        assert _bits_of(world, world.stock) & known == 0
        while not world.is_terminal:  # a world can be played out, keeping every card
            world.apply(rng.choice(world.legal_actions()))
        assert card_places(world) == [1] * len(rnd.ix.ids)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    point=st.floats(0, 1),
    written=st.booleans(),
    anyone=st.booleans(),
)
def test_an_observation_holds_only_what_its_seat_may_know(
    table: tuple[str, int], seed: int, point: float, written: bool, anyone: bool
) -> None:
    name, n = table
    played, actions = _record(name, n, seed)
    deal = _written_down(played) if written else None
    rnd = Round(compiled(name), n, seed % n, seed=seed, deal=deal)
    for action in actions[: int(point * len(actions))]:
        rnd.apply(action)
    rng = random.Random(seed)
    seat = rng.randrange(n) if anyone or rnd.phase == DONE else rnd.current
    check_observation(rnd, seat, rng)


def test_fold_decisions_are_reached_in_written_down_deals() -> None:
    """The property above does meet its hard case: a fold decision in a written-down deal."""
    met = 0
    for seed in range(30):
        played, _ = _record("hachihachi/fudawiki", 4 + seed % 3, seed)
        deal = _written_down(played)
        rnd = Round(compiled("hachihachi/fudawiki"), played.seated, played.dealer, deal=deal)
        assert rnd.stacked_restock is not None
        if rnd.phase == FOLD:
            met += 1
            check_observation(rnd, rnd.current, random.Random(seed))
    assert met > 20


def _walk(path: Path) -> None:
    """Every step of a scenario's moves, observed from every seat."""
    run = ScenarioRun(path)
    spec = run.sc.round_specs()[0]
    assert spec.deal is not None
    dealer = run.seat(run.sc.dealer, ("dealer",))
    rnd = Round(run.c, run.n, dealer, seed=run.sc.seed or 0, deal=run.stacked(spec.deal, ()))
    rng = random.Random(0)
    for j, move in enumerate(spec.moves):
        for seat in range(run.n):
            check_observation(rnd, seat, rng, worlds=2)
        assert isinstance(move, str)
        _, action = run.parse_move(move, ("moves", j))
        rnd.apply(action)


def test_the_worked_example_leaks_nothing_at_any_step() -> None:
    _walk(WORKED_EXAMPLE)


def test_the_joker_at_seven_leaks_nothing_at_any_step() -> None:
    _walk(JOKER_AT_SEVEN)


def test_sampled_worlds_do_not_hold_the_real_stock_after_a_fold() -> None:
    """The referee's case: at the fold decision of a written-down deal at four, the worlds a
    search bot samples reshuffle the stock themselves; they never hold the real one."""
    run = ScenarioRun(WORKED_EXAMPLE)
    spec = run.sc.round_specs()[0]
    assert spec.deal is not None
    dealer = run.seat(run.sc.dealer, ("dealer",))
    rnd = Round(run.c, run.n, dealer, deal=run.stacked(spec.deal, ()))
    assert rnd.phase == FOLD
    seat = rnd.current
    view = PlayerView(rnd, seat)
    obs = view.observe()
    real = Round(run.c, run.n, dealer, deal=run.stacked(spec.deal, ()))
    fold = next(a for a in real.legal_actions() if real.describe(a) == "fold")
    folder = run.seat("Raphael", ())  # as written: the restock is the stock after his fold
    assert folder != seat
    while real.phase == FOLD:
        real.apply(fold if real.current == folder else real.legal_actions()[0])
    rng = random.Random(1)
    for _ in range(20):
        world = obs.sample(rng)
        while world.phase == FOLD:
            world.apply(fold if world.current == folder else world.legal_actions()[0])
        assert world.stock != real.stock
        assert world.restocked != real.restocked


def test_unseen_cards_are_the_observations_unknown_cards() -> None:
    for seed in range(10):
        rnd = Round(compiled("hachihachi/fudawiki"), 3, 0, seed=seed)
        seat = (seed + 1) % 3
        assert PlayerView(rnd, seat).unseen() == Observation(rnd, seat).unknown


# ---------------------------------------------------------------- a shown teyaku


def _dealt(name: str, hands: list[list[int]], field: list[int]) -> Round:
    c = compiled(name)
    placed = [x for h in hands for x in h] + field
    stock = tuple(i for i in c.index.ids if i not in placed)
    deal = StackedDeal(tuple(tuple(h) for h in hands), tuple(field), stock)
    return Round(c, len(hands), 0, deal=deal)


def test_a_special_triple_shows_its_three_cards_not_a_december_plain() -> None:
    """The referee's hand: the July triple makes the Special triple; the December plain 121
    belongs to the other branch (all three December plains), which the hand did not make."""
    rnd = _dealt(
        "hachihachi/fudawiki",
        [
            [12, 23, 31, 40, 52, 62, 92],
            [70, 71, 72, 121, 11, 22, 43],
            [13, 32, 42, 50, 61, 81, 100],
        ],
        [20, 21, 51, 60, 82, 90],
    )
    assert rnd.teyaku_names()[1] == ["special_triple"]
    three = rnd.ix.mask([70, 71, 72])
    assert PlayerView(rnd, 0).revealed[1] == three  # what a person at the table sees
    obs = Observation(rnd, 2)  # what a bot sees
    assert obs.round.hands[1] == three
    assert obs.round.dealt_hands[1] == three
    assert obs.unknown >> rnd.ix.bit[121] & 1


def test_a_december_standing_three_shows_the_three_december_dregs() -> None:
    """The other branch: kirisame's Standing Three on the December dregs shows those three."""
    c = compiled("hachihachi/kirisame")
    hand = c.index.mask([121, 122, 123, 12, 22, 32, 41])
    i = c.teyaku.position["standing_three"] if c.teyaku else -1
    assert c.teyaku_cards(hand, (i,)) == c.index.mask([121, 122, 123])
    july = c.index.mask([70, 71, 72, 121, 12, 22, 32])
    assert c.teyaku_cards(july, (i,)) == c.index.mask([70, 71, 72])
