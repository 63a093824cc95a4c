"""Go-Stop's rules as statements of the language (issue 25): each one in the IR, said in
words by describe and diff, refused where it cannot apply. What they play is pinned by the
scenarios in rules/gostop/scenarios/ and held between the engines by the identity tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulekit import ir
from rulekit.cli import cli
from rulekit.describe import rulebook
from rulekit.lang import load_rules


def _text(rules: ir.Ruleset) -> str:
    return " ".join(p for s in rulebook(rules) for p in s.paragraphs)


def _house(tmp_path: Path, body: str, name: str = "house.rk") -> Path:
    path = tmp_path / name
    path.write_text(f'extends "gostop/gostop"\n{body}\n', encoding="utf-8")
    return path


def _refused(tmp_path: Path, body: str) -> str:
    """What `rulekit check` says of a house file refused at its line 2: one located error,
    exit 1, no traceback."""
    out = CliRunner().invoke(cli, ["check", str(_house(tmp_path, body))])
    assert out.exit_code == 1
    assert "house.rk:2:" in out.output and "Traceback" not in out.output
    return out.output


# ---------------------------------------------------------------- GS 4, 30: the stop minimum


def test_choice_only_if_the_stop_minimum_is_the_choice_as_a_whole() -> None:
    for name, minimum in (("gostop/gostop", 3), ("gostop/matgo", 7)):
        offers = load_rules(name).continuation.offers
        assert [o.option for o in offers] == ["choice"], name
        assert f">= {minimum}" in _text(load_rules(name))


def test_choice_only_if_is_said_in_words_by_describe_and_diff(tmp_path: Path) -> None:
    text = _text(load_rules("gostop/gostop"))
    assert "Offered: choice only if score >= 3." in text
    assert "neither stops nor continues (no continue counted): play goes on" in text
    assert "he takes the other" not in text  # (no stop or continue offer to say it of)
    house = _house(
        tmp_path,
        'continue "Go": paid when stopping; if beaten no penalty; if another stops first'
        " forfeit; if unfinished forfeit; +1 per continue; stop only if score >= 3",
    )
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", str(house)])
    assert out.exit_code == 0, out.output
    assert "choice only if score >= 3 -> stop only if score >= 3" in out.output


def test_choice_only_if_on_yaku_that_do_not_end_the_round_is_refused(tmp_path: Path) -> None:
    out = _refused(
        tmp_path,
        'continue "Go": paid when made; yaku do not end the round; choice only if score >= 3',
    )
    assert "nobody stops or continues when yaku do not end the round" in out


# ------------------------------------------- GS 42-43: triplets in a row, three in a round


def test_three_ppeok_and_a_streak_of_first_turns_are_events_in_the_ir() -> None:
    events = {e.name: e for e in load_rules("gostop/gostop").events}
    first, three = events["first_ppeok"], events["three_ppeok"]
    assert (first.in_a_row, first.steal, first.steal_grows, first.first_turn) == (
        True,
        3,
        "doubling",
        False,
    )
    assert (three.time, three.steal, three.outcome) == (3, 3, "wins_round")
    matgo = {e.name: e for e in load_rules("gostop/matgo").events}
    assert (matgo["three_ppeok"].steal, matgo["first_ppeok"].steal) == (7, 7)


def test_three_ppeok_and_a_streak_are_said_in_words() -> None:
    text = _text(load_rules("gostop/gostop"))
    assert "on his first turns in a row" in text
    assert "each opponent pays him 3 at once, doubled for each time it happened to him" in text
    assert "only the third time it happens to him in the round" in text
    assert "he wins the round at once (nothing else is paid)" in text


def test_an_event_that_wins_the_round_is_an_effect_on_its_own(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        'event sweep3 "Three sweeps": the field is swept; only the third time; he wins the round',
    )
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 0, out.output


def test_first_turn_and_first_turns_in_a_row_together_are_refused(tmp_path: Path) -> None:
    out = _refused(
        tmp_path,
        "event first_ppeok: a stack is left; on his first turn; on his first turns in a row;"
        " each opponent pays 3",
    )
    assert "say the same first turn twice" in out


def test_an_ordinal_past_the_fifth_time_is_refused_with_the_words_allowed(
    tmp_path: Path,
) -> None:
    out = _refused(
        tmp_path, "event ppeok: a stack is left; only the sixth time; each opponent pays 3"
    )
    assert "third" in out  # (the words the parser expects there)


# ------------------------------------------------- GS 12: every hand wins at once, a draw

# a hand that wins at once with a pair: most hands of seven hold one, so that some deals have
# every hand winning and others not
EVERY_HAND_PAIRS = 'extends "gostop/gostop"\ninstant win 3 if a hand has a month of 2\n'


def test_every_hand_winning_at_once_is_a_draw_is_in_the_ir_and_said_in_words(
    tmp_path: Path,
) -> None:
    assert load_rules("gostop/gostop").instant_all == "draw"
    assert load_rules("gostop/matgo").instant_all == "draw"
    text = _text(load_rules("gostop/gostop"))
    assert "If every hand of the round wins at once, the round is a draw" in text
    house = _house(tmp_path, "remove instant draw")
    assert load_rules(str(house)).instant_all == "first"
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", str(house)])
    assert "when every hand of the round wins at once: the round is a draw, nobody paid ->" in (
        out.output
    )


def test_every_hand_winning_at_once_is_a_draw_needs_an_instant_win(tmp_path: Path) -> None:
    path = tmp_path / "nowin.rk"
    path.write_text(
        'extends "gostop/gostop"\nremove instant wins\nevery hand winning at once is a draw\n',
        encoding="utf-8",
    )
    out = CliRunner().invoke(cli, ["check", str(path)])
    assert out.exit_code == 1
    assert "nowin.rk:3:1" in out.output and "no dealt hand wins at once" in out.output
    assert "instant win 3 if a hand has a month of 4" in out.output  # (the suggestion)
    assert load_rules("gostop/gostop").instant_all == "draw"  # (removed with the wins)


def test_every_hand_winning_at_once_is_a_draw_in_both_engines() -> None:
    from rulekit.batch import engine as batch
    from rulekit.engine.tables import CompiledRules
    from rulekit.lang.loader import load_rules_text
    from tests.test_batch_identity import batch_deal, scalar_deal

    c = CompiledRules(load_rules_text(EVERY_HAND_PAIRS, "pairs.rk", Path(__file__)))
    bots = ("random",) * 3
    plan = batch.make_plan(c, 3, bots, 1)
    ended = set()
    for number in range(12):
        want = scalar_deal(c, 3, bots, 1, number)
        assert batch_deal(plan, number) == want, number
        if not want["moves"]:  # (decided by the dealt hands)
            ended.add(want["ended_by"])
            if want["ended_by"] == "draw":
                assert want["ledger"] == [] and want["winners"] == []
    assert ended == {"draw", "instant"}  # (both: every hand wins, or not every one)


# ------------------------------------------- GS 54: go-bak, the first continuer pays for all


def test_go_bak_is_in_the_ir_and_said_in_words(tmp_path: Path) -> None:
    assert load_rules("gostop/gostop").continuation.outstopped_pays == "first"
    assert load_rules("gostop/matgo").continuation.outstopped_pays == "nobody"  # (two: no one)
    text = _text(load_rules("gostop/gostop"))
    assert "the first of the others who continued in the round pays what each other" in text
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", "gostop/matgo"])
    assert (
        "who pays a stop's yaku for every payer: the first of the others who continued in the"
        " round -> nobody: each payer his own"
    ) in " ".join(out.output.split())


def test_go_bak_needs_yaku_paid_at_the_stop(tmp_path: Path) -> None:
    out = _refused(
        tmp_path,
        'continue "Go": paid when made; if another stops first the first continuer pays for all',
    )
    assert "add 'paid when stopping'" in out


# ---------------------------------------------- GS 17, 48: shaking, x2 for each triplet shown


def test_shaking_doubles_once_for_each_triplet_in_the_ir_and_in_words(tmp_path: Path) -> None:
    (shaking,) = load_rules("gostop/gostop").declarations
    assert (shaking.factor, shaking.factor_per_month) == (2, 3)
    assert "once for each month of 3 cards in his hand when he declares" in _text(
        load_rules("gostop/gostop")
    )
    house = _house(
        tmp_path,
        'declare shaking "Shaking": by a player who holds a month of 3; before the first play;'
        " x2 on his winnings",
    )
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", str(house)])
    assert "once for each month of 3 cards" in " ".join(out.output.split())


def test_shaking_for_each_month_of_five_is_refused(tmp_path: Path) -> None:
    out = _refused(
        tmp_path,
        'declare shaking "Shaking": by any player; before the first play;'
        " x2 on his winnings for each month of 5",
    )
    assert "a month has 4 cards, not 5" in out


# ------------------------------- the jokers: the Korean deck's bonus cards in both engines


def test_the_korean_decks_weighed_chaff_count_is_played_by_the_kernel() -> None:
    """Three jokers and two double chaff in the Chaff yaku's count: written by how many of each
    weight are held (10 cases, not 64: lang/choice.MAX_HEAVY_BY_CARD), the kernel plays it."""
    from rulekit.batch import engine as batch
    from rulekit.engine.tables import CompiledRules

    for name, seats in (("gostop/house/jokers", 3), ("gostop/house/matgo-jokers", 2)):
        c = CompiledRules(load_rules(name))
        assert batch.why_not(c, seats, ("random",) * seats) is None, name
    chaff = next(
        e for e in load_rules("gostop/house/jokers").yaku.entries if e.name == "ten_plains"
    )
    assert isinstance(chaff.condition, ir.Or) and len(chaff.condition.items) == 10


def test_rulewise_worlds_keep_unseen_bonus_cards_out_of_the_hands() -> None:
    """A sampled world deals an unseen joker to the stock, never to a hand (where it would
    have been captured at once), in both engines: rulewise plays Matgo with the jokers alike."""
    from rulekit.batch import engine as batch
    from rulekit.engine.tables import CompiledRules
    from tests.test_batch_identity import batch_deal, scalar_deal

    c = CompiledRules(load_rules("gostop/house/matgo-jokers"))
    bots = ("rulewise", "rulewise")
    plan = batch.make_plan(c, 2, bots, 1)
    assert batch_deal(plan, 11) == scalar_deal(c, 2, bots, 1, 11)  # (a bomb weighed)


def test_without_a_bonus_card_of_the_korean_deck_leaves_its_weight(tmp_path: Path) -> None:
    path = tmp_path / "two-jokers.rk"
    path.write_text(
        'extends "gostop/house/jokers"\nwithout bonus_three\n',
        encoding="utf-8",
    )
    rules = load_rules(str(path))
    ids = {c.id for c in rules.deck.cards}
    assert 132 not in ids and {130, 131} <= ids and len(ids) == 50
    assert rules.deck.bonus == (130, 131)
    assert all(132 not in w.cards for w in rules.weighted)
