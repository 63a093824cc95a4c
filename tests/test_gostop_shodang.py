"""Go-Stop's shodang (GS 55): `offer a draw: when he has no safe play; the refuser pays for all
if another wins` (ir.DrawOffer; engine/draw_offer.py, batch/kernel/offer.py). The rule readings
are pinned by rules/gostop/scenarios/gostop-shodang-*; here: the statement's errors, the two
engines and the bots on it, the hand shown, the words, and the two-player case."""

from __future__ import annotations

import io
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.agents.greedy import GreedyAgent, refuses_draw
from rulekit.agents.search import SearchAgent
from rulekit.agents.strong import StrongAgent
from rulekit.batch import engine as batch
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine.draw_offer import may_offer
from rulekit.engine.observation import Observation, known_cards
from rulekit.engine.playout import play_deal
from rulekit.engine.round import ANSWER, DONE, PLAY, Round, StackedDeal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError, RuleError
from rulekit.lang import load_rules
from rulekit.play.session import Session
from rulekit.play.terminal import Terminal
from rulekit.sim.exercise import Counting, count_events, count_readings, exercised

SCENARIOS = Path(__file__).parent.parent / "rules" / "gostop" / "scenarios"


def _house(tmp_path: Path, text: str, base: str = "gostop/gostop") -> ir.Ruleset:
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{base}"\n' + text, encoding="utf-8")
    return load_rules(str(path))


def _errors(tmp_path: Path, text: str, base: str = "gostop/gostop") -> str:
    with pytest.raises(RuleError) as e:
        _house(tmp_path, text, base)
    return str(e.value)


def _scenario_round(name: str, moves: int) -> tuple[Round, CompiledRules, list[str]]:
    """The round of a shodang scenario (its first), after its first `moves` moves."""
    doc = tomllib.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    first = doc["rounds"][0] if "rounds" in doc else doc
    c = CompiledRules(load_rules("gostop/gostop"))
    names = doc["seats"]
    d = first["deal"]
    deal = StackedDeal(
        hands=tuple(tuple(d["hands"][n]) for n in names),
        field=tuple(d["field"]),
        stock=tuple(d["stock"]),
    )
    rnd = Round(c, 3, dealer=names.index(first["dealer"]), deal=deal)
    for move in [m for m in first["moves"] if isinstance(m, str)][:moves]:
        rnd.apply(A.parse(move.split(": ", 1)[1], c.index))
    return rnd, c, names


ACCEPTED = "gostop-shodang-accepted-by-both.scenario.toml"


def test_offer_a_draw_is_read_with_the_stop_minimum_of_the_continuation() -> None:
    rules = load_rules("gostop/gostop")
    assert rules.draw_offer == ir.DrawOffer(minimum=3, refuser_pays="for_all")
    assert load_rules("gostop/matgo").draw_offer is None  # (three-player rule: not in Matgo)


def test_a_draw_offered_needs_a_score_minimum_on_the_choice(tmp_path: Path) -> None:
    said = _errors(
        tmp_path,
        'continue "Go": choice only if dealer\noffer a draw: when he has no safe play',
        "koikoi/sloper",
    )
    assert "house.rk:3:1" in said and "choice only if score >= 3" in said


def test_the_refuser_pays_for_all_only_where_a_stop_is_paid(tmp_path: Path) -> None:
    text = (
        "continue: paid when made\n"
        "offer a draw: when he has no safe play; the refuser pays for all if another wins"
    )
    said = _errors(tmp_path, text, "koikoi/sloper")
    assert "house.rk:3:41" in said and "paid when stopping" in said


def test_a_misspelt_offer_is_located_with_a_suggestion(tmp_path: Path) -> None:
    said = _errors(tmp_path, "offer a draw: when he has no safe pley")
    assert "house.rk:2:35" in said and "did you mean 'play'" in said


def test_no_minimum_on_the_choice_makes_any_yaku_the_minimum(tmp_path: Path) -> None:
    rules = _house(tmp_path, "offer a draw: when he has no safe play", "koikoi/sloper")
    assert rules.draw_offer == ir.DrawOffer(minimum=1)


