"""`rulekit play` reads like the game: the swap is asked before the hand is seen, every draw is
narrated by person, yaku by their labels, the continuation by the name the rule file gives it,
the rulebook as tables, the watch view after each move, and a closed output still saves."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from rulekit.engine import actions as A
from rulekit.engine.round import DECIDE, PLAY, Round
from rulekit.engine.view import PlayerView
from rulekit.play import screen
from rulekit.play.session import Move, Session
from rulekit.play.terminal import Terminal
from rulekit.scenario.runner import run_scenario
from tests.conftest import compiled
from tests.test_play import rulekit


def _play_args(tmp_path: Path, game: str, *extra: str) -> list[str]:
    return [
        "play", game, "--bots", "greedy", "--save", str(tmp_path / "g.scenario.toml"), *extra,
    ]  # fmt: skip


def test_koikoi_swap_is_asked_before_the_hand_is_shown(tmp_path: Path) -> None:
    # seat 1: the other player deals, so the person is asked whether to swap
    result = rulekit(
        _play_args(tmp_path, "koikoi", "--seat", "1", "--seed", "2"), ["keep"], tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    prompt = out.index("swap your hand, unseen, for the dealer's, or keep it?")
    before, after = out[:prompt], out[prompt:]
    assert "your hand:" not in before and "your hand:" in after
    hand = re.findall(r"^\s*\d+\)\s+(\d+ \w+)", after[after.index("your hand:") :], re.M)
    assert len(hand) == 8  # kept: the hand dealt, seen only now
    for card in hand:
        assert card not in before, card  # nothing of the hand leaked before the question
    assert "You keep the hand dealt" in after


def test_every_draw_is_narrated_mine_and_the_bots(tmp_path: Path) -> None:
    result = rulekit(_play_args(tmp_path, "koikoi", "--seed", "4"), ["1"] * 12 + ["quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    plays = [ln for ln in result.stdout.splitlines() if re.search(r"\b(play|plays) \d+ ", ln)]
    mine = [ln for ln in plays if "You play" in ln]
    theirs = [ln for ln in plays if "Alice plays" in ln]
    assert len(mine) >= 3 and len(theirs) >= 3
    # Koi-Koi's stock outlasts the hands: every play is followed by a draw, said by person
    assert all("; you draw " in ln for ln in mine), mine
    assert all("; Alice draws " in ln for ln in theirs), theirs


def test_the_watch_view_draws_each_board_after_the_move_it_shows(tmp_path: Path) -> None:
    args = _play_args(tmp_path, "koikoi", "--seed", "1", "--watch", "--delay", "0")
    result = rulekit([*args, "--bots", "greedy,random"], [], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    checked = 0
    for i, line in enumerate(lines):
        took = re.match(r"^\w+ plays \d+ \w+ and takes (\d+ \w+)", line)
        if not took:
            continue
        field = next(ln for ln in lines[i + 1 :] if ln.startswith("field:"))
        assert took.group(1) not in field, (line, field)  # taken: gone from the board shown
        checked += 1
    assert checked >= 20


def test_yaku_appear_by_their_labels_and_the_dealer_by_person(tmp_path: Path) -> None:
    args = _play_args(tmp_path, "koikoi", "--seed", "1", "--watch", "--delay", "0")
    result = rulekit([*args, "--bots", "greedy,random"], [], tmp_path)
    out = result.stdout
    c = compiled("koikoi")
    assert c.rules.yaku is not None
    for e in c.rules.yaku.entries:
        if e.label != e.name:
            assert not re.search(rf"\b{e.name}\b", out), e.name  # never moon_viewing
    assert re.search(r"yaku [A-Z][a-z]+ [a-z]+", out)  # the payments name yaku by label
    assert " — makes " in out  # a yaku made is said when it is made
    typed = rulekit(_play_args(tmp_path, "hachihachi", "--seed", "3"), ["quit"], tmp_path)
    assert "round 1: You deal" in typed.stdout and "You deals" not in typed.stdout


def test_grammar_by_person() -> None:
    assert screen.says("You", "show") == "You show"
    assert screen.says("Alice", "show") == "Alice shows"
    assert screen.says("Bob", "catch") == "Bob catches"
    assert screen.says("you", "have") == "you have" and screen.verb("Eve", "have") == "has"


def test_shown_teyaku_say_you_show() -> None:
    c = compiled("hachihachi")
    for seed in range(60):
        rnd = Round(c, 3, 0, seed=seed)
        while not rnd.is_terminal and rnd.phase == 0:  # the fold phase: everyone joins
            rnd.apply(A.JOIN)
        view = PlayerView(rnd, 0)
        if 0 in view.teyaku:
            break
    else:
        pytest.skip("no dealt teyaku for seat 0 in these deals")
    console = Console(file=io.StringIO(), width=160)
    console.print(screen.table(view, ["You", "Alice", "Bob"], [0, 0, 0], 1, 12))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "You show " in text and "You shows" not in text
    label = c.rules.teyaku.entry(view.teyaku[0][0]).label  # type: ignore[union-attr]
    assert label in text


def _deciding(game: str) -> PlayerView:
    """A view of a round where the player to move has made a yaku and must stop or go on."""
    c = compiled(game)
    for seed in range(200):
        rnd = Round(c, c.rules.seats.min, 0, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_terminal:
            if rnd.phase == DECIDE:
                return PlayerView(rnd, rnd.current)
            rnd.apply(rng.choice(rnd.legal_actions()))
    raise AssertionError(f"no yaku made in {game}")


@pytest.mark.parametrize(("game", "call"), [("koikoi", "koi-koi"), ("hachihachi", "sage")])
def test_the_call_is_named_as_the_rule_file_names_it(tmp_path: Path, game: str, call: str) -> None:
    c = compiled(game)
    assert c.rules.continuation.label.lower() == call  # from the file, not from the code
    view = _deciding(game)
    session = Session.new(c, game, seed=1, bots=["greedy"])
    term = Terminal(session, Console(file=io.StringIO()), input, tmp_path / "x.scenario.toml")
    question = term._question(view)
    assert f"stop or {call}? (stop/{call})" in question and "continue?" not in question
    assert term._parse(view, call) == A.CONTINUE
    assert term._parse(view, "stop") == A.STOP
    said = screen.narrate(c.rules, c.index, ["You", "Alice"], Move(1, A.CONTINUE))
    assert said == f"Alice calls {call}"
    assert screen.narrate(c.rules, c.index, ["You", "Alice"], Move(0, A.STOP)) == "You stop"


def test_the_in_game_rules_are_tables_not_markdown(tmp_path: Path) -> None:
    result = rulekit(_play_args(tmp_path, "koikoi", "--seed", "3"), ["rules", "quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "|---|" not in out and "\n# " not in out and "\n## " not in out
    assert "┃" in out or "│" in out  # rich table borders
    assert "Moon viewing" in out  # the yaku table, by label


def test_a_closed_output_still_saves_the_game(tmp_path: Path) -> None:
    save = tmp_path / "piped.scenario.toml"
    play = subprocess.Popen(
        [sys.executable, "-m", "rulekit", "play", "hachihachi", "--bots", "greedy",
         "--seed", "3", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path, env={**os.environ, "COLUMNS": "120"},
    )  # fmt: skip
    head = subprocess.Popen(["head", "-3"], stdin=play.stdout, stdout=subprocess.PIPE)
    assert play.stdout is not None and play.stdin is not None
    play.stdout.close()  # head alone reads it now
    shown, _ = head.communicate(timeout=120)
    try:
        play.stdin.write(b"1\n" * 300)
        play.stdin.close()
    except BrokenPipeError:
        pass
    play.wait(timeout=120)
    err = play.stderr.read().decode() if play.stderr else ""
    assert len(shown.decode().splitlines()) == 3
    assert "Traceback" not in err and "internal error" not in err
    assert f"game saved to {save}" in err  # said where it can still be read
    assert run_scenario(save).passed


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), game=st.sampled_from(["koikoi", "hachihachi", "sakura"]))
def test_narrated_captures_are_the_captures(seed: int, game: str) -> None:
    """What a move is said to take is exactly what went to the mover's pile."""
    c = compiled(game)
    session = Session.new(c, game, seed=seed, watch=True, bots=["random"])
    rnd = session.start_round()
    rng = random.Random(seed)
    while not rnd.is_terminal:
        seat = rnd.current
        pile = rnd.captured[seat]
        move = session.apply(rng.choice(rnd.legal_actions()))
        new = set(c.index.ids_of(rnd.captured[seat] & ~pile))
        said = set(move.took) | set(move.draw_took)
        if move.drawn is not None and not (move.draw_to_field or move.draw_waits):
            said.add(move.drawn)
        assert said == new, (move, new)
        if move.draw_waits:
            assert rnd.drawn >= 0 and c.index.ids[rnd.drawn] == move.drawn


