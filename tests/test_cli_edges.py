"""The edges of the commands: what a person types wrong, what the disk refuses, and what must
never be lost (a game played, a file half written). Fast: `play` runs in the CliRunner with
greedy bots and quits after a few inputs."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rulekit.cli import cli
from rulekit.errors import RulekitError, UsageError
from rulekit.scenario.load import line_of
from rulekit.scenario.runner import run_scenario

WORKED = (
    Path(__file__).parent.parent
    / "rules"
    / "hachihachi"
    / "scenarios"
    / "fudawiki"
    / "worked-example.scenario.toml"
)


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def play(save: Path, *extra: str, input: str = "quit\n") -> Result:
    """A game of Hachi-Hachi against greedy bots (seed 5: the person moves first)."""
    return invoke(
        "play", "hachihachi", "--bots", "greedy", "--seed", "5", "--save", str(save), *extra,
        input=input,
    )  # fmt: skip


# ---------------------------------------------------------------- play never loses a game
@pytest.mark.parametrize("typed", ["play", ",", "play onto", "play, onto"])
def test_a_move_with_no_card_is_refused_and_the_game_goes_on(tmp_path: Path, typed: str) -> None:
    save = tmp_path / "g.scenario.toml"
    result = play(save, input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"✗ '{typed}' names no card" in result.stdout
    assert f"game saved to {save}" in result.stdout
    assert run_scenario(save).passed


def test_an_unexpected_error_during_play_still_saves_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulekit.play.session import Session

    def broken(self: Session) -> int:
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(Session, "bot_action", broken)
    save = tmp_path / "g.scenario.toml"
    result = play(save, input="1\n")  # the person's move, then a bot's turn: the bug
    assert isinstance(result.exception, RuntimeError)  # still reported, as a bug
    assert f"game saved to {save}" in result.stdout
    text = save.read_text(encoding="utf-8")
    assert '"You: play' in text  # the move typed is kept
    assert run_scenario(save).passed


def test_a_save_path_that_cannot_be_written_is_refused_before_the_deal(tmp_path: Path) -> None:
    save = tmp_path / "no-such-folder" / "g.scenario.toml"
    result = play(save)
    assert result.exit_code == 2  # as Click's own refusal of a path, below
    assert f"cannot save the game to {save}: there is no folder" in result.stderr
    assert "your move" not in result.stdout  # nothing was dealt
    result = play(tmp_path)  # a folder: Click refuses it
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_a_save_that_fails_at_the_end_goes_to_a_file_in_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulekit.play.terminal as terminal

    folder = tmp_path / "games"
    folder.mkdir()
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    checked = terminal.check_writable

    def check_then_lose_the_folder(path: Path, doing: str = "write") -> None:
        checked(path, doing)
        folder.rmdir()  # the folder goes away while the game is played

    monkeypatch.setattr(terminal, "check_writable", check_then_lose_the_folder)
    result = play(folder / "g.scenario.toml")
    assert result.exit_code == 0, result.output
    saved = list(spare.glob("g-*.scenario.toml"))
    assert len(saved) == 1
    assert f"the game is saved to {saved[0]} instead" in result.stdout
    assert f"rulekit play --resume {saved[0]}" in result.stdout
    assert run_scenario(saved[0]).passed


def test_the_resume_hint_is_quoted_for_the_shell(tmp_path: Path) -> None:
    folder = tmp_path / "my games"
    folder.mkdir()
    save = folder / "it's mine.scenario.toml"
    result = play(save)
    assert result.exit_code == 0, result.output
    assert "rulekit play --resume '" in result.stdout
    assert f"rulekit play --resume {save}\n" not in result.stdout


def test_the_default_save_never_overwrites_a_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "rulekit-hachihachi-5.scenario.toml"
    first.write_text("a game saved before\n", encoding="utf-8")
    result = invoke("play", "hachihachi", "--bots", "greedy", "--seed", "5", input="quit\n")
    assert result.exit_code == 0, result.output
    assert first.read_text(encoding="utf-8") == "a game saved before\n"
    assert (tmp_path / "rulekit-hachihachi-5-2.scenario.toml").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--watch", "--delay", "-1"], "'--delay': -1.0 is not in the range x>=0"),
        (["--think-ms", "0"], "'--think-ms': 0 is not in the range x>=1"),
        (["--seats", "0"], "'--seats': 0 is not in the range x>=1"),
        (["--bots", " , "], "name a bot or more"),
        (["--watch", "--name", "Alice"], "--name with --watch: every seat is a bot"),
        (["--watch", "--seat", "1"], "--seat with --watch"),
    ],
)
def test_play_refuses_bad_or_ignored_options(tmp_path: Path, args: list[str], message: str) -> None:
    result = play(tmp_path / "g.scenario.toml", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not (tmp_path / "g.scenario.toml").exists()


def test_seven_seats_get_seven_names_whatever_the_person_is_called(tmp_path: Path) -> None:
    from rulekit.scenario.record import NAMES, seat_names

    for name in ["Alice", "Bob", "You"]:
        save = tmp_path / f"{name}.scenario.toml"
        result = invoke(
            "play", "sakura", "--seats", "7", "--name", name, "--bots", "greedy",
            "--seed", "2", "--save", str(save), input="quit\n",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert run_scenario(save).passed
    from rulekit.play.session import Session
    from tests.conftest import compiled

    watched = Session.new(
        compiled("sakura"), "sakura", seed=1, seats=7, bots=["greedy"], name="Alice", watch=True
    )
    assert len(set(watched.names)) == 7 and watched.human is None
    assert len(set(seat_names(7, ("Alice",)))) == 7
    assert "Alice" not in seat_names(7, ("Alice",))
    assert seat_names(3) == NAMES[:3]
    many = seat_names(9, ("P2",))
    assert len(set(many)) == 9 and "P2" not in many


# ---------------------------------------------------------------- resume
def saved_game(tmp_path: Path) -> Path:
    save = tmp_path / "g.scenario.toml"
    assert play(save, input="1\nquit\n").exit_code == 0
    return save


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('dealer = "', 'dealer = "Zed'), "dealer: no seat named 'Zed"),
        (('human = "You"', 'human = "Yu"'), "play.human: no seat named 'Yu'"),
        (('= "greedy"', '= "greddy"'), "no bot named 'greddy'"),
        (('rules = "hachihachi"', 'rules = "hachihachy"'), "no rule file 'hachihachy'"),
        (('"You: play', '"Yu: play'), "rounds[0].moves[0]: no seat named 'Yu'"),
    ],
)
def test_a_broken_saved_game_gets_a_located_error(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    save = saved_game(tmp_path)
    text = save.read_text(encoding="utf-8")
    assert change[0] in text
    save.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    result = invoke("play", "--resume", str(save), input="quit\n")
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert f"{save.name}:" in result.stderr  # file:line:col
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_saved_game_for_too_many_seats_is_refused_at_its_seats(tmp_path: Path) -> None:
    save = saved_game(tmp_path)
    text = save.read_text(encoding="utf-8")
    extra = 'seats = ["P1", "P2", "P3", "P4", "'
    save.write_text(text.replace('seats = ["', extra, 1), encoding="utf-8")
    result = invoke("play", "--resume", str(save), input="quit\n")
    assert result.exit_code == 1
    assert "g.scenario.toml:3:1: seats: " in result.stderr
    assert "not 7" in result.stderr


def test_resume_keeps_the_house_rules(tmp_path: Path) -> None:
    save = saved_game(tmp_path)
    text = save.read_text(encoding="utf-8").replace(
        'rules = "hachihachi"\n', 'rules = "hachihachi"\nhouse_rules = "rounds 1"\n'
    )
    save.write_text(text, encoding="utf-8")
    from rulekit.play.session import resume

    session = resume(save)
    assert session.compiled.rules.length.rounds == 1
    assert session.document()["house_rules"] == "rounds 1"


@pytest.mark.parametrize(
    "extra",
    [["hachihachi"], ["--seats", "4"], ["--bots", "random"], ["--seed", "1"], ["--watch"]],
)
def test_resume_refuses_options_it_would_ignore(tmp_path: Path, extra: list[str]) -> None:
    save = saved_game(tmp_path)
    result = invoke("play", "--resume", str(save), *extra, input="quit\n")
    assert result.exit_code == 2, result.output
    assert "with --resume: a saved game keeps its rules" in result.stderr


# ---------------------------------------------------------------- rule files by path, .rk or .json
def test_json_rules_are_named_so_that_recordings_and_saved_games_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulekit.lang import load_rules

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.json").write_text(
        load_rules("hachihachi").model_dump_json(), encoding="utf-8"
    )
    result = invoke("simulate", "mine", "--rounds", "3", "--record", "rec")
    assert result.exit_code == 0, result.output
    assert 'rules = "../mine.json"' in (tmp_path / "rec" / "round-000000.scenario.toml").read_text(
        encoding="utf-8"
    )
    result = invoke("test", "rec")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith("3 passed, 0 failed")

    (tmp_path / "sub").mkdir()
    result = invoke(
        "play", "mine", "--bots", "greedy", "--seed", "5", "--save", "sub/g.scenario.toml",
        input="1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert 'rules = "../mine.json"' in (tmp_path / "sub" / "g.scenario.toml").read_text(
        encoding="utf-8"
    )
    result = invoke("play", "--resume", "sub/g.scenario.toml", input="quit\n")
    assert result.exit_code == 0, result.output
    # saved elsewhere, the rule file is named from there
    (tmp_path / "elsewhere" / "deeper").mkdir(parents=True)
    target = "elsewhere/deeper/g.scenario.toml"
    result = invoke("play", "--resume", "sub/g.scenario.toml", "--save", target, input="quit\n")
    assert result.exit_code == 0, result.output
    assert 'rules = "../../mine.json"' in (tmp_path / target).read_text(encoding="utf-8")
    assert run_scenario(tmp_path / target).passed


def test_a_bundled_file_is_named_by_its_bundled_name(tmp_path: Path) -> None:
    from rulekit.resources import rules_dir
    from rulekit.scenario.record import rules_ref

    assert rules_ref("hachihachi", tmp_path) == "hachihachi"
    assert rules_ref("koikoi/sloper", tmp_path) == "koikoi/sloper"
    path = rules_dir() / "hachihachi" / "kirisame.rk"
    assert rules_ref(str(path), tmp_path) == "hachihachi/kirisame"


# ---------------------------------------------------------------- scenario expectations, located
GAME = """\
title = "two rounds"
rules = "koikoi"
seats = ["A", "B"]
seed = 4