def test_the_offer_is_the_last_play_and_the_others_answer_in_turn() -> None:
    """Bob's third turn in the scenario: OFFER after his plays; Carol (next) answers, then
    Alice; a refusal gives Bob his turn back, and no other offer is made in the round."""
    rnd, _, _ = _scenario_round(ACCEPTED, 5)
    legal = rnd.legal_actions()
    assert rnd.current == 1 and legal[-1] == A.OFFER and A.OFFER not in legal[:-1]
    twin = rnd.copy()
    rnd.apply(A.OFFER)
    assert (rnd.phase, rnd.current, rnd.legal_actions()) == (ANSWER, 2, [A.ACCEPT, A.REFUSE])
    rnd.apply(A.ACCEPT)
    assert (rnd.phase, rnd.current) == (ANSWER, 0)
    rnd.apply(A.ACCEPT)
    assert rnd.phase == DONE and rnd.result().ended_by == "draw" and rnd.winner is None
    twin.apply(A.OFFER)
    twin.apply(A.REFUSE)
    assert (twin.phase, twin.current, twin.refuser) == (PLAY, 1, 2)
    assert A.OFFER not in twin.legal_actions()
    with pytest.raises(MoveError, match="may not offer a draw now"):
        twin.apply(A.OFFER)
    # one offer a round: the refuser is liable for the rest of it, nobody offers again
    assert not any(may_offer(twin, s, [], lambda a: 0) for s in range(3))


def test_the_offered_hand_is_seen_by_the_others_and_kept_in_their_worlds() -> None:
    """An exposed hand: Carol, answering, knows Bob's hand; her rulewise worlds keep it."""
    rnd, _, _ = _scenario_round(ACCEPTED, 5)
    bob = rnd.hands[1]
    assert known_cards(rnd, 2) & bob == 0
    rnd.apply(A.OFFER)
    assert known_cards(rnd, 2) & bob == bob
    assert PlayerView(rnd, 2).revealed[1] == bob
    world = Observation(rnd, 2).sample(GreedyAgent(3).chance)
    assert world.hands[1] == bob


def test_greedy_offers_when_it_may_and_accepts_only_without_a_safe_play() -> None:
    rnd, _, _ = _scenario_round(ACCEPTED, 5)
    assert GreedyAgent(0).act(PlayerView(rnd, 1)) == A.OFFER
    rnd.apply(A.OFFER)
    carol = PlayerView(rnd, 2)  # Carol's wisteria ribbon and cuckoo match the wisteria chaff
    assert refuses_draw(carol) and GreedyAgent(0).act(carol) == A.REFUSE


def test_both_engines_play_shodang_alike_with_every_bot() -> None:
    """Deals where draws are offered, accepted and refused: the kernel's ledgers, endings and
    choices are the scalar engine's (tests/test_batch_identity.py covers more deals)."""
    c = CompiledRules(load_rules("gostop/gostop"))
    bots = ("greedy", "rulewise", "random")
    plan = batch.make_plan(c, 3, bots, seed=5)
    kernel = batch.rounds(plan, 0, 12)
    seen: Counter[str] = Counter()
    for number, got in enumerate(kernel):
        assert got is not None, f"deal {number} was handed to the scalar engine"
        agents = [Counting(make_agent(b, 0)) for b in bots]
        choices: Counter[str] = Counter()
        for a in agents:
            a.counts = choices
        rnd, result, _ = play_deal(c, 3, number, agents, seed=5)
        count_readings(c, rnd.captured, choices)
        count_events(rnd, choices)
        assert (got.ledger, got.ended_by, got.net) == (result.ledger, result.ended_by, result.net)
        assert got.choices == choices, number
        seen += choices
    assert seen["draw"] and seen["refuse"] and seen["refuse offered"] > seen["refuse"]


