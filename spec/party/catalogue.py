"""Sushi Go Party!'s rule ids, each with one statement in our words.

The base game's ids live in :data:`sushigo.spec.model.catalogue.RULE_CATALOGUE`; Party's are kept
apart here, so that the base game's catalogue (and what ``sushigo check`` prints from it) is
unchanged. A card kind's rule is its definition's own summary (:mod:`.kinds`): only the rules
that are not one kind's are written here. Every Party rule id the code raises or reports
must be a key (``tests/test_model_catalogue.py`` scans the source)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sushigo.spec.party.kinds import FLIPPED_RULE, KINDS
from sushigo.spec.party.scoring import WINNER_RULE

_OTHER: Final = {
    FLIPPED_RULE: "A card flipped by a takeout box has no kind any more and scores 2 (RB p15).",
    WINNER_RULE: "The most points wins; a tie goes to the most dessert cards (RB p7).",
    "R-PARTY-DEAL": "Each round deals the hands from the menu's deck with that round's desserts "
                    "shuffled in, the rest kept aside as the undealt deck (RB p5).",
    "R-PARTY-HAND": "A card played, normally or through a bonus action, comes from the player's own "
                    "hand as it is at that moment (RB p5-6).",
    "R-PARTY-TURNS": "A round has one turn per card in a hand, and each turn one play per player (RB p5).",
    "R-PARTY-RECORD": "A game record states every decision the rules leave to a player (what a menu "
                      "kept, what a spoon asked for, what a special order copied).",
    "R-PARTY-TOTAL": "A player's game total is the sum of their round scores and, at game end, their "
                     "desserts' points (RB p7).",
    "R-PARTY-SCORE": "A record's round and game scores are the ones its plays give under its menu and "
                     "readings.",
}

#: Rule id -> one statement, for every rule of Party.
PARTY_CATALOGUE: Final[Mapping[str, str]] = {
    **{k.rule: f"{k.tile}: {k.summary}." for k in KINDS},
    **_OTHER,
}

__all__ = ["PARTY_CATALOGUE"]
