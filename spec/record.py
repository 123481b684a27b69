"""The game record: every deal and every pick of a game, with the scores it produced.

JSON form (``"format": "sushigo-record/1"``)::

    {"format": "sushigo-record/1",
     "rules": "official", "readings": {"maki_first_tie": "split", ...},
     "seed": 7, "players": 4, "policies": ["random", ...],
     "rounds": [{"hands": [["tempura", "squid", ...], ...],
                 "turns": [[["squid"], ["tempura", "chopsticks"], ...], ...],
                 "tableaux": ["tempura*2 wasabi+squid", ...],
                 "scores": [12, 30, ...]}, ...],
     "puddings": [2, 0, 1, 3], "pudding": [0, -3, ...], "totals": [...], "winners": [0]}

``hands[seat]`` is the hand as dealt (in dummy-2p, seat 2 is the dummy pile,
top card first); ``turns[t][seat]`` are that seat's picks at turn ``t`` in
order (spec.turns notation; in dummy-2p ``turns[t][2]`` is the card the
controller gave the dummy). ``readings`` lists every contested parameter, so
a record made under ``--rule`` overrides replays under the same rules.

:meth:`GameRecord.from_json` checks the *shape* only (types, card names) and
raises :class:`InputError`; whether the game is legal is :func:`spec.executor.replay`'s job.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.spec.cards import NIGIRI, Card, Token, parse_card
from sushigo.spec.errors import InputError, NotationError, RulesError
from sushigo.spec.ruleset import PARAMETER_BY_NAME, RULESETS, Ruleset, apply_overrides, parse_value
from sushigo.spec.scoring import score_game
from sushigo.spec.tableau import Tableau, format_tableau, parse_tableau
from sushigo.spec.turns import Pick, format_turn, parse_pick

FORMAT = "sushigo-record/1"


@dataclass(frozen=True)
class RoundRecord:
    hands: tuple[tuple[Card, ...], ...]  # per seat, as dealt
    turns: tuple[tuple[tuple[Pick, ...], ...], ...]  # turns[t][seat]: Turns, or bare tuples when read
    tableaux: tuple[Tableau, ...]  # per seat, at the end of the round
    scores: tuple[int, ...]  # round totals per seat


@dataclass(frozen=True)
class GameRecord:
    rules: Ruleset
    seed: int | None
    players: int
    policies: tuple[str, ...]
    rounds: tuple[RoundRecord, ...]
    puddings: tuple[int, ...]
    pudding: tuple[int, ...] | None
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def seats(self) -> int:
        return self.rules.seats(self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            **rules_fields(self.rules),
            "seed": self.seed,
            "players": self.players,
            "policies": list(self.policies),
            "rounds": [
                {
                    "hands": [[c.label for c in hand] for hand in rnd.hands],
                    "turns": [[format_turn(turn) for turn in step] for step in rnd.turns],
                    "tableaux": [format_tableau(t) for t in rnd.tableaux],
                    "scores": list(rnd.scores),
                }
                for rnd in self.rounds
            ],
            "puddings": list(self.puddings),
            "pudding": list(self.pudding) if self.pudding is not None else None,
            "totals": list(self.totals),
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        return record_from_json(data)


def base_rules_name(rules: Ruleset) -> str:
    """The named ruleset a (possibly overridden) ruleset was derived from."""
    return rules.name.partition("[")[0]


def pick_order(tableau: Tableau) -> list[Card]:
    """An order of single picks that lands exactly this tableau under every reading.

    Plain nigiri come before any wasabi (so automatic placement never stacks
    them), each stack is its wasabi then its nigiri, free wasabis come last.
    No turn uses chopsticks, so ``wasabi_same_turn`` never matters.
    """
    c = tableau.counts
    order: list[Card] = []
    for nig in NIGIRI:
        order += [nig] * c[int(nig)]
    for card in Card:
        if card not in NIGIRI and card != Card.WASABI:
            order += [card] * c[int(card)]
    for stack in (Token.WASABI_EGG, Token.WASABI_SALMON, Token.WASABI_SQUID):
        nig = stack.cards[1]
        order += [Card.WASABI, nig] * c[int(stack)]
    order += [Card.WASABI] * c[int(Token.WASABI)]
    return order


def record_from_tableaux(
    game: Sequence[Sequence[Tableau]], rules: Ruleset, players: int, policy: str = "fixed"
) -> dict[str, Any]:
    """A game record (``sushigo-record/1``) whose deal and picks produce these tableaux.

    Each tableau must hold exactly a hand's worth of cards. At turn ``t`` seat
    ``s`` holds the hand dealt to seat ``s - offset * t``, so the card it picks
    then is dealt into that hand. In ``dummy_2p`` the pile holds the dummy's
    cards in the order it gets them: each turn the controller draws the top card
    and gives that same card to the dummy.
    """
    seats = rules.seats(players)
    size = rules.hand_size(players)
    rounds = []
    for r, tabs in enumerate(game):
        d = rules.pass_offset(r)
        picks = [pick_order(t) for t in tabs]
        if any(len(p) != size for p in picks):
            raise ValueError(f"round {r + 1}: every tableau must hold {size} cards")
        hands: list[list[str]] = [[] for _ in range(seats)]
        for t in range(size):
            for s in range(players):
                hands[(s - d * t) % players].append(picks[s][t].label)
        if rules.dummy_2p:
            hands[players] = [c.label for c in picks[players]]
        turns = [[[picks[s][t].label] for s in range(seats)] for t in range(size)]
        rounds.append({"hands": hands, "turns": turns})
    return record_document(rounds, game, rules, players, policy)


def record_document(
    rounds: Sequence[dict[str, Any]], game: Sequence[Sequence[Tableau]], rules: Ruleset, players: int,
    policy: str = "fixed",
) -> dict[str, Any]:
    """A record from each round's ``hands`` and ``turns`` and the tableaux they produce: the
    ruleset it was made under (its name and every reading, overrides included, so ``sushigo
    replay`` replays it under exactly these rules), and the scores, puddings and winners as the
    rules give them for these tableaux (a game of fewer rounds scores no puddings)."""
    score = score_game([list(t) for t in game], rules, players)
    out_rounds = [
        {"hands": rnd["hands"], "turns": rnd["turns"], "tableaux": [format_tableau(t) for t in tabs],
         "scores": [x.total for x in scored]}
        for rnd, tabs, scored in zip(rounds, game, score.rounds, strict=True)
    ]
    return {
        "format": FORMAT,
        **rules_fields(rules),
        "seed": None,
        "players": players,
        "policies": [policy] * players,
        "rounds": out_rounds,
        "puddings": list(score.puddings),
        "pudding": list(score.pudding) if score.pudding is not None else None,
        "totals": list(score.totals),
        "winners": list(score.winners),
    }


def rules_fields(rules: Ruleset) -> dict[str, Any]:
    """``"rules"`` and ``"readings"`` of anything written under ``rules`` (a record, a witness):
    :func:`rules_from_record` reads them back to exactly these rules, overrides included.

    A ruleset derived from a named one (``--rule`` overrides) names it, lists its readings and
    the rule numbers it changed (``"numbers"``); any other ruleset (a rules file's) is written
    whole, as an object with a rules file's keys (:mod:`spec.rulefile`)."""
    from sushigo.spec.rulefile import ruleset_dict

    readings = dict(rules.readings())
    if _said_by_name(rules):
        return {"rules": record_rules_name(rules), "readings": readings, **numbers_field(rules)}
    return {"rules": ruleset_dict(rules), "readings": readings}


def numbers_field(rules: Ruleset) -> dict[str, Any]:
    """``"numbers"``: the rule numbers that differ from the named ruleset a record names, as
    ``--rule`` texts by name (``"tempura_points": "6"``, ``"deck.squid": "10"``); nothing when
    none differ, so records of the named rulesets keep their form."""
    base = RULESETS.get(record_rules_name(rules), RULESETS["official"])
    changed = rules.changed_numbers(base)
    return {"numbers": changed} if changed else {}


@functools.cache
def _said_by_name(rules: Ruleset) -> bool:
    """Whether ``rules`` is a named ruleset with overrides, and the name, the readings and the
    changed numbers say it exactly (once per ruleset: a batch of records asks it for every game)."""
    from sushigo.spec.rulefile import same_rules

    if base_rules_name(rules) not in RULESETS:
        return False
    said = rules_from_record(record_rules_name(rules), dict(rules.readings()),
                             numbers_field(rules).get("numbers"))
    return same_rules(said, rules)


def record_rules_name(rules: Ruleset) -> str:
    """The named ruleset a record names: the one ``rules`` was derived from (its readings, which
    a record lists in full, carry any override); "official" for a ruleset of no known name."""
    base = base_rules_name(rules)
    return base if base in RULESETS else "official"


def rules_from_record(name: object, readings: object, numbers: object = None) -> Ruleset:
    """The ruleset named (or held whole, :mod:`spec.rulefile`) in a record, with its explicit
    rule numbers and readings applied."""
    from sushigo.spec.rulefile import ruleset_from_value

    if isinstance(name, dict):
        base = ruleset_from_value(name, 'record "rules"')
    elif not isinstance(name, str):
        raise InputError(f'record "rules" must be a ruleset name or a ruleset object, got {name!r}')
    else:
        base = ruleset_from_value(name.partition("[")[0], 'record "rules"')
    if numbers is not None:
        if not (isinstance(numbers, dict) and all(isinstance(v, str) for v in numbers.values())):
            raise InputError(f'record "numbers" must be an object of rule numbers as texts '
                             f'("tempura_points": "6"), got {numbers!r}')
        base = apply_overrides(base, [f"{k}={v}" for k, v in numbers.items()])
    if readings is None:
        return base
    if not isinstance(readings, dict):
        raise InputError(f'record "readings" must be an object of rule parameters, got {readings!r}')
    changes: dict[str, Any] = {}
    for key, value in readings.items():
        param = PARAMETER_BY_NAME.get(str(key))
        if param is None:
            raise InputError(
                f'record "readings" has unknown rule parameter {key!r} '
                f"(parameters: {', '.join(PARAMETER_BY_NAME)})"
            )
        if isinstance(value, bool) or isinstance(value, str):
            text = ("yes" if value else "no") if isinstance(value, bool) else value
            changes[param.name] = parse_value(param, text)
        else:
            raise RulesError(f"record reading {key}={value!r} must be a string or true/false")
    if all(getattr(base, k) == v for k, v in changes.items()):
        return base
    rules = base.replace(**changes)
    diffs = ", ".join(f"{k}={v}" for k, v in changes.items() if getattr(base, k) != v)
    return rules.replace(name=f"{base.name}[{diffs}]")


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise InputError(message)


def _int_list(value: object, where: str, allow_none: bool = False) -> tuple[int, ...] | None:
    if value is None and allow_none:
        return None
    _expect(
        isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
        f"{where} must be a list of integers, got {value!r}",
    )
    assert isinstance(value, list)
    return tuple(value)


def _cards(value: object, where: str) -> tuple[Card, ...]:
    _expect(
        isinstance(value, list) and all(isinstance(v, str) for v in value),
        f"{where} must be a list of card names, got {value!r}",
    )
    assert isinstance(value, list)
    try:
        return tuple(parse_card(v) for v in value)
    except NotationError as exc:
        raise InputError(f"{where}: {exc}") from exc


def _turn(value: object, where: str) -> tuple[Pick, ...]:
    """Picks one by one: a turn of 0 or 3+ picks is well-formed JSON that breaks the rules,
    so it is left for replay to report (R-PICK, R-CHOPSTICKS-ONCE)."""
    _expect(
        isinstance(value, list) and all(isinstance(v, str) for v in value),
        f'{where} must be a list of one or two picks like ["squid"], got {value!r}',
    )
    assert isinstance(value, list)
    try:
        return tuple(parse_pick(v) for v in value)
    except NotationError as exc:
        raise InputError(f"{where}: {exc}") from exc


def record_from_json(data: object) -> GameRecord:
    """A :class:`GameRecord` from its JSON form; raises InputError on a malformed document."""
    _expect(isinstance(data, dict), f"a game record must be a JSON object, got {type(data).__name__}")
    assert isinstance(data, dict)
    fmt = data.get("format", FORMAT)
    _expect(fmt == FORMAT, f'unknown record format {fmt!r}; expected "{FORMAT}"')
    for key in ("rules", "players", "rounds", "puddings", "pudding", "totals", "winners"):
        _expect(key in data, f'game record has no "{key}" field')
    rules = rules_from_record(data["rules"], data.get("readings"), data.get("numbers"))
    players = data["players"]
    _expect(
        isinstance(players, int) and not isinstance(players, bool),
        f'"players" must be an integer, got {players!r}',
    )
    seed = data.get("seed")
    _expect(
        seed is None or (isinstance(seed, int) and not isinstance(seed, bool)),
        f'"seed" must be an integer or null, got {seed!r}',
    )
    policies = data.get("policies") or []
    _expect(
        isinstance(policies, list) and all(isinstance(p, str) for p in policies),
        f'"policies" must be a list of policy names, got {policies!r}',
    )
    raw_rounds = data["rounds"]
    _expect(isinstance(raw_rounds, list), f'"rounds" must be a list, got {raw_rounds!r}')
    assert isinstance(raw_rounds, list)
    rounds = []
    for r, raw in enumerate(raw_rounds, start=1):
        where = f"round {r}"
        _expect(isinstance(raw, dict), f"{where} must be an object with hands, turns, tableaux, scores")
        assert isinstance(raw, dict)
        for key in ("hands", "turns", "tableaux", "scores"):
            _expect(key in raw, f'{where} has no "{key}" field')
        hands_raw, turns_raw, tabs_raw = raw["hands"], raw["turns"], raw["tableaux"]
        _expect(isinstance(hands_raw, list), f"{where} hands must be a list of hands, got {hands_raw!r}")
        _expect(isinstance(turns_raw, list), f"{where} turns must be a list of turns, got {turns_raw!r}")
        _expect(isinstance(tabs_raw, list), f"{where} tableaux must be a list of strings, got {tabs_raw!r}")
        hands = tuple(_cards(h, f"{where}, hand of seat {s}") for s, h in enumerate(hands_raw))
        turns = []
        for t, step in enumerate(turns_raw, start=1):
            _expect(
                isinstance(step, list),
                f"{where}, turn {t} must be a list with one turn per seat, got {step!r}",
            )
            turns.append(
                tuple(_turn(v, f"{where}, turn {t}, seat {s}") for s, v in enumerate(step))
            )
        tableaux = []
        for s, text in enumerate(tabs_raw):
            _expect(isinstance(text, str), f"{where}, tableau of seat {s} must be a string, got {text!r}")
            try:
                tableaux.append(parse_tableau(text))
            except NotationError as exc:
                raise InputError(f"{where}, tableau of seat {s}: {exc}") from exc
        scores = _int_list(raw["scores"], f"{where} scores")
        assert scores is not None
        rounds.append(RoundRecord(hands, tuple(turns), tuple(tableaux), scores))
    puddings = _int_list(data["puddings"], '"puddings"')
    totals = _int_list(data["totals"], '"totals"')
    winners = _int_list(data["winners"], '"winners"')
    assert puddings is not None and totals is not None and winners is not None
    return GameRecord(
        rules=rules,
        seed=seed,
        players=players,
        policies=tuple(policies),
        rounds=tuple(rounds),
        puddings=puddings,
        pudding=_int_list(data["pudding"], '"pudding"', allow_none=True),
        totals=totals,
        winners=winners,
    )


__all__ = [
    "FORMAT",
    "GameRecord",
    "RoundRecord",
    "base_rules_name",
    "numbers_field",
    "pick_order",
    "record_document",
    "record_from_json",
    "record_from_tableaux",
    "record_rules_name",
    "rules_fields",
    "rules_from_record",
]