def test_two_players_one_answer_and_the_refuser_pays_only_his_own(tmp_path: Path) -> None:
    """Matgo with the statement: the one opponent answers; all accepted is his acceptance."""
    rules = _house(
        tmp_path,
        "offer a draw: when he has no safe play; the refuser pays for all if another wins",
        "gostop/matgo",
    )
    c = CompiledRules(rules)
    for number in range(40):
        rnd = Round(c, 2, seed=1, deal_no=number)
        while rnd.phase != DONE:
            legal = rnd.legal_actions()
            if legal[-1] == A.OFFER:
                rnd.apply(A.OFFER)
                assert rnd.phase == ANSWER and rnd.current == 1 - rnd.offerer
                rnd.apply(A.ACCEPT)
                assert rnd.result().ended_by == "draw" and not rnd.result().ledger
                return
            rnd.apply(legal[0])
    pytest.fail("no draw offered in 40 Matgo deals")


def test_describe_and_diff_say_the_draw_offered(tmp_path: Path) -> None:
    rules = load_rules("gostop/gostop")
    said = to_markdown(rulebook(rules))
    assert "Draw offered: at the start of his turn a player with no safe play" in said
    assert "raise his yaku to 3" in said and "The refuser pays" in said
    without = _house(tmp_path, "remove draw offer")
    words = render(diff(without, rules), "house", "gostop")
    assert "a draw offered: added" in words
    other = _house(tmp_path, "remove draw offer\noffer a draw: when he has no safe play")
    changed = render(diff(rules, other), "gostop", "house")
    assert (
        "who refused a draw offered pays a stop of another's for all: for_all -> nothing" in changed
    )


def test_the_terminal_asks_offer_accept_and_refuse(tmp_path: Path) -> None:
    rnd, c, _ = _scenario_round(ACCEPTED, 5)
    session = Session.new(c, "gostop/gostop", seed=1, bots=["greedy"])
    term = Terminal(session, Console(file=io.StringIO()), input, tmp_path / "x.scenario.toml")
    bob = PlayerView(rnd, 1)
    assert term._question(bob) == "your move (or 'offer' a draw): "
    assert term._parse(bob, "offer") == term._parse(bob, "Offer a draw") == A.OFFER
    rnd.apply(A.OFFER)
    carol = PlayerView(rnd, 2)
    assert term._question(carol) == "accept the draw offered, or refuse? (accept/refuse) "
    assert term._parse(carol, "accept") == A.ACCEPT and term._parse(carol, "r") == A.REFUSE


def test_compare_reports_draws_offered_and_refusals() -> None:
    """sim.exercise: a draw offered and an answer are rule choices a comparison reports."""
    rnd, _, _ = _scenario_round(ACCEPTED, 5)
    counting = Counting(GreedyAgent(0))
    counting.act(PlayerView(rnd, 1))
    rnd.apply(A.OFFER)
    counting.act(PlayerView(rnd, 2))
    counts = counting.counts
    assert counts == Counter({"draw offered": 1, "draw": 1, "refuse offered": 1, "refuse": 1})
    rules = load_rules("gostop/gostop")
    base = rules.model_copy(update={"draw_offer": None})
    report = exercised(base, rules, Counter(), counts)
    assert {"draw", "refuse"} <= set(report["differing"]) and not report["unseen"]


def test_the_search_bots_weigh_the_draw_offered_among_their_best_plays() -> None:
    """search and strong (the browser's and the hint's bots) keep the offer among the options
    they search, whatever the card plays' rank, and answer an offer by rollouts."""
    rnd, _, _ = _scenario_round(ACCEPTED, 5)
    view = PlayerView(rnd, 1)  # six plays and the offer: more than either searches
    options, _ = StrongAgent(0).candidates(view)
    assert options[-1] == A.OFFER and len(options) == 5
    estimates = SearchAgent(0, rollouts=14).evaluate(view)
    assert A.OFFER in [e.action for e in estimates] and len(estimates) == 5
    rnd.apply(A.OFFER)
    answer = SearchAgent(0, rollouts=4).evaluate(PlayerView(rnd, 2))
    assert {e.action for e in answer} == {A.ACCEPT, A.REFUSE}
