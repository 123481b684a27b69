"""Endgame positions: the JSON and text forms, their checks, and seeded random positions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.spec.cards import Card, Token, parse_card
from sushigo.spec.document import check_format
from sushigo.spec.engine.moves import land, pass_hands
from sushigo.spec.engine.options import option_table
from sushigo.spec.engine.packed import pack, unpack
from sushigo.spec.engine.seats import check_players
from sushigo.spec.errors import IllegalMoveError, InputError, NotationError
from sushigo.spec.rulefile import rules_value, ruleset_from_value
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import Turn, apply_turn, format_turn, hand_counts, parse_turn

N_CARDS = len(Card)
N_TOKENS = len(Token)

Hand = tuple[int, ...]
Tab = tuple[int, ...]



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
            "rules": rules_value(self.rules),
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


#: Optional format tag of a position document (older ones have none).
POSITION_FORMAT = "sushigo-position/1"


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
        rules = ruleset_from_value(data.get("rules", "official"), 'the position\'s "rules"')
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
    cap = rules.game_points_cap(players)
    for p, score in enumerate(scores):
        if score > cap:  # an absurd score would reach the float conversions of the value
            raise InputError(f'"scores": player {p} has {score} points, more than a {players}-player game '
                             f"can score ({cap}); give the points of the earlier rounds")
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




def random_position(
    seed: int, players: int = 2, cards_left: int = 4, rules: Ruleset = OFFICIAL, round_number: int = 1
) -> Position:
    """A position reached by a seeded random deal and uniformly random legal turns.

    For a later round, earlier puddings and scores are drawn at random too
    (small, within the deck); the same seed always gives the same position.
    """
    check_players(rules, players)
    if not isinstance(round_number, int) or not 1 <= round_number <= rules.rounds:
        raise InputError(f"round_number {round_number!r}: the rounds are 1..{rules.rounds}")
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
    # The turns are the engine's: its options (legal_turns order), landed by its moves, the hands
    # passed by the round's offset; seats play as in a game without the dummy.
    table = option_table(rules)
    hands = [pack(hand_counts(deck[p * size:(p + 1) * size])) for p in range(players)]
    tabs = [0] * players
    taken: list[list[Turn]] = [[] for _ in range(players)]
    offset = rules.pass_offset(round_number - 1) % players
    for _ in range(size - cards_left):
        for p in range(players):
            found = table(hands[p], tabs[p])
            turn = found.turns[rng.randrange(len(found.turns))]
            hands[p], tabs[p] = land(found, hands[p], tabs[p], turn, rules, f"player {p}")
            taken[p].append(turn)
        hands = pass_hands(hands, offset)
    return Position(
        rules,
        round_number,
        tuple(tuple(unpack(h, N_CARDS)) for h in hands),
        tuple(tuple(t) for t in taken),
        tuple(tuple(unpack(t, N_TOKENS)) for t in tabs),
        tuple(earlier_puddings),
        tuple(scores),
    )


