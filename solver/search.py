"""Best score for a fixed sequence of hands by exhaustive search (the baseline engine).

The puzzle form of ``sushigo best``: hands H1..Hk are given; on turn t the
player takes one card from Ht, or two with a chopsticks card taken on an
earlier turn (the turn rules of :mod:`spec.turns`, read from the ruleset). The
score is the round score of the final tableau, maki ranked against fixed
opponent icon totals.

The search is a dynamic programme over turns. What later turns can add to
the score depends on little of the tableau: tempura and sashimi only modulo
their set sizes, dumplings only up to the end of the point table, maki only
up to one icon above the best opponent, plus the free wasabi and the
chopsticks. Nigiri and completed sets are banked as points when taken. The
memo key is that reduced state, so puzzles of ten hands take milliseconds.

This module also holds what both engines share: the :class:`Puzzle` and
:class:`BestResult` values, puzzle parsing and validation, and the replay
that re-scores any answer with :mod:`spec.scoring` before it is shown.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.solver.reduce import reduce_tableau
from sushigo.spec.answer import Answer, BestStatus
from sushigo.spec.cards import MAKI, NIGIRI, Card, Token, parse_card
from sushigo.spec.document import check_format
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.kinds import KINDS, tokens_of
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points
from sushigo.spec.turns import Turn, apply_turn, format_turn, turn_effects

N_CARDS = len(Card)
N_TOKENS = len(Token)
_T, _S, _D = int(Token.TEMPURA), int(Token.SASHIMI), int(Token.DUMPLING)
_W, _CHOP = int(Token.WASABI), int(Token.CHOPSTICKS)
_NIGIRI = tuple(int(c) for c in NIGIRI)
#: The tokens whose points are banked as soon as they are taken (per-card kinds and their stacks:
#: CardKind.keep() == "banked"); the state keeps nothing of them.
_BANKED = frozenset(i for i, t in enumerate(tokens_of(KINDS)) if KINDS[t.cards[-1]].keep() == "banked")

STATUS_OPTIMAL: Final = "optimal"
STATUS_UNKNOWN: Final = "unknown"
#: Optional format tags of the puzzle and hindsight-round documents (older ones have none).
PUZZLE_FORMAT = "sushigo-puzzle/1"
HINDSIGHT_FORMAT = "sushigo-hindsight/1"


@dataclass(frozen=True)
class Puzzle:
    """A fixed sequence of hands (12 counts each, by :class:`Card`) and the opponents' maki icons."""

    hands: tuple[tuple[int, ...], ...]
    opponents_maki: tuple[int, ...] = ()
    rules: Ruleset = OFFICIAL

    @property
    def turns(self) -> int:
        return len(self.hands)


@dataclass(frozen=True)
class BestResult(Answer[BestStatus]):
    """An answer: ``optimal`` (the score is proved the maximum) or ``unknown`` (best found so far)."""

    score: int
    picks: tuple[Turn, ...]
    status: BestStatus
    engine: str
    seconds: float
    budget: float | None = None  # seconds allowed, for ``unknown``
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # extra JSON fields (hindsight: "actual")
    stats: dict[str, int] = field(default_factory=dict)  # engine statistics, never in the JSON

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "score": self.score,
            "picks": [format_turn(t) for t in self.picks],
            "status": self.status,
        }
        if self.status != STATUS_OPTIMAL:
            out["reason"] = self.reason
            out["budget_seconds"] = self.budget
        out.update(self.extra)
        return out


# --- parsing and validation -------------------------------------------------------------


def hand_from_json(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where} must be a list of card names like [\"tempura\", \"squid\"], got {value!r}")
    if not value:
        raise InputError(f"{where} is empty; every hand holds at least one card")
    counts = [0] * N_CARDS
    for name in value:
        counts[int(parse_card(name))] += 1
    return tuple(counts)


def check_deck(hands: Sequence[Sequence[int]], rules: Ruleset, what: str = "the hands") -> None:
    """Every card kind within the deck's copies, counted over all ``hands`` (R-DECK)."""
    for c in Card:
        n = sum(h[int(c)] for h in hands)
        if n > rules.copies(c):
            raise InputError(
                f"{what} hold {n} {c.label} cards but the deck has only {rules.copies(c)}; "
                "remove some"
            )


