"""Scoring shapes for Sushi Go Party!'s kinds, one module each (issue 27 item 2).

Besides :mod:`spec.kinds`' ``PerCard``, ``Sets``, ``ByCount``, ``Icons``, ``Ranked`` and
``Unscored``:

- :class:`~spec.shapes.table.Table`: points by count, entries negative or falling (eel, tofu);
- :class:`~spec.shapes.distinct.Distinct`: sets of different variants (onigiri);
- :class:`~spec.shapes.opponents.Opponents`: per card, by the opponents holding it, capped (edamame);
- :class:`~spec.shapes.most_fewest.MostFewest`: most and fewest, with a penalty (temaki; pudding);
- :class:`~spec.shapes.per_variant.PerVariant`: a table per variant of icons (fruit);
- :class:`~spec.shapes.places.Places`: places by distinct icon totals (Party's maki);
- :class:`~spec.shapes.game_end.GameEnd`: any of them scored once on the game's cards (desserts).

Each states its plain and its Z3 reading in its own module (:mod:`spec.shapes.base` says the
contract); docs/shapes.md shows each with an example. z3 is loaded only by the Z3 readings.
"""

from __future__ import annotations

from sushigo.spec.shapes.base import Shape
from sushigo.spec.shapes.distinct import Distinct
from sushigo.spec.shapes.game_end import GameEnd
from sushigo.spec.shapes.most_fewest import MostFewest
from sushigo.spec.shapes.opponents import Opponents
from sushigo.spec.shapes.per_variant import FRUIT_ICONS, PerVariant
from sushigo.spec.shapes.places import Places
from sushigo.spec.shapes.table import Table

__all__ = ["FRUIT_ICONS", "Distinct", "GameEnd", "MostFewest", "Opponents", "PerVariant", "Places", "Shape",
           "Table"]
