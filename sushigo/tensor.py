"""The observation vector one player gets, shared by the OpenSpiel and PettingZoo wrappers.

Pieces, in order (name, size): ``player`` one-hot over the players, ``round`` one-hot,
``turn`` one-hot over the turns of a round, ``hand`` the 12 card counts of the hand
held, ``tableaux`` 15 token counts per seat (the dummy last), ``puddings`` per seat
(kept from scored rounds plus this round's), ``scores`` points of the finished rounds
per seat, ``dummy`` 1 while the player controls the dummy. Only what the player may
see: never another hand, the pile or the deck. Needs numpy (both extras bring it).
Sushi Go Party!'s vector is :func:`party_pieces`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sushigo.spec.cards import Card, Token
from sushigo.spec.party.menus import ROUNDS, hand_size
from sushigo.spec.party.step import PHASES, ActionSpace, PartyActions, PlayPaths
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.step import Step

__all__ = ["fill", "party_fill", "party_pieces", "pieces"]

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


# --------------------------------------------------------------------------- Sushi Go Party!


def party_pieces(space: ActionSpace, players: int) -> list[Piece]:
    """(name, size, shape) of each piece of a Party observation (:func:`party_fill`): ``player``,
    ``round``, ``turn`` one-hot; ``phase`` one-hot over :data:`spec.party.step.PHASES` (the
    player's own decision, zero when another decides); ``hand`` the card counts of the hand held;
    ``tables`` per seat the counts of what its cards show (:attr:`ActionSpace.shown`: a card, a
    special order's copy, ``flipped``); ``kept`` per seat the desserts kept from scored rounds;
    ``scores`` per seat the points of the scored rounds; ``chosen`` the steps of the player's play
    so far (action numbers); ``drawn`` the cards the player's menu drew; ``revealed`` per seat the
    card played this turn, once the turn's plays are revealed (while menus and spoons resolve)."""
    cards, shown = len(space.cards), len(space.shown)
    return [
        ("player", players, (players,)),
        ("round", ROUNDS, (ROUNDS,)),
        ("turn", hand_size(players), (hand_size(players),)),
        ("phase", len(PHASES), (len(PHASES),)),
        ("hand", cards, (cards,)),
        ("tables", players * shown, (players, shown)),
        ("kept", players, (players,)),
        ("scores", players, (players,)),
        ("chosen", len(space), (len(space),)),
        ("drawn", cards, (cards,)),
        ("revealed", players * cards, (players, cards)),
    ]


def party_fill(piece: dict[str, np.ndarray[Any, Any]], actions: PartyActions, player: int,
               paths: PlayPaths | None = None) -> None:
    """Write what ``player`` sees of a Party game into the named views (zeroed first by the caller);
    ``paths``: the player's own play steps when they are kept apart from ``actions`` (the parallel
    form asks every seat's play at once). Never another hand, the deck, or a play not yet revealed."""
    step, space = actions.step, actions.space
    card = {c: k for k, c in enumerate(space.cards)}
    shown = {s: k for k, s in enumerate(space.shown)}
    piece["player"][player] = 1
    game = step.game
    if game is not None and not step.over:
        piece["round"][max(1, game.round_no) - 1] = 1
        if game.turn:
            piece["turn"][game.turn - 1] = 1
    for c in step.hand(player):
        piece["hand"][card[c]] += 1
    for k in range(step.players):
        for text in step.shown(k):
            if text in shown:
                piece["tables"][k, shown[text]] += 1
    for rnd in step.rounds:
        for k in range(step.players):
            piece["kept"][k] += len(rnd.kept[k])
            piece["scores"][k] += rnd.scores[k]
    decision = step.decision
    mine = paths if paths is not None else (actions.paths if actions.seat == player else None)
    if mine is not None:
        piece["phase"][PHASES.index(mine.phase)] = 1
        for number in mine.partial:
            piece["chosen"][number] = 1
    elif decision is not None and decision.seat == player and decision.what in PHASES:
        piece["phase"][PHASES.index(decision.what)] = 1
    if step.stage == "resolve":
        for k, (play, _bonus) in enumerate(step.chosen):
            piece["revealed"][k, card[play.partition(":")[0]]] = 1
        if decision is not None and decision.what == "menu" and decision.seat == player and step.rnd:
            for c in step.rnd.draws[-1]["drawn"]:
                piece["drawn"][card[c]] += 1