def opponents_from_json(value: object) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f'"opponents_maki" must be a list of icon totals like [3, 5], got {value!r}')
    if any(v < 0 for v in value):
        raise InputError(f'"opponents_maki" totals cannot be negative, got {value!r}')
    return tuple(value)


def parse_puzzle(data: object, rules: Ruleset) -> Puzzle:
    """A puzzle from its JSON form ``{"rules", "hands", "opponents_maki"}`` (rules already resolved)."""
    if not isinstance(data, dict):
        raise InputError(f'a puzzle is a JSON object with "hands", got {type(data).__name__}')
    unknown = set(data) - {"format", "rules", "hands", "opponents_maki"}
    if unknown:
        raise InputError(
            f"unknown puzzle field(s) {', '.join(sorted(map(repr, unknown)))}; "
            'expected "rules", "hands", "opponents_maki"'
        )
    check_format(data, PUZZLE_FORMAT, "puzzle")
    raw = data.get("hands")
    if not isinstance(raw, list) or not raw:
        raise InputError(f'"hands" must be a non-empty list of hands (lists of card names), got {raw!r}')
    hands = tuple(hand_from_json(h, f"hand {i + 1}") for i, h in enumerate(raw))
    check_deck(hands, rules)
    opponents = opponents_from_json(data.get("opponents_maki"))
    if len(opponents) >= rules.max_players:
        raise InputError(
            f'"opponents_maki" lists {len(opponents)} opponents, but Sushi Go! seats at most '
            f"{rules.max_players} players (you and {rules.max_players - 1} others)"
        )
    # Every icon an opponent holds is on a maki card of the deck: more is no position (and a total
    # like 10**400 would have the search tabulate maki points up to it).
    icons = sum(rules.copies(c) * n for c, n in zip(MAKI, rules.maki_icons, strict=True))
    if sum(opponents) > icons:
        raise InputError(
            f'"opponents_maki" totals add up to {sum(opponents)} icons, but the deck\'s maki cards '
            f"hold {icons} in all; give each opponent's icons in their tableau (at most {icons})"
        )
    return Puzzle(hands, opponents, rules)


# --- replay: the check every answer passes before it is shown ------------------------------


def tableau_score(tableau: Sequence[int], opponents_maki: Sequence[int], rules: Ruleset) -> int:
    """Round score of one tableau (15 token counts), maki ranked against the opponents' icons."""
    icons = [maki_icons(tableau, rules), *opponents_maki]
    return sum(dish_points(tableau, rules)) + maki_points(icons, rules)[0]


def replay_puzzle(puzzle: Puzzle, picks: Sequence[Turn]) -> list[int]:
    """Play ``picks`` through :mod:`spec.turns`; the running score after each turn.

    Raises IllegalMoveError naming the turn if a pick breaks a rule.
    """
    if len(picks) != puzzle.turns:
        raise IllegalMoveError(f"{len(picks)} turns of picks for {puzzle.turns} hands")
    tableau = [0] * N_TOKENS
    running = []
    for t, (hand, turn) in enumerate(zip(puzzle.hands, picks, strict=True)):
        try:
            apply_turn(list(hand), tableau, turn, puzzle.rules)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"turn {t + 1}: {exc}") from exc
        running.append(tableau_score(tableau, puzzle.opponents_maki, puzzle.rules))
    return running


# --- the dynamic programme ------------------------------------------------------------------

# The reduced state: (tempura mod set, sashimi mod set, dumplings up to the table's end,
# free wasabi, chopsticks in the tableau, maki icons up to one above the best opponent).
State = tuple[int, int, int, int, int, int]
# A move as the state sees it: (turn, tempura, sashimi, dumplings, wasabi, chopsticks, icons added,
# per-card points banked (nigiri, a stack, any per-card kind), cards that leave the hand net of a
# chopsticks card put back).
Move = tuple[Turn, int, int, int, int, int, int, int, tuple[int, ...]]
Deltas = tuple[tuple[int, ...], ...]  # per pile: the cards the player has taken from it so far


