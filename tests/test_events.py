"""Events during play (ir.Event, engine/events.py, kernel/events.py): read into the IR with
located errors, said in words by describe and diff, played by the scalar engine turn by turn
(the batch kernel is held to it by tests/test_batch_identity.py, which plays the house file
rules/koikoi/house/go-stop-events.rk; its scenarios pin each event's reading)."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from rich.console import Console

from rulekit import ir
from rulekit.agents.greedy import GreedyAgent, card_worth, mask_worth
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine.events import HAPPENED
from rulekit.engine.round import Round, StackedDeal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RuleErrors
from rulekit.lang import load_rules
from rulekit.play.session import Session
from rulekit.play.terminal import Terminal
from rulekit.sim.exercise import Counting, count_events, exercised

HOUSE = "koikoi/house/go-stop-events"


def _load_text(tmp_path, text: str) -> ir.Ruleset:  # type: ignore[no-untyped-def]
    path = tmp_path / "house.rk"
    path.write_text('extends "koikoi/sloper"\n' + text, encoding="utf-8")
    return load_rules(str(path))


def _errors(tmp_path, text: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleErrors) as e:
        _load_text(tmp_path, text)
    return str(e.value)


def test_events_are_read_into_the_ir() -> None:
    rules = load_rules(HOUSE)
    assert rules.stacks
    jjok = next(e for e in rules.events if e.name == "jjok")
    assert jjok == ir.Event(name="jjok", label="Jjok", kind="draw_takes_play", give="plain")
    first = next(e for e in rules.events if e.name == "first_ppeok")
    assert (first.kind, first.first_turn, first.steal) == ("stack_left", True, 3)
    assert load_rules("koikoi/sloper").events == ()


def test_an_event_gives_a_class_written_plural_as_its_singular(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rules = _load_text(
        tmp_path, "event jjok: the draw takes the card played; each opponent gives a plains\n"
    )
    assert rules.events[0].give == "plain"


def test_an_event_of_an_unknown_class_names_the_close_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said = _errors(tmp_path, "event jjok: the field is swept; each opponent gives a plian\n")
    assert (
        "house.rk:2:" in said and "unknown class 'plian'" in said and "did you mean 'plain'" in said
    )


def test_an_event_without_an_effect_is_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said = _errors(tmp_path, "event sseul: the field is swept; on his first turn\n")
    assert "event sseul: the event changes nothing" in said and "each opponent pays 3" in said


def test_a_stack_is_left_only_with_the_stacking_draw(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said = _errors(tmp_path, "event ppeok: a stack is left; each opponent pays 3\n")
    assert "the draw stacks on the pair just made" in said


def test_an_event_is_said_once_per_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said = _errors(
        tmp_path,
        "event jjok: the field is swept; each opponent pays 1\n"
        "event jjok: the field is swept; each opponent pays 2\n",
    )
    assert "'event jjok'" in said


def test_remove_event_drops_one_and_remove_events_all(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{HOUSE}"\nremove event jjok\n', encoding="utf-8")
    names = [e.name for e in load_rules(str(path)).events]
    assert "jjok" not in names and "sseul" in names
    path.write_text(f'extends "{HOUSE}"\nremove events, stacks\n', encoding="utf-8")
    rules = load_rules(str(path))
    assert rules.events == () and not rules.stacks


def test_describe_and_diff_say_the_events_in_words() -> None:
    house, base = load_rules(HOUSE), load_rules("koikoi/sloper")
    text = to_markdown(rulebook(house))
    assert "Jjok: when a player's drawn card takes the hand card he just laid on the field" in text
    assert "(not on the round's last turn)" in text and "x4 on his winnings" in text
    said = render(diff(base, house), "koikoi/sloper", HOUSE)
    assert "an event: added: First ppeok: when a player's drawn card stacks" in said
    assert "the stacking draw: added" in said


def test_every_event_kind_has_a_handler() -> None:
    kinds = ir.Event.model_fields["kind"].annotation.__args__  # type: ignore[union-attr]
    assert set(HAPPENED) == set(kinds)


def test_the_stacking_draw_leaves_three_on_the_field_and_captures_nothing() -> None:
    """The drawn card of the pair's month stays with the pair on the field; without the
    statement it is laid alone and the pair is captured."""
    deal = StackedDeal(
        hands=((11, 92, 31, 41, 51, 61, 71, 81), (22, 13, 32, 42, 52, 62, 72, 82)),
        field=(10, 20, 30, 40, 50, 60, 70, 80),
        stock=(12,),
    )
    for name, field_ids, pile in ((HOUSE, {10, 11, 12}, set()), ("koikoi/sloper", {12}, {10, 11})):
        c = CompiledRules(load_rules(name))
        rnd = Round(c, 2, 0, deal=deal)
        while rnd.phase != 1:  # PLAY: the non-dealer keeps his hand
            rnd.apply(rnd.legal_actions()[-1])
        rnd.apply(c.index.bit[11])
        month1 = {i for i in c.index.ids_of(rnd.field) if i // 10 == 1}
        assert month1 == field_ids
        assert set(c.index.ids_of(rnd.captured[0])) == pile


def _bomb_turn() -> tuple[Round, CompiledRules]:
    """Alice (dealer) to play on her second turn, holding three pines, the fourth on the field,
    Bob holding a cherry and a maple plain (the bomb scenario's deal)."""
    c = CompiledRules(load_rules(HOUSE))
    deal = StackedDeal(
        hands=((10, 11, 12, 22, 41, 51, 61, 71), (32, 42, 52, 62, 72, 82, 92, 103)),
        field=(13, 20, 30, 40, 50, 60, 70, 80),
        stock=(101, 102, 93, 113, 121),
    )
    rnd = Round(c, 2, 0, deal=deal)
    rnd.apply(A.KEEP)
    for move in ("play plum_plain_1", "play cherry_plain_1"):
        rnd.apply(A.parse(move, c.index))
    return rnd, c


def test_greedy_values_the_plain_a_bomb_takes_from_each_opponent() -> None:
    """greedy's worth of a bomb: the month's four cards, and the card Bob would give (his
    cherry plain: the first in the deck's order of his two plains); a skip is worth 0."""
    rnd, c = _bomb_turn()
    view = PlayerView(rnd, 0)
    bomb = A.HIKI + 0  # the pine month
    assert bomb in view.legal_actions()
    (score, _), *_ = GreedyAgent(0).rank(view, [bomb])
    worth = card_worth(c)
    assert score == mask_worth(worth, c.index.month_masks[0]) + worth[c.index.bit[32]]


def test_after_a_bomb_the_bomber_may_skip_and_must_with_an_empty_hand() -> None:
    rnd, c = _bomb_turn()
    rnd.apply(A.HIKI + 0)
    assert rnd.skips[0] == 2
    rnd.apply(A.parse("play wisteria_plain_1", c.index))
    assert A.SKIP in rnd.legal_actions()
    rnd.hands[0] = 0  # (her hand played out)
    assert rnd.legal_actions() == [A.SKIP]


def test_the_terminal_takes_bomb_month_and_skip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`bomb pine` (or `hiki pine`) and `skip` at the terminal, as in a scenario."""
    rnd, c = _bomb_turn()
    session = Session.new(c, HOUSE, seed=1, bots=["greedy"])
    term = Terminal(session, Console(file=io.StringIO()), input, tmp_path / "x.scenario.toml")
    view = PlayerView(rnd, 0)
    assert term._parse(view, "bomb pine") == term._parse(view, "hiki 1") == A.HIKI
    rnd.apply(A.HIKI)
    rnd.apply(A.parse("play wisteria_plain_1", c.index))
    assert term._parse(PlayerView(rnd, 0), "Skip") == A.SKIP


def test_compare_counts_bombs_skips_and_events_and_says_which_differ() -> None:
    """sim.exercise: the bomb, a skipped play and the events are rule choices a comparison
    reports (offered and taken in each variant), counted by the bots' wrapper and the round."""
    base, house = load_rules("koikoi/sloper"), load_rules(HOUSE)
    rnd, _ = _bomb_turn()
    counting = Counting(GreedyAgent(0))
    action = counting.act(PlayerView(rnd, 0))
    assert counting.counts["bomb offered"] == 1 and counting.counts["bomb"] == (action >= A.HIKI)
    rnd.apply(A.HIKI)
    counts: Counter[str] = Counter()
    count_events(rnd, counts)
    assert counts == Counter({"event offered": 1, "event": 1})  # the bomb's
    report = exercised(base, house, Counter(), counts)
    assert {"bomb", "skip", "event"} <= set(report["differing"])
    assert "event" not in report["unseen"] and "bomb" in report["unseen"]
