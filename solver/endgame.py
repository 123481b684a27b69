"""Endgames: the rest of a round played exactly when every hand is known.

Late in a round every hand has been seen, so what is left is a game of
perfect information with simultaneous picks. This module reads such a
position, checks it against the rules and solves it.

Position JSON (pinned by the issue)::

    {"rules": "official", "round": 3,
     "hands": [["squid", "tempura"], ["egg", "maki2"]],
     "taken": [[["wasabi"], ["chopsticks"]], [["tempura"], ["salmon"]]],
     "puddings": [1, 2], "scores": [20, 25]}

``taken[p]`` lists the turns player ``p`` took this round, in order, each a list
of 1-2 picks in :mod:`spec.turns` notation (so free wasabi and chopsticks are
known). ``puddings`` are pudding cards from earlier rounds, ``scores`` the
points of earlier rounds (both optional, zero by default).

What is solved (``objective``):

* two players, ``diff``: the value of the zero-sum game whose payoff is player
  0's points minus player 1's at the end of this round (earlier scores, this
  round, and the pudding points when this is the last round). At every node
  the simultaneous pick is a matrix game solved exactly (:mod:`solver.matrixgame`).
* two players, ``own``: player 0's own end-of-round total, with player 1
  minimising it (a zero-sum reading: the opponent is out to hurt you).
* two players, ``win``: +1 if player 0 is the only winner at the end of the
  round (by :func:`spec.scoring.winners`: most points, then most puddings),
  -1 if player 1 is, 0 for a shared win or no winner. The value is
  P(win) - P(loss) under optimal play.
* three to five players, ``paranoid``: player 0's own total when the others
  form a coalition minimising it and see player 0's pick before choosing
  theirs; player 0 picks purely. This is a guarantee: player 0 scores at least
  this whatever the others do.
* any player count, ``policy``: player 0's best own total when every other
  player follows a fixed policy (``greedy``, see :func:`greedy_turn`).
* dummy-2p (:func:`solve_dummy`): as two players, with the dummy pile given as
  a third hand in draw order; a move of the player controlling the dummy is the
  pair (own turn, card given to the dummy).

The *guarantee* of a first pick is the pure-strategy maximin: play that pick,
then at every later turn pick purely while the opponents (who see each pick
before answering) do their worst. It never exceeds the game value.

Turn legality and effects come from :mod:`spec.turns`; scores from
:mod:`spec.scoring`. The search keeps only what can still change a score:
tempura and sashimi modulo their set sizes, dumplings capped where the table
stops growing, nigiri banked as soon as they are taken (the banked points are
computed by :func:`spec.scoring.dish_points`, so the reduction is exact).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sushigo.solver.matrixgame import MatrixSolution, Number, pure_maximin, solve
from sushigo.spec.cards import NIGIRI, STACKS, Card, Token, parse_card
from sushigo.spec.document import check_format
from sushigo.spec.errors import IllegalMoveError, InputError, NotationError
from sushigo.spec.record import rules_fields
from sushigo.spec.ruleset import OFFICIAL, Ruleset, get_ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points, round_totals, winners
from sushigo.spec.turns import Turn, apply_turn, format_turn, hand_counts, legal_turns, parse_turn

N_CARDS = len(Card)
N_TOKENS = len(Token)
_PUD = int(Token.PUDDING)
_WAS = int(Token.WASABI)
_CHOP = int(Token.CHOPSTICKS)
_MAKI = (int(Token.MAKI1), int(Token.MAKI2), int(Token.MAKI3))
_BANKED = tuple(int(c) for c in NIGIRI) + tuple(int(t) for t in STACKS)

OBJECTIVES = ("diff", "own", "win")
POLICIES = ("greedy",)
DEFAULT_MAX_NODES = 2_000_000
#: Optional format tag of a position document (older ones have none).
POSITION_FORMAT = "sushigo-position/1"

Hand = tuple[int, ...]
Tab = tuple[int, ...]


# --------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class Position:
    """A checked endgame position."""

    rules: Ruleset
    round: int  # from 1
    hands: tuple[Hand, ...]  # 12 counts per player
    taken: tuple[tuple[Turn, ...], ...]  # per player, this round's turns in order
    tableaux: tuple[Tab, ...]  # 15 token counts per player after ``taken``
    puddings: tuple[int, ...]  # pudding cards from earlier rounds, per seat
    scores: tuple[int, ...]  # points from earlier rounds, per seat
    # dummy-2p only: the dummy pile still to be drawn, top card first (seat 2 of taken/tableaux/...)
    pile: tuple[Card, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def seats(self) -> int:
        return len(self.tableaux)

    @property
    def cards_left(self) -> int:
        return sum(self.hands[0])

    @property
    def final_round(self) -> bool:
        return self.round == self.rules.rounds

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "round": self.round,
            "hands": [hand_names(h) for h in self.hands] + (
                [[c.label for c in self.pile]] if self.pile is not None else []
            ),
            "taken": [[format_turn(t) for t in turns] for turns in self.taken],
            "puddings": list(self.puddings),
            "scores": list(self.scores),
        }


def hand_names(hand: Sequence[int]) -> list[str]:
    return [Card(c).label for c in range(N_CARDS) for _ in range(hand[c])]


_EXAMPLE = (
    '{"rules": "official", "round": 1, "hands": [["squid", "tempura"], ["egg", "maki2"]], '
    '"taken": [[["wasabi"], ...], [["tempura"], ...]]}'
)


def _int_list(data: dict[str, Any], key: str, players: int) -> tuple[int, ...]:
    value = data.get(key)
    if value is None:
        return (0,) * players
    if not isinstance(value, list) or len(value) != players:
        raise InputError(
            f'"{key}" must list one integer per seat ({players}; the dummy pile counts in dummy-2p), '
            f"got {value!r}"
        )
    for v in value:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise InputError(f'"{key}" must hold non-negative integers, got {v!r}')
    return tuple(value)


def parse_position(data: object, rules: Ruleset | None = None) -> Position:
    """Check a position document. ``rules`` (from the command line) wins over the document's ``"rules"``."""
    if not isinstance(data, dict):
        raise InputError(f"a position is a JSON object like {_EXAMPLE}")
    unknown = sorted(set(data) - {"format", "rules", "round", "hands", "taken", "puddings", "scores"})
    if unknown:
        raise InputError(
            f"unknown key(s) {', '.join(map(repr, unknown))} in the position; "
            "keys: format, rules, round, hands, taken, puddings, scores"
        )
    check_format(data, POSITION_FORMAT, "position")
    if rules is None:
        name = data.get("rules", "official")
        if not isinstance(name, str):
            raise InputError(f'"rules" must be a ruleset name, got {name!r}')
        rules = get_ruleset(name)
    rnd = data.get("round", 1)
    if not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= rules.rounds:
        raise InputError(f'"round" must be 1..{rules.rounds}, got {rnd!r}')
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise InputError(f'"hands" must list each player\'s hand, e.g. {_EXAMPLE}')
    seats = len(raw_hands)
    dummy = rules.dummy_2p
    if dummy and seats != 3:
        raise InputError(
            f"dummy-2p: give 3 hands (player 0, player 1, then the dummy pile top card first), not {seats}"
        )
    players = seats - 1 if dummy else seats
    if not rules.min_players <= players <= rules.max_players:
        raise InputError(
            f"{players} hands given; Sushi Go! takes {rules.min_players} to {rules.max_players} players"
        )
    hands = []
    pile: tuple[Card, ...] | None = None
    for p, raw in enumerate(raw_hands):
        what = "the dummy pile" if p >= players else f"hand of player {p}"
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            raise InputError(f"{what} must be a list of card names, got {raw!r}")
        try:
            cards = [parse_card(c) for c in raw]
        except NotationError as exc:
            raise NotationError(f"{what}: {exc}") from exc
        if p >= players:
            pile = tuple(cards)
        hands.append(tuple(hand_counts(cards)))
    sizes = [sum(h) for h in hands]
    if len(set(sizes)) != 1:
        raise InputError(f"every hand must hold the same number of cards; sizes are {sizes}")
    if sizes[0] < 1:
        raise InputError("the hands are empty: the round is over, nothing to solve")
    raw_taken = data.get("taken", [[] for _ in range(seats)])
    if not isinstance(raw_taken, list) or len(raw_taken) != seats:
        raise InputError(f'"taken" must list the turns taken at each of the {seats} seats')
    taken: list[tuple[Turn, ...]] = []
    tableaux: list[Tab] = []
    for p, turns in enumerate(raw_taken):
        if not isinstance(turns, list):
            raise InputError(f'"taken" of player {p} must be a list of turns like [["wasabi"], ["squid"]]')
        parsed: list[Turn] = []
        tab = [0] * N_TOKENS
        for t, raw in enumerate(turns):
            if not isinstance(raw, (list, str)):
                raise InputError(f"player {p}, turn {t + 1}: a turn is a list of 1-2 card names, got {raw!r}")
            try:
                turn = parse_turn(raw)
                # The hand they picked from is unknown; the picks themselves must form a legal turn.
                apply_turn(hand_counts(pk.card for pk in turn), tab, turn, rules)
            except (NotationError, IllegalMoveError) as exc:
                raise InputError(f"player {p}, turn {t + 1}: {exc}") from exc
            if p >= players and len(turn) != 1:
                raise InputError(f"the dummy, turn {t + 1}: it takes exactly one card per turn (R-DUMMY)")
            parsed.append(turn)
        taken.append(tuple(parsed))
        tableaux.append(tuple(tab))
    counts = {len(t) for t in taken}
    if len(counts) != 1:
        got = [len(t) for t in taken]
        raise InputError(f"every player must have taken the same number of turns; got {got}")
    turns_taken = counts.pop()
    size = rules.hand_size(players)
    if sizes[0] + turns_taken != size:
        raise InputError(
            f"hands of {sizes[0]} card{'s' if sizes[0] != 1 else ''} after {turns_taken} turns do not fit "
            f"a {players}-player deal of "
            f"{size} cards per hand (cards in hand + turns taken must be {size})"
        )
    puddings = _int_list(data, "puddings", seats)
    scores = _int_list(data, "scores", seats)
    if rnd == 1 and (any(puddings) or any(scores)):
        raise InputError('round 1 has no earlier rounds: "puddings" and "scores" must be zero')
    # Every physical card: in a hand, in a tableau (a used chopsticks card went back into a hand).
    for c in Card:
        n = sum(h[int(c)] for h in hands)
        for tab_counts in tableaux:
            n += sum(tab_counts[int(tok)] for tok in Token if c in tok.cards)
        if c == Card.PUDDING:
            n += sum(puddings)
        if n > rules.copies(c):
            where = "hands, tableaux" + (", earlier puddings" if c == Card.PUDDING else "")
            raise InputError(f"{n} {c.label} cards in play ({where}) but the deck has only {rules.copies(c)}")
    return Position(rules, rnd, tuple(hands[:players]), tuple(taken), tuple(tableaux), puddings, scores, pile)


