"""The engine's moves: the one place a turn lands, hands pass and a round is scored.

Every face that advances a game moves through these: the step API's positions
(:mod:`spec.engine.position`) and the count-vector face with deals and the dummy pushed in
from outside (:mod:`spec.step`, behind OpenSpiel, PettingZoo, replay and the dummy-2p games).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import index as _index

from sushigo.spec.engine.options import Options
from sushigo.spec.engine.packed import HIGH, N_CARDS, N_TOKENS, PUD_TOKEN, pack, unpack
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