class MoveTable:
    """The legal moves per (hand, free wasabi up to 2, chopsticks ready), built once from
    :func:`spec.turns.turn_effects` (a turn reads no more of the tableau than that).

    Each move is resolved once into count changes, so a node of the search adds integers and builds no
    :class:`Pick` or :class:`Token`. The moves keep the order of :func:`legal_turns` (with its
    de-duplication), so ties between equal lines are broken as before.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.table: dict[tuple[tuple[int, ...], int, bool], list[Move]] = {}

    def moves(self, hand: tuple[int, ...], wasabi: int, chop: int) -> list[Move]:
        key = (hand, min(wasabi, 2), chop > 0)
        hit = self.table.get(key)
        if hit is None:
            hit = self.table[key] = self._build(hand, key[1], key[2])
        return hit

    def _build(self, hand: tuple[int, ...], wasabi: int, chop: bool) -> list[Move]:
        rules = self.rules
        out: list[Move] = []
        for turn, left, delta in turn_effects(hand, chop, wasabi, rules):
            taken = tuple(h - x for h, x in zip(hand, left, strict=True))
            banked = [n if i in _BANKED else 0 for i, n in enumerate(delta)]
            out.append((turn, delta[_T], delta[_S], delta[_D], delta[_W], delta[_CHOP],
                        maki_icons(delta, rules), sum(dish_points(banked, rules)), taken))
        return out


@dataclass(frozen=True)
class TurnSpec:
    """What one of the player's turns is played from.

    ``pile``: which circulating hand (turns on the same pile see each other's
    picks); ``base``: its 12 card counts net of every other seat's picks and
    returned chopsticks so far; ``size``: cards in it (fixed, whatever is picked).
    """

    pile: int
    base: tuple[int, ...]
    size: int


@dataclass(frozen=True)
class OtherPick:
    """Another seat's recorded pick from ``pile`` at ``turn`` must stay possible.

    ``spare`` is how many cards of ``card`` the pile holds at that turn beyond
    what that seat takes, counting every other seat's picks but not the
    player's: the player's earlier picks from the pile may use up at most that.
    """

    turn: int
    pile: int
    card: int
    spare: int


def puzzle_turns(puzzle: Puzzle) -> list[TurnSpec]:
    """The puzzle form: every hand is its own pile."""
    return [TurnSpec(t, tuple(h), sum(h)) for t, h in enumerate(puzzle.hands)]


def search_turns(
    turns: Sequence[TurnSpec],
    opponents_maki: Sequence[int],
    rules: Ruleset,
    others: Sequence[OtherPick] = (),
    pairs: bool = True,
) -> tuple[int, list[Turn], int]:
    """(best score, picks, states) by dynamic programming.

    ``pairs=False``: the best line that never takes two cards in a turn (chopsticks are taken
    as plain cards, if at all, and never used), a legal line and so a lower bound, found over
    far fewer states (chopsticks leave the state): the Z3 engine's seed.

    State: turn, reduced tableau (:data:`State`), and what the player has taken
    from each pile that is still seen later (by the player or by a seat whose
    recorded pick must stay possible). A line that makes a recorded pick
    impossible is worth nothing (-1, below every score). The transposition
    table maps each state to its value and the index of its best move.
    """
    opps = list(opponents_maki)
    k = len(turns)
    piles = sorted({ts.pile for ts in turns} | {o.pile for o in others})
    index = {p: i for i, p in enumerate(piles)}
    # Piles worth remembering after turn t: seen again by the player or by a constrained seat.
    later: list[frozenset[int]] = []
    for t in range(k + 1):
        seen = {index[ts.pile] for ts in turns[t:]} | {index[o.pile] for o in others if o.turn >= t}
        later.append(frozenset(seen))
    pile_of = [index[ts.pile] for ts in turns]
    keep = [pile_of[t] in later[t + 1] for t in range(k)]  # must this turn's picks be remembered?
    static = not any(keep)  # the puzzle form: no pile is seen twice, the picks per pile stay zero
    checks: dict[int, list[OtherPick]] = {}
    for o in others:
        checks.setdefault(o.turn, []).append(o)
    zero = (0,) * N_CARDS
    table = MoveTable(rules)
    t_set, t_pts = rules.tempura_set, rules.tempura_points
    s_set, s_pts = rules.sashimi_set, rules.sashimi_points
    d_cap = len(rules.dumpling_points) - 1
    # One icon above the best opponent already beats everyone; more changes nothing.
    i_cap = max(opps, default=0) + 1
    # Dumplings below the cap are not banked (a later one could still raise them): scored at the end.
    dumpling = KINDS[_D].scoring  # the dumpling kind's description, read under these rules
    final = [[dumpling.score(d, rules) + maki_points([i, *opps], rules)[0] for i in range(i_cap + 1)]
             for d in range(d_cap + 1)]
    bases = [spec.base for spec in turns]
    memo: dict[tuple[Any, ...], tuple[int, int]] = {}

    checked = [bool(checks.get(t)) for t in range(k + 1)]
    # What the turns from u on can still change: a count with no more cards of its kind to come
    # is forgotten (tempura and sashimi leftovers score nothing), or banked (dumplings, maki);
    # free wasabi beyond the nigiri to come and chopsticks beyond the two-card turns are spare.
    future = [[0] * N_CARDS for _ in range(k + 1)]
    turns_of_two = [0] * (k + 1)
    for u in range(k - 1, -1, -1):
        future[u] = [f + max(b, 0) for f, b in zip(future[u + 1], bases[u], strict=True)]
        turns_of_two[u] = turns_of_two[u + 1] + (turns[u].size >= 2)
    icon_cards = [int(c) for c, n in zip(MAKI, rules.maki_icons, strict=True) if n > 0]
    more_t = [f[_T] > 0 for f in future]
    more_s = [f[_S] > 0 for f in future]
    more_d = [f[_D] > 0 for f in future]
    more_m = [any(f[c] for c in icon_cards) for f in future]
    w_cap = [sum(f[c] for c in _NIGIRI) for f in future]
    c_cap = turns_of_two if pairs else [0] * (k + 1)  # no chopsticks ready: no two-card move
    d_final = [dumpling.score(d, rules) for d in range(d_cap + 1)]
    m_final = [maki_points([i, *opps], rules)[0] for i in range(i_cap + 1)]

    def reduce(u: int, st: State) -> tuple[State, int]:
        """The state as turn ``u`` sees it, and the points banked in reducing it."""
        tm, sm, dm, w, c, im = st
        banked = 0
        if not more_d[u]:
            banked, dm = d_final[dm], 0
        if not more_m[u]:
            banked, im = banked + m_final[im], 0
        return ((tm if more_t[u] else 0), (sm if more_s[u] else 0), dm, min(w, w_cap[u]),
                min(c, c_cap[u]), im), banked

    moves_of = table.table.get

    def key_of(t: int, st: State, deltas: Deltas) -> tuple[Any, ...]:
        return (t, st) if static else (t, st, deltas)

    def value(t: int, st: State, deltas: Deltas) -> int:
        """The best the player can add from turn ``t`` on (-1: a recorded pick becomes impossible)."""
        for o in checks.get(t, ()):
            if deltas[index[o.pile]][o.card] > o.spare:
                return -1
        if t == k:
            return final[st[2]][st[5]]
        key = key_of(t, st, deltas)
        hit = memo.get(key)
        return hit[0] if hit is not None else expand(t, st, deltas, key)

    def expand(t: int, st: State, deltas: Deltas, key: tuple[Any, ...]) -> int:
        # The hot loop: children that need no check are looked up here, not called.
        pi = pile_of[t]
        mine = deltas[pi]
        hand = bases[t] if mine is zero else tuple(b - d for b, d in zip(bases[t], mine, strict=True))
        tem, sas, dum, was, chop, icons = st
        moves = moves_of((hand, was if was < 2 else 2, chop > 0)) or table.moves(hand, was, chop)
        after = deltas if static else _forget(deltas, later[t + 1], zero)
        nxt = t + 1
        direct, last, remember = not checked[nxt], nxt == k, keep[t]
        top, arg = -1, -1
        for i, (_, dt, ds, dd, dw, dc, di, gain, taken) in enumerate(moves):
            tm, sm, dm, im = tem + dt, sas + ds, dum + dd, icons + di
            if tm >= t_set:
                gain += (tm // t_set) * t_pts
                tm %= t_set
            if sm >= s_set:
                gain += (sm // s_set) * s_pts
                sm %= s_set
            if dm > d_cap:
                dm = d_cap
            if im > i_cap:
                im = i_cap
            if direct and last:
                sub = final[dm][im]
                if sub >= 0 and gain + sub > top:
                    top, arg = gain + sub, i
                continue
            # reduce() inlined: this line runs for every child of every state.
            wm, cm = was + dw, chop + dc
            if not more_d[nxt]:
                gain, dm = gain + d_final[dm], 0
            if not more_m[nxt]:
                gain, im = gain + m_final[im], 0
            new = ((tm if more_t[nxt] else 0), (sm if more_s[nxt] else 0), dm,
                   (wm if wm <= w_cap[nxt] else w_cap[nxt]), (cm if cm <= c_cap[nxt] else c_cap[nxt]), im)
            if remember:
                nd = (*after[:pi], tuple(a + b for a, b in zip(mine, taken, strict=True)), *after[pi + 1:])
            else:
                nd = after
            if not direct:
                sub = value(nxt, new, nd)
            else:
                ck = (nxt, new) if static else (nxt, new, nd)
                hit = memo.get(ck)
                sub = hit[0] if hit is not None else expand(nxt, new, nd, ck)
            if sub >= 0 and gain + sub > top:
                top, arg = gain + sub, i
        memo[key] = (top, arg)
        return top

    start: State = (0, 0, 0, 0, 0, 0)
    deltas = tuple(zero for _ in piles)
    try:
        score = value(0, start, deltas)
        picks: list[Turn] = []
        if score < 0:
            return score, picks, len(memo)
        # Follow the stored best moves, replaying each with spec.turns (independent of the move table).
        tableau, st = [0] * N_TOKENS, start
        for t in range(k):
            _, arg = memo[key_of(t, st, deltas)]
            pi = pile_of[t]
            hand = tuple(b - d for b, d in zip(bases[t], deltas[pi], strict=True))
            turn, *_, taken = table.moves(hand, st[3], st[4])[arg]
            picks.append(turn)
            apply_turn(list(hand), tableau, turn, rules)
            # The shared reducer (solver.reduce) projected on the state; the hot loop above inlines it,
            # and the memo lookup of the next turn fails if the two ever disagree.
            red, _ = reduce_tableau(tableau, rules, keep_pudding=False)
            st, _ = reduce(t + 1, (red[_T], red[_S], red[_D], red[_W], red[_CHOP],
                                   min(maki_icons(red, rules), i_cap)))
            if not static:
                after = _forget(deltas, later[t + 1], zero)
                mine = tuple(a + b for a, b in zip(deltas[pi], taken, strict=True)) if keep[t] else zero
                deltas = (*after[:pi], mine, *after[pi + 1:])
        return score, picks, len(memo)
    finally:
        # value and expand refer to each other (and expand to itself) through their closures, a
        # cycle that held the memo and the move table until the cyclic collector came by (and
        # made it walk every entry): cut here, they go now.
        value = expand = None  # type: ignore[assignment]


def _forget(deltas: Deltas, seen: frozenset[int], zero: tuple[int, ...]) -> Deltas:
    """The picks per pile, forgetting the piles nobody sees again (so equal futures share a key)."""
    return tuple(d if j in seen else zero for j, d in enumerate(deltas))


def solve_search(puzzle: Puzzle) -> BestResult:
    """The exact optimum of a puzzle by dynamic programming."""
    start = time.perf_counter()
    score, picks, states = search_turns(puzzle_turns(puzzle), puzzle.opponents_maki, puzzle.rules)
    running = replay_puzzle(puzzle, picks)
    assert running[-1] == score, f"search picks replay to {running[-1]}, not {score}"
    return BestResult(score, tuple(picks), STATUS_OPTIMAL, "search", time.perf_counter() - start,
                      stats={"states": states})


# --- form 2: a recorded round in hindsight ---------------------------------------------------


@dataclass(frozen=True)
class Hindsight:
    """A dealt round, every seat's recorded turns, and the seat asking "what could I have scored?"."""

    deal: tuple[tuple[int, ...], ...]  # dealt hand per seat, 12 counts
    picks: tuple[tuple[Turn, ...], ...]  # recorded turns per seat
    seat: int
    rules: Ruleset = OFFICIAL
    round_index: int = 0  # 0-based; sets the passing direction

    @property
    def seats(self) -> int:
        return len(self.deal)

    def pile_at(self, seat: int, t: int) -> int:
        """The dealt hand (pile) that ``seat`` holds on turn ``t``: hands move by the pass offset."""
        return (seat - t * self.rules.pass_offset(self.round_index)) % self.seats


