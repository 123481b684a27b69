"""The rule catalogue: every rule id, stated in one line, and how many model constraints encode it.

The statements are ours (sources: the four rule texts and the rulebook, see
``RULES.md``); where a rule is a contested reading, its parameter is named in
:data:`spec.ruleset.PARAMETERS` under the same id. ``sushigo rules --catalogue``
prints this table.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import z3
from sushigo.spec.errors import RulesError
from sushigo.spec.model.core import Model
from sushigo.spec.model.deal import deck_constraints, pudding_carry
from sushigo.spec.model.game import build_game
from sushigo.spec.model.scoring import TOKEN_NAMES, pudding_terms, round_terms, tableau_vars, winner_terms
from sushigo.spec.model.turns import build_round
from sushigo.spec.ruleset import OFFICIAL, PARAMETERS, Effect, Ruleset

_RULES: dict[str, str] = {
    # components, deal and flow
    "R-DOMAIN": "Every count is a whole number in its range (no negative counts, no more than the deck).",
    "R-CARDS": "The deck has twelve kinds of card; a tableau is made of those cards and wasabi stacks.",
    "R-DECK": "Over the whole game no more cards of a kind are dealt than the {deck}-card deck holds.",
    "R-DEAL": "Each round every hand is dealt the hand size for the player count, from the remaining deck.",
    "R-ROUNDS": "A game has {rounds} rounds.",
    "R-HAND": "A hand never holds more cards than were dealt into it.",
    "R-HAND-SIZE": "Each turn takes exactly one card net, so the hand held shrinks by one per turn.",
    "R-PICK": "Each turn a player takes one card from the hand they hold (two with chopsticks).",
    "R-TABLEAU": "Cards taken are laid face up in front of the player and stay there until the round ends.",
    "R-LAST-CARD": "The last card of a hand is simply taken; nothing is passed after it.",
    "R-CHOPSTICKS-EARLIER": "A second card needs chopsticks already in front of the player from an "
                            "earlier turn.",
    "R-CHOPSTICKS-ONCE": "Chopsticks are used at most once per turn, however many a player has.",
    "R-CHOPSTICKS-RETURN": "Used chopsticks leave the tableau and go back into the hand that is passed on.",
    "R-WASABI-ONE": "A wasabi holds one nigiri, and only a nigiri taken after the wasabi.",
    # round scoring
    "R-TEMPURA": "Each {tempura_set} tempura scores {tempura_points}; {tempura_fewer} scores nothing.",
    "R-SASHIMI": "Each {sashimi_set} sashimi scores {sashimi_points}; fewer score nothing.",
    "R-DUMPLING": "Dumplings score {dumpling_points} for {dumpling_counts} or more.",
    "R-NIGIRI": "Egg {egg}, salmon {salmon}, squid {squid}; a nigiri on a wasabi scores {wasabi}.",
    "R-MAKI-ICONS": "A player's maki total is the sum of the roll icons on their maki cards.",
    "R-MAKI-ZERO": "A player with no maki icons takes no maki place.",
    "R-MAKI-FIRST": "Most maki icons (more than zero) places first and scores {maki_first_points}.",
    "R-MAKI-SECOND": "The next highest positive icon total places second and scores {maki_second_points}, "
                     "only when "
                     "first is not tied.",
    "R-MAKI-POINTS": "A player's maki points are their place's share, or nothing.",
    "R-ROUND-TOTAL": "A round score is the sum of the tempura, sashimi, dumpling, nigiri and maki points.",
    "R-SCORE": "Recorded scores must be the ones the rules give for the recorded tableaux.",
    "R-RECORD": "A game record's tableaux and pudding counts must follow from its deals and picks.",
    # end of game
    "R-PUDDING-CARRY": "Puddings stay with their owner across rounds and are counted after the last round.",
    "R-PUDDING-KEEP": "Puddings stay with their owner across rounds (as R-PUDDING-CARRY).",
    "R-PUDDING": "Pudding points are scored once, after the last round.",
    "R-PUDDING-MOST": "Most puddings gains {pudding_most_points}, shared among tied players with the "
                      "remainder dropped.",
    "R-PUDDING-FEWEST": "Fewest puddings (none counts) loses {pudding_fewest_penalty}, shared among tied "
                        "players.",
    "R-GAME-TOTAL": "A game total is the three round scores plus the pudding points.",
    "R-WINNER": "The highest game total wins; a tie goes to the tied player with the most puddings.",
    # facts
    "FACT": "A given fact about one game (a deal, a pick, a tableau, a score), not a rule.",
}


def _with_readings(rules: dict[str, str]) -> dict[str, str]:
    """The catalogue with each contested reading's line (from its parameter) after the id it follows."""
    items = list(rules.items())
    pending = list(PARAMETERS)
    while pending:
        placed = [p for p in pending if any(rid == p.listed_after for rid, _ in items)]
        if not placed:
            first = pending[0]
            raise RulesError(f"catalogue: no id {first.listed_after!r} for {first.rule_id} to follow")
        for p in placed:
            at = next(k for k, (rid, _) in enumerate(items) if rid == p.listed_after)
            items.insert(at + 1, (p.rule_id, p.statement))
        pending = [p for p in pending if p not in placed]
    return dict(items)


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _set(n: int) -> str:
    return "pair of" if n == 2 else f"set of {_word(n)}"


def _times(n: int) -> str:
    return {2: "double", 3: "triple", 4: "quadruple"}.get(n, f"{n} times as much")


def _timesed(n: int) -> str:
    return {2: "doubled", 3: "tripled", 4: "quadrupled"}.get(n, f"multiplied by {n}")


