"""Actions are small ints, so that legal-action lists are cheap and bots fast.

play a hand card           card_bit | (target_bit + 1) << 6   (target only when 2 field cards match)
take a field card          TAKE + target_bit                  (the drawn card matched 2)
hiki or bomb a month       HIKI + month index                 (every card of the month)
skip the play              SKIP                               (after a bomb: draw only)
join, fold, stop, continue JOIN, FOLD, STOP, CONTINUE
swap, keep                 SWAP, KEEP                         (trade hands with the dealer, or not)
declare, pass              DECLARE, PASS                      (the rule file's declaration, or not)
claim, pass                CLAIM, PASS                        (the dealer's claim of the field)
show, pass                 SHOW, PASS                         (a teyaku the others may capture)
offer a draw               OFFER                              (among the plays: ir.DrawOffer)
accept, refuse             ACCEPT, REFUSE                     (a draw offered)
read CARDS as CLASS        READ_FIRST, READ_SECOND            (an owner's choice, at the count)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulekit.cards import CardIndex

if TYPE_CHECKING:
    from rulekit import ir

# The one action codec: the engine, bots and recordings encode and decode moves with these.
CARD_MASK = 63  # a play's card bit
TARGET_SHIFT = 6  # a play's target bit + 1 sits above it (0: no target chosen)
TAKE = 4096
JOIN = 8192
FOLD = 8193
STOP = 8194
CONTINUE = 8195
SWAP = 8196
KEEP = 8197
DECLARE = 8198  # make the rule file's declaration (`declare NAME: ...`)
PASS = 8199  # do not
READ_FIRST = 8200  # at the count, the owner's choice's cards in his pile read the first way
READ_SECOND = 8201  # or the second (`read CARDS as N CLASSES`; engine/asking.py)
CLAIM = 8202  # the dealer takes his claim of the field and plays second (ir.DealerClaim)
SHOW = 8203  # show a teyaku whose cards the others may capture (ir.Yaku.shown), or PASS
OFFER = 8204  # show the hand and offer a draw, at the start of a turn (ir.DrawOffer)
ACCEPT = 8205  # a draw offered: accept it
REFUSE = 8206  # or refuse it
HIKI = 8320
SKIP = HIKI + 63  # skip the play, draw only (after a bomb: ir.Bomb.skips); no deck has 64 months

MOVES_HINT = (
    "moves: play CARD [onto CARD], take CARD, hiki MONTH, bomb MONTH, skip, join, fold, stop,"
    " continue, swap, keep, declare, claim, show, pass, offer, accept, refuse, read CARDS as CLASS"
)

KEYWORDS = {
    "join": JOIN,
    "fold": FOLD,
    "stop": STOP,
    "continue": CONTINUE,
    "swap": SWAP,
    "keep": KEEP,
    "declare": DECLARE,
    "pass": PASS,
    "claim": CLAIM,
    "show": SHOW,
    "skip": SKIP,
    "offer": OFFER,
    "accept": ACCEPT,
    "refuse": REFUSE,
}


def play(card_bit: int, target_bit: int | None = None) -> int:
    return card_bit | ((target_bit + 1) << TARGET_SHIFT if target_bit is not None else 0)


def take(target_bit: int) -> int:
    return TAKE + target_bit


def hiki(month_index: int) -> int:
    return HIKI + month_index


def is_play(action: int) -> bool:
    return 0 <= action < TAKE


def played_card(action: int) -> int:
    return action & CARD_MASK


def play_target(action: int) -> int | None:
    t = (action >> TARGET_SHIFT) - 1
    return t if t >= 0 else None


def is_take(action: int) -> bool:
    return TAKE <= action < JOIN


def taken_card(action: int) -> int | None:
    """The field card (bit) a `take` takes; None for any other move."""
    return action - TAKE if is_take(action) else None


def hiki_month(action: int, months: int) -> int | None:
    """The month index a hiki names (of a deck of `months` months); None for any other move."""
    return action - HIKI if HIKI <= action < HIKI + months else None


def describe(action: int, index: CardIndex, choice: ir.OwnersChoice | None = None) -> str:
    """An action in words: `play 10 <name> onto 12 <name>`, `take 33 <name>`, `stop`, `read
    CARDS as CLASS` (the owner's choice's reading, when `choice` is given)."""
    n = len(index.ids)
    if action in (READ_FIRST, READ_SECOND):
        second = action == READ_SECOND
        if choice is None:
            return f"read the {'second' if second else 'first'} way"
        return "read " + reading_words(choice, index, choice.cards, second)

    def card(bit: int) -> str:
        return index.short(index.ids[bit]) if 0 <= bit < n else f"no card (bit {bit})"

    if is_play(action):
        target = play_target(action)
        return f"play {card(played_card(action))}" + (
            f" onto {card(target)}" if target is not None else ""
        )
    taken = taken_card(action)
    if taken is not None:
        return f"take {card(taken)}"
    month = hiki_month(action, len(index.months))
    if month is not None:
        return f"hiki {index.deck.months[month].name}"
    for word, value in KEYWORDS.items():
        if value == action:
            return word
    return f"action {action}"


def parse(text: str, index: CardIndex, choice: ir.OwnersChoice | None = None) -> int:
    """An action from words, as `describe` writes them: `play <card>`, `play 10 onto 12`,
    `take 33`, `hiki 3`, `join`, `fold`, `stop`, `continue`, `swap`, `keep`, `declare`,
    `pass`, `read CARDS as N CLASSES` (with the rule file's owner's choice). Cards by id or
    name, months by number or name."""
    from rulekit.errors import MoveError, UsageError

    words = text.replace(",", " ").split()
    if not words:
        raise MoveError("an empty move", hint=MOVES_HINT)
    verb = words[0].lower()
    if verb == "read":
        return parse_reading(" ".join(words[1:]), index, choice)
    try:
        if verb in KEYWORDS and len(words) == 1:
            return KEYWORDS[verb]
        if verb == "play" and len(words) == 2:
            return play(index.bit[index.parse(words[1])])
        if verb == "play" and len(words) == 4 and words[2].lower() == "onto":
            return play(index.bit[index.parse(words[1])], index.bit[index.parse(words[3])])
        if verb == "take" and len(words) == 2:
            return take(index.bit[index.parse(words[1])])
        if verb in ("hiki", "bomb") and len(words) == 2:
            return hiki(month_index(words[1], index))
    except UsageError as err:
        raise MoveError(err.message, hint=err.hint) from None
    raise MoveError(f"not a move: '{text}'", hint=MOVES_HINT)


def month_index(word: str, index: CardIndex) -> int:
    """A month by number or name (`11`, `willow`, `november`), as an index into the deck's."""
    from rulekit.errors import UsageError, did_you_mean

    names: dict[str, int] = {}
    for i, m in enumerate(index.deck.months):
        for n in (str(m.number), m.name, *m.aliases):
            names[n.lower()] = i
    if word.lower() in names:
        return names[word.lower()]
    raise UsageError(f"unknown month '{word}'", hint=did_you_mean(word.lower(), names))


