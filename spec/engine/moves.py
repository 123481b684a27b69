"""The engine's moves: the one place a turn lands, hands pass and a round is scored.

Every face that advances a game moves through these: the step API's positions
(:mod:`spec.engine.position`) and the count-vector face with deals and the dummy pushed in
from outside (:mod:`spec.step`, behind OpenSpiel, PettingZoo, replay and the dummy-2p games).
:func:`land_turns` lands every seat's turn of a joint move (and the dummy's card) for both;
the position's two- and three-seat paths are that loop unrolled, for listed turns only.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import index as _index

from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.options import Options, OptionTable
from sushigo.spec.engine.packed import BITS, CARD_BIT, HIGH, N_CARDS, N_TOKENS, PUD_TOKEN, pack, unpack
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import round_totals
from sushigo.spec.turns import Pick, apply_turn


def land(
    found: Options, hand: int, tab: int, turn: tuple[Pick, ...], rules: Ruleset, who: str
) -> tuple[int, int]:
    """The packed hand and tableau after ``turn``, taken from ``hand`` in ``tab`` whose options are
    ``found``: one look-up for a listed turn; any other turn (an equal object, the other order of
    a chopsticks turn, or an illegal one) is checked by spec.turns. IllegalMoveError names ``who``."""
    change = found.change_of.get(id(turn))
    if change is not None and not (hand + change[0]) & HIGH:
        return hand + change[0], tab + change[1]
    i = found.find(turn)
    if i >= 0:
        dh, dt = found.every[id(found.turns[i])]
        return hand + dh, tab + dt
    if not is_turn(turn):
        raise IllegalMoveError(
            f"{who} gave {turn!r}, which is not a turn: give one of legal_actions(seat) "
            "(or Turn.parse('squid'); Turn.parse('tempura squid') takes two with chopsticks)"
        )
    if not turn:
        raise IllegalMoveError(f"{who} took no card; every player takes a card each turn (R-PICK)")
    hand_counts, tab_counts = list(unpack(hand, N_CARDS)), list(unpack(tab, N_TOKENS))
    try:
        apply_turn(hand_counts, tab_counts, turn, rules)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"{who} {exc}") from exc
    return pack(hand_counts), pack(tab_counts)


_CHOP_BIT = CARD_BIT[int(Card.CHOPSTICKS)]
_CHOP_FIELD = 0xFF << (BITS * int(Token.CHOPSTICKS))  # a packed tableau's chopsticks count

#: In dummy-2p: the seat controlling the dummy this turn, the card it gives the dummy, and the
#: option table the dummy's card is found in.
Dummy = tuple[int, tuple[Pick, ...], OptionTable]


def land_turns(
    found: Sequence[Options], hands: Sequence[int], tabs: Sequence[int], turns: Sequence[tuple[Pick, ...]],
    rules: Ruleset, round_index: int, turn: int, dummy: Dummy | None = None,
) -> tuple[list[int], list[int]]:
    """Every player's turn at once: seat s takes ``turns[s]`` from ``hands[s]`` in ``tabs[s]`` (its
    options ``found[s]``), checked against its own tableau as it lay at the start of the turn, in
    seat order; the hands come back not yet passed. Seats past the players (the dummy pile) are
    carried over. With ``dummy`` the controller, right after its own turn, gives the dummy its
    card from what is left, the chopsticks it used rejoining its hand only after that (R-DUMMY:
    a controller uses chopsticks only with a card left for the dummy). IllegalMoveError names
    round, turn and seat (counted from 1, 1 and 0); nothing given is changed."""
    new_hands: list[int] = []
    new_tabs: list[int] = []
    if dummy is None:  # every move of the step API comes this way: kept as lean as the loop can be
        for options, picks, hand, tab in zip(found, turns, hands, tabs):  # noqa: B905
            change = options.change_of.get(id(picks))
            if change is not None and not (moved := hand + change[0]) & HIGH:
                new_hands.append(moved)
                new_tabs.append(tab + change[1])
            else:  # not a listed object of this state, or a card not held: land checks it
                who = f"round {round_index + 1}, turn {turn + 1}, player {len(new_hands)}"
                moved, tab = land(options, hand, tab, picks, rules, who)
                new_hands.append(moved)
                new_tabs.append(tab)
        if len(new_hands) == len(hands):
            return new_hands, new_tabs
        return new_hands + list(hands[len(new_hands):]), new_tabs + list(tabs[len(new_tabs):])
    rest = list(tabs[len(found):])  # the dummy's tableau, changed by its card
    for s, (options, picks, hand, tab) in enumerate(zip(found, turns, hands, tabs)):  # noqa: B905
        who = f"round {round_index + 1}, turn {turn + 1}, player {s}"
        moved, tab = land(options, hand, tab, picks, rules, who)
        if s == dummy[0]:
            moved, rest[-1] = _give(moved, hand, rest[-1], picks, dummy, rules, round_index, turn)
        new_hands.append(moved)
        new_tabs.append(tab)
    return new_hands + list(hands[len(new_hands):]), new_tabs + rest


def gift_tableau(tab: int) -> int:
    """The dummy's packed tableau as its turn sees it: the dummy never uses chopsticks."""
    return tab & ~_CHOP_FIELD