def parse_position_text(
    hands: str, taken: str | None, round_number: int, puddings: str | None, scores: str | None
) -> dict[str, Any]:
    """The text form: hands ``"squid egg / tempura maki2"``; taken ``"wasabi, chopsticks / egg, tempura"``
    (players separated by ``/``, turns by ``,``, the two picks of a chopsticks turn by spaces)."""
    hand_parts = [h.split() for h in hands.split("/")]
    data: dict[str, Any] = {"round": round_number, "hands": hand_parts}
    if taken is not None:
        per = taken.split("/")
        if len(per) != len(hand_parts):
            raise InputError(f"--taken gives {len(per)} players but --hands gives {len(hand_parts)}")
        data["taken"] = [[t.split() for t in p.split(",") if t.strip()] for p in per]
    else:
        data["taken"] = [[] for _ in hand_parts]

    def ints(text: str, what: str) -> list[int]:
        try:
            return [int(x) for x in text.replace(",", " ").split()]
        except ValueError as exc:
            raise InputError(f"--{what} must be integers separated by commas, got {text!r}") from exc

    if puddings is not None:
        data["puddings"] = ints(puddings, "puddings")
    if scores is not None:
        data["scores"] = ints(scores, "scores")
    return data


# --------------------------------------------------------------------------- compact states


class BudgetExceeded(Exception):
    """The node budget ran out; the answer is unknown."""


@dataclass(frozen=True)
class Move:
    turn: Turn
    rest: Hand  # the hand passed on (a used chopsticks card back in it)
    tab: Tab  # the reduced tableau after the turn
    gain: int  # dish points banked by the reduction