def _turns_from_json(value: object, where: str) -> tuple[Turn, ...]:
    from sushigo.spec.turns import parse_turn

    if not isinstance(value, list):
        raise InputError(f"{where} must be a list of turns like [[\"squid\"], [\"tempura\", \"egg\"]]")
    out = []
    for t, turn in enumerate(value):
        if not isinstance(turn, list | str):
            raise InputError(f"{where}, turn {t + 1} must be a list of card names, got {turn!r}")
        out.append(parse_turn(turn))
    return tuple(out)


def make_hindsight(
    deal: Sequence[Sequence[int]], picks: Sequence[Sequence[Turn]], seat: int, rules: Ruleset,
    round_index: int = 0,
) -> Hindsight:
    """Validate shape, deck limits and the recorded play, then build the question."""
    from sushigo.spec.errors import RulesError

    if rules.dummy_2p:
        raise RulesError("dummy-2p rounds have their own hindsight: solver.best_dummy (exhaustive search)")
    n = len(deal)
    if not rules.min_players <= n <= rules.max_players:
        raise InputError(f"a round has {rules.min_players} to {rules.max_players} seats, got {n}")
    size = rules.hand_size(n)
    for i, hand in enumerate(deal):
        if sum(hand) != size:
            raise InputError(f"seat {i} was dealt {sum(hand)} cards; {n} players get {size} each")
    check_deck(deal, rules, "the deal")
    if len(picks) != n or any(len(p) != size for p in picks):
        raise InputError(f"\"picks\" must list {size} turns for each of the {n} seats")
    if not 0 <= seat < n:
        raise InputError(f"seat {seat} does not exist; seats are 0..{n - 1}")
    h = Hindsight(tuple(tuple(x) for x in deal), tuple(tuple(p) for p in picks), seat, rules, round_index)
    replay_round(h, h.picks[seat])  # the record itself must be legal
    return h


