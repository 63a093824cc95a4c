"""Every input gets a clear answer: the crash and hang classes found by fuzzing, each as a
located RulekitError, and what play would hit found by `check` statically."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rulekit.cards import CardIndex
from rulekit.errors import InternalError, RulekitError, UsageError
from rulekit.lang import load_rules
from rulekit.scenario.runner import run_scenario

KIRISAME = 'extends "hachihachi/kirisame"\n'
RULES = Path(__file__).parent.parent / "rules"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are named relative to the working directory in messages: house.rk, x.json."""
    monkeypatch.chdir(tmp_path)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def write(tmp_path: Path, text: str | bytes, name: str = "house.rk") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> RulekitError:
    with deadline(20), pytest.raises(RulekitError) as info:
        load_rules(path)
    assert info.value.loc is not None, info.value.render()
    return info.value


def first_line(err: RulekitError) -> str:
    return err.render().splitlines()[0]


# ---------------------------------------------------------------- crashes (point 1)


def test_parentheses_nested_400_deep(tmp_path: Path) -> None:
    cond = "(" * 400 + "any of crane" + ")" * 400
    err = error_of(write(tmp_path, KIRISAME + "yaku\n  deep 4: " + cond + "\n"))
    assert first_line(err) == "house.rk:3:43: parentheses nested more than 32 deep"


def test_a_line_of_10000_parentheses(tmp_path: Path) -> None:
    assert first_line(error_of(write(tmp_path, KIRISAME + "(" * 10000 + "\n"))).startswith(
        "house.rk:2:1: unexpected '('"
    )


def test_not_repeated_2000_times(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "yaku\n  x 4: " + "not " * 2000 + "any of crane\n"))
    assert "more than 32 'not' in a row" in first_line(err)


def test_a_sum_of_3000_terms(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "set s = " + " + ".join(["crane"] * 3000) + "\n"))
    assert "more than 200 '+' and '-' in one statement" in first_line(err)


@pytest.mark.parametrize("statement", ["seats ", "rounds ", "points light "])
def test_a_number_of_5000_digits(tmp_path: Path, statement: str) -> None:
    err = error_of(write(tmp_path, KIRISAME + statement + "9" * 5000 + "\n"))
    assert first_line(err) == (
        f"house.rk:2:{len(statement) + 1}: the number 999999...(5000 digits) is too large"
    )
    assert err.hint is not None and "1,000,000" in err.hint


def test_extends_the_root_folder(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, 'extends "/"\n'))
    assert first_line(err) == "house.rk:1:1: '/' is a folder, not a rule file"


def test_a_joker_step_without_a_joker(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "setup: hands, joker, field\n"))
    assert first_line(err) == "house.rk:2:8: setup has a 'joker' step, but the file has no joker"


def test_dealt_conditions_without_a_teyaku_step(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "setup: hands, field\n"))
    assert first_line(err) == (
        "house.rk:2:8: 'diving' asks what was dealt, but setup has no 'teyaku' step to declare"
        " the dealt hands"
    )


# ---------------------------------------------------------------- hangs and bounds (point 2)


@pytest.mark.parametrize("seats", ["seats 1000000000", "seats 2 to 1000000000"])
def test_a_billion_seats(tmp_path: Path, seats: str) -> None:
    assert "the number 1000000000 is too large" in first_line(
        error_of(write(tmp_path, KIRISAME + seats + "\n"))
    )


def test_more_seats_than_cards(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "seats 2 to 1000\n"))
    assert first_line(err) == (
        "house.rk:2:9: seats 1000: a deck of 48 cards deals to at most 48 players"
    )


def test_a_parent_dealing_24_to_each_plays_at_2(tmp_path: Path) -> None:
    write(tmp_path, KIRISAME + "deal 24 to each, 0 to the field\nseats 2\n", "parent.rk")
    child = write(tmp_path, 'extends "parent.rk"\nseats 2\n')
    from rulekit.agents.random_agent import RandomAgent
    from rulekit.engine.playout import play_deal
    from rulekit.engine.tables import CompiledRules

    with deadline(20):
        rules = load_rules(child)
        play_deal(CompiledRules(rules), 2, 0, [RandomAgent(0), RandomAgent(1)], seed=0)


# ---------------------------------------------------------------- check finds what play hits (3)


def test_8_hands_of_8_at_a_larger_table_size(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "seats 3 to 8\ndeal 8 to each, 0 to the field\n"))
    assert first_line(err) == (
        "house.rk:3:6: deal 8 to each, 0 to the field: 7 players need 56 cards, and the deck has 48"
    )