class _Rules:
    """Move generation and the exact reduction of tableaux, cached per ruleset."""

    def __init__(self, rules: Ruleset, keep_pudding: bool) -> None:
        self.rules = rules
        self.keep_pudding = keep_pudding
        self.dumpling_cap = len(rules.dumpling_points) - 1
        self._moves: dict[tuple[Hand, Tab, bool], list[Move]] = {}

    def reduce(self, tab: list[int]) -> tuple[Tab, int]:
        """(reduced tableau, banked points): points(full + future) = banked + points(reduced + future)."""
        r = self.rules
        before = sum(dish_points(tab, r))
        tab[int(Token.TEMPURA)] %= r.tempura_set
        tab[int(Token.SASHIMI)] %= r.sashimi_set
        d = int(Token.DUMPLING)
        tab[d] = min(tab[d], self.dumpling_cap)
        for k in _BANKED:
            tab[k] = 0
        if not self.keep_pudding:
            tab[_PUD] = 0
        return tuple(tab), before - sum(dish_points(tab, r))

    def reduce_other(self, tab: list[int]) -> Tab:
        """What of an opponent's tableau can change player 0's own score or the opponent's options."""
        out = [0] * N_TOKENS
        for k in _MAKI:
            out[k] = tab[k]
        out[_CHOP] = tab[_CHOP]
        if self.keep_pudding:
            out[_PUD] = tab[_PUD]
        return tuple(out)

    def moves(self, hand: Hand, tab: Tab, full: bool = True) -> list[Move]:
        key = (hand, tab, full)
        got = self._moves.get(key)
        if got is not None:
            return got
        out: list[Move] = []
        seen: set[tuple[Hand, Tab, int]] = set()
        for turn in legal_turns(hand, tab, self.rules):
            h, t = list(hand), list(tab)
            apply_turn(h, t, turn, self.rules)
            if full:
                nt, gain = self.reduce(t)
            else:
                nt, gain = self.reduce_other(t), 0
            k = (tuple(h), nt, gain)
            if k not in seen:
                seen.add(k)
                out.append(Move(turn, tuple(h), nt, gain))
        self._moves[key] = out
        return out


def _num(v: Number) -> int | float:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v


def _exact(v: Number) -> str:
    return str(v)


@dataclass
class PickValue:
    turn: Turn
    guarantee: Number
    dummy: Turn | None = None  # dummy-2p: the card given to the dummy with this pick


@dataclass
class EndgameResult:
    """A solved (or budget-exhausted) endgame, from player 0's point of view."""

    position: Position
    objective: str  # diff | own | win | paranoid | policy
    status: str  # solved | unknown
    value: Number | None = None
    first_picks: list[PickValue] = field(default_factory=list)
    mix: list[tuple[Turn, Number]] = field(default_factory=list)
    line: list[list[Turn]] = field(default_factory=list)
    nodes: int = 0
    policy: str | None = None
    reason: str | None = None
    mix_gifts: list[Turn | None] = field(default_factory=list)  # dummy-2p: the dummy's card per mix entry

    @property
    def best_picks(self) -> list[Turn]:
        if not self.first_picks:
            return []
        top = max(p.guarantee for p in self.first_picks)
        return [p.turn for p in self.first_picks if p.guarantee == top]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": None if self.value is None else _num(self.value),
            "objective": self.objective,
            "first_picks": [
                {"pick": format_turn(p.turn), "guarantee": _num(p.guarantee)}
                | ({"dummy": format_turn(p.dummy)} if p.dummy is not None else {})
                for p in self.first_picks
            ],
            "mix": [
                {"pick": format_turn(t), "p": _num(p)}
                | ({"dummy": format_turn(g)} if g is not None else {})
                for (t, p), g in zip(self.mix, self.mix_gifts or [None] * len(self.mix), strict=True)
            ],
            "line": [[format_turn(t) for t in step] for step in self.line],
            "status": self.status,
            "players": self.position.players,
            **rules_fields(self.position.rules),  # the rules the line was found under
            "nodes": self.nodes,
        }
        if self.policy is not None:
            out["policy"] = self.policy
        if self.reason is not None:
            out["reason"] = self.reason
        if self.value is not None:
            out["exact"] = {
                "value": _exact(self.value),
                "first_picks": [_exact(p.guarantee) for p in self.first_picks],
                "mix": [_exact(p) for _, p in self.mix],
            }
        return out


# --------------------------------------------------------------------------- two players


