"""`rulekit play` driven as a person drives it, through its stdin and stdout: whole games of each
game typed in, wrong inputs, hint, why, a save, Ctrl-C, a resume; and the search bot, which
plays from what it may see and nothing else."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulekit.agents.search import SearchAgent
from rulekit.engine.round import Round, clone
from rulekit.engine.view import PlayerView
from rulekit.scenario.runner import run_scenario
from tests.conftest import compiled

GAMES = [("hachihachi", []), ("koikoi", []), ("sakura", ["--seats", "3"])]


def rulekit(
    args: list[str], lines: list[str], cwd: Path, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "rulekit", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(("game", "extra"), GAMES)
def test_a_whole_game_typed_in_with_a_save_and_a_resume(
    tmp_path: Path, game: str, extra: list[str]
) -> None:
    save = tmp_path / "game.scenario.toml"
    args = [
        "play",
        game,
        *extra,
        "--bots",
        "greedy,random",
        "--seed",
        "5",
        "--save",
        str(save),
        "--think-ms",
        "20",
    ]
    first = rulekit(args, ["xyz", "99", "hint", "why", "help", *["1"] * 6], tmp_path)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    refusals = [line for line in out.splitlines() if "✗" in line]
    assert len(refusals) >= 2  # "xyz" and "99": one clear line each, and the same prompt again
    assert any("'xyz'" in line for line in refusals)
    assert "the search bot would" in out
    assert "hiki MONTH" in out  # the help
    assert f"game saved to {save}" in out and "rulekit play --resume" in out
    assert "Traceback" not in first.stderr
    assert run_scenario(save).passed  # a saved game is a scenario that replays

    second = rulekit(["play", "--resume", str(save)], ["1"] * 700, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "game over" in second.stdout
    outcome = run_scenario(save)
    assert outcome.passed, outcome.render()
    assert len(outcome.rounds) == 12


def test_ctrl_c_saves_the_game_and_says_how_to_resume(tmp_path: Path) -> None:
    save = tmp_path / "interrupted.scenario.toml"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulekit",
            "play",
            "hachihachi",
            "--bots",
            "greedy",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "120"},
        # Ctrl-C's own handling, even where the tests run in the background of a shell, which
        # starts them with the interrupt ignored (and a child inherits that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    seen = b""
    deadline = time.time() + 60
    os.set_blocking(proc.stdout.fileno(), False)
    while time.time() < deadline and seen.count(b"your move:") < 2:
        chunk = proc.stdout.read()
        if chunk:
            seen += chunk
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    # the interrupt alone ends it: its input stays open until then, so that the end of input
    # (communicate closes it) cannot reach the prompt before the interrupt on a busy machine
    proc.wait(timeout=60)
    rest, err = proc.communicate(timeout=60)
    text = (seen + rest).decode()
    assert proc.returncode == 130, err.decode()  # saved, then the interrupt's own status
    assert f"game saved to {save}" in text and f"rulekit play --resume {save}" in text
    assert run_scenario(save).passed
    assert '"You: play' in save.read_text(encoding="utf-8")


def test_watching_bots_play(tmp_path: Path) -> None:
    result = rulekit(
        [
            "play",
            "koikoi",
            "--watch",
            "--bots",
            "greedy,random",
            "--delay",
            "0",
            "--seed",
            "1",
            "--save",
            str(tmp_path / "w.scenario.toml"),
        ],
        [],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("round over") >= 12 and "game over" in result.stdout


def test_watching_a_game_with_bonus_cards_shows_them_captured_and_replays(tmp_path: Path) -> None:
    """Go-Stop with the Korean deck's three jokers: a joker dealt or drawn is captured at once
    and shown in its taker's pile; the saved game replays as a scenario."""
    saved = tmp_path / "jokers.scenario.toml"
    args = ["play", "gostop/house/jokers", "--watch", "--bots", "greedy", "--delay", "0"]
    result = rulekit([*args, "--seed", "3", "--save", str(saved)], [], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "bonus_two_1" in result.stdout and "bonus_three" in result.stdout
    assert "game over" in result.stdout
    assert run_scenario(saved).passed


def test_bad_arguments(tmp_path: Path) -> None:
    for args, message in [
        (["play", "hachihachi", "--seats", "9"], "seats 3 to 6 players, not 9"),
        (["play", "hachihachi", "--bots", "serch"], "no bot named 'serch'"),
        (["play", "--resume", "nope.scenario.toml"], "no saved game at nope.scenario.toml"),
        (["play"], "name the rules to play"),
    ]:
        result = rulekit(args, [], tmp_path)
        assert result.returncode in (1, 2), args
        assert message in result.stderr and "Traceback" not in result.stderr


def with_hidden_cards_moved(rnd: Round, me: int) -> Round:
    """The same round seen from seat `me`, except that a card of another hand and a stock
    card trade places: everything `me` may see is identical."""
    twin = clone(rnd)
    other = next(s for s in rnd.order if s != me and rnd.hands[s] & ~rnd.teyaku_revealed.get(s, 0))
    card = twin.hands[other] & ~twin.teyaku_revealed.get(other, 0)
    card &= -card
    stock_card = twin.stock[0]
    twin.hands[other] = twin.hands[other] ^ card | (1 << stock_card)
    twin.stock[0] = card.bit_length() - 1
    return twin


@pytest.mark.parametrize("game", ["hachihachi/kirisame", "koikoi/sloper", "sakura/hawaii"])
def test_the_search_bot_decides_from_what_it_may_see_only(game: str) -> None:
    c = compiled(game)
    seats = c.rules.seats.min
    decisions = 0
    for seed in range(6):
        rnd = Round(c, seats, 1, seed=seed)  # seat 1 deals: seat 0 plays second
        while not rnd.is_terminal and (rnd.current != 0 or rnd.phase != 1):
            rnd.apply(rnd.legal_actions()[-1])  # keep, join, and one play by the dealer
        if rnd.is_terminal or len(rnd.legal_actions()) < 2:
            continue
        twin = with_hidden_cards_moved(rnd, 0)
        assert twin.hands != rnd.hands
        a = SearchAgent("same", rollouts=40).evaluate(PlayerView(rnd, 0))
        b = SearchAgent("same", rollouts=40).evaluate(PlayerView(twin, 0))
        assert [(e.action, round(e.mean, 9)) for e in a] == [
            (e.action, round(e.mean, 9)) for e in b
        ]
        decisions += 1
    assert decisions >= 3


def test_observations_deal_the_unknown_cards_consistently() -> None:
    from rulekit.engine.round import card_places

    c = compiled("hachihachi/fudawiki")
    rnd = Round(c, 4, 0, seed=1)
    rnd.apply(rnd.legal_actions()[1])  # the dealer folds
    obs = PlayerView(rnd, 2).observe()
    assert obs.round.hands[1] == 0 and obs.round.stock == []  # nothing hidden is in it
    for k in range(20):
        world = obs.sample(random.Random(k))
        assert all(n == 1 for n in card_places(world))
        assert world.hands[2] == rnd.hands[2] and world.field == rnd.field
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in rnd.hands]