def parse_hindsight(data: dict[str, Any], rules: Ruleset) -> Hindsight:
    """``{"rules", "deal": [[cards] per seat], "picks": [[turns] per seat], "seat": k, "round": r}``."""
    check_format(data, HINDSIGHT_FORMAT, "round")
    deal_raw = data.get("deal")
    if not isinstance(deal_raw, list) or not deal_raw:
        raise InputError('"deal" must be a list of dealt hands, one list of card names per seat')
    deal = [hand_from_json(h, f"deal of seat {i}") for i, h in enumerate(deal_raw)]
    picks_raw = data.get("picks")
    if not isinstance(picks_raw, list):
        raise InputError('"picks" must list each seat\'s turns: [[["squid"], ...], ...]')
    picks = [_turns_from_json(p, f"picks of seat {i}") for i, p in enumerate(picks_raw)]
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InputError(f'"seat" must be a seat number (0-based), got {seat!r}')
    rnd = data.get("round", 1)
    if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
        raise InputError(f'"round" must be a round number from 1, got {rnd!r}')
    return make_hindsight(deal, picks, seat, rules, rnd - 1)


def hindsight_from_record(data: dict[str, Any], round_number: int, seat: int, rules: Ruleset) -> Hindsight:
    """One round of a game record (format sushigo-record/1); ``round_number`` counts from 1."""
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InputError('the game record has no "rounds"')
    if not 1 <= round_number <= len(rounds):
        raise InputError(f"--round {round_number}: the record has rounds 1..{len(rounds)}")
    rnd = rounds[round_number - 1]
    if not isinstance(rnd, dict) or "hands" not in rnd or "turns" not in rnd:
        raise InputError(f'round {round_number} of the record needs "hands" and "turns"')
    hands = rnd["hands"]
    if not isinstance(hands, list):
        raise InputError(f'round {round_number}: "hands" must be a list of hands')
    deal = [hand_from_json(h, f"round {round_number}, hand of seat {i}") for i, h in enumerate(hands)]
    turns = rnd["turns"]
    if not isinstance(turns, list) or not all(isinstance(x, list) and len(x) == len(deal) for x in turns):
        raise InputError(f'round {round_number}: "turns" must be turns[t][seat] for {len(deal)} seats')
    picks = [_turns_from_json([turns[t][i] for t in range(len(turns))], f"round {round_number}, seat {i}")
             for i in range(len(deal))]
    return make_hindsight(deal, picks, seat, rules, round_number - 1)