class _TwoPlayer:
    """Exact zero-sum simultaneous-move search for two players.

    ``value(state)`` returns (game value, pure maximin) of the payoff still to
    come; what the reduction banked along the way is added by the caller.
    """

    def __init__(
        self, pos: Position, objective: str, max_nodes: int, time_limit: float | None = None
    ) -> None:
        self.pos = pos
        self.objective = objective
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.rules = pos.rules
        self.gen = _Rules(pos.rules, keep_pudding=pos.final_round or objective == "win")
        self.memo: dict[tuple[Hand, Hand, Tab, Tab, int], tuple[Number, Number]] = {}
        self.nodes = 0

    def leaf(self, t0: Tab, t1: Tab, d: int) -> int:
        pos, r = self.pos, self.rules
        tot = round_totals([t0, t1], r)
        puds = [pos.puddings[0] + t0[_PUD], pos.puddings[1] + t1[_PUD]]
        if pos.final_round:
            pp = pudding_points(puds, r)
            tot = [tot[0] + pp[0], tot[1] + pp[1]]
        if self.objective == "diff":
            return tot[0] - tot[1]
        if self.objective == "own":
            return tot[0]
        w = winners([d + tot[0], tot[1]], puds, r)
        return 1 if w == [0] else -1 if w == [1] else 0

    def entry(self, m0: Move, m1: Move, d: int) -> tuple[Number, Number]:
        # After the picks the two hands change owners (with two players left and right are the same).
        if self.objective == "win":
            return self.value(m1.rest, m0.rest, m0.tab, m1.tab, d + m0.gain - m1.gain)
        v, p = self.value(m1.rest, m0.rest, m0.tab, m1.tab, 0)
        inc = m0.gain - m1.gain if self.objective == "diff" else m0.gain
        return v + inc, p + inc

    def matrices(
        self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, d: int
    ) -> tuple[list[Move], list[Move], list[list[Number]], list[list[Number]]]:
        ms0 = self.gen.moves(h0, t0)
        ms1 = self.gen.moves(h1, t1)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for m0 in ms0:
            row_v: list[Number] = []
            row_p: list[Number] = []
            for m1 in ms1:
                v, p = self.entry(m0, m1, d)
                row_v.append(v)
                row_p.append(p)
            mixed.append(row_v)
            pure.append(row_p)
        return ms0, ms1, mixed, pure

    def _visit(self) -> None:
        """Count a new state against the node and time budgets."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded(f"node budget of {self.max_nodes} states exhausted")
        if self.deadline is not None and self.nodes % 512 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded("time limit reached")

    def value(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, d: int) -> tuple[Number, Number]:
        key = (h0, h1, t0, t1, d)
        got = self.memo.get(key)
        if got is not None:
            return got
        self._visit()
        if not any(h0):
            res: tuple[Number, Number] = (self.leaf(t0, t1, d),) * 2
        else:
            _, _, mixed, pure = self.matrices(h0, h1, t0, t1, d)
            if len(mixed) == 1 and len(mixed[0]) == 1:
                res = (mixed[0][0], pure[0][0])
            else:
                res = (solve(mixed).value, pure_maximin(pure)[0])
        self.memo[key] = res
        return res


def _offset(pos: Position, objective: str, gains: tuple[int, int]) -> tuple[Number, int]:
    """(constant added to the search value, starting banked difference for ``win``)."""
    s0, s1 = pos.scores[0], pos.scores[1] if pos.players > 1 else 0
    if objective == "diff":
        return s0 - s1 + gains[0] - gains[1], 0
    if objective == "own":
        return s0 + gains[0], 0
    return 0, s0 - s1 + gains[0] - gains[1]


def solve_two(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    if pos.players != 2:
        raise InputError(f"the zero-sum solver is for 2 players; this position has {pos.players}")
    if objective not in OBJECTIVES:
        raise InputError(f"objective {objective!r} unknown; choose one of {', '.join(OBJECTIVES)}")
    s = _TwoPlayer(pos, objective, max_nodes, time_limit)
    t0, g0 = s.gen.reduce(list(pos.tableaux[0]))
    t1, g1 = s.gen.reduce(list(pos.tableaux[1]))
    off, d = _offset(pos, objective, (g0, g1))
    result = EndgameResult(pos, objective, "unknown")
    try:
        ms0, ms1, mixed, pure = s.matrices(pos.hands[0], pos.hands[1], t0, t1, d)
        sol = solve(mixed)
        result.value = sol.value + off
        result.first_picks = [PickValue(m.turn, min(row) + off) for m, row in zip(ms0, pure, strict=True)]
        result.mix = [(m.turn, p) for m, p in zip(ms0, sol.rows, strict=True) if p]
        # Principal line: at each node both players play the heaviest pick of their optimal mix.
        h0, h1 = pos.hands
        line: list[list[Turn]] = []
        while any(h0):
            ms0, ms1, mixed, _ = s.matrices(h0, h1, t0, t1, d)
            sol = solve(mixed)
            i, j = _heaviest(sol)
            m0, m1 = ms0[i], ms1[j]
            line.append([m0.turn, m1.turn])
            if objective == "win":
                d += m0.gain - m1.gain
            h0, h1, t0, t1 = m1.rest, m0.rest, m0.tab, m1.tab
        result.line = line
        result.status = "solved"
    except BudgetExceeded as exc:
        result.reason = str(exc)
        result.value = None
        result.first_picks, result.mix = [], []
    result.nodes = s.nodes
    return result


def _heaviest(sol: MatrixSolution) -> tuple[int, int]:
    """The principal line's picks: each player's heaviest pick in the optimal mix (first on ties)."""
    i = max(range(len(sol.rows)), key=lambda k: (sol.rows[k], -k))
    j = max(range(len(sol.cols)), key=lambda k: (sol.cols[k], -k))
    return i, j


# --------------------------------------------------------------------------- dummy-2p


@dataclass(frozen=True)
class DummyMove:
    """A player's move in dummy-2p: their turn, and the card given to the dummy when in control."""

    turn: Turn
    gift: Turn | None
    rest: Hand
    tab: Tab
    gain: int
    dummy_tab: Tab | None  # the dummy's reduced tableau after the gift (None: not in control)


