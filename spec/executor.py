"""The reference executor: complete games from a seed, replay and verification of records.

One game (``play_game``): the deck of the :class:`Ruleset` is shuffled once
with ``random.Random(seed)``; each round deals ``seats`` consecutive blocks of
``rules.hand_size(players)`` cards from the top of what is left (seat 0 first;
in dummy-2p the third block is the dummy pile, top card first). Every turn all
players pick at once, each against the tableau as it lay at the start of the
turn; a pick is checked and landed by :mod:`spec.turns` (chopsticks, wasabi),
never by rules written here. Then seat ``i`` hands what is left to seat
``(i + rules.pass_offset(round)) % players``. A round ends when the hands are
empty; it is scored by :mod:`spec.scoring`, puddings stay with their owners and
every other card of the tableaux goes to the discard. After the last round the
puddings are scored and the winners found (:func:`spec.scoring.score_game`).

Dummy-2p (``rules.dummy_2p``, rulebook variant): three blocks of
``rules.hand_size(2)``; seat 2 is the face-down dummy pile. At turn ``t`` of
every round, player ``t % 2`` controls the dummy: they draw the pile's top card
into their hand, take their own turn from that hand, then give the dummy one
card from what is left; the other player takes a normal turn; the two hands
are swapped and the pile stays. Chopsticks in this variant (the rulebook is
silent; our decision): the dummy never uses chopsticks (one that it is given
just lies in its tableau, worth nothing); a controller may use their own
chopsticks only while the hand (with the drawn card) still holds a card for
the dummy afterwards, i.e. at least 3 cards; the used chopsticks go back into
the hand after the dummy's card is chosen, so they pass to the other player
and can never be given to the dummy on the same turn.

The generator for policies is ``random.Random(deck_rng.getrandbits(64))``
drawn right after the shuffle, so a policy's generator reveals nothing about
the deck order.

Every card is accounted for at every step: :func:`iter_game` yields a
:class:`GameState` after the deal, after each turn and after each scoring, and
:func:`accounting` splits the ruleset's deck into deck / hands / tableaux /
puddings / discard.

Records: :class:`spec.record.GameRecord`; :func:`replay` re-executes one and
names the first illegal step. Seats are numbered from 0 (as in the JSON
``winners``), rounds and turns from 1 in messages.

No game loop is written here: every game is advanced by the one engine (:mod:`spec.engine`),
play_game through the step API (:class:`spec.game.MutableGame`), dummy-2p games, iter_game
and replay through its count-vector face (:mod:`spec.step`), which also words every illegal
step. tests/plain_executor.py keeps the plain loop this module once ran, as the reference the
engine is tested against.

Speed: :func:`fast_random_games` plays all-random games on count vectors with
memoised option tables and gives exactly the games of :func:`play_game`.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sushigo.spec import step as steps
from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.seats import DUMMY_SEAT, check_players, dummy_controller
from sushigo.spec.engine.shuffle import shuffled_deck
from sushigo.spec.errors import IllegalMoveError, InputError, SushiGoError, check_first_seed
from sushigo.spec.game import MutableGame
from sushigo.spec.policies import POLICIES, PlayerView, Policy
from sushigo.spec.record import GameRecord, RoundRecord, record_from_json
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import GameScore, score_game
from sushigo.spec.tableau import Tableau, format_tableau
from sushigo.spec.turns import Pick, Turn

N_CARDS = len(Card)
N_TOKENS = len(Token)
_CHOP = int(Card.CHOPSTICKS)
_WASABI = int(Card.WASABI)
_PUD = int(Card.PUDDING)
_PUD_TOKEN = int(Token.PUDDING)
_TOKEN_CARDS: tuple[tuple[int, ...], ...] = tuple(tuple(int(c) for c in t.cards) for t in Token)
_RULE_ID = re.compile(r"\((R-[A-Z0-9-]+)\)\s*$")

__all__ = [
    "DUMMY_SEAT",
    "Accounting",
    "FastGame",
    "GameRecord",
    "GameState",
    "PolicyLike",
    "ReplayResult",
    "RoundRecord",
    "accounting",
    "check_players",
    "deal_order",
    "dummy_controller",
    "fast_random_games",
    "iter_game",
    "iter_replay",
    "play_game",
    "policy_names",
    "replay",
    "resolve_policies",
    "seeded_deals",
]


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class GameState:
    """A snapshot of the table. ``phase``: "dealt", "turn" (after turn ``turn``) or "scored"."""

    rules: Ruleset
    players: int
    round_index: int  # from 0
    turn: int  # turns played in this round
    phase: str
    deck: tuple[int, ...]  # undealt cards, 12 counts by Card
    hands: tuple[tuple[int, ...], ...]  # per seat (the dummy pile at seat 2 in dummy-2p)
    tableaux: tuple[tuple[int, ...], ...]  # 15 token counts per seat, this round
    puddings: tuple[int, ...]  # puddings kept from scored rounds, per seat
    discard: tuple[int, ...]  # 12 counts by Card
    scores: tuple[tuple[int, ...], ...]  # round totals of scored rounds


@dataclass(frozen=True)
class Accounting:
    """Where every card of the deck is: card counts (by Card) per location."""

    locations: dict[str, tuple[int, ...]]
    expected: tuple[int, ...]

    @property
    def total(self) -> tuple[int, ...]:
        return tuple(sum(v[c] for v in self.locations.values()) for c in range(N_CARDS))

    @property
    def ok(self) -> bool:
        return self.total == self.expected

    def problems(self) -> list[str]:
        total = self.total
        return [
            f"{Card(c).label}: {total[c]} on the table and in the deck, the deck has {self.expected[c]}"
            for c in range(N_CARDS)
            if total[c] != self.expected[c]
        ]


def _token_cards(tableau: Sequence[int]) -> list[int]:
    out = [0] * N_CARDS
    for tok, n in enumerate(tableau):
        if n:
            for c in _TOKEN_CARDS[tok]:
                out[c] += n
    return out


def accounting(state: GameState) -> Accounting:
    """Card counts per location: deck, hands, tableaux, puddings (kept), discard."""
    hands = [0] * N_CARDS
    for h in state.hands:
        for c in range(N_CARDS):
            hands[c] += h[c]
    tabs = [0] * N_CARDS
    for t in state.tableaux:
        for c, n in enumerate(_token_cards(t)):
            tabs[c] += n
    kept = [0] * N_CARDS
    kept[_PUD] = sum(state.puddings)
    return Accounting(
        {
            "deck": state.deck,
            "hands": tuple(hands),
            "tableaux": tuple(tabs),
            "puddings": tuple(kept),
            "discard": state.discard,
        },
        tuple(state.rules.deck),
    )


# --------------------------------------------------------------------------- engine


def deal_order(rules: Ruleset) -> list[Card]:
    """The unshuffled deck, in Card order (what ``random.Random(seed).shuffle`` permutes)."""
    return [Card(c) for c in range(N_CARDS) for _ in range(rules.deck[c])]


def _who(seat: int, players: int) -> str:
    return "the dummy" if seat >= players else f"player {seat}"


class _StepError(SushiGoError):
    """A record step that breaks the rules (message complete, rule id in parentheses)."""


#: decide(step) -> the turn of every player (seat order) and, in dummy-2p, the dummy's card.
Decide = Callable[[steps.Step], tuple[list[tuple[Pick, ...]], tuple[Pick, ...] | None]]


def _state(
    step: steps.Step, phase: str, discard: Sequence[int], *, round_index: int | None = None,
    turn: int | None = None, hands: Sequence[Sequence[int]] | None = None,
    tableaux: Sequence[Sequence[int]] | None = None, drawn: Card | None = None,
    kept: Sequence[int] | None = None, scores: Sequence[tuple[int, ...]] | None = None,
) -> GameState:
    """A snapshot of the engine's table ``step`` (fields given override it). ``drawn``: the card
    the dummy's controller has drawn at this turn's start, put back on the pile: a snapshot is
    taken before the draw (the engine's Step holds the table after it)."""
    held = [list(h) for h in (step.hands if hands is None else hands)]
    if drawn is not None:
        ctrl = dummy_controller(step.turn)
        held[ctrl][int(drawn)] -= 1
        held[DUMMY_SEAT][int(drawn)] += 1
    return GameState(
        rules=step.rules,
        players=step.players,
        round_index=step.round_index if round_index is None else round_index,
        turn=step.turn if turn is None else turn,
        phase=phase,
        deck=step.deck,
        hands=tuple(tuple(h) for h in held),
        tableaux=tuple(tuple(t) for t in (step.tableaux if tableaux is None else tableaux)),
        puddings=tuple(step.kept if kept is None else kept),
        discard=tuple(discard),
        scores=tuple(step.scores if scores is None else scores),
    )


def _discarded(discard: list[int], tableaux: Sequence[Tableau]) -> None:
    """Add a scored round's cards to ``discard``: every card of the tableaux but the puddings."""
    for tab in tableaux:
        cards = _token_cards(tab.counts)
        cards[_PUD] -= tab.counts[_PUD_TOKEN]
        for c in range(N_CARDS):
            discard[c] += cards[c]


# --------------------------------------------------------------------------- playing


#: A player as the executor takes it: a policy name (spec.policies.POLICIES) or a policy object.
#: Objects let a caller bring policies spec does not know (solver.policies.make_policy builds
#: them from specs such as "ismcts:iterations=1000"); the record keeps each object's ``name``.
PolicyLike = str | Policy


def resolve_policies(players: int, policies: Sequence[PolicyLike] | None) -> tuple[PolicyLike, ...]:
    """Policies per player: none = all random, one = for everyone, else one per player. Names are
    checked against spec.policies.POLICIES; objects are taken as they are."""
    names = list(policies) if policies else ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InputError(
            f"give one policy for everyone or one per player: got {len(names)} for {players} players"
        )
    for name in names:
        if isinstance(name, str) and name not in POLICIES:
            near = difflib.get_close_matches(name, list(POLICIES), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise InputError(f"unknown policy {name!r}{hint} (policies: {', '.join(POLICIES)})")
    return tuple(names)


def policy_names(policies: Sequence[PolicyLike]) -> tuple[str, ...]:
    """What a record lists for ``policies``: the names, an object's ``name``."""
    return tuple(p if isinstance(p, str) else p.name for p in policies)


def _instances(policies: Sequence[PolicyLike]) -> list[Policy]:
    """A fresh object per named policy; objects as given."""
    return [POLICIES[p]() if isinstance(p, str) else p for p in policies]


_check_players = check_players  # the executor's older private name (check_players is in spec.engine)


def _seeded_deal(rules: Ruleset, players: int, seed: int) -> tuple[list[list[list[Card]]], random.Random]:
    """The hands of every round for ``seed``, and the policies' generator."""
    deck, policy_seed = shuffled_deck(rules, seed)
    cards = [Card(c) for c in deck]
    seats, size = rules.seats(players), rules.hand_size(players)
    deals = []
    pos = 0
    for _ in range(rules.rounds):
        hands = []
        for _s in range(seats):
            hands.append(cards[pos : pos + size])
            pos += size
        deals.append(hands)
    return deals, random.Random(policy_seed)


def seeded_deals(rules: Ruleset, players: int, seed: int) -> list[list[list[Card]]]:
    """The hands :func:`play_game` deals for ``seed``: per round, one list of cards per seat."""
    check_players(rules, players)
    return _seeded_deal(rules, players, seed)[0]


def _policy_decider(players: int, policies: Sequence[Policy], prng: random.Random) -> Decide:
    """The policies asked in seat order, each shown the table at the start of the turn; the
    dummy's controller is asked for the dummy's card right after its own turn."""

    def decide(step: steps.Step) -> tuple[list[tuple[Pick, ...]], tuple[Pick, ...] | None]:
        chosen: list[tuple[Pick, ...]] = []
        gift: tuple[Pick, ...] | None = None
        for s in range(players):
            turn = policies[s].choose(_step_view(step, s, s, step.hands[s]), steps.options(step, s), prng)
            chosen.append(turn)
            if s == step.controller:
                view = _step_view(step, s, DUMMY_SEAT, steps.gift_hand(step, turn))
                gift = policies[s].choose(view, steps.gift_options(step, turn), prng)
        return chosen, gift

    return decide


def _game(
    rules: Ruleset,
    players: int,
    deals: Sequence[Sequence[Sequence[Card]]],
    decide: Decide,
    snapshots: bool,
    on_round: Callable[[int, RoundRecord], None] | None = None,
) -> Iterator[GameState]:
    """Play ``deals`` on the engine (its count-vector face, spec.step), one round after another,
    with the turns ``decide`` gives; yields a snapshot after the deal, each turn and each scoring
    if asked. An illegal turn raises _StepError with the engine's words (round, turn, seat, rule)."""
    step = steps.new_game(players, rules)
    discard = [0] * N_CARDS
    size = step.hand_size
    for r, dealt in enumerate(deals):
        step = steps.deal(step, dealt)
        pile = dealt[DUMMY_SEAT] if rules.dummy_2p else ()
        if snapshots:
            yield _state(step, "dealt", discard, drawn=pile[0] if pile else None)
        turns: list[tuple[tuple[Pick, ...], ...]] = []
        while step.dealt:
            chosen, gift = decide(step)
            turns.append((*chosen, *(() if gift is None else (gift,))))
            try:
                after = steps.play(step, chosen, gift)
            except IllegalMoveError as exc:
                raise _StepError(str(exc)) from exc
            if snapshots:
                if after.dealt:
                    yield _state(after, "turn", discard, drawn=pile[after.turn] if pile else None)
                else:  # the round's last turn: the snapshot before its scoring
                    empty = [[0] * N_CARDS for _ in after.hands]
                    yield _state(after, "turn", discard, round_index=r, turn=size, hands=empty,
                                 tableaux=[t.counts for t in after.rounds[-1]], kept=step.kept,
                                 scores=step.scores)
            step = after
        tableaux = step.rounds[-1]
        _discarded(discard, tableaux)
        hands = tuple(tuple(h) for h in dealt)
        rnd = RoundRecord(hands=hands, turns=tuple(turns), tableaux=tableaux, scores=step.scores[-1])
        if on_round is not None:
            on_round(r, rnd)
        if snapshots:
            yield _state(step, "scored", discard, round_index=r, turn=size)


def _finish(
    rules: Ruleset, players: int, seed: int | None, policies: Sequence[str], rounds: Sequence[RoundRecord]
) -> tuple[GameRecord, GameScore]:
    score = score_game([r.tableaux for r in rounds], rules, players=players)
    record = GameRecord(
        rules=rules,
        seed=seed,
        players=players,
        policies=tuple(policies),
        rounds=tuple(rounds),
        puddings=score.puddings,
        pudding=score.pudding,
        totals=score.totals,
        winners=score.winners,
    )
    return record, score


def _drain(gen: Iterator[GameState]) -> None:
    for _ in gen:
        pass


def iter_game(
    players: int, seed: int, rules: Ruleset = OFFICIAL, policies: Sequence[PolicyLike] | None = None
) -> Iterator[GameState]:
    """The states of the game :func:`play_game` plays: after the deal, each turn, each scoring."""
    _check_players(rules, players)
    names = resolve_policies(players, policies)
    deals, prng = _seeded_deal(rules, players, seed)
    decide = _policy_decider(players, _instances(names), prng)
    yield from _game(rules, players, deals, decide, snapshots=True)


def play_game(
    players: int, seed: int, rules: Ruleset = OFFICIAL, policies: Sequence[PolicyLike] | None = None
) -> GameRecord:
    """A complete game from ``seed``; ``policies``: one name or policy object for all, or one per
    player (an object given for several seats is asked for each of them)."""
    _check_players(rules, players)
    names = resolve_policies(players, policies)
    play = _play_dummy_steps if rules.dummy_2p else _play_steps
    return _finish(rules, players, seed, policy_names(names), play(rules, players, seed, names))[0]


def _play_steps(rules: Ruleset, players: int, seed: int, names: Sequence[PolicyLike]) -> list[RoundRecord]:
    """The rounds of play_game, driven through the step API (spec.game's in-place face: no
    position is kept)."""
    game = MutableGame.new(players, seed, rules)
    prng = random.Random(game.policy_seed)
    policies = _instances(names)
    seats = range(players)
    rounds: list[RoundRecord] = []
    turns: list[tuple[Turn, ...]] = []
    while not game.over:
        step = tuple(policies[s].choose(game.observation(s), game.legal_actions(s), prng) for s in seats)
        turns.append(step)
        r = game.round_index
        game.step(step)
        if game.over or game.round_index != r:
            rounds.append(
                RoundRecord(
                    hands=game.dealt(r),
                    turns=tuple(turns),
                    tableaux=tuple(Tableau(t) for t in game.round_tableaux[r]),
                    scores=game.round_scores[r],
                )
            )
            turns = []
    return rounds


def _play_dummy_steps(
    rules: Ruleset, players: int, seed: int, names: Sequence[PolicyLike]
) -> list[RoundRecord]:
    """The rounds of a dummy-2p play_game, driven through the engine's count-vector face
    (spec.step): the policies are asked in seat order, the controller for the dummy's card
    right after its own turn, each shown the table at the start of the turn."""
    deals, prng = _seeded_deal(rules, players, seed)
    rounds: list[RoundRecord] = []
    decide = _policy_decider(players, _instances(names), prng)
    _drain(_game(rules, players, deals, decide, False, lambda _r, rnd: rounds.append(rnd)))
    return rounds


def _step_view(step: steps.Step, seat: int, target: int, hand: Sequence[int]) -> PlayerView:
    """What ``seat`` sees choosing for ``target`` (every tableau at the start of the turn)."""
    return _view(step.rules, step.players, step.round_index, step.turn, seat, target, hand, step.tableaux,
                 step.kept, step.scores)


def _view(
    rules: Ruleset, players: int, round_index: int, turn: int, seat: int, target: int, hand: Sequence[int],
    tableaux: Sequence[tuple[int, ...]], kept: Sequence[int], scores: Sequence[tuple[int, ...]],
) -> PlayerView:
    """What ``seat`` sees choosing for ``target``: the hand it holds, every tableau at the start of
    the turn, the puddings so far (kept plus this round's), the finished rounds' scores."""
    return PlayerView(
        seat=seat,
        target=target,
        players=players,
        round_index=round_index,
        turn=turn,
        hand=tuple(hand),
        tableaux=tuple(tableaux),
        puddings=tuple(k + t[_PUD_TOKEN] for k, t in zip(kept, tableaux, strict=True)),
        scores=tuple(scores),
        rules=rules,
    )


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class ReplayResult:
    ok: bool
    error: str | None  # the first illegal step, in words
    rule_id: str | None
    record: GameRecord | None  # the game as re-executed (None if a turn was illegal)
    score: GameScore | None


def _fail(message: str) -> ReplayResult:
    m = _RULE_ID.search(message)
    return ReplayResult(False, message, m.group(1) if m else None, None, None)


def _check_deal(
    rules: Ruleset, players: int, r: int, hands: Sequence[Sequence[Card]], dealt: list[int]
) -> None:
    seats = rules.seats(players)
    size = rules.hand_size(players)
    if len(hands) != seats:
        what = "two players and the dummy pile" if rules.dummy_2p else f"{players} players"
        raise _StepError(f"round {r + 1} deals {len(hands)} hands; {what} need {seats} (R-DEAL)")
    for s, hand in enumerate(hands):
        if len(hand) != size:
            who = "the dummy pile" if s >= players else f"player {s}"
            raise _StepError(
                f"round {r + 1}, {who} was dealt {len(hand)} cards; "
                f"a {players}-player hand has {size} (R-DEAL)"
            )
    for hand in hands:
        for card in hand:
            dealt[int(card)] += 1
    for c in range(N_CARDS):
        if dealt[c] > rules.deck[c]:
            raise _StepError(
                f"round {r + 1}: the hands dealt so far hold {dealt[c]} {Card(c).label}; "
                f"the deck has {rules.deck[c]} (R-DECK)"
            )


def _record_decider(rec_rounds: Sequence[RoundRecord]) -> Decide:
    def decide(step: steps.Step) -> tuple[list[tuple[Pick, ...]], tuple[Pick, ...] | None]:
        turns = rec_rounds[step.round_index].turns
        if step.turn >= len(turns):
            raise _StepError(
                f"round {step.round_index + 1}, turn {step.turn + 1} is missing: the hands still "
                f"hold cards (a round has {step.hand_size} turns) (R-HAND-SIZE)"
            )
        listed = turns[step.turn]
        if len(listed) != step.seats:
            raise _StepError(
                f"round {step.round_index + 1}, turn {step.turn + 1} lists {len(listed)} turns; "
                f"the table has {step.seats} seats (R-RECORD)"
            )
        return list(listed[: step.players]), listed[DUMMY_SEAT] if step.rules.dummy_2p else None

    return decide


def replay(
    data: dict[str, object] | GameRecord, rules: Ruleset | None = None, scores: bool = True
) -> ReplayResult:
    """Re-execute a record and check every step, tableau and score; the first illegal step wins.

    Raises InputError if ``data`` is not a well-formed record (shape, card names,
    player count); every rule violation is reported in the result instead. With
    ``scores=False`` only the deals and picks are checked (the recorded tableaux,
    scores and end of game are ignored), e.g. to re-score a game under other rules.
    """
    record = data if isinstance(data, GameRecord) else record_from_json(data)
    rules = rules or record.rules
    players = record.players
    _check_players(rules, players)
    if not 1 <= len(record.rounds) <= rules.rounds:
        return _fail(f"the record has {len(record.rounds)} rounds; a game has 1 to {rules.rounds} (R-ROUNDS)")
    first: list[str] = []

    def mismatch(message: str) -> None:
        if scores and not first:
            first.append(message)

    def check_round(r: int, got: RoundRecord) -> None:
        want = record.rounds[r]
        if len(want.turns) > len(got.turns):
            raise _StepError(
                f"round {r + 1} lists {len(want.turns)} turns, but the hands are empty after "
                f"{len(got.turns)} (R-HAND-SIZE)"
            )
        if len(want.tableaux) != len(got.tableaux):
            mismatch(
                f"round {r + 1} lists {len(want.tableaux)} tableaux; "
                f"the table has {len(got.tableaux)} (R-RECORD)"
            )
        else:
            for s, (w, g) in enumerate(zip(want.tableaux, got.tableaux, strict=True)):
                if w != g:
                    mismatch(
                        f"round {r + 1} tableau of {_who(s, players)} is {format_tableau(w)!r}, "
                        f"the turns give {format_tableau(g)!r} (R-RECORD)"
                    )
        if len(want.scores) != len(got.scores):
            mismatch(
                f"round {r + 1} lists {len(want.scores)} scores; the table has {len(got.scores)} (R-SCORE)"
            )
        else:
            for s, (w2, g2) in enumerate(zip(want.scores, got.scores, strict=True)):
                if w2 != g2:
                    mismatch(
                        f"round {r + 1} score of {_who(s, players)} is {w2}, the rules give {g2} (R-SCORE)"
                    )

    dealt = [0] * N_CARDS
    deals = []
    try:
        for r, rnd in enumerate(record.rounds):
            _check_deal(rules, players, r, rnd.hands, dealt)
            deals.append(rnd.hands)
    except _StepError as exc:
        # a bad deal in round k is only "first" if rounds before k replay cleanly
        bad_deal = str(exc)
    else:
        bad_deal = ""
    rounds: list[RoundRecord] = []

    def on_round(r: int, rnd: RoundRecord) -> None:
        check_round(r, rnd)
        rounds.append(rnd)

    try:
        _drain(_game(rules, players, deals, _record_decider(record.rounds), False, on_round))
    except _StepError as exc:
        return _fail(first[0] if first else str(exc))
    if bad_deal:
        return _fail(first[0] if first else bad_deal)
    game, score = _finish(rules, players, record.seed, record.policies, rounds)
    if record.puddings != game.puddings:
        mismatch(
            f"the record lists puddings {list(record.puddings)}, "
            f"the tableaux hold {list(game.puddings)} (R-RECORD)"
        )
    if record.pudding != game.pudding:
        mismatch(
            f"the record lists pudding points {_fmt(record.pudding)}, "
            f"the rules give {_fmt(game.pudding)} (R-PUDDING)"
        )
    if len(record.totals) != len(game.totals):
        mismatch(
            f"the record lists {len(record.totals)} totals; the table has {len(game.totals)} seats (R-SCORE)"
        )
    else:
        for s, (w, g) in enumerate(zip(record.totals, game.totals, strict=True)):
            if w != g:
                mismatch(f"the total of {_who(s, players)} is {w}, the rules give {g} (R-SCORE)")
    if record.winners != game.winners:
        mismatch(
            f"the record names winners {list(record.winners)}, the rules give {list(game.winners)} (R-WINNER)"
        )
    if first:
        m = _RULE_ID.search(first[0])
        return ReplayResult(False, first[0], m.group(1) if m else None, game, score)
    return ReplayResult(True, None, None, game, score)


def iter_replay(data: dict[str, object] | GameRecord, rules: Ruleset | None = None) -> Iterator[GameState]:
    """The states of a recorded game, step by step (as :func:`iter_game` gives them).

    Raises IllegalMoveError at the first illegal deal or pick (the message of
    :func:`replay`); recorded tableaux and scores are not compared here.
    """
    record = data if isinstance(data, GameRecord) else record_from_json(data)
    rules = rules or record.rules
    _check_players(rules, record.players)
    dealt = [0] * N_CARDS
    try:
        for r, rnd in enumerate(record.rounds):
            _check_deal(rules, record.players, r, rnd.hands, dealt)
        yield from _game(
            rules, record.players, [r.hands for r in record.rounds], _record_decider(record.rounds), True
        )
    except _StepError as exc:
        raise IllegalMoveError(str(exc)) from exc


def _fmt(values: Sequence[int] | None) -> str:
    return "null" if values is None else str(list(values))


# --------------------------------------------------------------------------- fast path


class FastGame(NamedTuple):
    seed: int
    rounds: tuple[tuple[int, ...], ...]  # round totals per seat
    puddings: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tableaux: tuple[tuple[tuple[int, ...], ...], ...] | None  # per round, per seat (if asked)


def fast_random_games(
    players: int, seed: int, n: int, rules: Ruleset = OFFICIAL, tableaux: bool = False
) -> list[FastGame]:
    """``n`` all-random games with seeds ``seed, seed+1, ...``: exactly the games of
    ``play_game(players, s, rules, ["random"])`` (same deal, same picks, same scores),
    played on packed count vectors with memoised option tables.

    Dummy-2p games take the general path (there is no fast path for them). A negative ``seed``
    raises InputError (:func:`spec.errors.check_first_seed`).
    """
    _check_players(rules, players)
    check_first_seed(seed)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise InputError(f"n {n!r}: give the number of games, a whole number of 0 or more")
    if rules.dummy_2p:
        out = []
        for s in range(seed, seed + n):
            rec = play_game(players, s, rules, ["random"])
            kept_tabs = tuple(tuple(t.counts for t in r.tableaux) for r in rec.rounds) if tableaux else None
            scores = tuple(r.scores for r in rec.rounds)
            out.append(FastGame(s, scores, rec.puddings, rec.totals, rec.winners, kept_tabs))
        return out
    try:
        from sushigo.spec.batch import batch_games
    except ImportError:  # numpy missing: the same games, one at a time
        return _python_random_games(players, range(seed, seed + n), rules, tableaux)

    seeds = range(seed, seed + n)
    games = batch_games(players, seeds, rules, tableaux)
    return [FastGame(s, *game) for s, game in zip(seeds, games, strict=True)]


def _python_random_games(
    players: int, seeds: Iterable[int], rules: Ruleset, tableaux: bool
) -> list[FastGame]:
    """The fast path one game at a time, in pure Python (no dummy-2p): the random policy of
    play_game (option ``int(random() * n)`` of ``n``, no draw for one) driving the step engine
    (its in-place face)."""
    results: list[FastGame] = []
    seats = range(players)
    for game_seed in seeds:
        game = MutableGame.new(players, game_seed, rules)
        rand = random.Random(game.policy_seed).random
        while not game.over:
            actions = []
            for s in seats:
                found = game.legal_actions(s)
                actions.append(found[0] if len(found) == 1 else found[int(rand() * len(found))])
            game.step(actions)
        results.append(
            FastGame(
                game_seed,
                game.round_scores,
                game.puddings,
                game.scores(),
                game.winners(),
                game.round_tableaux if tableaux else None,
            )
        )
    return results
