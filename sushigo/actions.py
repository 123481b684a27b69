"""One integer per turn: the action encoding the OpenSpiel game and the PettingZoo env share.

A *pick* is one of 15 codes: ``0..11`` a card kind by :class:`spec.cards.Card`
(a nigiri goes on a free wasabi when there is one, as the bare pick notation
says), ``12..14`` egg, salmon, squid kept off a free wasabi (``egg:plain``...,
legal only under ``wasabi_placement=optional`` while a wasabi is free).

An *action* is a whole turn:

* ``0..14``: a single pick (its pick code);
* ``15 + 15 * first + second``: a chopsticks turn, the two picks in the order
  taken (the order matters: ``wasabi squid`` stacks the squid under
  ``wasabi_same_turn``, ``squid wasabi`` does not).

:data:`NUM_ACTIONS` = 240. The legal actions of a seat are the codes of
:func:`spec.turns.legal_turns`, which lists each distinct outcome once: of two
orders that land the same tableau (``tempura salmon``, ``salmon tempura``) only
the one with the lower first card is legal. The dummy's card (dummy-2p) is a
single pick code.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from sushigo.spec.cards import NIGIRI, Card
from sushigo.spec.errors import InputError
from sushigo.spec.turns import Pick, format_turn

N_PICKS = len(Card) + len(NIGIRI)
NUM_ACTIONS = N_PICKS + N_PICKS * N_PICKS
_PLAIN = {card: len(Card) + i for i, card in enumerate(NIGIRI)}

__all__ = ["NUM_ACTIONS", "N_PICKS", "action_string", "decode", "encode", "encode_all"]


def _pick_code(pick: Pick) -> int:
    if pick.wasabi is False and pick.card in _PLAIN:
        return _PLAIN[pick.card]
    return int(pick.card)


def _pick(code: int) -> Pick:
    if code < len(Card):
        return Pick(Card(code))
    return Pick(NIGIRI[code - len(Card)], False)


def encode(turn: tuple[Pick, ...]) -> int:
    """The action number of a turn of one or two picks."""
    if len(turn) == 1:
        return _pick_code(turn[0])
    if len(turn) == 2:
        return N_PICKS + N_PICKS * _pick_code(turn[0]) + _pick_code(turn[1])
    raise InputError(f"a turn takes one card, or two with chopsticks; got {len(turn)}")


def decode(action: object) -> tuple[Pick, ...]:
    """The turn an action number stands for; InputError outside ``0..NUM_ACTIONS-1``."""
    try:
        # numpy integers too; anything without __index__ raises the TypeError caught below
        code = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        code = -1
    if isinstance(action, bool) or not 0 <= code < NUM_ACTIONS:
        raise InputError(f"action {action!r} is not a turn; actions are 0..{NUM_ACTIONS - 1}")
    if code < N_PICKS:
        return (_pick(code),)
    first, second = divmod(code - N_PICKS, N_PICKS)
    return (_pick(first), _pick(second))


def encode_all(turns: Iterable[tuple[Pick, ...]]) -> list[int]:
    """The sorted action numbers of these turns."""
    return sorted({encode(t) for t in turns})


def action_string(action: object) -> str:
    """The turn in the pick notation of :mod:`spec.turns`: ``squid``, ``wasabi squid``, ``egg:plain``."""
    return " ".join(format_turn(decode(action)))
