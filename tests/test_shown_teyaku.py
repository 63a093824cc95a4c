"""Hana-Awase's chaff teyaku (HA V7): a teyaku shown or kept hidden (`; shown: the others may
capture its cards`) and `the player with no hand card still draws`. What the scalar engine offers
and takes, the kernel's handlers and its rulewise bot, the errors, describe and diff, compare's
count of the choice, and the terminal's and the browser's prompts. The scenarios
rules/hanaawase/house/scenarios/chaff-teyaku-*.scenario.toml pin the readings (a shown card
taken as a field card, two shown or one shown and one on the field chosen between, three taken
at once, the owner's own play, the emptied hand drawing on, the teyaku kept hidden);
tests/test_batch_identity.py holds the two engines to the same rounds of the house file."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine import setup
from rulekit.engine.round import PLAY, SHOW, Round, StackedDeal, setup_steps
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.play import screen
from rulekit.play.session import Session
from rulekit.play.terminal import Terminal
from rulekit.sim.exercise import exercised

FILE = "hanaawase/house/chaff-teyaku"
# the deal of chaff-teyaku-six-shown-captured: Alice (seat 0, the dealer) holds six chaff
HANDS = (
    (12, 22, 32, 33, 42, 52, 80),
    (13, 20, 30, 50, 60, 71, 101),
    (43, 23, 51, 61, 91, 110, 10),
)
FIELD = (40, 62, 70, 90, 100, 120)
STOCK = (111, 113, 21, 81)


def chaff_round() -> Round:
    """The deal above at three seats, Alice asked whether to show her Six Chaff."""
    return Round(CompiledRules(load_rules(FILE)), 3, 0, deal=StackedDeal(HANDS, FIELD, STOCK))


def bit(rnd: Round, card: int) -> int:
    return rnd.ix.bit[card]


def test_six_chaff_shown_is_asked_paid_and_its_cards_capturable() -> None:
    rnd = chaff_round()
    assert (rnd.phase, rnd.current, rnd.legal_actions()) == (SHOW, 0, [A.SHOW, A.PASS])
    rnd.apply(A.SHOW)
    assert rnd.teyaku_names() == {0: ["six_chaff"]}
    assert [(p.payer, p.payee, p.amount) for p in rnd.ledger] == [(1, 0, 20), (2, 0, 20)]
    assert sorted(rnd.ix.ids_of(rnd.exposed)) == [12, 22, 32, 33, 42, 52]
    assert (rnd.phase, rnd.current) == (PLAY, 0)


def test_a_shown_card_is_captured_by_another_players_play_and_leaves_his_hand() -> None:
    rnd = chaff_round()
    rnd.apply(A.SHOW)
    rnd.apply(A.play(bit(rnd, 32)))  # Alice lays her cherry plain (her own is not hers to take)
    assert rnd.field >> bit(rnd, 32) & 1 and rnd.hands[0] >> bit(rnd, 33) & 1
    rnd.apply(A.play(bit(rnd, 13)))  # Bob's pine plain takes her shown pine plain
    assert rnd.captured[1] >> bit(rnd, 12) & 1
    assert not rnd.hands[0] >> bit(rnd, 12) & 1 and not rnd.exposed >> bit(rnd, 12) & 1


def test_a_shown_card_and_a_field_card_of_the_month_are_chosen_between() -> None:
    rnd = chaff_round()
    rnd.apply(A.SHOW)
    rnd.apply(A.play(bit(rnd, 32)))
    rnd.apply(A.play(bit(rnd, 13)))
    plays = [a for a in rnd.legal_actions() if A.played_card(a) == bit(rnd, 43)]
    assert sorted(A.play_target(a) for a in plays) == [bit(rnd, 40), bit(rnd, 42)]
    with pytest.raises(RulekitError, match=r"two cards \(on the field or shown\) match"):
        rnd.apply(A.play(bit(rnd, 43)))


def test_the_teyaku_kept_hidden_is_not_paid_and_shows_nothing() -> None:
    rnd = chaff_round()
    rnd.apply(A.PASS)
    assert (rnd.ledger, rnd.teyaku_names(), rnd.exposed) == ([], {}, 0)


def test_a_player_with_no_hand_card_still_draws_in_turn() -> None:
    """Bob's hand emptied (his cards taken), his turns are draws alone while the stock lasts;
    every card stays somewhere, and the hands and the stock run out together."""
    rnd = chaff_round()
    rnd.apply(A.SHOW)
    rnd.hands[1] = 0  # as if every card of Bob's had been taken
    stock = len(rnd.stock)
    rnd.apply(A.play(bit(rnd, 80)))  # Alice: the moon laid; Bob's turn is his draw alone
    assert rnd.current == 2 and len(rnd.stock) == stock - 2
    assert rnd.turn == 2  # (Alice's turn, Bob's)


def test_without_still_draws_an_emptied_hand_is_passed_over() -> None:
    text = 'extends "hanaawase/house/chaff-teyaku"\nremove still draws\n'
    c = CompiledRules(load_rules_text(text, "house.rk", Path(__file__)))
    assert not c.rules.still_draws
    rnd = Round(c, 3, 0, deal=StackedDeal(HANDS, FIELD, STOCK))
    rnd.apply(A.SHOW)
    rnd.hands[1] = 0
    stock = len(rnd.stock)
    rnd.apply(A.play(bit(rnd, 80)))
    assert rnd.current == 2 and len(rnd.stock) == stock - 1


def test_the_show_step_is_a_round_step_both_engines_handle() -> None:
    rules = load_rules(FILE)
    steps = setup_steps(rules)
    assert steps[steps.index("teyaku") - 1] == "show"
    assert "show" in setup.PLAN_STEPS and "show" in batch.PLAN_STEPS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'yaku\n  lots "Lots" 5: plains >= 12; shown: the others may capture its cards\n',
            "is an option of a teyaku",
        ),
        ("the player with no hand card still drawz\n", "draw"),
    ],
)
def test_a_shown_option_out_of_place_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(RulekitError, match=message) as err:
        load_rules_text('extends "hanaawase"\n' + text, "house.rk", Path(__file__))
    assert "house.rk:" in str(err.value)


def test_describe_and_diff_say_the_shown_teyaku_in_words() -> None:
    house = load_rules(FILE)
    said = to_markdown(rulebook(house))
    assert "shown or kept hidden" in said and "still takes his turns" in said
    changed = render(diff(load_rules("hanaawase"), house), "a", "b")
    assert "a player with no hand card still draws" in changed
    plain = f'extends "{FILE}"\nteyaku\n  six_chaff "Six Chaff" 20: plains = 6\n'
    changed = render(diff(house, load_rules_text(plain, "house.rk", Path(__file__))), "a", "b")
    assert "six_chaff options: shown or kept hidden" in changed


def test_greedy_always_shows_and_rulewise_weighs_it_in_the_kernel() -> None:
    """Of the deals that offer it at two seats, greedy shows every one; the rulewise bots,
    weighing show against pass by rollouts, are offered it and choose."""
    c = CompiledRules(load_rules(FILE))
    for bots in (("greedy", "greedy"), ("rulewise", "rulewise")):
        choices: Counter[str] = Counter()
        for got in batch.rounds(batch.make_plan(c, 2, bots, 1), 0, 20):
            assert got is not None
            choices += got.choices
        assert choices["show offered"] > 0, bots
        if bots[0] == "greedy":
            assert choices["show"] == choices["show offered"]


def test_the_scalar_rulewise_bot_asks_its_rollouts_about_showing() -> None:
    rnd = chaff_round()
    agent = make_agent("rulewise", 0)
    agent.start("0:0:0")
    assert agent.act(PlayerView(rnd, 0)) in (A.SHOW, A.PASS)
    assert make_agent("greedy", 0).act(PlayerView(rnd, 0)) == A.SHOW


def test_compare_says_when_showing_is_never_exercised() -> None:
    base, house = load_rules("hanaawase"), load_rules(FILE)
    none: Counter[str] = Counter()
    assert exercised(base, house, none, none)["unseen"] == ["show"]


def test_the_ir_keeps_the_option_on_teyaku_only() -> None:
    entry = next(e for e in load_rules(FILE).teyaku.entries if e.name == "six_chaff")  # type: ignore[union-attr]
    assert isinstance(entry, ir.Yaku) and entry.shown


# ------------------------------------------------------------ the terminal and the browser
def _capture_turn() -> tuple[Session, PlayerView, int]:
    """A session (two seats, the person and a greedy bot) at the person's turn with a play that
    captures one of the bot's shown cards: the view, and that play."""
    c = CompiledRules(load_rules(FILE))
    for seed in range(60):
        session = Session.new(c, FILE, seed=seed, bots=["greedy"])
        rnd = session.start_round()
        while not rnd.is_terminal:
            if rnd.current != session.human:
                session.apply(session.bot_action())
                continue
            view = session.views[rnd.current]
            if view.phase == SHOW:
                session.apply(A.PASS)
                continue
            theirs = view.capturable & ~view.hand
            if view.phase == PLAY and theirs:
                for a in view.legal_actions():
                    target = A.play_target(a)
                    if target is not None and theirs >> target & 1:
                        return session, view, a
            session.apply(view.legal_actions()[0])
    raise AssertionError("no capture of a shown card in 60 seeds")