def test_a_void_rule_that_voids_every_deal(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, KIRISAME + "void if the field has 0 of crane\n"))
    assert first_line(err).startswith("house.rk:2:1: every field of 6 cards is void")


def test_a_void_rule_checked_at_the_field_size_of_each_table(tmp_path: Path) -> None:
    text = 'extends "sakura/hawaii"\nvoid if the field has 3 months of 3\n'
    load_rules(write(tmp_path, text))  # 12 cards at 6 seats can avoid it: not every deal
    text = 'extends "sakura/hawaii"\nvoid if the field has points >= 0\n'
    err = error_of(write(tmp_path, text, "always.rk"))
    assert "is void" in first_line(err)


def test_a_setup_order_that_leaves_too_few_cards_for_the_field(tmp_path: Path) -> None:
    text = (
        'extends "hachihachi/fudawiki"\ndeal 8 to each, 6 to the field\n'
        "setup: hands, field, fold, teyaku\n"
    )
    err = error_of(write(tmp_path, text))
    assert first_line(err) == (
        "house.rk:3:8: setup: hands, field, fold, teyaku: at 6 players the field of 6 is laid"
        " from a stock of only 0 cards"
    )
    fixed = text.replace("hands, field, fold", "hands, fold, field")
    load_rules(write(tmp_path, fixed, "fixed.rk"))


# ---------------------------------------------------------------- a rule file reads rule files (5)


@pytest.mark.parametrize("statement", ["extends", "deck"])
def test_a_file_that_is_not_a_rule_file_is_never_opened(tmp_path: Path, statement: str) -> None:
    secret = write(tmp_path, "root:x:0:0:secret line\n", "passwd")
    err = error_of(write(tmp_path, f'{statement} "{secret}"\n'))
    assert "is not a rule file" in first_line(err)
    assert "secret" not in err.render().replace(str(secret), "")


def test_extends_passwd_by_a_relative_path(tmp_path: Path) -> None:
    up = os.path.relpath("/etc/passwd", tmp_path)  # as deep as the test's folder is
    err = error_of(write(tmp_path, f'extends "{up}"\n'))
    assert first_line(err) == (
        f"house.rk:1:1: '{up}' is not a rule file: a rule file's name ends in .rk or .json"
    )


def test_a_suffix_that_is_not_a_rule_files(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, 'extends "notes.txt"\n'))
    assert "'notes.txt' is not a rule file" in first_line(err)


# ---------------------------------------------------------------- other inputs (point 4)


def test_a_rule_file_with_a_bom_and_crlf(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + KIRISAME.replace("\n", "\r\n").encode())
    assert load_rules(path).game == "Hachi-Hachi"


def ir_text(name: str = "hachihachi/kirisame") -> str:
    return load_rules(name).model_dump_json()


def test_json_nested_1000_deep(tmp_path: Path) -> None:
    deep = '{"kind": "not", "item": ' * 1000 + '{"kind": "any", "cards": [10]}' + "}" * 1000
    text = ir_text()[:-1] + ', "void_field": ' + deep + "}"
    err = error_of(write(tmp_path, text, "deep.json"))
    assert "JSON nested more than 100 deep" in first_line(err)


def test_json_conditions_90_deep_load_in_time(tmp_path: Path) -> None:
    deep = '{"kind": "not", "item": ' * 90 + '{"kind": "any", "cards": [10]}' + "}" * 90
    data = json.loads(ir_text())
    data["yaku"]["entries"][0]["condition"] = {"kind": "any", "cards": [10]}
    text = json.dumps(data)[:-1] + ', "void_field": ' + deep + "}"
    with deadline(10):
        load_rules(write(tmp_path, text, "deep.json"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("yaku", "cards", 999), "yaku/entries/0/condition/cards: no card 999 in the deck"),
        (("month", None, 77), "deck/cards/0/month: no month 77 in the deck"),
    ],
)
def test_json_naming_what_the_deck_has_not(
    tmp_path: Path, change: tuple[str, object, int], message: str
) -> None:
    data = json.loads(ir_text())
    if change[0] == "yaku":
        data["yaku"]["entries"][0]["condition"] = {"kind": "any", "cards": [change[2]]}
    else:
        data["deck"]["cards"][0]["month"] = change[2]
    assert first_line(error_of(write(tmp_path, json.dumps(data), "x.json"))) == (
        f"x.json:1:1: {message}"
    )


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("exclusive", "yaku/exclusive/0: no yaku entry 'plains_17x'"),
        ("unless", "yaku/entries/0/unless: no yaku entry 'plains_17x'"),
        ("liability", "liability/yaku: no yaku 'plains_17x'"),
    ],
)
def test_json_naming_an_entry_the_tables_have_not(tmp_path: Path, where: str, message: str) -> None:
    """A fuzzed IR file named a yaku in an exclusive group that its table lacks: KeyError."""
    data = json.loads(ir_text())
    if where == "exclusive":
        data["yaku"]["exclusive"] = [["plains_17x", data["yaku"]["entries"][1]["name"]]]
    elif where == "unless":
        data["yaku"]["entries"][0]["unless"] = ["plains_17x"]
    else:
        data["liability"] = {"yaku": ["plains_17x"], "min_hand": 2}
    assert first_line(error_of(write(tmp_path, json.dumps(data), "x.json"))) == (
        f"x.json:1:1: {message}"
    )