def replay_round(h: Hindsight, mine: Sequence[Turn]) -> tuple[list[list[int]], list[int]]:
    """Play the round with the seat's turns replaced by ``mine``: (tableaux, round totals).

    Raises IllegalMoveError naming the turn and seat of the first illegal pick.
    """
    from sushigo.spec.scoring import round_totals

    n, rules = h.seats, h.rules
    piles = [list(d) for d in h.deal]
    tabs = [[0] * N_TOKENS for _ in range(n)]
    for t in range(len(mine)):
        for i in range(n):
            turn = mine[t] if i == h.seat else h.picks[i][t]
            try:
                apply_turn(piles[h.pile_at(i, t)], tabs[i], turn, rules)
            except IllegalMoveError as exc:
                who = "the seat asked about" if i == h.seat else "recorded"
                raise IllegalMoveError(f"turn {t + 1}, seat {i} ({who}): {exc}") from exc
    return tabs, round_totals(tabs, rules)


def seat_view(h: Hindsight, picks: Sequence[Turn]) -> tuple[list[list[int]], list[int]]:
    """The hands the seat holds and its running score along ``picks`` (the others as recorded):
    the rows ``sushigo best`` shows for a recorded round."""
    tabs_end, _ = replay_round(h, picks)
    icons = [maki_icons(tabs_end[i], h.rules) for i in range(h.seats) if i != h.seat]
    piles = [list(d) for d in h.deal]
    tabs = [[0] * len(Token) for _ in range(h.seats)]
    hands, running = [], []
    for t in range(len(picks)):
        for i in range(h.seats):
            pile = piles[h.pile_at(i, t)]
            if i == h.seat:
                hands.append(list(pile))
            apply_turn(pile, tabs[i], picks[t] if i == h.seat else h.picks[i][t], h.rules)
        running.append(tableau_score(tabs[h.seat], icons, h.rules))
    return hands, running


