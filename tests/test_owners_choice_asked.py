"""The owner's choice asked at the count (issue 23, point 3): a seat played by a person is asked,
when the round's yaku are counted and before payments, which reading his pile takes; every other
seat (every bot, simulation and the batch kernel) keeps the reading worth more. The engine's
COUNT phase, its answers and bad answers, both endings (a stop, the hands out), the terminal's
prompt, the browser's buttons, and the kernel unchanged."""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from starlette.testclient import TestClient

from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.engine import actions as A
from rulekit.engine import round as round_module
from rulekit.engine.game import Game
from rulekit.engine.playout import play_deal
from rulekit.engine.round import COUNT, Round, card_places, clone
from rulekit.engine.tables import ChoiceTable, CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import MoveError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.play import screen
from rulekit.play.session import Session
from rulekit.play.terminal import Terminal
from rulekit.web.app import create_app
from tests.conftest import compiled

HOUSE = "koikoi/house/sake-owners-choice"
# With greedy bots seeded "34:SEAT", Alice (seat 0, dealing) stops on Ten plains and Moon
# viewing (7, the field x3): read as an animal, the sake cup leaves Moon viewing alone (5).
SEED = 34
# A Koi-Koi whose continuer is paid what he made when the hands run out: with random bots
# seeded "220:SEAT", the count waits on seat 0 when the hands run out.
KEEP = (
    'extends "koikoi/house/sake-owners-choice"\n'
    'continue "Koi-koi": paid when stopping; if unfinished keep\n'
)
HANDS_SEED = 220


@pytest.fixture(scope="module")
def house() -> CompiledRules:
    return CompiledRules(load_rules(HOUSE))


def _round(
    c: CompiledRules, seed: int, asked: int, bot: str = "greedy", answer: int | None = None
) -> Round:
    """Seed `seed`'s first round, dealt by seat 0, played by `bot` at both seats up to the
    count's question (or to its end); `answer`: the answer then given (an index into the
    readings offered), and the round played out."""
    rnd = Game(c, 2, seed=seed, dealer=0).new_round()
    rnd.ask_readings(asked)
    bots = [make_agent(bot, f"{seed}:{s}") for s in range(2)]
    views = [PlayerView(rnd, s) for s in range(2)]
    while not rnd.is_terminal:
        if rnd.phase == COUNT:
            if answer is None:
                return rnd
            rnd.apply(rnd.legal_actions()[answer])
            continue
        rnd.apply(bots[rnd.current].act(views[rnd.current]))
    return rnd


def test_an_asked_owner_is_asked_at_the_count_before_anything_is_paid(
    house: CompiledRules,
) -> None:
    rnd = _round(house, SEED, asked=0b01)
    assert (rnd.phase, rnd.current) == (COUNT, 0)
    assert rnd.ledger == []  # Alice stopped: nothing is paid before she answers
    assert rnd.legal_actions() == [A.READ_SECOND, A.READ_FIRST]  # the better first
    assert [rnd.describe(a) for a in rnd.legal_actions()] == [
        "read sake as 2 plains",
        "read sake as animal",
    ]


def test_the_readings_offered_say_their_yaku_and_value_the_better_first(
    house: CompiledRules,
) -> None:
    rnd = _round(house, SEED, asked=0b01)
    better, worse = PlayerView(rnd, 0).readings_offered()
    assert (better.words, better.yaku, better.worth, better.paid) == (
        "sake as 2 plains", ("ten_plains", "moon_viewing"), 7, 21,
    )  # fmt: skip
    assert (worse.words, worse.yaku, worse.worth, worse.paid) == (
        "sake as animal", ("moon_viewing",), 5, 15,
    )  # fmt: skip
    assert PlayerView(rnd, 1).readings_offered() == []  # Bob is not asked


def test_the_owner_answering_the_lesser_reading_is_paid_for_it(house: CompiledRules) -> None:
    rnd = _round(house, SEED, asked=0b01, answer=1)
    assert rnd.is_terminal
    result = rnd.result()
    assert [(p.payer, p.payee, p.amount, p.detail) for p in result.ledger] == [
        (1, 0, 15, "moon_viewing")
    ]
    assert result.yaku[0] == ["moon_viewing"]
    table = rnd.c.yaku  # the round's table reads her pile as she said
    assert isinstance(table, ChoiceTable) and not table.second_reading(rnd.captured[0])
    assert rnd.readings == {0: False}


