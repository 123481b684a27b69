"""A Party score document: the menu, the readings and 1 to 3 rounds, read and scored.

JSON (schema ``party-score-document``; docs/party.md)::

    {"format": "sushigo-party-score/1", "menu": "sushi-go", "readings": {"edamame_cap": "round"},
     "rounds": [["maki3 tempura*2", "maki2 pudding"],          # a round as final tableaux
                {"turns": [["uramaki5", "uramaki4"], ...]}]}   # or turn by turn (spec/party/turns.py)

Every round has one entry per player; the player count is checked against the menu's tiles, and
every round's cards against the menu's deck (:func:`.scoring.check_round`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import ROUNDS, Menu, parse_menu
from sushigo.spec.party.readings import PartyRules, party_rules
from sushigo.spec.party.scoring import (
    GameScore,
    RoundScore,
    check_final,
    check_round,
    dessert_cards,
    score_game,
    score_round,
)
from sushigo.spec.party.tableau import PartyTableau, format_party_tableau, parse_party_tableau

FORMAT: Final = "sushigo-party-score/1"
RESULT_FORMAT: Final = "sushigo-party-score-result/1"


@dataclass(frozen=True)
class PartyRound:
    """One round as scored: the final tableaux, its score, and (turn by turn) what happened."""

    tableaux: tuple[PartyTableau, ...]
    score: RoundScore
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class PartyGame:
    menu: Menu
    rules: PartyRules
    players: int
    rounds: tuple[PartyRound, ...]
    score: GameScore

    def as_json(self) -> dict[str, Any]:
        game = self.score.as_json()
        for doc, rnd in zip(game["rounds"], self.rounds, strict=True):
            for seat, tableau in zip(doc["seats"], rnd.tableaux, strict=True):
                seat["tableau"] = format_party_tableau(tableau)
            if rnd.events:
                doc["events"] = list(rnd.events)
        return {"format": RESULT_FORMAT, "game": "party",
                "menu": {"name": self.menu.name or None, "kinds": list(self.menu.kinds[1:])},
                "players": self.players, "readings": self.rules.as_json(), **game}


def score_rounds(rounds: Sequence[Sequence[str] | Mapping[str, Any]], menu: Menu, rules: PartyRules,
                 ) -> PartyGame:
    """Parse, check and score the rounds (each a list of tableau texts or ``{"turns": ...}``)."""
    if not 1 <= len(rounds) <= ROUNDS:
        raise InputError(f"a Party game has 1 to {ROUNDS} rounds, this one {len(rounds)}")
    played: list[PartyRound] = []
    players = 0
    desserts = 0
    for r, rnd in enumerate(rounds):
        where = f"round {r + 1}"
        if isinstance(rnd, Mapping):
            from sushigo.spec.party.turns import play_round

            if set(rnd) != {"turns"}:
                raise InputError(f"{where}: a round given turn by turn is {{\"turns\": [[PLAY, ...], ...]}}")
            result = play_round(rnd["turns"], menu, rules, round_no=r + 1, earlier_desserts=desserts)
            tableaux, score, events = result.tableaux, result.score, result.events
        else:
            tableaux = tuple(_parse(t, where, k) for k, t in enumerate(rnd))
            check_final(tableaux)
            check_round(tableaux, menu, r + 1, desserts)
            score, events = score_round(tableaux, menu, rules), ()
        if r and len(tableaux) != players:
            raise InputError(f"{where} has {len(tableaux)} players, round 1 had {players}; every round "
                             "seats the same players")
        players = len(tableaux)
        desserts += dessert_cards(tableaux, menu)
        played.append(PartyRound(tuple(tableaux), score, tuple(events)))
    game = score_game([p.score for p in played], menu, rules, ROUNDS)
    return PartyGame(menu, rules, players, tuple(played), game)


def _parse(text: object, where: str, seat: int) -> PartyTableau:
    if not isinstance(text, str):
        raise InputError(f"{where}, player {seat}: a tableau is a string of card names, not {text!r}")
    try:
        return parse_party_tableau(text)
    except InputError:
        raise
    except ValueError as exc:
        raise InputError(f"{where}, player {seat}: {exc}") from exc


def read_party_document(data: Mapping[str, Any], menu: str | None = None,
                        rule: Sequence[str] = ()) -> PartyGame:
    """Score a Party score document; ``menu`` and ``rule`` (``--menu``, ``--rule``) override its own."""
    name = menu if menu is not None else data.get("menu")
    if not isinstance(name, str):
        raise InputError("a Party score document names its \"menu\" (or give --menu)")
    readings = data.get("readings", {})
    if not isinstance(readings, Mapping):
        raise InputError("\"readings\" is an object of NAME: VALUE (sushigo rules --game party lists them)")
    rules = party_rules(rule, readings)
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise InputError("a Party score document holds \"rounds\": a list of 1 to 3 rounds")
    return score_rounds(rounds, parse_menu(name, uramaki=rules.uramaki_split), rules)


def score_party_tableaux(texts: Sequence[str], menu: str, rule: Sequence[str] = ()) -> PartyGame:
    """One round from one tableau text per player (``sushigo score --game party --menu M T1 T2 ...``)."""
    rules = party_rules(rule)
    return score_rounds([list(texts)], parse_menu(menu, uramaki=rules.uramaki_split), rules)


__all__ = ["FORMAT", "RESULT_FORMAT", "PartyGame", "PartyRound", "read_party_document",
           "score_party_tableaux", "score_rounds"]