[[rounds]]
rest = "greedy"

[rounds.expect]
next_dealer = "A"

[[rounds]]
rest = "greedy"

[rounds.expect]
payments = [
  { payer = "A", payee = "B", amount = 1 },
  { payer = "B", payee = "A", amount = 1 },
]
winner = "B"
"""


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (('winner = "B"', 'winner = "Zed"'), 20, "rounds[1].expect.winner: no seat named 'Zed'"),
        (
            ('{ payer = "B", payee = "A"', '{ payer = "Zed", payee = "A"'),
            18,
            "rounds[1].expect.payments[1].payer: no seat named 'Zed'",
        ),
        (
            ('next_dealer = "A"', 'next_dealer = "Zed"'),
            10,
            "rounds[0].expect.next_dealer: no seat named 'Zed'",
        ),
    ],
)
def test_an_expectation_of_a_later_round_is_located_in_that_round(
    tmp_path: Path, change: tuple[str, str], line: int, message: str
) -> None:
    assert change[0] in GAME
    path = tmp_path / "game.scenario.toml"
    path.write_text(GAME.replace(change[0], change[1]), encoding="utf-8")
    with pytest.raises(RulekitError) as info:
        run_scenario(path)
    assert info.value.loc is not None and info.value.loc.line == line, info.value.render()
    assert message in info.value.message


def test_line_of_finds_array_elements_past_comments() -> None:
    text = 'moves = [\n  "A: x", # a comment, with "quotes", and commas\n  "B: y",\n]\n'
    assert line_of(text, ("moves", 1)) == 3
    game = '[[rounds]]\nmoves = ["a"]\n[[rounds]]\nmoves = [\n "a",\n "b",\n]\n'
    assert line_of(game, ("rounds", 1, "moves", 1)) == 6
    assert line_of(game, ("rounds", 0, "moves", 0)) == 2


# ---------------------------------------------------------------- describe and diff
def test_describe_and_diff_say_an_entry_cancels_the_count() -> None:
    result = invoke("describe", "hachihachi/kirisame", "--format", "markdown")
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if "| double_eights |" in line)
    assert "at the count; cancels the card count and teyaku" in row
    from rulekit.describe import entry_options
    from rulekit.diff import _options
    from rulekit.lang import load_rules

    entry = load_rules("hachihachi/kirisame").yaku.entry("double_eights")  # type: ignore[union-attr]
    assert _options(entry) == "; ".join(entry_options(entry))


# ---------------------------------------------------------------- compare's outputs
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--report", "/nonexistent-rulekit/dir/x.html"], "there is no folder"),
        (["--report", "x.txt"], "a report is FILE.html or FILE.md"),
        (["--plot", "x.jpg"], "the plots are a PNG image"),
    ],
)
def test_compare_refuses_an_output_before_the_run(
    monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    import rulekit.sim.compare as compare

    def never(*a: object, **k: object) -> None:
        raise AssertionError("the comparison ran")

    monkeypatch.setattr(compare, "compare", never)
    result = invoke("compare", "hachihachi", "hachihachi/kirisame", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scheduler", "tcp://localhost:8786"], "--scheduler is the Dask scheduler's address"),
        (["--backend", "dask", "--jobs", "2"], "--jobs counts local processes"),
        (["--seats", "0"], "'--seats': 0 is not in the range x>=1"),
    ],
)
def test_compare_refuses_options_it_would_ignore(args: list[str], message: str) -> None:
    result = invoke("compare", "hachihachi", "hachihachi/kirisame", *args)
    assert result.exit_code == 2
    assert message in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scheduler", "tcp://localhost:8786"], "--scheduler is the Dask scheduler's address"),
        (["--backend", "dask", "--jobs", "2"], "--jobs counts local processes"),
    ],
)
def test_simulate_refuses_backend_options_it_would_ignore(args: list[str], message: str) -> None:
    result = invoke("simulate", "hachihachi", "--rounds", "2", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_simulate_records_only_on_the_local_backend(tmp_path: Path) -> None:
    result = invoke(
        "simulate",
        "koikoi",
        "--rounds",
        "2",
        "--backend",
        "dask",
        "--scheduler",
        "tcp://x:1",
        "--record",
        str(tmp_path / "rec"),
    )
    assert result.exit_code == 2
    assert "use the local backend" in result.stderr


def test_simulate_refuses_zero_seats() -> None:
    result = invoke("simulate", "hachihachi", "--seats", "0", "--rounds", "2")
    assert result.exit_code == 2
    assert "'--seats': 0 is not in the range x>=1" in result.stderr


# ---------------------------------------------------------------- files written whole
def test_write_atomic_leaves_the_old_file_or_the_new_one(tmp_path: Path) -> None:
    from rulekit.output import write_atomic

    path = tmp_path / "report.md"
    write_atomic(path, "first")
    write_atomic(path, b"second")
    assert path.read_text(encoding="utf-8") == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary file left
    with pytest.raises(RulekitError) as info:
        write_atomic(tmp_path / "missing" / "x.md", "x")
    assert info.value.message.startswith(f"cannot write {tmp_path / 'missing' / 'x.md'}: ")
    assert not isinstance(info.value, UsageError)  # a write that fails is no usage error (1)
    (tmp_path / "folder").mkdir()
    with pytest.raises(RulekitError):
        write_atomic(tmp_path / "folder", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "report.md"]


def test_chosen_card() -> None:
    from rulekit.engine import actions as A
    from rulekit.scenario.record import chosen_card

    assert chosen_card(A.play(3, 7)) == 7
    assert chosen_card(A.play(3)) is None
    assert chosen_card(A.take(12)) == 12
    for other in (A.JOIN, A.STOP, A.CONTINUE, A.HIKI):
        assert chosen_card(other) is None


@pytest.mark.parametrize(
    "command",
    [
        ["describe"],
        ["simulate", "--rounds", "20", "--bots", "greedy"],
        ["compare", "hachihachi", "--rounds", "20", "--bots", "greedy"],
        ["check"],
    ],
)
def test_labels_are_printed_as_written_not_read_as_markup(
    command: list[str], tmp_path: Path
) -> None:
    """Issue 21, item 17: a variant named `a [/] b` stopped `compare` with a MarkupError, and
    `[bold]` in a label was swallowed."""
    path = tmp_path / "odd.rk"
    path.write_text(
        'extends "hachihachi/fudawiki"\ngame "Hachi-Hachi" variant "a [/] b [bold]x"\n'
        'dekiyaku\n  poetry_ribbons "Poetry [red] $ribbons$"\n',
        encoding="utf-8",
    )
    if command[0] == "compare":
        args = [*command, str(path)]
    else:
        args = [command[0], str(path), *command[1:]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output
    if command[0] != "check":
        assert "a [/] b [bold]x" in result.output


def test_resume_starts_at_the_saved_round_number(tmp_path: Path) -> None:
    """`round = 3` is where `rulekit test` starts the saved game: resume starts there too."""
    save = saved_game(tmp_path)
    text = save.read_text(encoding="utf-8").replace(
        'rules = "hachihachi"\n', 'rules = "hachihachi"\nround = 3\n'
    )
    save.write_text(text, encoding="utf-8")
    from rulekit.play.session import resume

    session = resume(save)
    assert session.round is not None and session.round.round_no == 2  # the third round, from 0
    assert session.document()["round"] == 3
