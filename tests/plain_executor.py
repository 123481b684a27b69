"""The plain per-turn game loop the executor ran before it moved onto the engine (main at
5b8695a, spec/executor.py's _Table, _run_round and deciders, kept verbatim): the independent
reference the engine is held to. It checks every pick with spec.turns.resolve_turn and lands it
with apply_turn on count lists, passes the hands with its own loop and scores rounds with
spec.scoring.round_totals; it never uses the engine's option tables, packed vectors or moves.

tests/test_one_engine.py plays the same games on both (iter_game's every snapshot, replay's
records and first error on tampered records) under every named ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import IllegalMoveError, SushiGoError
from sushigo.spec.executor import (
    GameState,
    RoundRecord,
    _check_deal,
    _instances,
    _seeded_deal,
    _token_cards,
    _view,
    _who,
    resolve_policies,
)
from sushigo.spec.policies import PlayerView, Policy
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import round_totals
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, Turn, TurnResult, apply_turn, legal_turns, resolve_turn

N_CARDS = len(Card)
N_TOKENS = len(Token)
_CHOP = int(Card.CHOPSTICKS)
_PUD = int(Card.PUDDING)
_PUD_TOKEN = int(Token.PUDDING)
DUMMY_SEAT = 2


def dummy_controller(turn: int) -> int:
    return turn % 2


class _StepError(SushiGoError):
    """A record step that breaks the rules (message complete, rule id in parentheses)."""


class _Table:
    """The mutable table the engine plays on."""

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules = rules
        self.players = players
        self.seats = rules.seats(players)
        self.hand_size = rules.hand_size(players)
        self.deck = list(rules.deck)
        self.hands = [[0] * N_CARDS for _ in range(self.seats)]
        self.tabs = [[0] * N_TOKENS for _ in range(self.seats)]
        self.start: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in self.tabs)
        self.kept = [0] * self.seats
        self.discard = [0] * N_CARDS
        self.scores: list[tuple[int, ...]] = []
        self.round_index = 0
        self.turn = 0
        self.round_turns: tuple[tuple[tuple[Pick, ...], ...], ...] = ()

    def snapshot(self, phase: str) -> GameState:
        return GameState(
            rules=self.rules,
            players=self.players,
            round_index=self.round_index,
            turn=self.turn,
            phase=phase,
            deck=tuple(self.deck),
            hands=tuple(tuple(h) for h in self.hands),
            tableaux=tuple(tuple(t) for t in self.tabs),
            puddings=tuple(self.kept),
            discard=tuple(self.discard),
            scores=tuple(self.scores),
        )

    def view(self, seat: int, target: int, hand: Sequence[int]) -> PlayerView:
        return _view(self.rules, self.players, self.round_index, self.turn, seat, target, hand, self.start,
                     self.kept, self.scores)

    def where(self, seat: int) -> str:
        return f"round {self.round_index + 1}, turn {self.turn + 1}, {_who(seat, self.players)}"


#: decide(table, seat, target, hand) -> the turn ``seat`` takes for ``target``'s tableau.
Decide = Callable[[_Table, int, int, list[int]], tuple[Pick, ...]]


def _resolve(
    table: _Table, seat: int, hand: Sequence[int], tab: Sequence[int], turn: tuple[Pick, ...]
) -> TurnResult:
    if not turn:
        raise _StepError(f"{table.where(seat)} took no card; every player takes a card each turn (R-PICK)")
    try:
        return resolve_turn(hand, tab, turn, table.rules)
    except IllegalMoveError as exc:
        raise _StepError(f"{table.where(seat)} {exc}") from exc


def _run_round(
    table: _Table, dealt: Sequence[Sequence[Card]], decide: Decide, snapshots: bool
) -> Iterator[GameState]:
    """Play one round on ``table`` (hands as dealt); yields snapshots if asked.

    The turns played are left in ``table.round_turns``.
    """
    rules, players, seats = table.rules, table.players, table.seats
    for s, cards in enumerate(dealt):
        hand = [0] * N_CARDS
        for c in cards:
            hand[int(c)] += 1
            table.deck[int(c)] -= 1
        table.hands[s] = hand
    pile = list(dealt[DUMMY_SEAT]) if rules.dummy_2p else []
    offset = rules.pass_offset(table.round_index)
    turns: list[tuple[tuple[Pick, ...], ...]] = []
    table.turn = 0
    if snapshots:
        yield table.snapshot("dealt")
    for t in range(table.hand_size):
        table.turn = t
        table.start = tuple(tuple(x) for x in table.tabs)
        step: list[tuple[Pick, ...]] = [() for _ in range(seats)]  # every seat filled below
        ctrl = dummy_controller(t) if rules.dummy_2p else -1
        for s in range(players):
            hand = table.hands[s]
            tab = table.tabs[s]
            if s == ctrl:
                top = int(pile[t])
                hand[top] += 1
                table.hands[DUMMY_SEAT][top] -= 1
            turn = decide(table, s, s, hand)
            result = _resolve(table, s, hand, table.start[s], turn)
            if s == ctrl and result.chopsticks and sum(hand) < 3:
                raise _StepError(
                    f"{table.where(s)} used chopsticks with {sum(hand)} cards after drawing the dummy's "
                    "card, leaving none for the dummy (R-DUMMY)"
                )
            apply_turn(hand, tab, turn, rules)
            if s == ctrl:
                # the used chopsticks rejoin the hand only after the dummy's card is chosen
                hand[_CHOP] -= int(result.chopsticks)
                gift = decide(table, s, DUMMY_SEAT, hand)
                if len(gift) != 1:
                    raise _StepError(
                        f"{table.where(DUMMY_SEAT)} took {len(gift)} cards; the dummy takes exactly one "
                        "card and never uses chopsticks (R-DUMMY)"
                    )
                _resolve(table, DUMMY_SEAT, hand, table.start[DUMMY_SEAT], gift)
                apply_turn(hand, table.tabs[DUMMY_SEAT], gift, rules)
                hand[_CHOP] += int(result.chopsticks)
                step[DUMMY_SEAT] = gift
            step[s] = turn
        turns.append(tuple(step))
        moved = table.hands[:players]
        for s in range(players):
            table.hands[(s + offset) % players] = moved[s]
        table.turn = t + 1
        if snapshots:
            yield table.snapshot("turn")
    table.round_turns = tuple(turns)


def _score_round(table: _Table) -> tuple[tuple[Tableau, ...], tuple[int, ...]]:
    tableaux = tuple(Tableau(tuple(t)) for t in table.tabs)
    scores = tuple(round_totals(table.tabs, table.rules))
    table.scores.append(scores)
    for s, tab in enumerate(table.tabs):
        table.kept[s] += tab[_PUD_TOKEN]
        cards = _token_cards(tab)
        cards[_PUD] -= tab[_PUD_TOKEN]
        for c in range(N_CARDS):
            table.discard[c] += cards[c]
    table.tabs = [[0] * N_TOKENS for _ in range(table.seats)]
    return tableaux, scores


def _policy_decider(rules: Ruleset, policies: Sequence[Policy], prng: random.Random) -> Decide:
    def decide(table: _Table, seat: int, target: int, hand: list[int]) -> Turn:
        tab = table.start[target]
        if target != seat:
            # the dummy never uses chopsticks: offer single picks only
            stub = list(tab)
            stub[_CHOP] = 0
            options = legal_turns(hand, stub, rules)
        else:
            options = legal_turns(hand, tab, rules)
            if rules.dummy_2p and seat == dummy_controller(table.turn) and sum(hand) < 3:
                options = [o for o in options if len(o) == 1]
        return policies[seat].choose(table.view(seat, target, hand), options, prng)

    return decide


def _game(
    rules: Ruleset,
    players: int,
    deals: Sequence[Sequence[Sequence[Card]]],
    decide: Decide,
    snapshots: bool,
    on_round: Callable[[int, RoundRecord], None] | None = None,
) -> Iterator[GameState]:
    table = _Table(rules, players)
    rounds: list[RoundRecord] = []
    for r, dealt in enumerate(deals):
        table.round_index = r
        yield from _run_round(table, dealt, decide, snapshots)
        tableaux, scores = _score_round(table)
        rnd = RoundRecord(
            hands=tuple(tuple(h) for h in dealt),
            turns=table.round_turns,
            tableaux=tableaux,
            scores=scores,
        )
        rounds.append(rnd)
        if on_round is not None:
            on_round(r, rnd)
        if snapshots:
            yield table.snapshot("scored")


def _record_decider(rec_rounds: Sequence[RoundRecord]) -> Decide:
    def decide(table: _Table, seat: int, target: int, hand: list[int]) -> tuple[Pick, ...]:
        turns = rec_rounds[table.round_index].turns
        if table.turn >= len(turns):
            raise _StepError(
                f"round {table.round_index + 1}, turn {table.turn + 1} is missing: the hands still "
                f"hold cards (a round has {table.hand_size} turns) (R-HAND-SIZE)"
            )
        step = turns[table.turn]
        if len(step) != table.seats:
            raise _StepError(
                f"round {table.round_index + 1}, turn {table.turn + 1} lists {len(step)} turns; "
                f"the table has {table.seats} seats (R-RECORD)"
            )
        return step[target]

    return decide


def _game(
    rules: Ruleset,
    players: int,
    deals: Sequence[Sequence[Sequence[Card]]],
    decide: Decide,
    snapshots: bool,
    on_round: Callable[[int, RoundRecord], None] | None = None,
) -> Iterator[GameState]:
    table = _Table(rules, players)
    for r, dealt in enumerate(deals):
        table.round_index = r
        yield from _run_round(table, dealt, decide, snapshots)
        tableaux, scores = _score_round(table)
        rnd = RoundRecord(
            hands=tuple(tuple(h) for h in dealt),
            turns=table.round_turns,
            tableaux=tableaux,
            scores=scores,
        )
        if on_round is not None:
            on_round(r, rnd)
        if snapshots:
            yield table.snapshot("scored")


def iter_game(
    players: int, seed: int, rules: Ruleset, policies: Sequence[str] | None = None
) -> Iterator[GameState]:
    """The states of the seeded game with these policies (as spec.executor.iter_game gives them)."""
    names = resolve_policies(players, policies)
    deals, prng = _seeded_deal(rules, players, seed)
    decide = _policy_decider(rules, _instances(names), prng)
    yield from _game(rules, players, deals, decide, snapshots=True)


def replay_rounds(record: GameRecord, rules: Ruleset | None = None) -> list[RoundRecord] | str:
    """The rounds of ``record`` re-executed (deals and picks; the recorded tableaux and scores are
    not read), or the first illegal deal or pick in words."""
    rules = rules or record.rules
    rounds: list[RoundRecord] = []
    dealt = [0] * N_CARDS
    try:
        deals = []
        for r, rnd in enumerate(record.rounds):
            _check_deal(rules, record.players, r, rnd.hands, dealt)
            deals.append(rnd.hands)
    except SushiGoError as exc:
        bad_deal = str(exc)
    else:
        bad_deal = ""
    try:
        for _ in _game(rules, record.players, deals, _record_decider(record.rounds), False,
                       lambda _r, rnd: rounds.append(rnd)):
            pass
    except SushiGoError as exc:
        return str(exc)
    return bad_deal or rounds
