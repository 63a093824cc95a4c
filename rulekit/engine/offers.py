"""What a choice offers: the rule file's conditions on its options (ir.Offer), tested for the
player who chooses. A choice with one option left is not asked (continuation.made, setup's fold
phase take it); BOTH means it is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulekit import ir
from rulekit.engine.context import RoundView
from rulekit.engine.state import RoundState

if TYPE_CHECKING:
    from rulekit.cards import CardIndex

BOTH = "both"  # offered's answer when the choice is asked

# the offers of one choice, each with its compiled condition (None: none)
Tests = Sequence[tuple[ir.Offer, Callable[..., bool] | None]]

# ir.Offer.limits -> whether the option is offered to the player under the limit
LIMITS: dict[str, Callable[[RoundState, int], bool]] = {
    "once_per_round": lambda r, p: r.continues[p] == 0,
    "hand_not_empty": lambda r, p: r.hands[p] != 0,
}


# ir.Offer.option of a choice with one option (the swap, a hiki, a declaration, the stop or
# continue choice as a whole) -> what the player does when it is not offered (he is not asked)
INSTEAD: dict[str, str] = {"swap": "keep", "hiki": "play", "declare": "pass", "choice": "play on"}


def is_offered(
    r: RoundState, seat: int, mask: int, option: str, offers: Sequence[ir.Offer]
) -> bool:
    """Whether `option` (of INSTEAD) is offered to `seat` by its `offers` (tested on `mask`: his
    hand, or nothing when he has seen none); compiled on first use."""
    if not offers:
        return True
    tests = r.c.offer_tests.get(option)
    if tests is None:
        tests = r.c.offer_tests[option] = compile_offers(offers, r.c.index)
    return offered(r, seat, mask, tests, (INSTEAD[option], option)) == BOTH


def compile_offers(offers: Sequence[ir.Offer], index: CardIndex) -> Tests:
    """Each offer with its condition compiled as every other condition is."""
    from rulekit.engine.tables import condition_test

    return [(o, condition_test(o.condition, index) if o.condition else None) for o in offers]


def offered(r: RoundState, seat: int, mask: int, tests: Tests, options: tuple[str, str]) -> str:
    """What `seat` is offered of the two `options` (tested on `mask`, his pile or his hand):
    BOTH (the choice is asked), the one option left, or the first of `options` when neither
    is (the choice's default: stop, join)."""
    ok = dict.fromkeys(options, True)
    view = None
    for offer, test in tests:
        option = offer.option
        if not ok[option]:
            continue
        if test is not None:
            view = view or RoundView(r, seat)
            if not test(mask, view):
                ok[option] = False
                continue
        ok[option] = all(LIMITS[limit](r, seat) for limit in offer.limits)
    first, second = options
    if ok[first] and ok[second]:
        return BOTH
    return second if ok[second] else first