def test_a_seat_not_asked_keeps_the_reading_worth_more(house: CompiledRules) -> None:
    rnd = _round(house, SEED, asked=0)
    assert rnd.is_terminal  # never asked
    assert [(p.payee, p.amount, p.detail) for p in rnd.ledger] == [
        (0, 21, "ten_plains, moon_viewing")
    ]
    assert rnd.c is house  # the round counted with the rules as they are


def test_a_bad_answer_at_the_count_is_refused_naming_the_readings(house: CompiledRules) -> None:
    rnd = _round(house, SEED, asked=0b01)
    for wrong in (A.STOP, A.play(0), 9999):
        with pytest.raises(MoveError) as info:
            rnd.apply(wrong)
        said = info.value.render()
        assert "must say how his pile reads: sake as animal or 2 plains" in said
        assert "read sake as 2 plains, read sake as animal" in said
    assert (rnd.phase, rnd.ledger) == (COUNT, [])  # nothing played


def test_a_reading_is_parsed_from_its_words_and_refused_with_a_suggestion(
    house: CompiledRules,
) -> None:
    ix, choice = house.index, house.rules.owners_choice
    for words, action in [
        ("read sake as 2 plains", A.READ_SECOND),
        ("read as animal", A.READ_FIRST),
        ("read plains", A.READ_SECOND),
        ("READ Sake As Animal", A.READ_FIRST),
    ]:
        assert A.parse(words, ix, choice) == action
    assert A.parse("read sake as 2 plain", ix, choice) == A.READ_SECOND  # (singular is fine)
    with pytest.raises(MoveError) as info:
        A.parse("read sake as anmial", ix, choice)
    assert "did you mean 'read sake as animal'?" in info.value.render()
    with pytest.raises(MoveError) as info:
        A.parse("read sake as animal", ix, None)
    assert "the rule file has no owner's choice" in info.value.render()


def test_the_count_when_the_hands_run_out_asks_too() -> None:
    c = CompiledRules(load_rules_text(KEEP, "keep.rk", Path(__file__)))
    rnd = _round(c, HANDS_SEED, asked=0b01, bot="random")
    assert (rnd.phase, rnd.current, rnd.count_ending) == (COUNT, 0, -1)
    assert not any(rnd.hands)  # the piles are final
    paid = [r.paid for r in PlayerView(rnd, 0).readings_offered()]
    assert paid[0] > paid[1]
    lesser = _round(c, HANDS_SEED, asked=0b01, bot="random", answer=1)
    best = _round(c, HANDS_SEED, asked=0, bot="random")
    assert lesser.result().net[0] - best.result().net[0] == paid[1] - paid[0]


def test_a_copy_of_a_round_is_never_asked_and_counts_an_answer(house: CompiledRules) -> None:
    rnd = _round(house, SEED, asked=0b01)
    twin = clone(rnd)
    assert (rnd.asked, twin.asked) == (0b01, 0)
    twin.apply(A.READ_FIRST)
    assert twin.is_terminal and [p.amount for p in twin.ledger] == [15]
    assert rnd.phase == COUNT and rnd.ledger == []  # the round itself still waits
    assert Game(house, 2, seed=SEED).new_round().asked == 0  # nobody is asked unless said


def test_answering_the_better_reading_plays_what_nobody_asked_plays(house: CompiledRules) -> None:
    """Every seat asked and answering the first reading offered gets the round nobody asked
    gets: the reading worth more is the best answer (the count is the round's last step)."""
    asked = 0
    for seed in range(120):
        for bot in ("greedy", "random"):
            want = _round(house, seed, asked=0, bot=bot).result()
            rnd = _round(house, seed, asked=0b11, bot=bot)
            asked += rnd.phase == COUNT
            got = _round(house, seed, asked=0b11, bot=bot, answer=0).result()
            assert (got.ledger, got.yaku, got.ended_by, got.winners) == (
                want.ledger, want.yaku, want.ended_by, want.winners,
            ), f"seed {seed}, {bot}"  # fmt: skip
    assert asked >= 3  # (the question was put)