def test_the_terminal_shows_the_others_shown_cards_and_takes_one(tmp_path: Path) -> None:
    session, view, action = _capture_turn()
    ix = view.compiled.index
    out = io.StringIO()
    Console(file=out, width=200).print(screen.table(view, session.names, session.totals(), 1, 1))
    assert "(the others may capture them)" in out.getvalue()
    card, target = ix.ids[A.played_card(action)], ix.ids[A.play_target(action) or 0]
    answers = iter([f"play {card} onto {target}"])
    term = Terminal(session, Console(file=io.StringIO()), lambda _: next(answers), tmp_path / "x")
    assert term.ask(view) == action


def test_the_terminal_asks_to_show_or_pass(tmp_path: Path) -> None:
    c = CompiledRules(load_rules(FILE))
    for seed in range(200):
        session = Session.new(c, FILE, seed=seed, bots=["greedy"])
        rnd = session.start_round()
        while rnd.phase == SHOW and rnd.current != session.human:
            session.apply(session.bot_action())
        if rnd.phase == SHOW and rnd.current == session.human:
            break
    else:
        raise AssertionError("the person is never asked to show in 200 seeds")
    out = io.StringIO()
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return "show"

    term = Terminal(session, Console(file=out, width=200), read, tmp_path / "x.toml")
    assert term.ask(session.views[session.human]) == A.SHOW
    assert asked == ["show your teyaku, or keep it hidden? (show/pass) "]
    assert "the others may capture them as field cards" in out.getvalue()


def test_the_browser_offers_another_players_shown_card_as_a_target() -> None:
    """The page's table (what `rulekit serve` sends): the bot's shown cards under its name, the
    person's play onto one of them among his moves; played, it is in his pile."""
    from rulekit.web.games import WebGame

    session, view, action = _capture_turn()
    game = WebGame("g", session)
    table = game.state()["table"]
    ix = view.compiled.index
    target = ix.ids[A.play_target(action) or 0]
    theirs = [p for s, p in enumerate(table["players"]) if s != session.human]
    assert any(target in {c["id"] for c in p["shown"]} for p in theirs)
    move = next(m for m in table["moves"] if m["action"] == action)
    assert (move["kind"], move["target"]) == ("play", target)
    game.move(action)
    mine = game.state()["table"]["players"][session.human]
    assert target in {c["id"] for g in mine["captured"] for c in g["cards"]}