def _two_match_turn(game: str) -> tuple[Session, PlayerView, int]:
    """A session at the person's turn to play a card that matches two field cards: the view,
    and that card's position in the hand (1, 2, ...)."""
    c = compiled(game)
    for seed in range(100):
        session = Session.new(c, game, seed=seed, bots=["greedy"])
        rnd = session.start_round()
        while not rnd.is_terminal:
            if rnd.current != session.human:
                session.apply(session.bot_action())
                continue
            view = session.views[rnd.current]
            if view.phase == PLAY:
                hand = screen.hand_ids(view)
                for pos, cid in enumerate(hand, start=1):
                    bit = c.index.bit[cid]
                    plays = [a for a in view.legal_actions() if A.is_play(a)]
                    if sum(A.played_card(a) == bit for a in plays) == 2:
                        return session, view, pos
            session.apply(view.legal_actions()[0])
    raise AssertionError(f"no two-match play in {game}")


def test_the_take_which_prompt_answers_why_and_hint_and_plays_no_card_for_them(
    tmp_path: Path,
) -> None:
    """At "take which?", `why` and `hint` are answered (they were read as cards, and the next
    answer as a hand position: a misplay), a bad answer is asked again, and the card chosen
    is the one played."""
    session, view, pos = _two_match_turn("koikoi")
    answers = iter([str(pos), "why", "hint", "nonsense", "2"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    out = io.StringIO()
    term = Terminal(session, Console(file=out, width=100), read, tmp_path / "x.toml", hint_ms=5)
    action = term.ask(view)
    shown = out.getvalue()
    assert [p.endswith("take which? ") for p in asked] == [False, True, True, True, True]
    assert "no payments yet" in shown or "payments this round" in shown  # why
    assert "the search bot would" in shown  # hint
    assert "✗" in shown and "nonsense" in shown  # said, then asked again
    card = view.compiled.index.bit[screen.hand_ids(view)[pos - 1]]
    options = [a for a in view.legal_actions() if A.is_play(a) and A.played_card(a) == card]
    assert action == options[1]  # the second field card, as answered


@pytest.mark.parametrize(("game", "shown"), [("koikoi", False), ("hachihachi", True)])
def test_card_points_are_shown_only_where_they_count(game: str, shown: bool) -> None:
    """Koi-Koi settles by yaku alone: its table shows no card points (from the rule file's
    count, not the game's name)."""
    c = compiled(game)
    assert c.rules.card_points_count() is shown
    session = Session.new(c, game, seed=1, bots=["greedy"])
    session.start_round()
    out = io.StringIO()
    view = session.views[0]
    Console(file=out, width=120).print(screen.table(view, session.names, session.totals(), 1, 1))
    assert ("pts" in out.getvalue()) is shown


def test_watching_marks_no_seat_as_you_and_wraps_by_words_at_80_columns(tmp_path: Path) -> None:
    """Watching, no bot is called "(you)"; every line fits 80 columns, broken between words
    (a long card name is never cut in two)."""
    args = ["play", "koikoi/six-rounds", "--watch", "--bots", "greedy", "--delay", "0",
            "--seed", "3", "--save", str(tmp_path / "w.toml")]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "rulekit", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "80"},
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Bob plays" in result.stdout and "(you)" not in result.stdout
    lines = result.stdout.splitlines()
    assert all(len(ln) <= 80 for ln in lines if "saved" not in ln)
    names = {c.name for c in compiled("koikoi").rules.deck.cards}
    words = set(result.stdout.split())
    assert "chrysanthemum_plain_2" in names and "chrysanthemum_plain_2" in words
    cut = {w for w in words if "_" in w and "/" not in w and w.rstrip(";,") not in names}
    assert not cut  # no card name broken across lines


def test_list_fits_80_columns_by_words() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rulekit", "list"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(ln) <= 80 for ln in lines) and "…" not in result.stdout
    assert "hachihachi/fudawiki  (= hachihachi)" in lines
    assert any(ln.startswith("    Hachi-Hachi (kirisame)") for ln in lines)


def test_why_gives_each_payment_its_value_and_factor(tmp_path: Path) -> None:
    """`why` says each payment in words: what for, each teyaku or yaku with its value, and
    the factor (issue 24, item 6); the terminal listed only the entries' names."""
    c = compiled("hachihachi")
    for seed in range(300):
        session = Session.new(c, "hachihachi", seed=seed, bots=["greedy"])
        rnd = session.start_round()
        while not rnd.is_terminal and rnd.phase != PLAY:
            session.apply(rnd.legal_actions()[0])
        view = session.views[rnd.current] if not rnd.is_terminal else None
        if view is None or not any(p.reason == "teyaku" for p in view.ledger):
            continue
        out = io.StringIO()
        term = Terminal(session, Console(file=out, width=200), input, tmp_path / "x.toml")
        term._why(view)
        said = out.getvalue()
        p = next(p for p in view.ledger if p.reason == "teyaku")
        entry = next(e for e in c.rules.teyaku.entries if e.name == p.detail.split(",")[0])
        assert f"for teyaku {entry.label or entry.name} ({entry.value})" in said, said
        if p.multiplier != 1:
            assert f"x{p.multiplier}" in said
        return
    raise AssertionError("no teyaku paid in 300 deals")