class _Dummy(_TwoPlayer):
    """Two players and the dummy (rulebook variant), with the executor's reading of it.

    At turn ``t`` of the round (from 0) player ``t % 2`` controls the dummy:
    draws the pile's top card into their hand, takes their turn from it (two
    cards with chopsticks only if the hand then held at least 3 cards), gives
    the dummy one card of what is left, and only then do used chopsticks rejoin
    the hand. The dummy never uses chopsticks. Its tableau counts as a third
    seat for maki and pudding rankings; only its maki icons and puddings can
    change the players' scores, so that is all the search keeps of it.
    """

    def __init__(
        self, pos: Position, objective: str, max_nodes: int, time_limit: float | None = None
    ) -> None:
        super().__init__(pos, objective, max_nodes, time_limit)
        assert pos.pile is not None
        self.size = pos.rules.hand_size(2)
        self.pile_at = {self.size - k: c for k, c in enumerate(reversed(pos.pile), start=1)}
        self.dmemo: dict[tuple[Hand, Hand, Tab, Tab, Tab, int], tuple[Number, Number]] = {}
        self._dmoves: dict[tuple[Hand, Tab, Tab, int], list[DummyMove]] = {}

    def dummy_reduce(self, tab: Sequence[int]) -> Tab:
        out = list(self.gen.reduce_other(list(tab)))
        out[_CHOP] = 0  # the dummy never uses chopsticks
        return tuple(out)

    def dmoves(self, hand: Hand, tab: Tab, dtab: Tab, draw: int) -> list[DummyMove]:
        """Moves of one player; ``draw`` is the dummy card drawn when in control, else -1."""
        key = (hand, tab, dtab, draw)
        got = self._dmoves.get(key)
        if got is not None:
            return got
        out: list[DummyMove] = []
        if draw < 0:
            out = [DummyMove(m.turn, None, m.rest, m.tab, m.gain, None) for m in self.gen.moves(hand, tab)]
        else:
            held = list(hand)
            held[draw] += 1
            seen: set[tuple[Hand, Tab, int, Tab]] = set()
            for turn in legal_turns(held, tab, self.rules):
                if len(turn) == 2 and sum(held) < 3:
                    continue  # R-DUMMY: a card must be left for the dummy
                h, t = list(held), list(tab)
                res = apply_turn(h, t, turn, self.rules)
                h[_CHOP] -= int(res.chopsticks)  # used chopsticks rejoin after the gift
                rt, gain = self.gen.reduce(t)
                stub = list(dtab)
                for gift in legal_turns(h, stub, self.rules):
                    hg, dt = list(h), list(stub)
                    apply_turn(hg, dt, gift, self.rules)
                    hg[_CHOP] += int(res.chopsticks)
                    rd = self.dummy_reduce(dt)
                    k = (tuple(hg), rt, gain, rd)
                    if k not in seen:
                        seen.add(k)
                        out.append(DummyMove(turn, gift, tuple(hg), rt, gain, rd))
        self._dmoves[key] = out
        return out

    def dleaf(self, t0: Tab, t1: Tab, td: Tab, d: int) -> int:
        pos, r = self.pos, self.rules
        tot = round_totals([t0, t1, td], r)
        puds = [pos.puddings[k] + (t0, t1, td)[k][_PUD] for k in range(3)]
        if pos.final_round:
            pp = pudding_points(puds, r)
            tot = [tot[k] + pp[k] for k in range(3)]
        if self.objective == "diff":
            return tot[0] - tot[1]
        if self.objective == "own":
            return tot[0]
        w = winners([d + tot[0], tot[1], tot[2]], puds, r, players=2)
        return 1 if w == [0] else -1 if w == [1] else 0

    def dmatrices(
        self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, td: Tab, d: int
    ) -> tuple[list[DummyMove], list[DummyMove], list[list[Number]], list[list[Number]]]:
        turn = self.size - sum(h0)
        draw = int(self.pile_at[turn])
        ms0 = self.dmoves(h0, t0, td, draw if turn % 2 == 0 else -1)
        ms1 = self.dmoves(h1, t1, td, draw if turn % 2 == 1 else -1)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for m0 in ms0:
            rv: list[Number] = []
            rp: list[Number] = []
            for m1 in ms1:
                ntd = m0.dummy_tab if m0.dummy_tab is not None else m1.dummy_tab
                assert ntd is not None
                if self.objective == "win":
                    v, p = self.dvalue(m1.rest, m0.rest, m0.tab, m1.tab, ntd, d + m0.gain - m1.gain)
                    inc = 0
                else:
                    v, p = self.dvalue(m1.rest, m0.rest, m0.tab, m1.tab, ntd, 0)
                    inc = m0.gain - m1.gain if self.objective == "diff" else m0.gain
                rv.append(v + inc)
                rp.append(p + inc)
            mixed.append(rv)
            pure.append(rp)
        return ms0, ms1, mixed, pure

    def dvalue(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, td: Tab, d: int) -> tuple[Number, Number]:
        key = (h0, h1, t0, t1, td, d)
        got = self.dmemo.get(key)
        if got is not None:
            return got
        self._visit()
        if not any(h0):
            res: tuple[Number, Number] = (self.dleaf(t0, t1, td, d),) * 2
        else:
            _, _, mixed, pure = self.dmatrices(h0, h1, t0, t1, td, d)
            if len(mixed) == 1 and len(mixed[0]) == 1:
                res = (mixed[0][0], pure[0][0])
            else:
                res = (solve(mixed).value, pure_maximin(pure)[0])
        self.dmemo[key] = res
        return res


