"""The sources' worked examples, reproduced through the engine from a fixed deal."""

from __future__ import annotations

from fractions import Fraction

from rulekit.engine.round import Round
from tests.conftest import compiled
from tests.engine_helpers import as_tuples, play, stacked

# Fudawiki: Leonardo, Raphael, Donatello, Michelangelo (seats 0-3, Leonardo deals). The rain man
# is on the field (x4). Raphael folds (40 on the table); Donatello (Feb) and Michelangelo (Sep)
# each hold a Triple; no dekiyaku; captured points 76 / 95 / 93.
FUDAWIKI_DEAL = dict(
    hands=[
        [10, 31, 40, 51, 63, 80, 103],
        [32, 33, 41, 50, 82, 100, 102],
        [20, 21, 22, 61, 62, 81, 120],
        [30, 72, 90, 91, 92, 111, 113],
    ],
    field=[11, 42, 73, 110, 122, 123],
    stock_top=[121, 60, 52, 83, 23, 13, 101, 43, 112, 53, 70, 12, 71, 93],
    restock=[
        100,
        83,
        101,
        70,
        93,
        12,
        13,
        102,
        50,
        41,
        53,
        33,
        121,
        82,
        71,
        60,
        32,
        43,
        112,
        52,
        23,
    ],
)
FUDAWIKI_MOVES = [
    (0, "join"), (1, "fold"),
    (0, "play moon"), (2, "play phoenix onto 123"), (3, "play curtain"),
    (0, "play 31"), (2, "play 21"), (3, "play 91"),
    (0, "play 103"), (2, "play geese"), (3, "play 92"),
    (0, "play 63"), (2, "play warbler"), (3, "play 72"),
    (0, "play cuckoo"), (2, "play 22"), (3, "play sake"),
    (0, "play crane"), (2, "play 62"), (3, "play swallow"),
    (0, "play 51"), (2, "play 61"), (3, "play lightning"),
]  # fmt: skip


def test_fudawiki_worked_example_four_players() -> None:
    c = compiled("hachihachi/fudawiki")
    rnd = Round(c, 4, 0, deal=stacked(c, **FUDAWIKI_DEAL))
    play(rnd, FUDAWIKI_MOVES)
    result = rnd.result()
    assert result.multiplier == 4
    assert result.teyaku == {2: ["triple"], 3: ["triple"]}
    assert [result.points[s] for s in (0, 2, 3)] == [76, 95, 93]
    assert as_tuples(result.ledger) == [
        (0, 2, 40, "teyaku", "triple"),
        (3, 2, 40, "teyaku", "triple"),
        (0, 3, 40, "teyaku", "triple"),
        (2, 3, 40, "teyaku", "triple"),
        (0, 2, 28, "count", "76/95 points"),
        (0, 3, 20, "count", "76/93 points"),
        (1, 2, 40, "fold fee", ""),
    ]
    assert result.net == [-128, -40, 108, 60]
    assert result.winner == 2 and result.next_dealer == 2
    assert result.ended_by == "count"


# kirisame: grand field (x4, the rain man). A holds a Standing Three (Jul), C a Three (Jan);
# A captures his three July cards (Diving); captured points 68 / 125 / 71.
KIRISAME_DEAL = dict(
    hands=[
        [52, 63, 71, 72, 73, 81, 102],
        [30, 40, 42, 62, 103, 111, 122],
        [10, 12, 13, 20, 22, 80, 91],
    ],
    field=[23, 32, 33, 50, 92, 110],
    stock_top=[
        61,
        121,
        83,
        60,
        21,
        41,
        31,
        120,
        100,
        112,
        43,
        93,
        70,
        101,
        113,
        11,
        82,
        123,
        90,
        53,
        51,
    ],
)
KIRISAME_MOVES = [
    (0, "play 63"), (1, "play curtain onto 32"), (2, "play 12"),
    (0, "play 73"), (1, "play swallow"), (2, "play 91"),
    (0, "play 72"), (1, "play cuckoo"), (2, "play moon"),
    (0, "play 52"), (1, "play 62"), (2, "play warbler"),
    (0, "play 102"), (1, "play 42"), (2, "play 22"),
    (0, "play geese"), (1, "play 103"), (2, "play 13"),
    (0, "play 71"), (1, "play 122"), (2, "play crane"),
]  # fmt: skip


def test_kirisame_worked_example() -> None:
    c = compiled("hachihachi/kirisame")
    rnd = Round(c, 3, 0, deal=stacked(c, **KIRISAME_DEAL))
    play(rnd, KIRISAME_MOVES)
    result = rnd.result()
    assert result.multiplier == 4
    assert result.teyaku == {0: ["standing_three"], 2: ["three"]}
    assert result.points == [68, 125, 71]
    assert result.yaku == {0: ["diving"]}
    by_reason: dict[str, list[tuple[int, int, object]]] = {}
    for p in result.ledger:
        by_reason.setdefault(p.reason, []).append((p.payer, p.payee, p.amount))
    # Subscore A: dealt hands. Player A receives 36x4 from each, C receives 24x4 from each.
    assert sorted(by_reason["teyaku"]) == [(0, 2, 96), (1, 0, 144), (1, 2, 96), (2, 0, 144)]
    # Subscore B: Diving, 12x4 from each other player.
    assert sorted(by_reason["special"]) == [(1, 0, 48), (2, 0, 48)]
    # Subscore C: -80, +148, -68: the two negative players pay the positive one.
    assert sorted(by_reason["count"]) == [(0, 1, 80), (2, 1, 68)]
    assert result.net == [208, -140, -68]
    assert all(isinstance(v, int | Fraction) for v in result.net)
