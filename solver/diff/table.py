"""A table (one tableau per seat) scored by :mod:`spec.scoring`, independent of the Z3 model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sushigo.spec.cards import Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import pudding_points, score_round, winners
from sushigo.spec.tableau import Tableau

_PUD = int(Token.PUDDING)


@dataclass(frozen=True)
class TableScore:
    """A table scored under one ruleset (only the seats that ruleset has)."""

    rounds: tuple[int, ...]
    maki: tuple[int, ...]
    pudding: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def score_table(tableaux: Sequence[Tableau], rules: Ruleset, players: int) -> TableScore:
    """Score a table with :mod:`spec.scoring` (independent of the Z3 model)."""
    seats = rules.seats(players)
    tabs = list(tableaux[:seats])
    rs = score_round(tabs, rules)
    puds = [t.counts[_PUD] for t in tabs]
    pp = pudding_points(puds, rules)
    totals = [r.total + p for r, p in zip(rs, pp, strict=True)]
    return TableScore(
        tuple(r.total for r in rs), tuple(r.maki for r in rs), tuple(pp), tuple(totals),
        tuple(winners(totals, puds, rules, players)),
    )


def tables_differ(x: TableScore, y: TableScore, players: int) -> bool:
    """Any player's round total, maki, pudding or game total, or the winners, differ.

    Only players are compared: the dummy of ``dummy-2p`` is not a player.
    """
    for field_ in ("rounds", "maki", "pudding", "totals"):
        if getattr(x, field_)[:players] != getattr(y, field_)[:players]:
            return True
    return x.winners != y.winners