def solve_dummy(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """The dummy-2p endgame: as :func:`solve_two`, a first pick in control includes the dummy's card."""
    if objective not in OBJECTIVES:
        raise InputError(f"objective {objective!r} unknown; choose one of {', '.join(OBJECTIVES)}")
    s = _Dummy(pos, objective, max_nodes, time_limit)
    t0, g0 = s.gen.reduce(list(pos.tableaux[0]))
    t1, g1 = s.gen.reduce(list(pos.tableaux[1]))
    td = s.dummy_reduce(pos.tableaux[2])
    off, d = _offset(pos, objective, (g0, g1))
    result = EndgameResult(pos, objective, "unknown")
    try:
        ms0, ms1, mixed, pure = s.dmatrices(pos.hands[0], pos.hands[1], t0, t1, td, d)
        sol = solve(mixed)
        result.value = sol.value + off
        result.first_picks = [
            PickValue(m.turn, min(row) + off, m.gift) for m, row in zip(ms0, pure, strict=True)
        ]
        result.mix = [(m.turn, p) for m, p in zip(ms0, sol.rows, strict=True) if p]
        result.mix_gifts = [m.gift for m, p in zip(ms0, sol.rows, strict=True) if p]
        h0, h1 = pos.hands
        line: list[list[Turn]] = []
        while any(h0):
            ms0, ms1, mixed, _ = s.dmatrices(h0, h1, t0, t1, td, d)
            sol = solve(mixed)
            i, j = _heaviest(sol)
            m0, m1 = ms0[i], ms1[j]
            gift = m0.gift if m0.gift is not None else m1.gift
            assert gift is not None
            line.append([m0.turn, m1.turn, gift])
            if objective == "win":
                d += m0.gain - m1.gain
            ntd = m0.dummy_tab if m0.dummy_tab is not None else m1.dummy_tab
            assert ntd is not None
            h0, h1, t0, t1, td = m1.rest, m0.rest, m0.tab, m1.tab, ntd
        result.line = line
        result.status = "solved"
    except BudgetExceeded as exc:
        result.reason = str(exc)
        result.value = None
        result.first_picks, result.mix = [], []
    result.nodes = s.nodes
    return result


# --------------------------------------------------------------------------- three to five players


def greedy_gains(gen: _Rules, hand: Hand, tabs: Sequence[Tab], seat: int) -> list[tuple[Move, int]]:
    """Each turn of ``seat`` with its immediate gain in the seat's round points.

    Round points are the dishes plus maki against the tableaux on the table as
    they are now. ``tabs`` must be reduced with ``gen.reduce``.
    """
    r = gen.rules

    def points(tables: Sequence[Tab]) -> int:
        icons = [maki_icons(t, r) for t in tables]
        return sum(dish_points(tables[seat], r)) + maki_points(icons, r)[seat]

    before = points(tabs)
    tables = list(tabs)
    out = []
    for m in gen.moves(hand, tabs[seat]):
        tables[seat] = m.tab
        out.append((m, m.gain + points(tables) - before))
    return out


def greedy_turn(gen: _Rules, hand: Hand, tabs: Sequence[Tab], seat: int) -> Move:
    """The ``greedy`` policy: the turn with the largest immediate gain (:func:`greedy_gains`).

    Ties go to the first turn in :func:`spec.turns.legal_turns` order (single
    picks before chopsticks pairs, each in card order), so the policy is
    deterministic.
    """
    best: Move | None = None
    best_gain = 0
    for m, gain in greedy_gains(gen, hand, tabs, seat):
        if best is None or gain > best_gain:
            best, best_gain = m, gain
    assert best is not None
    return best


class _Multi:
    """Player 0 against the others: a paranoid coalition, or fixed policies."""

    def __init__(
        self, pos: Position, policy: str | None, max_nodes: int, time_limit: float | None = None
    ) -> None:
        self.pos = pos
        self.policy = policy
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.gen = _Rules(pos.rules, keep_pudding=pos.final_round)
        self.memo: dict[tuple[tuple[Hand, ...], tuple[Tab, ...]], int] = {}
        self.nodes = 0
        self.n = pos.players
        self.offset = pos.rules.pass_offset(pos.round - 1)

    def reduce_start(self) -> tuple[tuple[Tab, ...], int]:
        tabs: list[Tab] = []
        gain0 = 0
        for p, t in enumerate(self.pos.tableaux):
            if p == 0 or self.policy is not None:
                rt, g = self.gen.reduce(list(t))
                if p == 0:
                    gain0 = g
                tabs.append(rt)
            else:
                tabs.append(self.gen.reduce_other(list(t)))
        return tuple(tabs), gain0

    def leaf(self, tabs: tuple[Tab, ...]) -> int:
        r = self.pos.rules
        total = round_totals(tabs, r)[0]
        if self.pos.final_round:
            puds = [self.pos.puddings[p] + tabs[p][_PUD] for p in range(self.n)]
            total += pudding_points(puds, r)[0]
        return total

    def others(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> list[tuple[Move, ...]]:
        """Joint replies of seats 1..n-1: every combination (paranoid) or the policy's one."""
        if self.policy is not None:
            return [tuple(greedy_turn(self.gen, hands[p], tabs, p) for p in range(1, self.n))]
        options = [self.gen.moves(hands[p], tabs[p], full=False) for p in range(1, self.n)]
        return list(itertools.product(*options))

    def child(
        self, hands: tuple[Hand, ...], m0: Move, joint: tuple[Move, ...]
    ) -> tuple[tuple[Hand, ...], tuple[Tab, ...]]:
        moves = (m0, *joint)
        new_hands: list[Hand] = [()] * self.n
        for p, m in enumerate(moves):
            new_hands[(p + self.offset) % self.n] = m.rest
        return tuple(new_hands), tuple(m.tab for m in moves)

    def pick_values(
        self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]
    ) -> list[tuple[Move, int, tuple[Move, ...]]]:
        """Per own move: its value and the others' reply that holds it there."""
        out = []
        joints = self.others(hands, tabs)
        for m0 in self.gen.moves(hands[0], tabs[0]):
            worst: int | None = None
            worst_joint: tuple[Move, ...] = ()
            for joint in joints:
                nh, nt = self.child(hands, m0, joint)
                v = m0.gain + self.value(nh, nt)
                if worst is None or v < worst:
                    worst, worst_joint = v, joint
            assert worst is not None
            out.append((m0, worst, worst_joint))
        return out

    def value(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> int:
        key = (hands, tabs)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded(f"node budget of {self.max_nodes} states exhausted")
        if self.deadline is not None and self.nodes % 64 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded("time limit reached")
        if not any(hands[0]):
            v = self.leaf(tabs)
        else:
            v = self.best(hands, tabs)
        self.memo[key] = v
        return v

    def best(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> int:
        """max over own moves of min over replies, skipping the rest of a move's replies as soon as
        one holds it to the best value found so far (it cannot be the maximum then; exact)."""
        joints = self.others(hands, tabs)
        best: int | None = None
        for m0 in self.gen.moves(hands[0], tabs[0]):
            worst: int | None = None
            for joint in joints:
                v = m0.gain + self.value(*self.child(hands, m0, joint))
                if worst is None or v < worst:
                    worst = v
                    if best is not None and worst <= best:
                        break
            assert worst is not None
            if best is None or worst > best:
                best = worst
        assert best is not None
        return best


def solve_multi(
    pos: Position,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """Paranoid (``policy=None``) or best reply to ``policy`` for player 0's own total."""
    if policy is not None and policy not in POLICIES:
        raise InputError(f"policy {policy!r} unknown; choose one of {', '.join(POLICIES)}")
    s = _Multi(pos, policy, max_nodes, time_limit)
    tabs, gain0 = s.reduce_start()
    off = pos.scores[0] + gain0
    result = EndgameResult(pos, "policy" if policy else "paranoid", "unknown", policy=policy)
    try:
        picks = s.pick_values(pos.hands, tabs)
        result.first_picks = [PickValue(m.turn, v + off) for m, v, _ in picks]
        best = max(v for _, v, _ in picks)
        result.value = best + off
        first = next(m for m, v, _ in picks if v == best)
        result.mix = [(first.turn, 1)]
        hands = pos.hands
        line: list[list[Turn]] = []
        while any(hands[0]):
            pv = s.pick_values(hands, tabs)
            top = max(v for _, v, _ in pv)
            m0, _, joint = next(x for x in pv if x[1] == top)
            line.append([m0.turn, *(m.turn for m in joint)])
            hands, tabs = s.child(hands, m0, joint)
        result.line = line
        result.status = "solved"
    except BudgetExceeded as exc:
        result.reason = str(exc)
        result.value = None
        result.first_picks, result.mix = [], []
    result.nodes = s.nodes
    return result


def solve_position(
    pos: Position,
    objective: str | None = None,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """Dispatch: two players zero-sum by default; paranoid for 3-5; ``policy`` for a fixed opposition."""
    if policy is not None and pos.pile is not None:
        raise InputError("not supported for endgame: --policy with the dummy-2p variant")
    if policy is not None:
        if objective not in (None, "own"):
            raise InputError("--policy maximises player 0's own score; use --objective own or leave it out")
        return solve_multi(pos, policy, max_nodes, time_limit)
    if pos.pile is not None:
        return solve_dummy(pos, objective or "diff", max_nodes, time_limit)
    if pos.players == 2:
        return solve_two(pos, objective or "diff", max_nodes, time_limit)
    if objective not in (None, "own"):
        raise InputError(
            f"with {pos.players} players the endgame is paranoid on player 0's own score; "
            "--objective diff and win are for 2 players"
        )
    return solve_multi(pos, None, max_nodes, time_limit)


def greedy_first_pick(pos: Position) -> Turn:
    """Player 0's first pick under the ``greedy`` policy."""
    gen = _Rules(pos.rules, keep_pudding=pos.final_round)
    tabs = tuple(gen.reduce(list(t))[0] for t in pos.tableaux)
    return greedy_turn(gen, pos.hands[0], tabs, 0).turn


def first_pick_gains(pos: Position) -> list[tuple[Turn, int]]:
    """Player 0's first picks with their immediate gain in round points (what greedy maximises)."""
    gen = _Rules(pos.rules, keep_pudding=pos.final_round)
    tabs = tuple(gen.reduce(list(t))[0] for t in pos.tableaux)
    return [(m.turn, g) for m, g in greedy_gains(gen, pos.hands[0], tabs, 0)]


# --------------------------------------------------------------------------- random positions


def random_position(
    seed: int, players: int = 2, cards_left: int = 4, rules: Ruleset = OFFICIAL, round_number: int = 1
) -> Position:
    """A position reached by a seeded random deal and uniformly random legal turns.

    For a later round, earlier puddings and scores are drawn at random too
    (small, within the deck); the same seed always gives the same position.
    """
    rng = random.Random(seed)
    size = rules.hand_size(players)
    if not 1 <= cards_left <= size:
        raise InputError(f"cards_left must be 1..{size} for {players} players")
    deck = [c for c in Card for _ in range(rules.copies(c))]
    earlier_puddings = [0] * players
    scores = [0] * players
    if round_number > 1:
        for p in range(players):
            earlier_puddings[p] = rng.randint(0, 2)
            scores[p] = rng.randint(0, 30) * (round_number - 1)
        for _ in range(sum(earlier_puddings)):
            deck.remove(Card.PUDDING)
    rng.shuffle(deck)
    hands = [hand_counts(deck[p * size:(p + 1) * size]) for p in range(players)]
    tabs = [[0] * N_TOKENS for _ in range(players)]
    taken: list[list[Turn]] = [[] for _ in range(players)]
    offset = rules.pass_offset(round_number - 1)
    for _ in range(size - cards_left):
        rests: list[list[int]] = []
        for p in range(players):
            options = legal_turns(hands[p], tabs[p], rules)
            turn = options[rng.randrange(len(options))]
            apply_turn(hands[p], tabs[p], turn, rules)
            taken[p].append(turn)
            rests.append(hands[p])
        hands = [rests[(p - offset) % players] for p in range(players)]
    return Position(
        rules,
        round_number,
        tuple(tuple(h) for h in hands),
        tuple(tuple(t) for t in taken),
        tuple(tuple(t) for t in tabs),
        tuple(earlier_puddings),
        tuple(scores),
    )



# --------------------------------------------------------------------------- Z3 certificates


@dataclass(frozen=True)
class Certificate:
    """What Z3 proved about one first pick's pure guarantee ``g`` (see :func:`certify_guarantee`).

    ``status`` is ``proved`` (both statements hold and ``g + 1`` is refuted),
    ``refuted`` (some statement is false: the search is wrong) or ``unknown``
    (the solver ran out of its resource limit).
    """

    turn: Turn
    guarantee: int
    status: str
    holds: bool | None  # player 0 can force >= g
    opponent_holds: bool | None  # the opponent can force <= g
    better_refuted: bool | None  # player 0 cannot force >= g + 1
    leaves: int  # distinct final tables scored by the Z3 model


_Opt = tuple[tuple[int, bool | None], ...]  # picks as (card, wasabi flag or None for automatic)


def certify_guarantee(
    pos: Position, turn: Turn, guarantee: int, objective: str = "diff", rlimit: int = 50_000_000
) -> Certificate:
    """Prove with Z3 that ``guarantee`` is exactly the pure maximin of the first pick ``turn``.

    For two players and at most 3 turns left. The remaining turns are encoded
    from the position with our own pick encoding (independent of
    :mod:`spec.turns`): per option a legality condition and the effect on the
    hand and the full tableau (wasabi by ``wasabi_placement`` and
    ``wasabi_same_turn``, chopsticks taken earlier, returned to the hand). The
    final scores are the terms of :mod:`spec.model.scoring` (round, pudding in
    the last round). The quantifiers of the alternating game (player 0 picks,
    the opponent answers knowing the pick, each turn) are expanded over the
    finite option sets: a universal choice becomes a conjunction guarded by its
    legality, an existential choice a fresh Z3 integer selecting one legal
    option (so a sat answer carries player 0's replies as a witness). Three
    statements are checked:

    * ``holds``: after ``turn``, player 0 can force a payoff >= g;
    * ``opponent_holds``: the opponent can force a payoff <= g;
    * ``better_refuted``: player 0 cannot force >= g + 1 (unsat).
    """
    import z3

    from sushigo.spec.model.core import Model
    from sushigo.spec.model.scoring import pudding_terms, round_terms

    if pos.players != 2:
        raise InputError("certification is for 2 players")
    if pos.cards_left > 3:
        raise InputError(f"certification covers positions of up to 3 turns, not {pos.cards_left}")
    if objective not in ("diff", "own"):
        raise InputError("certification covers the diff and own objectives")
    rules = pos.rules
    optional = rules.wasabi_placement == "optional"
    nigiri = {int(c) for c in NIGIRI}
    stack_of = {int(c): int(t) for c, t in zip(NIGIRI, STACKS, strict=True)}
    Terms = list[Any]

    def options(hand: Sequence[int]) -> list[_Opt]:
        # Every card kind in the hand and every ordered pair; legality is left to Z3 (see ``step``).
        cards = [c for c in range(N_CARDS) if hand[c] > 0]
        flags: dict[int, list[bool | None]] = {c: ([True, False] if optional and c in nigiri else [None])
                                               for c in cards}
        singles: list[_Opt] = [((c, f),) for c in cards for f in flags[c]]
        pairs: list[_Opt] = [((c1, f1), (c2, f2)) for c1 in cards for f1 in flags[c1]
                             for c2 in cards for f2 in flags[c2]]
        return singles + pairs

    def effect(hand: Terms, tab: Terms, opt: _Opt) -> tuple[Any, Terms, Terms]:
        h, t = list(hand), list(tab)
        legal = []
        if len(opt) == 2:
            legal.append(tab[_CHOP] >= 1)  # R-CHOPSTICKS-EARLIER: counted at the start of the turn
        free = tab[_WAS]
        for c, flag in opt:
            legal.append(h[c] >= 1)  # R-PICK
            h[c] = h[c] - 1
            if c in nigiri:
                if flag is None:
                    on = free >= 1  # R-WASABI-PLACE (automatic)
                else:
                    on = z3.BoolVal(flag)
                    if flag:
                        legal.append(free >= 1)  # R-WASABI-ONE
                st = stack_of[c]
                t[st] = t[st] + z3.If(on, 1, 0)
                t[c] = t[c] + z3.If(on, 0, 1)
                t[_WAS] = t[_WAS] - z3.If(on, 1, 0)
                free = free - z3.If(on, 1, 0)
            else:
                t[c] = t[c] + 1
                if c == int(Card.WASABI) and rules.wasabi_same_turn:
                    free = free + 1  # R-WASABI-SAME-TURN
        if len(opt) == 2:
            t[_CHOP] = t[_CHOP] - 1  # R-CHOPSTICKS-RETURN
            h[int(Card.CHOPSTICKS)] = h[int(Card.CHOPSTICKS)] + 1
        return z3.And(*legal), h, t

    State = tuple[int, ...]
    steps: dict[tuple[State, State, _Opt], tuple[bool, State, State]] = {}

    def step(hand: State, tab: State, opt: _Opt) -> tuple[bool, State, State]:
        """Legality and effect of one option from a concrete state, evaluated by Z3's simplifier."""
        key = (hand, tab, opt)
        got = steps.get(key)
        if got is None:
            legal, h, t = effect([z3.IntVal(x) for x in hand], [z3.IntVal(x) for x in tab], opt)
            got = steps[key] = (
                z3.is_true(z3.simplify(legal)),
                tuple(z3.simplify(x).as_long() for x in h),
                tuple(z3.simplify(x).as_long() for x in t),
            )
        return got

    def legal_options(hand: State, tab: State) -> list[tuple[_Opt, State, State]]:
        # Options with the same effect are one choice; illegal ones are no choice.
        seen: set[tuple[State, State]] = set()
        out = []
        for o in options(hand):
            ok, nh, nt = step(hand, tab, o)
            if ok and (nh, nt) not in seen:
                seen.add((nh, nt))
                out.append((o, nh, nt))
        return out

    m = Model()
    leaves: dict[tuple[State, State], Any] = {}
    counter = itertools.count()

    def payoff(t0: State, t1: State) -> Any:
        # One scoring model per distinct final table; every leaf reaching it shares the term.
        key = (t0, t1)
        if key not in leaves:
            prefix = f"leaf{len(leaves)}"
            seats = round_terms(m, prefix, [[z3.IntVal(x) for x in t] for t in (t0, t1)], rules)
            tot = [pos.scores[p] + seats[p]["total"] for p in range(2)]
            if pos.final_round:
                puds = [z3.IntVal(pos.puddings[p] + (t0, t1)[p][_PUD]) for p in range(2)]
                pp = pudding_terms(m, prefix, puds, rules)
                tot = [tot[p] + pp[p] for p in range(2)]
            leaves[key] = tot[0] - tot[1] if objective == "diff" else tot[0]
        return leaves[key]

    nodes: dict[tuple[Any, ...], Any] = {}

    def game(h0: State, h1: State, t0: State, t1: State, first: _Opt | None, ok: Any,
             mover_exists: bool) -> Any:
        """The statement 'the side that must reach ``ok`` can' from this node.

        ``mover_exists``: player 0's choices are existential (the statements
        about player 0), else the opponent's are (the statement about the opponent).
        Nodes with the same state share one formula (and so one choice
        variable): the future depends on the state only, so a reply that works
        from a state works from every history that reaches it.
        """
        key = (id(ok), mover_exists, first, h0, h1, t0, t1)
        got = nodes.get(key)
        if got is None:
            got = nodes[key] = _game(h0, h1, t0, t1, first, ok, mover_exists)
        return got

    def _game(h0: State, h1: State, t0: State, t1: State, first: _Opt | None, ok: Any,
              mover_exists: bool) -> Any:
        if not any(h0):
            return ok(payoff(t0, t1))
        if first is not None:
            legal, nh, nt = step(h0, t0, first)
            opts0 = [(first, nh, nt)] if legal else []
        else:
            opts0 = legal_options(h0, t0)
        opts1 = legal_options(h1, t1)
        branches0 = []
        for _, nh0, nt0 in opts0:
            # The hands change owners after the turn (two players: left and right agree).
            subs = [game(nh1, nh0, nt0, nt1, None, ok, mover_exists) for _, nh1, nt1 in opts1]
            branches0.append(_choose(subs, not mover_exists))
        if first is not None:
            return branches0[0] if branches0 else z3.BoolVal(False)
        return _choose(branches0, mover_exists)

    def _choose(subs: list[Any], exists: bool) -> Any:
        # An existential choice is a fresh integer naming the option taken (the witness).
        if exists:
            pick = z3.Int(f"choice{next(counter)}")
            if not subs:
                return z3.BoolVal(False)
            return z3.Or(*[z3.And(pick == i, sub) for i, sub in enumerate(subs)])
        return z3.And(*subs)

    first_opt: _Opt = tuple((int(p.card), p.wasabi if optional else None) for p in turn)
    start_hands = pos.hands
    start_tabs = pos.tableaux

    def check(statement: Any) -> bool | None:
        s = z3.Solver()
        s.set("rlimit", rlimit)
        s.add(*m.constraints())
        s.add(statement)
        r = s.check()
        return None if r == z3.unknown else r == z3.sat

    def statement(ok: Any, mover_exists: bool) -> Any:
        return game(start_hands[0], start_hands[1], start_tabs[0], start_tabs[1], first_opt, ok, mover_exists)

    def at_least(v: Any) -> Any:
        return v >= guarantee

    def above(v: Any) -> Any:
        return v >= guarantee + 1

    def at_most(v: Any) -> Any:
        return v <= guarantee

    holds = check(statement(at_least, True))
    better = check(statement(above, True))
    opp = check(statement(at_most, False))
    if None in (holds, better, opp):
        status = "unknown"
    elif holds and opp and better is False:
        status = "proved"
    else:
        status = "refuted"
    refuted = None if better is None else not better
    return Certificate(turn, guarantee, status, holds, opp, refuted, len(leaves))