def test_the_batch_kernel_plays_the_rounds_of_people_answering_the_better_reading(
    house: CompiledRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel, which asks nobody, plays deal by deal what the scalar engine plays with
    every seat asked and answering as the bots do (the first reading offered, the better)."""
    made = round_module.Round.__init__
    asked: list[Round] = []

    def asking_everyone(self: Round, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.ask_readings((1 << self.seated) - 1)
        asked.append(self)

    bots = ("greedy", "rulewise")
    plan = batch.make_plan(house, 2, bots, 3)
    kernel = [batch.rounds(plan, n, n + 1)[0] for n in range(150)]
    monkeypatch.setattr(round_module.Round, "__init__", asking_everyone)
    questions = 0
    for number, got in enumerate(kernel):
        assert got is not None  # (served by the kernel)
        players = [make_agent(b, 0) for b in bots]
        rnd, want, _ = play_deal(house, 2, number, players, seed=3)
        questions += bool(rnd.readings)
        assert (got.ledger, got.net, got.ended_by) == (want.ledger, want.net, want.ended_by)
    assert asked and questions >= 1


# Two cards of the choice, so that both players may hold one, and continuers paid what they
# made however the round ends (the other's reading then changes what each pays).
TWO_OWNERS = (
    'extends "koikoi/sloper"\n'
    "treat sake + 111 as animal or 2 plains, owner's choice\n"
    'continue "Koi-koi": paid when stopping; if unfinished keep; if another stops first keep\n'
)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), answers=st.lists(st.booleans(), min_size=2, max_size=2))
def test_every_answer_ends_a_sound_round_read_as_answered(seed: int, answers: list[bool]) -> None:
    """Whatever the asked owners answer: the round ends, every card is in one place, what is
    paid is paid by someone, each answered pile reads as answered, and the owners are asked in
    play order, each only when his pile holds the choice's cards."""
    c = _two_owners()
    rnd = Game(c, 2, seed=seed, dealer=0).new_round()
    rnd.ask_readings(0b11)
    bots = [make_agent("random", f"{seed}:{s}") for s in range(2)]
    views = [PlayerView(rnd, s) for s in range(2)]
    asked: list[int] = []
    table = c.yaku
    assert isinstance(table, ChoiceTable)
    while not rnd.is_terminal:
        if rnd.phase == COUNT:
            seat = rnd.current
            assert rnd.captured[seat] & table.choice
            asked.append(seat)
            offered = rnd.legal_actions()
            assert sorted(offered) == [A.READ_FIRST, A.READ_SECOND]
            rnd.apply(A.READ_SECOND if answers[len(asked) - 1] else A.READ_FIRST)
            continue
        rnd.apply(bots[rnd.current].act(views[rnd.current]))
    assert asked == sorted(asked, key=rnd.order.index) and len(set(asked)) == len(asked)
    assert card_places(rnd) == [1] * len(c.index.ids)
    assert sum(rnd.result().net) == 0  # (Koi-Koi pays no bank)
    read = rnd.c.yaku
    assert isinstance(read, ChoiceTable)
    for k, seat in enumerate(asked):
        assert read.second_reading(rnd.captured[seat]) is answers[k]
        assert rnd.readings[seat] is answers[k]


def test_two_owners_are_asked_in_play_order_each_seeing_the_answer_before_his() -> None:
    """Seat 0, asked first, holds the swallow; seat 1 then holds the sake cup, and what the
    count pays him depends on how seat 0 answered (each continuer is paid what he made)."""
    c = _two_owners()
    seen = {}
    for first in (0, 1):
        rnd = _round(c, 49, asked=0b11, bot="random")
        assert rnd.current == 0
        rnd.apply(rnd.legal_actions()[first])
        assert (rnd.phase, rnd.current) == (COUNT, 1)
        seen[first] = [(o.words, o.paid) for o in PlayerView(rnd, 1).readings_offered()]
        rnd.apply(A.READ_FIRST)
        assert rnd.is_terminal and set(rnd.readings) == {0, 1}
    assert seen[0] != seen[1]
    assert {words for words, _ in seen[0]} == {"sake as 2 plains", "sake as animal"}


def test_a_rule_file_without_an_owners_choice_never_asks() -> None:
    c = compiled("koikoi")
    for seed in range(20):
        rnd = _round(c, seed, asked=0b11)
        assert rnd.is_terminal and rnd.readings == {}  # (never waited at the count)
        want = _round(c, seed, asked=0)
        assert rnd.ledger == want.ledger


@cache
def _two_owners() -> CompiledRules:
    return CompiledRules(load_rules_text(TWO_OWNERS, "two.rk", Path(__file__)))


# ---------------------------------------------------------------- the terminal and the browser


def _person_at_the_count(house: CompiledRules) -> Session:
    """A terminal game (seed 76, the person at seat 0 playing the first legal move) at the
    count's question to the person."""
    session = Session.new(house, HOUSE, seed=76, bots=["greedy"])
    rnd = session.start_round()
    while rnd.phase != COUNT:
        assert not rnd.is_terminal
        person = session.seats[rnd.current].bot is None
        session.apply(
            session.views[rnd.current].legal_actions()[0] if person else session.bot_action()
        )
    assert rnd.current == session.human == 0
    return session


def test_the_terminal_asks_with_a_numbered_prompt_that_takes_the_commands(
    house: CompiledRules, tmp_path: Path
) -> None:
    session = _person_at_the_count(house)
    answers: Iterator[str] = iter(["help", "why", "hint", "rules", "3", "sake as amimal", "2"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    term = Terminal(session, Console(file=out, width=200), read, tmp_path / "x.toml", hint_ms=5)
    view = session.views[0]
    action = term.ask(view)
    shown = out.getvalue()
    assert action == A.READ_FIRST  # the second offered: the animal
    assert set(prompts) == {"count your pile which way? (1/2) "} and len(prompts) == 7
    assert "the count: how does your pile read?" in shown
    assert "1) sake as 2 plains: Ten plains" in shown and "the count pays you 24" in shown
    assert "2) sake as animal: " in shown and "the count pays you 18" in shown
    assert "hiki MONTH" in shown  # help
    assert "no payments yet" in shown or "payments this round" in shown  # why
    assert "the search bot would read sake as 2 plains" in shown  # hint
    assert "✗ '3' is not a reading of your pile" in shown
    assert "did you mean 'read sake as animal'?" in shown
    rnd = session.round
    assert rnd is not None
    move = session.apply(action)
    term._round_over(rnd)
    after = out.getvalue()
    assert screen.narrate(house.rules, rnd.ix, session.names, move) == "You count sake as animal"
    assert "You: sake as animal" in after  # the round's end says the reading taken
    doc = session.document()
    assert "You: read sake as animal" in doc["rounds"][0]["moves"]  # saved, and replayed


def test_a_saved_game_with_a_reading_replays(house: CompiledRules, tmp_path: Path) -> None:
    from rulekit.scenario.runner import run_scenario

    session = _person_at_the_count(house)
    session.apply(A.READ_FIRST)
    session.finish_round()
    path = tmp_path / "saved.scenario.toml"
    session.save(path)
    outcome = run_scenario(path)
    assert outcome.passed, outcome.render()


def test_the_browser_asks_with_buttons_and_shows_the_reading_taken() -> None:
    client = TestClient(create_app(allowed_hosts=("testserver",)))
    state: dict[str, Any] = client.post(
        "/api/games", json={"rules": HOUSE, "bots": ["greedy"], "seed": 76}
    ).json()
    for _ in range(300):
        table = state["table"]
        if table["phase"] == "count":
            break
        move = table["moves"][0]["action"]
        state = client.post(f"/api/games/{state['id']}/move", json={"action": move}).json()
    else:
        raise AssertionError("never asked at the count")
    moves = table["moves"]
    assert [m["kind"] for m in moves] == ["button", "button"]
    assert [m["action"] for m in moves] == [A.READ_SECOND, A.READ_FIRST]
    assert moves[0]["words"].startswith("sake as 2 plains: Ten plains")
    assert "the count pays you 24" in moves[0]["words"]
    assert "the count pays you 18" in moves[1]["words"]
    assert (
        table["stakes"]
        == "the count: how does your pile read? (sake as animal or 2 plains, owner's choice)"
    )
    wrong = client.post(f"/api/games/{state['id']}/move", json={"action": A.STOP})
    assert wrong.status_code == 400
    state = client.post(f"/api/games/{state['id']}/move", json={"action": A.READ_FIRST}).json()
    assert state["waiting"]
    alice = state["last_round"]["players"][0]
    assert alice["reading"] == "sake as animal"
    assert state["last_round"]["payments"] and "18" in " ".join(state["last_round"]["payments"])
    assert any(
        "counts sake as animal" in line or "count sake as animal" in line for line in state["log"]
    )