def hindsight_problem(h: Hindsight) -> tuple[list[TurnSpec], list[OtherPick], list[int]]:
    """The seat's turns (piles net of the other seats), the others' picks to keep possible,
    and the other seats' maki icon totals (fixed by their recorded picks)."""
    n, k = h.seats, h.seat
    # Pile contents net of the other seats only. A count can go below zero when another seat
    # took a chopsticks card that the player had put back: the limits then demand the put-back.
    piles = [list(d) for d in h.deal]
    specs: list[TurnSpec] = []
    others: list[OtherPick] = []
    size = sum(h.deal[0])
    for t in range(size):
        mine = h.pile_at(k, t)
        specs.append(TurnSpec(mine, tuple(piles[mine]), size - t))
        for i in range(n):
            if i == k:
                continue
            p = h.pile_at(i, t)
            need = [0] * N_CARDS
            for pick in h.picks[i][t]:
                need[int(pick.card)] += 1
            for c in range(N_CARDS):
                if need[c]:
                    others.append(OtherPick(t, p, c, piles[p][c] - need[c]))
                    piles[p][c] -= need[c]
            if len(h.picks[i][t]) == 2:
                piles[p][int(Card.CHOPSTICKS)] += 1  # R-CHOPSTICKS-RETURN
    tabs, _ = replay_round(h, h.picks[k])
    icons = [maki_icons(tabs[i], h.rules) for i in range(n) if i != k]
    return specs, others, icons


def solve_hindsight_search(h: Hindsight) -> BestResult:
    start = time.perf_counter()
    specs, others, icons = hindsight_problem(h)
    score, picks, states = search_turns(specs, icons, h.rules, others)
    return finish_hindsight(h, score, picks, STATUS_OPTIMAL, "search", start, stats={"states": states})


def finish_hindsight(
    h: Hindsight, score: int, picks: Sequence[Turn], status: BestStatus, engine: str, start: float,
    budget: float | None = None, reason: str | None = None, stats: dict[str, int] | None = None,
) -> BestResult:
    """Replay the whole round with the found picks, check the score, and add the actual score."""
    _, totals = replay_round(h, picks)
    assert totals[h.seat] == score, f"{engine} picks replay to {totals[h.seat]}, not {score}"
    _, actual = replay_round(h, h.picks[h.seat])
    return BestResult(score, tuple(picks), status, engine, time.perf_counter() - start, budget, reason,
                      extra={"actual": actual[h.seat]}, stats=stats or {})