@lru_cache(maxsize=32)
def rule_numbers(rules: Ruleset) -> dict[str, object]:
    """The rule numbers of ``rules`` as rule statements name them (``{tempura_points}``,
    ``{sashimi_group}`` "set of three", ``{wasabi}`` "triple"): the fields of every rule text
    that holds a number, here and in the scoresheet's explanations."""
    dumplings = rules.dumpling_points[1:]  # index 0 is no dumpling
    egg, salmon, squid = rules.nigiri_points
    return {
        "deck": rules.deck_size(), "rounds": _word(rules.rounds),
        "tempura_set": _set(rules.tempura_set), "tempura_points": rules.tempura_points,
        "tempura_fewer": "a single tempura" if rules.tempura_set == 2 else "fewer",
        "sashimi_set": _set(rules.sashimi_set), "sashimi_points": rules.sashimi_points,
        "tempura_group": "pair" if rules.tempura_set == 2 else f"set of {_word(rules.tempura_set)}",
        "sashimi_group": "pair" if rules.sashimi_set == 2 else f"set of {_word(rules.sashimi_set)}",
        "dumpling_points": ", ".join(map(str, dumplings)),
        "dumpling_counts": ", ".join(str(k) for k in range(1, len(dumplings) + 1)),
        "egg": egg, "salmon": salmon, "squid": squid, "wasabi": _times(rules.wasabi_multiplier),
        "wasabi_ed": _timesed(rules.wasabi_multiplier),
        "maki_first_points": rules.maki_first_points, "maki_second_points": rules.maki_second_points,
        "pudding_most_points": rules.pudding_most_points,
        "pudding_fewest_penalty": rules.pudding_fewest_penalty,
    }


@lru_cache(maxsize=32)
def rule_catalogue(rules: Ruleset = OFFICIAL) -> dict[str, str]:
    """Every rule id and its statement under ``rules``, in ``rules``' own numbers ("Each pair of
    tempura scores 6" where a pair scores 6); the contested readings' statements from
    :data:`spec.ruleset.PARAMETERS`. Do not change the dict returned (it is shared)."""
    numbers = rule_numbers(rules)
    return _with_readings({rid: text.format(**numbers) for rid, text in _RULES.items()})


def rule_statement(rule_id: str, rules: Ruleset = OFFICIAL) -> str:
    """The statement of ``rule_id`` under ``rules`` (``""`` for an id the catalogue lacks)."""
    return rule_catalogue(rules).get(rule_id, "")


#: Every rule id and its statement under the official rules (:func:`rule_catalogue` for others).
RULE_CATALOGUE: dict[str, str] = rule_catalogue(OFFICIAL)


def _scoring_model(rules: Ruleset, players: int, bounded: bool) -> Model:
    """Round scoring of every round, puddings, totals and winners over free tableaux."""
    seats = rules.seats(players)
    m = Model()
    finals = []
    rounds = []
    for r in range(rules.rounds):
        if bounded:
            tabs = [tableau_vars(m, f"p{i}_r{r}", rules) for i in range(seats)]
        else:
            tabs = [[m.int(f"p{i}_r{r}_{tn}", None) for tn in TOKEN_NAMES] for i in range(seats)]
        rounds.append(round_terms(m, f"r{r}", tabs, rules))
        finals.append(tabs)
    puddings = pudding_carry(m, finals, seats)
    pudding = pudding_terms(m, "game", puddings, rules)
    totals = []
    for i in range(seats):
        tot = m.int(f"p{i}_game_total", None)
        m.add("R-GAME-TOTAL", tot == z3.Sum([sc[i]["total"] for sc in rounds] + [pudding[i]]), f"p{i}")
        totals.append(tot)
    winner_terms(m, "game", totals, puddings, rules, players)
    return m


def _tally(m: Model, out: dict[str, int] | None = None) -> dict[str, int]:
    out = {} if out is None else out
    for rid, _, cs in m.groups:
        out[rid] = out.get(rid, 0) + len(cs)
    return out


@lru_cache(maxsize=32)
def _turn_counts(players: int, readings: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, int], ...]:
    """The turn and deal part of the game model (it depends on the pick and deal readings only)."""
    rules = OFFICIAL.replace(**dict(readings))
    m = Model()
    rms = [build_round(m, rules, players, r) for r in range(rules.rounds)]
    deck_constraints(m, [rm.deal for rm in rms], rules)
    return tuple(_tally(m).items())


@lru_cache(maxsize=64)
def _counts(rules: Ruleset, players: int) -> tuple[tuple[str, int], ...]:
    if rules.dummy_2p:
        return tuple(_tally(build_game(rules, players).model).items())
    # build_game = the rounds' turn models + this scoring part (same groups, same order of ids).
    turn_level = tuple((p.name, getattr(rules, p.name)) for p in PARAMETERS if p.effect is not Effect.SCORING)
    turn = dict(_turn_counts(players, turn_level))
    scoring = _tally(_scoring_model(rules, players, bounded=False))
    for k, v in scoring.items():
        turn[k] = turn.get(k, 0) + v
    return tuple(turn.items())


def constraint_counts(rules: Ruleset, players: int = 4) -> dict[str, int]:
    """Constraints per rule id in the model of a whole game of ``players`` under ``rules``."""
    rules.hand_size(players)  # RulesError for a player count the rules do not allow
    if players < 1:
        raise RulesError(f"{players} players is not allowed")
    # The name does not change the model; share the cache between same-rule rulesets.
    return dict(_counts(rules.replace(name="-", source=""), players))
