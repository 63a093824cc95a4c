"""Declarations (issue 23, item 2): `declare NAME: by the dealer; before the deal; ...`, read
into the IR, played by the scalar engine, weighed by the bots, said by describe and diff, offered
to a person at the terminal and in the browser. (Both engines play it deal by deal alike:
tests/test_batch_identity.py picks up rules/hachihachi/house/mizuten.rk at 4 to 6 seats.)"""

from __future__ import annotations

from collections import Counter

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.agents.calibrate import DealPolicy
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine.observation import known_cards
from rulekit.engine.round import DECLARE, FOLD, PLAY, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RuleError, RuleErrors
from rulekit.lang import load_rules
from rulekit.play import screen
from rulekit.play.session import Session
from rulekit.sim.exercise import exercised
from rulekit.web.games import WebGame, _stakes

MIZUTEN = "hachihachi/house/mizuten"


def _load_text(tmp_path, text: str) -> ir.Ruleset:  # type: ignore[no-untyped-def]
    path = tmp_path / "house.rk"
    path.write_text(text, encoding="utf-8")
    return load_rules(str(path))


@pytest.fixture(scope="module")
def mizuten() -> CompiledRules:
    return CompiledRules(load_rules(MIZUTEN))


def test_mizuten_declaration_is_read_into_the_ir() -> None:
    (d,) = load_rules(MIZUTEN).declarations
    assert d == ir.Declaration(
        name="mizuten",
        label="Mizuten",
        by="dealer",
        moment="before_deal",
        must_join=True,
        from_each_folder=10,
        times_multiplier=True,
    )
    assert load_rules("hachihachi/fudawiki").declarations == ()


