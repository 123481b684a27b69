"""The observation vector one player gets, shared by the OpenSpiel and PettingZoo wrappers.

Pieces, in order (name, size): ``player`` one-hot over the players, ``round`` one-hot,
``turn`` one-hot over the turns of a round, ``hand`` the 12 card counts of the hand
held, ``tableaux`` 15 token counts per seat (the dummy last), ``puddings`` per seat
(kept from scored rounds plus this round's), ``scores`` points of the finished rounds
per seat, ``dummy`` 1 while the player controls the dummy. Only what the player may
see: never another hand, the pile or the deck. Needs numpy (both extras bring it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sushigo.spec.cards import Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.step import Step

__all__ = ["fill", "pieces"]

Piece = tuple[str, int, tuple[int, ...]]


def pieces(rules: Ruleset, players: int) -> list[Piece]:
    """(name, size, shape) of each piece of the vector."""
    seats, turns = rules.seats(players), rules.hand_size(players)
    return [
        ("player", players, (players,)),
        ("round", rules.rounds, (rules.rounds,)),
        ("turn", turns, (turns,)),
        ("hand", len(Card), (len(Card),)),
        ("tableaux", seats * len(Token), (seats, len(Token))),
        ("puddings", seats, (seats,)),
        ("scores", seats, (seats,)),
        ("dummy", 1, (1,)),
    ]


def views(vector: np.ndarray[Any, Any], layout: list[Piece]) -> dict[str, np.ndarray[Any, Any]]:
    """Named, reshaped views into a flat vector laid out as ``layout``."""
    out = {}
    index = 0
    for name, size, shape in layout:
        out[name] = vector[index : index + size].reshape(shape)
        index += size
    return out


def fill(piece: dict[str, np.ndarray[Any, Any]], step: Step, player: int) -> None:
    """Write what ``player`` sees of ``step`` into the named views (zeroed first by the caller)."""
    piece["player"][player] = 1
    if not step.over:
        piece["round"][step.round_index] = 1
        if step.dealt:
            piece["turn"][step.turn] = 1
    piece["hand"][:] = step.hands[player]
    piece["tableaux"][:] = np.asarray(step.tableaux, dtype=np.float32)
    pud = int(Token.PUDDING)
    piece["puddings"][:] = [step.kept[s] + step.tableaux[s][pud] for s in range(step.seats)]
    for r in step.scores:
        piece["scores"][:] += np.asarray(r, dtype=np.float32)
    if step.controller == player:
        piece["dummy"][0] = 1