def reading_words(
    choice: ir.OwnersChoice, index: CardIndex, cards: Sequence[int], second: bool
) -> str:
    """One reading of the owner's choice in words, for `cards` (ids): `CARDS as CLASS`,
    `CARDS as N CLASSES`."""
    names = ", ".join(index.card(c).name for c in cards)
    if not second:
        return f"{names} as {choice.first}"
    plural = "s" if choice.weight > 1 else ""
    return f"{names} as {choice.weight} {choice.second}{plural}"


def parse_reading(text: str, index: CardIndex, choice: ir.OwnersChoice | None) -> int:
    """The reading a `read ...` move names: `read CARDS as N CLASSES`, or only its class (`read
    as animal`, `read plains`); READ_FIRST or READ_SECOND."""
    from rulekit.errors import MoveError, suggest

    if choice is None:
        raise MoveError(
            f"not a move here: 'read {text}' (the rule file has no owner's choice)",
            hint=MOVES_HINT,
        )
    said = " ".join(text.lower().split())
    said = said.rpartition(" as ")[2] if " as " in f" {said}" else said
    said = said.removeprefix("as ").strip()
    w, first, second = choice.weight, choice.first.lower(), choice.second.lower()
    ways = {
        READ_FIRST: {first, f"1 {first}", f"an {first}", f"a {first}", f"{first}s"},
        READ_SECOND: {f"{w} {second}s", f"{w} {second}", f"{second}s", second},
    }
    for action, phrases in ways.items():
        if said in phrases:
            return action
    moves = {first: describe(READ_FIRST, index, choice)}
    moves[f"{w} {second}s"] = describe(READ_SECOND, index, choice)
    close = suggest(said, moves)
    raise MoveError(
        f"'read {text}' is not a reading of the owner's choice ({choice.text})",
        hint=f"did you mean '{moves[close]}'?" if close else " or ".join(moves.values()),
    )