def test_a_declaration_stake_is_rescaled_by_the_unit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`10 from each who folds` written where a kan is 10 points, read where it is 12."""
    rules = _load_text(
        tmp_path,
        'extends "hachihachi/house/mizuten"\nunit kan = 12 points\n',
    )
    assert rules.declarations[0].from_each_folder == 12


@pytest.mark.parametrize(
    ("text", "message", "col"),
    [
        (
            'extends "hachihachi/fudawiki"\ndeclare mizuten: by the dealer; before the deal\n',
            "the declaration changes nothing",
            9,
        ),
        (
            'extends "koikoi/sloper"\ndeclare mizuten: he must join\n',
            "nobody chooses to fold in this variant",
            9,
        ),
        (
            'extends "hachihachi/house/rotating-sit-out"\ndeclare mizuten: he must join\n',
            "nobody chooses to fold in this variant",
            9,
        ),
        (
            'extends "hachihachi/fudawiki"\ndeclare mizuten: he must join; he must join\n',
            "'he must join' is given twice",
            32,
        ),
    ],
)
def test_a_declaration_that_cannot_play_is_refused_where_written(
    tmp_path, text: str, message: str, col: int
) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleErrors) as err:
        _load_text(tmp_path, text)
    (e,) = err.value.errors
    assert message in e.message
    assert e.loc is not None and (e.loc.line, e.loc.col) == (2, col)
    assert e.hint


def test_a_misspelt_declaration_word_is_suggested(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as err:
        _load_text(tmp_path, 'extends "hachihachi/fudawiki"\ndeclare mizuten: by the deeler\n')
    assert err.value.loc is not None and (err.value.loc.line, err.value.loc.col) == (2, 25)
    assert "did you mean 'dealer'" in str(err.value.hint)


def test_mizuten_is_offered_to_the_dealer_before_the_deal_unseen(mizuten: CompiledRules) -> None:
    rnd = Round(mizuten, 4, dealer=2, seed=1)
    assert (rnd.phase, rnd.current, rnd.legal_actions()) == (DECLARE, 2, [A.DECLARE, A.PASS])
    view = PlayerView(rnd, 2)
    assert view.hand == 0 and not rnd.field_laid
    assert known_cards(rnd, 2) & rnd.hands[2] == 0  # his observation holds no card of his hand


def test_mizuten_is_not_offered_when_everyone_plays(mizuten: CompiledRules) -> None:
    rnd = Round(mizuten, 3, dealer=0, seed=1)
    assert rnd.phase == PLAY


def test_the_declarer_joins_unasked_and_each_voluntary_folder_pays_him(
    mizuten: CompiledRules,
) -> None:
    rnd = Round(mizuten, 5, dealer=0, seed=5)
    rnd.apply(A.DECLARE)
    assert (rnd.phase, rnd.current, rnd.joined) == (FOLD, 1, 1)  # the fold starts after him
    rnd.apply(A.FOLD)
    rnd.apply(A.FOLD)  # Dave and Eve must join
    assert rnd.phase == PLAY and rnd.order == [0, 3, 4]
    greedy = make_agent("greedy", 1)
    while not rnd.is_terminal:
        rnd.apply(greedy.act(PlayerView(rnd, rnd.current)))
    paid = [(p.payer, p.payee, p.amount, p.detail) for p in rnd.ledger if p.reason == "declaration"]
    assert rnd.multiplier == 2
    assert paid == [(1, 0, 20, "Mizuten"), (2, 0, 20, "Mizuten")]


def test_a_pass_leaves_the_dealer_to_join_or_fold(mizuten: CompiledRules) -> None:
    rnd = Round(mizuten, 4, dealer=0, seed=5)
    rnd.apply(A.PASS)
    assert (rnd.phase, rnd.current, rnd.declarer) == (FOLD, 0, -1)
    with pytest.raises(Exception, match="must join or fold"):
        rnd.apply(A.DECLARE)


def test_a_declaration_move_in_words() -> None:
    ix = CompiledRules(load_rules(MIZUTEN)).index
    assert A.parse("declare", ix) == A.DECLARE and A.parse("pass", ix) == A.PASS
    assert A.describe(A.DECLARE, ix) == "declare" and A.describe(A.PASS, ix) == "pass"


def test_greedy_passes_and_rulewise_follows_the_calibrated_policy(
    mizuten: CompiledRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = Round(mizuten, 4, dealer=1, seed=2)
    view = PlayerView(rnd, 1)
    assert make_agent("greedy", 0).act(view) == A.PASS
    for declare, want in ((True, A.DECLARE), (False, A.PASS)):
        policy = DealPolicy(join_at=0.0, swap=False, declare=declare)
        monkeypatch.setattr("rulekit.agents.rulewise.deal_policy", lambda c, s, p=policy: p)
        assert make_agent("rulewise", 0).act(view) == want


def test_describe_and_diff_say_the_declaration_in_words() -> None:
    a, b = load_rules("hachihachi/fudawiki"), load_rules(MIZUTEN)
    said = (
        "Before the deal, his hand unseen, the dealer may declare Mizuten: he plays the round"
        " (he is not asked to join or fold) and each player who then folds by choice pays him"
        " 10 x multiplier"
    )
    assert said + "." in " ".join(to_markdown(rulebook(b)).split())
    text = render(diff(a, b), "a", "b")
    assert f"a declaration: added: {said}" in text
    assert f"a declaration: removed (was: {said})" in render(diff(b, a), "b", "a")


def test_compare_reports_a_declaration_never_exercised() -> None:
    a, b = load_rules("hachihachi/fudawiki"), load_rules(MIZUTEN)
    report = exercised(a, b, Counter(), Counter({"declare offered": 40}))
    assert report["differing"]["declare"]["offered"] == [0, 40]
    assert report["unseen"] == ["declare"]
    seen = exercised(a, b, Counter(), Counter({"declare offered": 40, "declare": 3}))
    assert seen["unseen"] == []


def test_a_person_is_offered_the_declaration_at_the_terminal_and_in_the_browser(
    mizuten: CompiledRules,
) -> None:
    session = Session.new(mizuten, MIZUTEN, seed=1, seats=4, bots=("greedy",), seat=1)
    game = WebGame("g", session)
    game.advance()
    rnd = session.round
    assert rnd is not None and rnd.phase == DECLARE and rnd.current == 1
    table = game.state()["table"]
    assert table["phase"] == "declare" and table["hand"] == []
    assert [m["words"] for m in table["moves"]] == ["declare Mizuten", "pass"]
    assert "may declare Mizuten" in str(_stakes(session.views[1]))
    game.move(A.DECLARE)
    assert rnd.declarer == 1
    assert "You declare Mizuten, unseen" in game.log
    assert screen.action_words(mizuten.rules, A.PASS, mizuten.index) == "pass"


def test_a_house_file_may_remove_the_declaration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rules = _load_text(tmp_path, 'extends "hachihachi/house/mizuten"\nremove declare\n')
    assert rules.declarations == ()
