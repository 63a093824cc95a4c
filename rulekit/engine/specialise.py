"""Code generated per deck for the turn's hot path (tables.py does the same for conditions).

A card set is an int of up to 48 bits, and in CPython every operation on such an int allocates a
new one, so a loop over a hand's cards costs a few operations per card. Here the work of a
turn is read from tables indexed by 12-bit slices of a mask instead (four lookups for a whole
hand), with the tables and slice constants written into the generated source:

- `plays(hand, field)`: the plays of a round with no wild card and no hiki, in the order
  capture.legal_actions gives them: each hand card, or, for a card of a month of which exactly
  two cards lie on the field, one play per target (the lower target first).
- `pairs(field)`: the cards of every month of which exactly two cards lie on the field.
- `points(mask)`: the points of a set of cards.
- `permutation(n)(x)`: the deal's permutation from its hash, unrolled per deck size;
  `dealer(n, seated, hand)(x)`: the same permutation dealt (hands as masks, the stock).
- `fields(*given)`: a new round's fields at a table size (engine.round): a copy of its
  prototype, the deal's fields given and each container new.
- `turns(r, choose)`: capture.plain_turns' loop for one rule file, its options decided when
  the code is written (feeders tracked or not, a yaku table or none, bonuses) and, on a deck
  laid out four cards a month, the plays worked out in the loop rather than by a call; for
  players who all draw uniformly (engine.playout.UniformPlayer), a loop drawing their choices
  inline from their chances (engine.chance), a take among them.

A deck laid out four cards a month in consecutive bits (every bundled deck) gets the tables;
any other deck, plain loops over its months that give the same answers. Generated code only
ever contains integers and names defined here, never text from a rule file.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from rulekit.cards import CardIndex
from rulekit.engine.actions import TARGET_SHIFT
from rulekit.engine.chance import REFILL, sha512

SLICE = 12  # bits per table slice: three months of four cards
WIDE = 16  # bits per slice of the turn loop's pair test: four months

Plays = Callable[[int, int], list[int]]


def nibble_layout(index: CardIndex) -> bool:
    """Whether month i is exactly bits 4i..4i+3 (the slices then hold whole months)."""
    masks = index.month_masks
    return bool(masks) and all(m == 15 << (4 * i) for i, m in enumerate(masks))


def _slices(nbits: int) -> int:
    return (nbits + SLICE - 1) // SLICE


def _slice_exprs(var: str, n: int, size: int = SLICE) -> list[str]:
    """`var`'s n slices of `size` bits, lowest first (the last one unmasked: a mask has no
    higher bits)."""
    out = []
    for k in range(n):
        shifted = f"({var} >> {size * k})" if k else var
        out.append(shifted if k == n - 1 else f"({shifted} & {(1 << size) - 1})")
    return out


def compile_pairs(index: CardIndex) -> Callable[[int], int]:
    """`field -> the cards of every month of which exactly two cards lie on the field`: a card
    of such a month, played or drawn, chooses its capture."""
    masks = index.month_masks
    if not nibble_layout(index):

        def pairs(f: int) -> int:
            out = 0
            for mm in masks:
                if (f & mm).bit_count() == 2:
                    out |= mm
            return out

        return pairs
    n = _slices(len(masks) * 4)
    namespace: dict[str, Any] = {}
    for k in range(n):
        namespace[f"P{k}"] = _pair_table(k)
    body = " | ".join(f"P{k}[{e}]" for k, e in enumerate(_slice_exprs("f", n)))
    result: Callable[[int], int] = _compile(f"def pairs(f):\n    return {body}", namespace, "pairs")
    return result


@lru_cache(maxsize=8)
def _bit_table(k: int) -> list[list[int]]:
    """The set bits of each value of slice k, lowest first (read only: `plays` unpacks them
    into a new list): each value's lowest bit, then the rest's, found before it."""
    table: list[list[int]] = [[]]
    for v in range(1, 1 << SLICE):
        low = v & -v
        table.append([SLICE * k + low.bit_length() - 1, *table[v ^ low]])
    return table


@lru_cache(maxsize=8)
def _pair_table(k: int) -> list[int]:
    """The months of each value of slice k that hold exactly two cards, as masks."""
    return [_pair_months(v) << (SLICE * k) for v in range(1 << SLICE)]


@lru_cache(maxsize=32)
def _points_table(worth: tuple[int, ...], k: int) -> list[int]:
    """The points of each value of slice k (each value: its lowest card's points plus the
    rest's, found before it)."""
    table = [0] * (1 << SLICE)
    for v in range(1, 1 << SLICE):
        b = SLICE * k + (v & -v).bit_length() - 1
        table[v] = table[v & (v - 1)] + (worth[b] if b < len(worth) else 0)
    return table


@lru_cache(maxsize=8)
def _wide_pair_table(k: int) -> list[int]:
    """_pair_table over 16-bit slices (four months; three lookups for a 48-card deck rather
    than four), each distinct value held once: the turn loop's test of a field's pairs."""
    low = [_pair_months(v) for v in range(256)]
    held: dict[int, int] = {}
    return [
        held.setdefault(v, v) for v in ((lo | hi << 8) << (WIDE * k) for hi in low for lo in low)
    ]


def _pair_months(v: int) -> int:
    """The months of a 12-bit slice holding exactly two cards, as their 4-bit lanes."""
    out = 0
    for lane in range(SLICE // 4):
        if (v >> (4 * lane) & 15).bit_count() == 2:
            out |= 15 << (4 * lane)
    return out


def compile_plays(index: CardIndex) -> Plays:
    """`(hand, field) -> the plays`, for a round with no wild card and no hiki."""
    months = index.month_mask_of_bit
    pairs = compile_pairs(index)

    def plays(h: int, f: int) -> list[int]:
        out: list[int] = []
        two = h & pairs(f)
        while h:
            low = h & -h
            b = low.bit_length() - 1
            h ^= low
            if low & two:
                m = f & months[b]
                lo = m & -m
                out.append(b | (lo.bit_length() << TARGET_SHIFT))
                out.append(b | ((m ^ lo).bit_length() << TARGET_SHIFT))
            else:
                out.append(b)
        return out

    if not nibble_layout(index):
        return plays
    n = _slices(len(index.ids))
    namespace: dict[str, Any] = {"X": _target_plays(len(index.ids))}
    for k in range(n):
        namespace[f"T{k}"] = _bit_table(k)
        namespace[f"P{k}"] = _pair_table(k)
    # one new list, unpacked into: the tables' lists are shared
    every = "[" + ", ".join(f"*T{k}[{e}]" for k, e in enumerate(_slice_exprs("h", n))) + "]"
    two = " | ".join(f"P{k}[{e}]" for k, e in enumerate(_slice_exprs("f", n)))
    source = "\n".join(
        [
            "def plays(h, f):",
            f"    out = {every}",  # one play per hand card
            f"    two = h & ({two})",  # the cards that choose between two targets
            "    while two:",  # each becomes two plays, in its place
            "        low = two & -two",
            "        two ^= low",
            "        b = low.bit_length() - 1",
            "        i = out.index(b)",
            "        out[i : i + 1] = X[b][f >> (b & -4) & 15]",  # its month's field cards
            "    return out",
        ]
    )
    result: Plays = _compile(source, namespace, "plays")
    return result


def _target_plays(nbits: int) -> list[list[tuple[int, int]]]:
    """X[card][its month's four field bits]: the card's two plays when exactly two of them lie
    on the field, the lower target first (a deck laid out four cards a month)."""
    out = []
    for b in range(nbits):
        base = b & ~3
        row = [(0, 0)] * 16
        for nibble in range(16):
            if nibble.bit_count() == 2:
                lo = (nibble & -nibble).bit_length() - 1
                hi = nibble.bit_length() - 1
                row[nibble] = (
                    b | ((base + lo + 1) << TARGET_SHIFT),
                    b | ((base + hi + 1) << TARGET_SHIFT),
                )
        out.append(row)
    return out


def _compile(source: str, namespace: dict[str, Any], name: str) -> Any:
    exec(compile(source, f"<rulekit {name}>", "exec"), namespace)
    return namespace[name]


# a group of digits whose divisors' product is below this is one CPython digit (30 bits): the
# one-digit fast paths of % and //, and a one-digit divisor for the big number's divmod
DIGIT = 1 << 30
# the last picks of a permutation up to this many are read from one table row (TAIL! rows)
TAIL = 7


def _permutation_lines(n: int) -> tuple[list[str], list[str], dict[str, Any]]:
    """The body computing the permutation of range(n) that x's factorial-base digits pick,
    lowest digit first, into locals c0, c1, ... (returned: their names in order, and the tables
    the body reads): the divisors n, n - 1, ... are taken in groups whose product is one
    machine digit, so that the big number is divided once per group and each digit comes from
    a small one, two digits at a time read from a table (Qd); each pick is taken out of the
    cards left with `del` (cheaper than a call of pop); the last TAIL picks or fewer are read
    at once (Gsize: the cards left in their order for the last digits)."""
    lines = [f"    items = list(range({n}))"]
    tables: dict[str, Any] = {}
    picked: list[str] = []

    def pick(index: str) -> None:
        card = f"c{len(picked)}"
        lines.append(f"    {card} = items[{index}]")
        if len(picked) < n - 1:  # the last card left is not taken out
            lines.append(f"    del items[{index}]")
        picked.append(card)

    k = n
    while k > 0:
        product = 1
        group: list[int] = []
        # (a group ends above the last TAIL divisors: they are read from one table row)
        while k > 0 and product * k < DIGIT and not (k == TAIL and group):
            product *= k
            group.append(k)
            k -= 1
        # the last group: what is left of x is not needed
        lines.append(f"    r = x % {product}" if k == 0 else f"    x, r = divmod(x, {product})")
        while len(group) >= 2:  # r < the product of the group's divisors left
            if k == 0 and len(group) <= TAIL:  # the last cards, all from one row of a table
                size = len(group)
                tables[f"G{size}"] = _tail_getters(size)
                names = [f"c{len(picked) + i}" for i in range(size)]
                lines.append(f"    {', '.join(names)} = G{size}[r](items)")
                picked.extend(names)
                group.clear()
                break
            d, pair = group[0], group[0] * group[1]
            tables[f"Q{d}"] = _pair_digits(d)
            if len(group) == 2:
                lines.append(f"    i, j = Q{d}[r]")
            else:
                lines.extend([f"    i, j = Q{d}[r % {pair}]", f"    r //= {pair}"])
            pick("i")
            pick("j")
            del group[:2]
        if group:
            pick("r")
    return lines, picked, tables


@lru_cache(maxsize=16)
def _tail_getters(size: int) -> list[Callable[[list[int]], tuple[int, ...]]]:
    """For each r < size!: `items -> the items in the order r's factorial-base digits pick
    them` (the last `size` picks of a permutation, from the cards left), a getter each."""
    getters: list[Callable[[list[int]], tuple[int, ...]]] = []
    for r in range(math.factorial(size)):
        left, order = list(range(size)), []
        for d in range(size, 0, -1):
            r, i = divmod(r, d)
            order.append(left.pop(i))
        getters.append(operator.itemgetter(*order))
    return getters


@lru_cache(maxsize=64)
def _pair_digits(d: int) -> list[tuple[int, int]]:
    """(m % d, m // d) for each m < d * (d - 1): the next two factorial-base digits of m."""
    return [(m % d, m // d) for m in range(d * (d - 1))]


@lru_cache(maxsize=16)
def permutation(n: int) -> Callable[[int], list[int]]:
    """`x -> the permutation of range(n) that x's factorial-base digits pick, lowest digit
    first` (engine.deal.deal_order's reading of a seed's hash), unrolled."""
    lines, picked, tables = _permutation_lines(n)
    source = "\n".join(["def permutation(x):", *lines, f"    return [{', '.join(picked)}]"])
    result: Callable[[int], list[int]] = _compile(source, tables, "permutation")
    return result


Deal = Callable[[int], tuple[list[int], list[int], list[int]]]


@lru_cache(maxsize=32)
def dealer(n: int, seated: int, hand: int) -> Deal:
    """`x -> (hands, stock, the stock from the top)` of the deal whose order is permutation(n)(x):
    seat s is dealt the order's cards s * hand ... (s + 1) * hand - 1 (as a mask), the rest
    is the stock, the order's last card on top (the end of the list). The permutation's code
    with the hands and the stock written out: no list of the order, no slices."""
    lines, picked, tables = _permutation_lines(n)
    # a hand's cards are distinct bits: their sum is their union (a sum of table entries is
    # cheaper than an `or` of shifts)
    hands = [
        " + ".join(f"B[{c}]" for c in picked[s * hand : (s + 1) * hand]) or "0"
        for s in range(seated)
    ]
    rest = picked[seated * hand :]
    source = "\n".join(
        [
            "def deal(x):",
            *lines,
            f"    return [{', '.join(hands)}], [{', '.join(reversed(rest))}], [{', '.join(rest)}]",
        ]
    )
    result: Deal = _compile(source, {**tables, "B": [1 << b for b in range(n)]}, "deal")
    return result


@lru_cache(maxsize=16)
def card_bits(nbits: int) -> Callable[[int], list[int]]:
    """`mask -> the positions of its set bits, lowest first` (cards.bits) for a mask of up to
    `nbits` bits, from 12-bit slices: one new list, the tables' lists unpacked into it."""
    n = _slices(nbits)
    namespace: dict[str, Any] = {f"T{k}": _bit_table(k) for k in range(n)}
    every = ", ".join(f"*T{k}[{e}]" for k, e in enumerate(_slice_exprs("m", n)))
    result: Callable[[int], list[int]] = _compile(
        f"def card_bits(m):\n    return [{every}]", namespace, "card_bits"
    )
    return result


@lru_cache(maxsize=64)
def top_cards(k: int) -> Callable[[list[int]], int]:
    """`stock -> the mask of its top k cards` (its last k bits, distinct: their sum is their
    union), unrolled: the field laid from the stock."""
    terms = " + ".join(f"B[s[{-i}]]" for i in range(1, k + 1)) or "0"
    namespace: dict[str, Any] = {"B": [1 << b for b in range(256)]}
    result: Callable[[list[int]], int] = _compile(
        f"def top(s):\n    return {terms}", namespace, "top"
    )
    return result


def compile_points(index: CardIndex) -> Callable[[int], int]:
    """`mask -> the points of its cards` (CardIndex.points, from 12-bit slices: four lookups
    for a 48-card deck; a bit past the deck, the joker's, counts nothing)."""
    worth = tuple(index.points_of_bit)
    n = _slices(len(worth))
    namespace: dict[str, Any] = {f"W{k}": _points_table(worth, k) for k in range(n)}
    parts = [
        f"W{k}[({'x >> ' + str(SLICE * k) if k else 'x'}) & {(1 << SLICE) - 1}]" for k in range(n)
    ]
    source = f"def points(x):\n    return {' + '.join(parts) or '0'}"
    result: Callable[[int], int] = _compile(source, namespace, "points")
    return result


def compile_fields(
    proto: dict[str, Any], fresh: tuple[str, ...], given: tuple[str, ...] = ()
) -> Callable[..., dict[str, Any]]:
    """`(*given) -> a new round's fields`: the prototype's values, with a new list or dict for
    each field named in `fresh` and the values passed for the fields named in `given` (each
    defaults to the prototype's, an immutable value). A copy of the prototype (made in C, its
    order kept) and one store per field written over it (cheaper than a dict display
    unpacking it); a list of ints is written out, so that building it is one instruction. A
    fresh value that is not a plain literal is copied from the prototype."""
    namespace: dict[str, Any] = {"PROTO": dict(proto)}
    lines = ["    d = PROTO.copy()"]
    for k, (name, value) in enumerate(proto.items()):
        if name in given:
            namespace[f"D{k}"] = value
            lines.append(f"    d[{name!r}] = a{k}")
        elif name in fresh and value is not None:
            text = repr(value)
            if not _is_literal(text, value):
                namespace[f"V{k}"] = value
                text = f"V{k}.copy()"
            lines.append(f"    d[{name!r}] = {text}")
    # the parameters in the order `given` names them
    order = {name: k for k, name in enumerate(proto)}
    params = [f"a{order[name]}=D{order[name]}" for name in given]
    source = "\n".join([f"def fields({', '.join(params)}):", *lines, "    return d"])
    result: Callable[..., dict[str, Any]] = _compile(source, namespace, "fields")
    return result


def _is_literal(text: str, value: object) -> bool:
    """Whether `text` is a literal that builds `value` again (its type and contents)."""
    try:
        again = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return type(again) is type(value) and again == value


def compile_turns(
    index: CardIndex,
    plays: Plays,
    *,
    track: bool,
    match: tuple[list[str], dict[str, Any]] | None,
    bonus: bool,
    helpers: dict[str, Any],
    uniform: bool = False,
) -> Callable[[Any, Any], None]:
    """`(r, choose) -> None`: capture.plain_turns' loop for a round whose yaku table (if any)
    sees only the cards, written for one rule file. `helpers` gives capture's next_turn,
    play_plain, yaku_check, advance (play_plain's next player), rises (whether a bonus raises
    what was made), the yaku table, and the PLAY and TAKE phases; the options, decided here,
    leave no test of them in the loop. `match` is the yaku table's match as statements
    (CompiledTable.match_play_inline: from the pile `x` to its hits `h`), written into the
    loop. See capture.plain_turns for what a turn does.

    `uniform`: `choose` is each seat's Chance instead (engine.chance; capture.uniform_turns),
    and every choice is legal[chance.below(len(legal))], drawn here with below's code: no call
    per turn, no test of the action (it is a legal one), a hand without a choice of two targets
    drawn from without a list of its plays, and a take drawn in the turn (as `take` would have
    it: the lower card first) rather than left to the caller."""
    namespace: dict[str, Any] = {**helpers, "plays": plays}
    if uniform:
        namespace.update(sha512=sha512, from_bytes=int.from_bytes)
    if nibble_layout(index):
        n = _slices(len(index.ids))
        namespace["X"] = _target_plays(len(index.ids))
        for k in range(n):
            namespace[f"T{k}"] = _bit_table(k)
        wide = (len(index.ids) + WIDE - 1) // WIDE
        for k in range(wide):
            namespace[f"P{k}"] = _wide_pair_table(k)
        every = ", ".join(f"*T{k}[{e}]" for k, e in enumerate(_slice_exprs("hand", n)))
        two = " | ".join(f"P{k}[{e}]" for k, e in enumerate(_slice_exprs("field_", wide, WIDE)))
        expand = [
            "legal = held[:]",
            "while two:",
            "    low = two & -two",
            "    two ^= low",
            "    b = low.bit_length() - 1",
            "    i = legal.index(b)",
            "    legal[i : i + 1] = X[b][field_ >> (b & -4) & 15]",
        ]
        legal = [
            "held = cards[p]",  # the hand's cards, lowest first: kept as they are played
            "if held is None:",
            f"    held = cards[p] = [{every}]",
            f"two = hand & ({two})",
        ]
        if uniform:  # without a choice of two targets the plays are the hand's cards
            legal += [
                *_draw_lines(),
                "if two:",
                *("    " + line for line in expand),
                "    ch.x, k = divmod(cx, len(legal))",
                "    action = legal[k]",
                "else:",
                "    ch.x, k = divmod(cx, len(held))",
                "    action = held[k]",
            ]
        else:
            legal += expand
        played = ["held.remove(b)"]
    else:
        legal = ["legal = plays(hand, field_)"]
        if uniform:
            legal += [*_draw_lines(), "ch.x, k = divmod(cx, len(legal))", "action = legal[k]"]
        played = []
    feed = ["        feeders[b] = (p, hand.bit_count())"] if track else []
    if match is None:
        check: list[str] = []
    else:
        rises = " or rises(r, p, h, x)" if bonus else ""
        statements, names = match
        _check_written_in(statements)
        namespace.update(names)  # the match's own helpers (points, ...): no name of the loop
        check = [
            "    if not forfeited[p]:",
            *("    " + line for line in statements),  # h = match(x), written in
            "        seen = hits[p]",
            f"        if (h or seen) and (h != seen{rises}):",
            "            # a yaku made, lost or raised: the turn is play_plain's, then its check",
            "            captured[p] = x",
            "            hands[p] = hand ^ bit",
            "            r.field = after",
            "            r.turn_got = got",
            "            r.fed_this_turn = fed",
            "            r.pos = pos",
            "            r.current = p",
            "            r.turn = turn",
            "            yaku_check(r, p, table, h, x)",
            "            done = True",
            "            break",
        ]
    take_later = [  # as play_plain leaves it: the draw waiting for the caller's take
        "    elif m2.bit_count() == 2:",
        "        hands[p] = hand ^ bit",
        "        if got:",
        "            captured[p] |= got",
        "        r.field = after",
        "        r.turn_got = got",
        "        r.fed_this_turn = fed",
        "        r.drawn = d",
        "        r.phase = TAKE",
        "        r.pos = pos",
        "        r.current = p",
        "        r.turn = turn",
        "        done = True",
        "        break",
    ]
    take_here = [  # the take drawn now, from the same chance: take's lower card first
        "    elif m2.bit_count() == 2:",
        *("        " + line for line in _draw_lines(fetch=False)),
        "        ch.x, k = divmod(cx, 2)",
        "        lo = m2 & -m2",
        "        m2 = m2 ^ lo if k else lo",  # the card taken: then as a single match
        "        after ^= m2",
        "        got |= m2 | (1 << d)",
        "        fed |= m2",
    ]
    body = [
        "hand = hands[p]",
        *legal,
        *(
            []
            if uniform
            else [
                "action = choose[p](legal, field_, captured[p], made_value[p])",
                "if action not in legal:",
                "    handover = action  # play_plain names the fault",
                "    break",
            ]
        ),
        "b = action & 63",
        "bit = 1 << b",
        "fed = field_ & months[b]",
        "if fed:",
        f"    if action >> {TARGET_SHIFT}:  # one of two, chosen",
        f"        fed = 1 << ((action >> {TARGET_SHIFT}) - 1)",
        "    after = field_ ^ fed",
        "    got = fed | bit",
        "else:",
        "    after = field_ | bit",
        "    got = 0",
        *[line[4:] for line in feed],
        "if stock:",
        "    d = stock.pop()",
        "    m2 = after & months[d]",
        "    if not m2:",
        "        after |= 1 << d",
        *(take_here if uniform else take_later),
        "    else:",
        "        after ^= m2",
        "        got |= m2 | (1 << d)",
        "        fed |= m2",
        "if got:",
        "    x = captured[p] | got",
        *check,
        "    captured[p] = x",
        "hands[p] = hand ^ bit",
        *played,
        "field_ = after",
        "nxt, s = ring[pos]",
        "if not hands[s]:  # play_plain's next_turn: the next holder, or the count",
        "    r.turn_got = got",
        "    r.fed_this_turn = fed",
        "    break",
        "pos = nxt",
        "turn += 1",
        "p = s",
    ]
    lines = [
        "def turns(r, choose):",
        "    ctx = None",  # what the match's tests of the round read: none in a plain turn
        "    months = r.months",
        "    hands = r.hands",
        "    captured = r.captured",
        *(["    feeders = r.feeders"] if track else []),
        "    while r.phase == PLAY:",
        "        stock = r.stock",
        "        order = r.order",
        # by position in the order: (the next position, its seat)
        "        ring = [*zip(range(1, len(order)), order[1:]), (0, order[0])]",
        "        forfeited = r.forfeited",
        "        hits = r.hits",
        "        made_value = r.made_value",
        "        field_ = r.field",
        "        p = r.current",
        "        pos = r.pos",
        "        turn = r.turn",
        "        handover = None",
        "        done = False",  # the turn's effects are written (a take, a yaku check)
        "        cards = [None] * len(hands)",
        "        while True:",
        *("            " + line for line in body),
        "        if done:",
        "            if r.phase == PLAY:",
        "                advance(r)",
        "            continue",
        "        r.field = field_",
        "        r.pos = pos",
        "        r.current = p",
        "        r.turn = turn",
        "        if handover is None:",
        "            next_turn(r)",
        "        else:",
        "            play_plain(r, handover)",
    ]
    result: Callable[[Any, Any], None] = _compile("\n".join(lines), namespace, "turns")
    return result


def _draw_lines(fetch: bool = True) -> list[str]:
    """Chance.below's first half for the seat `p` playing (its chance `ch`, fetched unless the
    turn has it already), into `cx` (the caller divides): the next block when fewer than 64
    bits are left."""
    return [
        *(["ch = choose[p]"] if fetch else []),
        "cx = ch.x",
        f"if cx < {REFILL}:",
        "    ch.block = blk = sha512(ch.block).digest()",
        '    cx = from_bytes(blk, "big")',
    ]


# the locals a table's match statements may set when written into the turn loop (the hits `h`,
# the pile's card count `xc`, the month lanes `a` and `c`, month counts `mc` and `n0`...`n9`):
# none is a name the loop uses
_MATCH_LOCALS = frozenset({"h", "xc", "a", "c", "mc", *(f"n{k}" for k in range(10))})


def _check_written_in(statements: list[str]) -> None:
    """Refuse match statements that would set a local of the turn loop."""
    tree = ast.parse("def f(x, ctx):\n" + "\n".join(statements) + "\n    return h")
    stored = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    if not stored <= _MATCH_LOCALS:
        raise AssertionError(f"match statements set {sorted(stored - _MATCH_LOCALS)}")
