""":func:`spec.attribution.game_attribution` for many games at once, with numpy (the ``fast``
extra). The same split, read off the same scorer: per-count point tables and per-token nigiri
values are made by :func:`spec.scoring.dish_points` itself, maki places by
:func:`spec.scoring.maki_points`, puddings by :func:`spec.scoring.pudding_points`. A test holds
it equal to the pure-Python reference game by game."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from sushigo.spec.attribution import KINDS
from sushigo.spec.cards import MAKI, NIGIRI, STACK_OF, TOKEN_CARDS, TOKENS, Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_points, pudding_points

__all__ = ["attribute"]

_CARDS_OF = np.zeros((len(TOKENS), len(KINDS)), dtype=np.int64)  # token -> cards it is made of
for _t in TOKENS:
    for _c in TOKEN_CARDS[_t]:
        _CARDS_OF[_t, _c] += 1


def _unit(token: Token, n: int) -> list[int]:
    counts = [0] * len(TOKENS)
    counts[token] = n
    return counts


def _set_table(token: Token, part: int, rules: Ruleset, most: int) -> npt.NDArray[np.int64]:
    """The points ``dish_points`` gives to 0..most tokens of a set kind (tempura, ...)."""
    return np.array([dish_points(_unit(token, n), rules)[part] for n in range(most + 1)], dtype=np.int64)


def attribute(
    tableaux: Sequence[Sequence[Sequence[Sequence[int]]]], puddings: Sequence[Sequence[int]],
    rules: Ruleset, players: int,
) -> tuple[list[list[float]], list[list[int]]]:
    """Per kind, per game: the points the players' cards of that kind brought, and their count."""
    t = np.asarray(tableaux, dtype=np.int64)  # (games, rounds, seats, tokens)
    games = t.shape[0]
    mine = t[:, :, :players, :]
    points = np.zeros((games, len(KINDS)), dtype=np.float64)
    most = int(t.max(initial=0))
    for part, token in enumerate((Token.TEMPURA, Token.SASHIMI, Token.DUMPLING)):
        table = _set_table(token, part, rules, most)
        points[:, int(token)] = table[mine[..., int(token)]].sum(axis=(1, 2))
    nigiri_value = np.array([dish_points(_unit(tok, 1), rules)[3] for tok in TOKENS], dtype=np.int64)
    nigiri = (mine @ nigiri_value).sum(axis=(1, 2))
    face_total = np.zeros(games, dtype=np.int64)
    for k, card in enumerate(NIGIRI):
        held = mine[..., int(card)] + mine[..., int(STACK_OF[card])]
        face = (rules.nigiri_points[k] * held).sum(axis=(1, 2))
        points[:, int(card)] = face
        face_total += face
    points[:, int(Card.WASABI)] = nigiri - face_total
    icons_per = np.array(rules.maki_icons, dtype=np.int64)
    maki_counts = t[..., [int(c) for c in MAKI]]  # (games, rounds, seats, 3)
    icons = maki_counts @ icons_per  # (games, rounds, seats)
    placed = np.array([[maki_points(rnd, rules) for rnd in game] for game in icons.tolist()],
                      dtype=np.float64)
    share = np.divide(placed, icons, out=np.zeros_like(placed), where=icons > 0)[:, :, :players]
    for k, card in enumerate(MAKI):
        points[:, int(card)] = (share * icons_per[k] * maki_counts[:, :, :players, k]).sum(axis=(1, 2))
    points[:, int(Card.PUDDING)] = [sum(pudding_points(p, rules)[:players]) for p in puddings]
    cards = (mine @ _CARDS_OF).sum(axis=(1, 2))
    return points.T.tolist(), cards.T.tolist()
