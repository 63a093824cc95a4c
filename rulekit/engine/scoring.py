"""The round's end as one scoring stage: an ordered list of steps (CompiledRules.stage) run
through STEPS, a table keyed by the step's IR type: the count first (count-time entries, then
the card count by the rule file's method: par, difference, points, round wins, none), the fold
fees, then the rule file's own steps (awards; factors are applied by the ledger as it writes
each payment); then the next dealer.

Each IR option maps to a handler in a table below (STEPS, METHODS, TIES, TEAM_CARDS); a test
checks that every option the IR allows has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekit import ir
from rulekit.engine import ledger, stage
from rulekit.engine.context import RoundView
from rulekit.engine.ledger import BANK, Amount, share
from rulekit.engine.state import DONE, RoundState

Points = dict[int, int]


class _CountContext(RoundView):
    """What the count-time entries may ask: every pile, the dealt hands (RoundView's), and,
    when an entry sees the round, the round as the player tested sees it (`look_from`)."""

    def __init__(self, r: RoundState, sees_round: bool) -> None:
        self.r = r
        self.seat = -1
        self.sees_round = sees_round
        if sees_round:
            super().__init__(r)

    def look_from(self, seat: int) -> None:
        if self.sees_round:
            super().look_from(seat)
        else:  # a card-only table: only the piles and the dealt hands are asked for
            self.seat = seat


def count(r: RoundState) -> int | None:
    """Settle the hands: count-time entries, then the card count. Returns the winner."""
    pts = r.c.points
    captured = r.captured
    points = {s: pts(captured[s]) for s in r.order}
    cancelled, special_winner = _count_entries(r)
    if cancelled:
        for p in [p for p in r.ledger if p.reason == "teyaku"]:
            ledger.record(
                r, p.payee, p.payer, p.amount, "teyaku returned", p.detail, p.multiplier, p.base
            )
        return special_winner
    return METHODS[r.rules.count.method](r, points)


def _count_entries(r: RoundState) -> tuple[bool, int | None]:
    """Pay the entries checked at the count; whether one cancels the count, and its winner."""
    table = r.c.yaku
    order = r.order
    if table is None or not table.count_bits:
        return False, None
    ctx = _CountContext(r, table.sees_round)
    look_from = ctx.look_from
    match = table.match_count
    captured = r.captured
    paid_to_dealer: set[int] = set()
    best = -1
    special_winner = None
    cancelled = False
    unpaid = _yaku_cancelled(r, ctx) if r.c.cancels_yaku else _NOTHING_CANCELLED
    for s in order:
        look_from(s)
        x = captured[s]
        hits = match(x, ctx)
        if not hits:
            continue
        for i in table.counted(hits, x):
            entry = table.entries[i]
            value = table.value(i, x)
            # to the dealer, or to who leads in his place when he sits the round out
            payee = order[0] if entry.paid_to_dealer else s
            if entry.paid_to_dealer:
                if i in paid_to_dealer:
                    continue
                paid_to_dealer.add(i)
            r.yaku_made.setdefault(payee, []).append(entry.name)
            if not unpaid(s):  # (a yaku that cancels yaku: listed as made, not paid)
                flat = value if entry.flat else 0
                ledger.pay_parts(r, order, payee, value, flat, "special", entry.name, table.split)
            if entry.cancels:
                cancelled = True
                if value > best:
                    best, special_winner = value, payee
    return cancelled, special_winner


def _yaku_cancelled(r: RoundState, ctx: _CountContext) -> Callable[[int], bool]:
    """Whose entries decided at the count go unpaid: the makers of a yaku that cancels every
    yaku, or the others' (ir.Yaku.cancels_yaku; `all` over `others`)."""
    table = r.c.yaku
    assert table is not None
    mode = "none"
    holders: set[int] = set()
    for s in r.order:
        ctx.look_from(s)
        x = r.captured[s]
        for i in table.counted(table.match_count(x, ctx), x):
            kind = table.entries[i].cancels_yaku
            if kind == "all":
                mode = "all"
            elif kind == "others":
                holders.add(s)
                if mode == "none":
                    mode = "others"
    return lambda s: CANCELS_YAKU[mode](holders, s)


def _nothing_cancelled(s: int) -> bool:
    return False


_NOTHING_CANCELLED = _nothing_cancelled


def _par(r: RoundState, points: Points) -> int | None:
    """Points over par, paid between the players (zero-sum)."""
    order = r.order
    par = r.rules.count.par_for(r.seated)
    scores = {}
    negatives = []
    positives = []
    best = order[0]  # the highest score, the first in play order on a tie
    for s in order:
        score = scores[s] = points[s] - par
        if score < 0:
            negatives.append(s)
        elif score > 0:
            positives.append(s)
        if score > scores[best]:
            best = s
    if len(negatives) == 1:
        loser = negatives[0]
        for s in positives:
            ledger.pay(r, loser, s, scores[s], "count", f"{points[loser]}/{points[s]} points")
    elif len(positives) == 1:
        top = positives[0]
        for s in negatives:
            ledger.pay(r, s, top, -scores[s], "count", f"{points[s]}/{points[top]} points")
    else:
        _settle_greedy(r, scores, par)
    return best


def _settle_greedy(r: RoundState, scores: dict[int, int], par: int) -> None:
    """More than one player on each side (4+ players): largest debts to largest credits."""
    debts = sorted(((-v, s) for s, v in scores.items() if v < 0), reverse=True)
    credits = sorted(((v, s) for s, v in scores.items() if v > 0), reverse=True)
    di = ci = 0
    debt = [d for d, _ in debts]
    credit = [c for c, _ in credits]
    while di < len(debts) and ci < len(credits):
        amount = min(debt[di], credit[ci])
        payer, payee = debts[di][1], credits[ci][1]
        detail = f"{scores[payer] + par}/{scores[payee] + par} points"
        ledger.pay(r, payer, payee, amount, "count", detail)
        debt[di] -= amount
        credit[ci] -= amount
        di += debt[di] == 0
        ci += credit[ci] == 0


def _difference(r: RoundState, points: Points) -> int | None:
    """Two players: the one behind pays the difference."""
    order = r.order
    a, b = order[0], order[-1]
    diff = points[a] - points[b]
    if diff > 0:
        ledger.pay(r, b, a, diff, "count", f"{points[b]}/{points[a]} points")
    elif diff < 0:
        ledger.pay(r, a, b, -diff, "count", f"{points[a]}/{points[b]} points")
    return max(order, key=lambda s: (points[s], -order.index(s)))


def _per_points(r: RoundState, points: Points) -> int | None:
    """Each player's card points in full steps (`1 per 10 points`: a remainder counts nothing),
    scored against the bank, or (`paid by each other player`) paid him by each other player:
    each two settle the difference of their steps, the one behind paying, in play order. The
    most card points win the round, the first in play order on a tie."""
    spec = r.rules.count
    order = r.order
    steps = {s: spec.step_value * (points[s] // spec.step_points) for s in order}
    if spec.round_paid == "others":
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                payer, payee = (b, a) if steps[a] > steps[b] else (a, b)
                said = f"{points[payer]}/{points[payee]} points"
                ledger.pay(r, payer, payee, abs(steps[a] - steps[b]), "count", said)
    else:
        for s in order:
            if steps[s]:
                ledger.record(r, BANK, s, steps[s], "cards")
    return max(order, key=lambda s: (points[s], -order.index(s)))


def _points(r: RoundState, points: Points) -> int | None:
    return _score(r, points, round_wins=False)


def _round_wins(r: RoundState, points: Points) -> int | None:
    return _score(r, points, round_wins=True)


def _no_count(r: RoundState, points: Points) -> int | None:
    return None


def _score(r: RoundState, points: Points, round_wins: bool) -> int | None:
    """Score-style count: each seat scores its card points; each yaku made is scored for its
    maker (`each yaku scores for its maker`) and costs every opposing player (or team, shared
    by its members) its value (`opponents lose each yaku`). With round wins, only the
    winning side scores: one round each."""
    spec = r.rules.count
    units = r.teams or [[s] for s in r.order]
    net: dict[int, Amount] = dict(points)
    charges: list[tuple[int, Amount, str]] = []
    made = [0] * len(units)  # each side's yaku points (round wins by yaku points)
    table = r.c.yaku
    if table is not None:
        for u, (maker, i, value) in _unit_yaku(r, units):
            made[u] += value
            name = table.names[i]
            if name not in r.yaku_made.get(maker, ()):  # made by the count's collection
                r.yaku_made.setdefault(maker, []).append(name)
            if spec.makers_score:  # scored for its maker against the bank
                charges.append((-1 - maker, value, name))
                net[maker] += value
            if not spec.opponents_lose:
                continue
            opponents = [m for v, m in enumerate(units) if v != u]
            # each opposing side pays the value; a split table shares it between them
            per_side = share(value, len(opponents)) if table.split else value
            for members in opponents:
                each = share(per_side, len(members))
                for m in members:
                    charges.append((m, each, name))
                    net[m] -= each
    totals: list[Any] = [sum(net[m] for m in members) for members in units]
    if round_wins and spec.round_by:
        totals = [_ranking(r, members, made[u], points) for u, members in enumerate(units)]
    best = max(
        range(len(units)),
        key=lambda u: (totals[u], -min(r.order.index(m) for m in units[u])),
    )
    at_once = r.won_at_once
    if at_once is not None:  # a yaku won the round at once: its maker's side has it
        best = next(u for u, members in enumerate(units) if at_once in members)
    elif TIES[spec.tie](totals, best):
        if not round_wins:
            _score_cards(r, points, charges)
        return None
    r.winners = sorted(units[best], key=r.order.index)
    if round_wins:
        ROUND_PAID[spec.round_paid](r)
    else:
        _score_cards(r, points, charges)
    return r.winners[0]


def _ranking(r: RoundState, members: list[int], made: int, points: Points) -> tuple[int, ...]:
    """A side's criteria for `count: round wins by ...`, in the order written: compared in
    turn, the next breaking a tie of the one before."""
    return tuple(ROUND_KEYS[k.key](r, members, k, made, points) for k in r.rules.count.round_by)


def _key_cards(r: RoundState, members: list[int], k: ir.RoundKey, made: int, p: Points) -> int:
    """How many of the criterion's cards the side holds (a card listed N times: N each)."""
    masks = r.c.round_key_masks.get(k.cards)
    if masks is None:
        masks = r.c.round_key_masks[k.cards] = key_masks(r.c.index.mask, k.cards)
    pile = 0
    for m in members:
        pile |= r.captured[m]
    return sum((pile & mask).bit_count() for mask in masks)


def key_masks(mask: Callable[[list[int]], int], cards: tuple[int, ...]) -> list[int]:
    """The criterion's cards as masks: the n-th holds the cards listed more than n times."""
    out: list[int] = []
    left = list(cards)
    while left:
        once = sorted(set(left))
        out.append(mask(once))
        for c in once:
            left.remove(c)
    return out


def _round_won_of_bank(r: RoundState) -> None:
    """Each winner scores the round against the bank."""
    for m in r.winners:
        ledger.record(r, BANK, m, 1, "round won")


def _round_won_of_others(r: RoundState) -> None:
    """Each winner is paid one by each player of the round outside the winning side, in play
    order (`count: round wins; ...; paid by each other player`)."""
    for m in r.winners:
        for q in r.order:
            if q not in r.winners:
                ledger.record(r, q, m, 1, "round won")


def _score_cards(r: RoundState, points: Points, charges: list[tuple[int, Amount, str]]) -> None:
    for s in r.order:
        if points[s]:
            ledger.record(r, BANK, s, points[s], "cards")
    for m, each, name in charges:  # (m < 0: a yaku scored for its maker, -1 - m)
        if m < 0:
            ledger.record(r, BANK, -1 - m, each, "yaku", name)
        else:
            ledger.record(r, m, BANK, each, "yaku", name)


def _unit_yaku(r: RoundState, units: list[list[int]]) -> list[tuple[int, tuple[int, int, int]]]:
    """Each side's yaku at the count, as (side, (maker, entry, value)): made from each
    member's pile, or from the side's piles together (the maker is then the member who
    holds most of its cards, the first in play order on a tie)."""
    table = r.c.yaku
    assert table is not None
    piles_of = TEAM_CARDS[r.rules.count.team_cards]
    ctx = RoundView(r) if table.sees_round else None
    out = []
    for u, members in enumerate(units):
        for seat, x in piles_of(r, members):
            if ctx is not None:
                ctx.look_from(seat if seat >= 0 else members[0])  # a pooled side: its first
            for i in table.counted(table.match_play(x, ctx), x):
                maker = seat
                if maker < 0:
                    cards = r.c.yaku_cards[i]
                    maker = max(
                        members,
                        key=lambda m: ((r.captured[m] & cards).bit_count(), -r.order.index(m)),
                    )
                out.append((u, (maker, i, table.value(i, x))))
    return out


def _piles_apart(r: RoundState, members: list[int]) -> list[tuple[int, int]]:
    return [(m, r.captured[m]) for m in members]


def _piles_pooled(r: RoundState, members: list[int]) -> list[tuple[int, int]]:
    """A team's piles together (maker -1: found per yaku); a side of one keeps its pile."""
    if len(members) == 1:
        return _piles_apart(r, members)
    together = 0
    for m in members:
        together |= r.captured[m]
    return [(-1, together)]


class RoundEnd:
    """The round's end as the stage decides it: the winner so far, whether the hands are
    counted."""

    __slots__ = ("counted", "winner")

    def __init__(self, winner: int | None, counted: bool) -> None:
        self.winner = winner
        self.counted = counted


def finish(r: RoundState, winner: int | None, counted: bool = False) -> None:
    """The round is over (its winner so far: `winner`): the scoring stage runs its steps in
    order (the count when `counted`, which names the winner if nobody has won yet; the fold
    fees; the rule file's awards), then the next dealer."""
    end = RoundEnd(winner, counted)
    run = r.c.stage_run
    if run is None:  # the stage's handlers, once per rule file (a factor's step does nothing here)
        run = r.c.stage_run = [
            (STEPS[type(step)], step) for step in r.c.stage if not isinstance(step, ir.Factor)
        ]
    for handler, step in run:
        handler(r, step, end)
    length = r.rules.length
    if length.rotate or (r.winner is None and not length.drawn_keeps_dealer):
        r.next_dealer = (r.dealer + 1) % r.seated
    elif r.winner is not None and length.winner_deals:
        r.next_dealer = r.winner
    r.phase = DONE


def _count_step(r: RoundState, step: object, end: RoundEnd) -> None:
    """The count (when the hands are counted), then the winner is final."""
    if end.counted and r.c.draw_at_count is not None and drawn_at_count(r):
        ledger.void(r)  # every payment of the round undone; no count, nobody wins
        end.winner = None
    elif end.counted:
        count_winner = count(r)
        if end.winner is None:
            end.winner = count_winner
    WINNERS[r.rules.count.winner](r, end)
    r.winner = end.winner
    if not r.winners and end.winner is not None:
        r.winners = [end.winner]


def drawn_at_count(r: RoundState) -> bool:
    """Whether a player of the round makes the round a draw when the hands are counted (`the
    round is a draw if a player has ...`), tested on his captured pile with the round as he
    sees it, in play order."""
    test = r.c.draw_at_count
    assert test is not None
    ctx = RoundView(r)
    for s in r.order:
        ctx.look_from(s)
        if test(r.captured[s], ctx):
            return True
    return False


def _best_net(r: RoundState, end: RoundEnd) -> None:
    """The best net of the round so far wins it (yaku, teyaku and the count; the fold fees and
    awards follow, to him): the first in play order from the dealer on a tie; when every
    player's net is the same (nobody paid another), the winner stands."""
    nets = ledger.net(r.ledger, r.seated)
    players = [
        s % r.seated for s in range(r.dealer, r.dealer + r.seated) if not r.folded[s % r.seated]
    ]
    best = players[0]
    for s in players:
        if nets[s] > nets[best]:
            best = s
    if any(nets[s] != nets[best] for s in players):
        end.winner = best
        r.winners = [best]


def _fold_step(r: RoundState, step: object, end: RoundEnd) -> None:
    """The fold fees: to the payees the rule file names, shared between them; then what a
    declaration is paid by those who folded after it."""
    if r.declare_payers:
        _declaration_payments(r)
    if r.declared and r.c.declared_stakes:
        _declaration_stakes(r)
    fold = r.rules.fold
    for payer, base, voluntary in r.fold_fees:
        reason = "fold fee" if voluntary else "forced fold"
        mult = r.multiplier if fold.times_multiplier else 1
        payees = [q for q in FEE_PAYEES[fold.payee](r, r.winner) if q != payer]
        for payee in payees:
            each = share(base, len(payees))
            ledger.record(r, payer, payee, each * mult, reason, "", mult, each)
    if r.compensations:
        _compensations(r)


def _compensations(r: RoundState) -> None:
    """Each player forced to fold, in the order they folded, is paid his hand's compensation
    (setup.compensation) by each payer of ir.Compensation.payers, in play order; flat."""
    comp = r.rules.compensation
    assert comp is not None
    payers = [q for q in r.order if COMPENSATION_PAYERS[comp.payers](r, q)]
    for folder, amount in r.compensations:
        for payer in payers:
            ledger.record(r, payer, folder, amount, "compensation", "", 1, amount)


# ir.Compensation.payers -> whether a player of the round pays a forced folder's compensation
COMPENSATION_PAYERS: dict[str, Callable[[RoundState, int], bool]] = {
    "players": lambda r, q: True,
    "non_dealers": lambda r, q: q != r.dealer,
}


def _declaration_payments(r: RoundState) -> None:
    """Each player who folded by choice after the declaration pays the declarer its stake
    (ir.Declaration.from_each_folder), unless the declarer folded himself."""
    d = r.rules.declarations[0]
    if not d.from_each_folder or r.folded[r.declarer]:
        return
    mult = r.multiplier if d.times_multiplier else 1
    name = d.label or d.name
    for payer in r.declare_payers:
        ledger.record(r, payer, r.declarer, d.from_each_folder * mult, "declaration", name, mult,
                      d.from_each_folder)  # fmt: skip


def _declaration_stakes(r: RoundState) -> None:
    """Each who made the declaration, in play order: if he did what it asks (ir.Declaration
    .success; always, when it asks nothing) each other player of the round pays him its award;
    if not, he pays each of them its penalty."""
    d = r.rules.declarations[0]
    mult = r.multiplier if d.times_multiplier else 1
    name = d.label or d.name
    succeeded = SUCCESS[d.success]
    for s in r.order:
        if not r.declared >> s & 1:
            continue
        ok = succeeded(r, s)
        amount = d.award if ok else d.penalty
        if not amount:
            continue
        for q in r.order:
            if q != s:
                payer, payee = (q, s) if ok else (s, q)
                ledger.record(r, payer, payee, amount * mult, "declaration", name, mult, amount)


# ir.Declaration.success -> whether the one who made it did what it asks
SUCCESS: dict[str, Callable[[RoundState, int], bool]] = {
    "none": lambda r, s: True,
    "wins": lambda r, s: s in r.winners,
    "yaku": lambda r, s: bool(r.yaku_made.get(s)),
}


def _award_step(r: RoundState, step: object, end: RoundEnd) -> None:
    """An award, once the round's winner is final: to its payee from each other player of the
    round, or split between them; flat unless multiplied by the field."""
    assert isinstance(step, ir.Award)
    if step.seats is not None and step.seats != r.seated:
        return  # paid only at another table size
    payee = stage.AWARD_PAYEES[step.payee](r)
    if payee is None:
        return
    test = next(t for s, t in r.c.scoring if s is step)
    if not stage.holds(test, r, payee, step.value, ended=True):
        return
    others = [q for q in r.order if q != payee]
    mult = r.multiplier if step.multiplied else 1
    amount = step.value * mult
    each = share(amount, len(others)) if step.split and others else amount
    for q in others:
        ledger.record(r, q, payee, each, "award", step.name, mult, step.value)


def _factor_step(r: RoundState, step: object, end: RoundEnd) -> None:
    """Nothing at the round's end: the ledger applies a factor to each payment it names."""


# the scoring stage's step types -> their handlers, run in the stage's order (a test checks
# that every IR step type has one)
STEPS: dict[type, Callable[[RoundState, object, RoundEnd], None]] = {
    ir.Settlement: _count_step,
    ir.Fold: _fold_step,
    ir.Award: _award_step,
    ir.Factor: _factor_step,
}
# ir.Fold.payee -> who takes a fold fee (shared between them): the round winner (none on a
# drawn round), the players of the round, the dealer (whoever he is, folded or not), the bank
FEE_PAYEES: dict[str, Callable[[RoundState, int | None], list[int]]] = {
    "winner": lambda r, winner: [] if winner is None else [winner],
    "active": lambda r, winner: list(r.order),
    "dealer": lambda r, winner: [r.dealer],
    "bank": lambda r, winner: [BANK],
}
# ir.Settlement.method -> the count
METHODS: dict[str, Callable[[RoundState, Points], int | None]] = {
    "par": _par,
    "difference": _difference,
    "points": _points,
    "round_wins": _round_wins,
    "none": _no_count,
    "per_points": _per_points,
}
# ir.Settlement.tie -> whether the best score, tied, draws the round
TIES: dict[str, Callable[[list[Amount], int], bool]] = {
    "first": lambda totals, best: False,
    "draw": lambda totals, best: totals.count(totals[best]) > 1,
}
# ir.Settlement.winner -> who wins the round, once counted (the count's or the yaku's stands)
WINNERS: dict[str, Callable[[RoundState, RoundEnd], None]] = {
    "count": lambda r, end: None,
    "net": _best_net,
}
# ir.Yaku.cancels_yaku -> whether a maker's entries decided at the count go unpaid, given the
# makers of the entries that cancel the others'
CANCELS_YAKU: dict[str, Callable[[set[int], int], bool]] = {
    "none": lambda holders, s: False,
    "all": lambda holders, s: True,
    "others": lambda holders, s: s not in holders,
}
# ir.Settlement.round_paid -> who pays a round won: the bank, or each other player
ROUND_PAID: dict[str, Callable[[RoundState], None]] = {
    "bank": _round_won_of_bank,
    "others": _round_won_of_others,
}
# ir.RoundKey.key -> a side's value for one criterion of `count: round wins by ...` (its
# yaku points at the count, its card points, how many of the criterion's cards it holds)
ROUND_KEYS: dict[str, Callable[[RoundState, list[int], ir.RoundKey, int, Points], int]] = {
    "yaku": lambda r, members, k, made, points: made,
    "points": lambda r, members, k, made, points: sum(points[m] for m in members),
    "cards": _key_cards,
}
# ir.Settlement.team_cards -> the piles a side's yaku are made from
TEAM_CARDS: dict[str, Callable[[RoundState, list[int]], list[tuple[int, int]]]] = {
    "apart": _piles_apart,
    "pooled": _piles_pooled,
}