def _give(
    left: int, held: int, dummy_tab: int, picks: tuple[Pick, ...], dummy: Dummy, rules: Ruleset,
    round_index: int, turn: int,
) -> tuple[int, int]:
    """The controller's hand and the dummy's tableau after the dummy's card: the controller held
    ``held`` and has ``left`` after its own turn ``picks``."""
    where = f"round {round_index + 1}, turn {turn + 1}"
    _, gift, table = dummy
    used = _CHOP_BIT if len(picks) == 2 else 0  # a legal two-card turn used chopsticks
    cards = sum(unpack(held, N_CARDS))
    if used and cards < 3:
        raise IllegalMoveError(
            f"{where}, player {dummy[0]} used chopsticks with {cards} cards after drawing the dummy's "
            "card, leaving none for the dummy (R-DUMMY)"
        )
    if len(gift) != 1:
        raise IllegalMoveError(
            f"{where}, the dummy took {len(gift)} cards; the dummy takes exactly one card and "
            "never uses chopsticks (R-DUMMY)"
        )
    left -= used
    options = table(left, gift_tableau(dummy_tab))
    left, dummy_tab = land(options, left, dummy_tab, gift, rules, f"{where}, the dummy")
    return left + used, dummy_tab


def pass_hands(hands: list[int], offset: int) -> list[int]:
    """The hands after seat i hands its own to seat ``(i + offset) % players`` (offset taken mod players)."""
    return hands[-offset:] + hands[:-offset] if offset else hands


def score_round(
    tabs: Sequence[int], kept: Sequence[int], rules: Ruleset
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A finished round: the round totals per seat, the final tableaux as token counts, and the
    puddings kept (those of earlier rounds plus this round's)."""
    totals, kept = round_end(tabs, kept, rules)
    return totals, tuple(tuple(unpack(t, N_TOKENS)) for t in tabs), kept



def round_end(
    tabs: Sequence[int], kept: Sequence[int], rules: Ruleset
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """score_round without the token-count tuples (round_totals reads the unpacked bytes)."""
    vectors: list[bytes] = []
    now: list[int] = []
    for t, k in zip(tabs, kept):  # noqa: B905 (one loop for both lists: comprehensions are calls)
        v = t.to_bytes(N_TOKENS, "little")
        vectors.append(v)
        now.append(k + v[PUD_TOKEN])
    return tuple(round_totals(vectors, rules)), tuple(now)


def seat_index(seat: object, players: int) -> int:
    """``seat`` as a list index (an int, or an int-like such as numpy's integers); IllegalMoveError
    naming the seats there are if it is not one of them (-1 too: Python would read it from the end)."""
    try:
        i = _index(seat)  # type: ignore[arg-type]
    except TypeError:
        i = -1
    if not 0 <= i < players:
        raise no_seat(seat, players)
    return i


def no_seat(seat: object, players: int) -> IllegalMoveError:
    return IllegalMoveError(f"seat {seat!r} is not a player; seats are 0..{players - 1}")


def is_turn(turn: object) -> bool:
    """Whether ``turn`` has the form of a turn: a tuple of Picks (legal or not)."""
    return isinstance(turn, tuple) and all(isinstance(p, Pick) for p in turn)


def turns_given(actions: object) -> int:
    """How many turns a joint move lists; IllegalMoveError if it is not a list of turns at all."""
    try:
        return len(actions)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalMoveError(f"give a list of turns, one per player; got {actions!r}") from None