def test_json_with_a_5000_digit_number(tmp_path: Path) -> None:
    text = ir_text().replace('"par":88', '"par":' + "9" * 5000)
    assert "9" * 5000 in text
    assert "not valid JSON IR" in first_line(error_of(write(tmp_path, text, "x.json")))


@pytest.mark.parametrize("token", ["²", "9" * 5000, "١٢"])
def test_card_parser_refuses_odd_digits(token: str) -> None:
    with pytest.raises(UsageError):
        CardIndex(load_rules("hachihachi/kirisame")).parse(token)


def scenario(tmp_path: Path, old: str, new: str, name: str = "teyaku-red") -> Path:
    text = (RULES / "hachihachi/scenarios/fudawiki" / f"{name}.scenario.toml").read_text()
    assert old in text
    return write(tmp_path, text.replace(old, new, 1), "x.scenario.toml")


def scenario_error(path: Path) -> RulekitError:
    with deadline(30), pytest.raises(RulekitError) as info:
        run_scenario(path)
    assert not isinstance(info.value, InternalError)
    assert info.value.loc is not None
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("stock = [50,", 'stock = ["joker", 50,', "the joker is dealt only in a hand"),
        ("field = [13,", 'field = ["joker", 13,', "the joker is dealt only in a hand"),
        ("field = [13,", 'field = ["²", 13,', "deal.field[0]: unknown card '²'"),
        ("field = [13,", f'field = ["{"9" * 5000}", 13,', "no card has so long a name"),
        ("stock = [50,", "stock = [10, 50,", "deal.stock: in a hand and in the stock: 10 crane"),
        ("seed = 0", "seed = " + "9" * 5000, "not valid TOML"),
        ("[deal.hands]", "restock = [50, 50]\n[deal.hands]", "in the restock twice: 50"),
        ("[deal.hands]", "restock = [13]\n[deal.hands]", "on the field and in the restock"),
        ("[deal.hands]", 'restock = ["joker"]\n[deal.hands]', "the joker is dealt only in a hand"),
    ],
)
def test_scenario_deals(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert message in first_line(scenario_error(scenario(tmp_path, old, new)))


def test_a_field_card_still_in_a_hand_is_located(tmp_path: Path) -> None:
    text = (RULES / "koikoi/scenarios/koi-beaten.scenario.toml").read_text()
    hand = text.split("[deal.hands]")[1].split("[")[1].split(",")[0]
    path = write(tmp_path, text.replace("field = [", f"field = [{hand}, ", 1), "x.scenario.toml")
    err = scenario_error(path)
    assert "deal.field: in a hand and on the field" in first_line(err)


def test_house_rules_errors_point_into_the_file(tmp_path: Path) -> None:
    path = scenario(tmp_path, "seed = 0", 'seed = 0\nhouse_rules = """\nseats 9x\n"""')
    err = scenario_error(path)
    text = path.read_text().split("\n")
    assert err.loc is not None and text[err.loc.line - 1] == "seats 9x"
    assert " | seats 9x" in err.render()
    one_line = scenario(tmp_path, "seed = 0", 'seed = 0\nhouse_rules = "seats 9x"')
    err = scenario_error(one_line)
    assert (
        err.loc is not None
        and err.loc.line == one_line.read_text().split("\n").index('house_rules = "seats 9x"') + 1
    )


def test_a_scenario_with_a_bom(tmp_path: Path) -> None:
    path = scenario(tmp_path, "seed = 0", "seed = 0")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run_scenario(path).passed


def test_a_run_of_many_files_goes_on_after_a_bad_one(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulekit.cli import cli

    bad = scenario(tmp_path, "seed = 0", "seed = " + "9" * 5000)
    good = RULES / "hachihachi/scenarios/fudawiki/teyaku-red.scenario.toml"
    result = CliRunner().invoke(cli, ["test", str(bad), str(good)])
    assert result.output.strip().splitlines()[-1] == "1 passed, 1 failed"
    assert "Traceback" not in result.output
