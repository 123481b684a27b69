"""``sushigo check --game party``: Sushi Go Party!'s property families (issue 28 item 4).

Three families, each run by Hypothesis (derandomized unless a seed is given) and shrunk to a
minimal case on a disagreement:

* ``party-round-scores``: every suggested menu once (each at a player count it seats, in turn),
  then random menus, 2 to 8 players and the readings a final tableau shows: the plain scorer
  (spec/party/scoring.py) and the Z3 round model give every seat the same points per category
  (:func:`sushigo.checks.party.check_party_round`);
* ``party-dessert-scores``: three rounds of desserts taken from a menu's dessert cards: the
  plain game-end scorer and the Z3 game model give the same dessert points;
* ``party-turns``: a round of cards no kind acts on during the turn, played turn by turn, ends in
  the tableaux of the cards played and scores as those tableaux.

The executor is reached through its module at call time, so a planted fault is what is checked.
"""

from __future__ import annotations

import random
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sushigo.spec.party.scoring as scoring
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as seeded
from hypothesis import strategies as st
from sushigo.checks.party import check_party_round, deal, menus, race_paid
from sushigo.checks.properties import Mismatch
from sushigo.spec.errors import InputError
from sushigo.spec.party.kinds import KIND
from sushigo.spec.party.menus import SUGGESTED, Menu, desserts_per_round, hand_size, parse_menu
from sushigo.spec.party.model import GameModel
from sushigo.spec.party.readings import PartyRules
from sushigo.spec.party.scoring import RacePaid, RoundScore
from sushigo.spec.party.tableau import PartyTableau, parse_party_tableau
from sushigo.spec.party.turns import play_round

#: Cards of the sushi-go menu whose kinds do nothing during a turn (no wasabi, chopsticks, ...).
PLAIN_CARDS = ("egg", "salmon", "squid", "maki1", "maki2", "maki3", "tempura", "sashimi", "dumpling",
               "pudding")
TURNS_MENU = "sushi-go"


@dataclass
class PartyFailure:
    prop: str
    mismatch: Mismatch
    seed: str

    def as_dict(self) -> dict[str, Any]:
        m = self.mismatch
        return {"property": self.prop, "ruleset": "party", "case": m.case, "expected": str(m.expected),
                "actual": str(m.actual), "expected_by": m.expected_by, "actual_by": m.actual_by,
                "seed": self.seed, "rule_ids": list(m.rule_ids)}

    def text(self, menu: str | None = None) -> str:
        m = self.mismatch
        rows = [("case:", m.case), (m.expected_by + ":", str(m.expected)), (m.actual_by + ":", str(m.actual)),
                ("rules:", ", ".join(m.rule_ids) or "(no rule id found)"), ("seed:", self.seed)]
        width = max(len(k) for k, _ in rows)
        again = ("" if menu is None else f" --menu {menu}") + (
            "" if self.seed == "derandomized" else f" --seed {self.seed}")
        return "\n".join([f"FAILED {self.prop} under --game party",
                          *[f"  {k:<{width}} {v}" for k, v in rows],
                          f"  reproduce: sushigo check --game party{again}"])


@dataclass
class PartyResult:
    prop: str
    description: str
    examples: int = 0
    seconds: float = 0.0
    failure: PartyFailure | None = None
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"property": self.prop, "family": "party", "description": self.description, "rulesets": 1,
                "examples": self.examples, "seconds": round(self.seconds, 2),
                "result": "FAIL" if self.failure else "ok", "note": "; ".join(self.notes),
                "failure": self.failure.as_dict() if self.failure else None}


# --- the families' checks -------------------------------------------------------------------------


RoundCase = tuple[Menu, int, PartyRules, list[PartyTableau], RacePaid | None]


def _round_case(data: tuple[Menu, int, PartyRules], rng: random.Random, failing: list[RoundCase]) -> bool:
    menu, players, rules = data
    tableaux = deal(menu, players, rng)
    race = race_paid(menu, players, rng) if rng.random() < 0.5 else None
    try:
        check_party_round(menu, players, rules, tableaux, race)
    except Mismatch:
        failing[:] = [(menu, players, rules, tableaux, race)]
        raise
    return True


def _fails(case: RoundCase) -> Mismatch | None:
    try:
        check_party_round(*case)
    except Mismatch as m:
        return m
    except InputError:
        return None  # not a tableau of the domain (say, a wasabi's nigiri gone): not a smaller case
    return None


def shrink_round(case: RoundCase, first: Mismatch) -> Mismatch:
    """A smaller disagreeing round than ``case``, greedily: the race, the readings, then each item
    dropped while the executor and the model still disagree. Hypothesis's own shrinking of a
    dealt round spends minutes in Z3; this takes at most a few hundred solves."""
    menu, players, rules, tableaux, race = case
    best = first
    for smaller in ((menu, players, rules, tableaux, None), (menu, players, PartyRules(), tableaux, case[4])):
        found = _fails(smaller)
        if found is not None:
            case, best = smaller, found
            menu, players, rules, tableaux, race = case
    changed = True
    while changed:
        changed = False
        for s, seat in enumerate(tableaux):
            for k in range(len(seat)):
                trial = [*tableaux[:s], seat[:k] + seat[k + 1:], *tableaux[s + 1:]]
                found = _fails((menu, players, rules, trial, race))
                if found is not None:
                    tableaux, best, changed = trial, found, True
                    break
            if changed:
                break
    low = menu.players()[0]
    for s in reversed(range(len(tableaux))):  # then the empty seats, down to the menu's fewest players
        if players > low and not tableaux[s] and race is None:
            trial = tableaux[:s] + tableaux[s + 1:]
            found = _fails((menu, players - 1, rules, trial, race))
            if found is not None:
                tableaux, players, best = trial, players - 1, found
    return best


def check_party_desserts(menu: Menu, players: int, rules: PartyRules, rng: random.Random) -> None:
    """Three rounds in which seats take some of the menu's dessert cards: the plain game-end
    scorer and the Z3 game model must give every seat the same dessert points."""
    cards = [c for c, _ in menu.dessert.cards]
    shuffled = min(menu.dessert.copies, sum(desserts_per_round(players)))
    pool = [c for c, n in menu.dessert.cards for _ in range(n)][:shuffled]
    rng.shuffle(pool)
    rounds = []
    for _ in range(3):
        played: list[dict[str, int]] = [{} for _ in range(players)]
        for _ in range(rng.randint(0, len(pool))):
            card = pool.pop()
            seat = played[rng.randrange(players)]
            seat[card] = seat.get(card, 0) + 1
        rounds.append(RoundScore(tuple({} for _ in range(players)), {}, tuple(played)))
    plain = list(scoring.score_game(rounds, menu, rules).dessert_points or ())
    held = [[sum(r.desserts[s].get(c, 0) for r in rounds) for c in cards] for s in range(players)]
    game = GameModel(menu, players, rules)
    solved = game.solve(held)
    if solved != plain:
        shown = " | ".join(" ".join(f"{c}*{n}" for c, n in zip(cards, h, strict=True) if n) or "-"
                           for h in held)
        raise Mismatch(f"menu {menu.label}, {rules.describe()}, desserts held after 3 rounds: {shown}",
                       solved, plain, [KIND[menu.dessert.name].rule])


def _dessert_case(data: tuple[Menu, int, PartyRules], rng: random.Random) -> bool:
    check_party_desserts(*data, rng)
    return True


def check_party_turns(turns: list[list[str]]) -> bool:
    """Play ``turns`` of plain cards on the sushi-go menu turn by turn; the final tableaux must be
    the cards played and score as those tableaux. False if the deck cannot hold them (not a case)."""
    menu = parse_menu(TURNS_MENU)
    players = len(turns[0])
    try:
        tableaux = [parse_party_tableau(" ".join(t[k] for t in turns)) for k in range(players)]
        scoring.check_round(tableaux, menu)
    except InputError:
        return False
    played = play_round(turns, menu)
    case = f"menu {TURNS_MENU}, turns " + " / ".join(" ".join(t) for t in turns)
    if played.tableaux != tuple(tableaux):
        raise Mismatch(case, list(tableaux), list(played.tableaux), ["R-PARTY-TURNS"],
                       "cards played", "turn by turn")
    whole = scoring.score_round(tableaux, menu)
    if played.score.points != whole.points:
        wrong = sorted({whole.rules.get(c, "R-PARTY-TURNS") for a, b in zip(played.score.points, whole.points,
                                                                             strict=True)
                        for c in set(a) | set(b) if a.get(c) != b.get(c)})
        raise Mismatch(case, [dict(p) for p in whole.points], [dict(p) for p in played.score.points],
                       wrong, "as tableaux", "turn by turn")
    return True


@st.composite
def turn_rounds(draw: st.DrawFn) -> list[list[str]]:
    low, high = parse_menu(TURNS_MENU).players()
    players = draw(st.integers(low, high))
    card = st.sampled_from(PLAIN_CARDS)
    return draw(st.lists(st.lists(card, min_size=players, max_size=players), min_size=1,
                         max_size=hand_size(players)))


def suggested_cases() -> list[tuple[str, int]]:
    """Every suggested menu once, at player counts it seats taken in turn (2, 3, ... wrapping)."""
    out = []
    for k, name in enumerate(sorted(SUGGESTED)):
        low, high = parse_menu(name).players()
        out.append((name, low + k % (high - low + 1)))
    return out


# --- running ---------------------------------------------------------------------------------------

DESCRIPTIONS = {
    "party-round-scores": "every suggested menu, then random legal menus, 2-8 players, the readings a "
                          "final tableau shows: round points per seat and kind, executor = Z3 round model",
    "party-dessert-scores": "desserts held after three rounds: game-end dessert points, "
                            "executor = Z3 game model",
    "party-turns": "cards no kind acts on during a turn, played turn by turn = the same cards scored as "
                   "tableaux",
}


def _hypothesis(prop: str, strategy: st.SearchStrategy[Any], body: Callable[[Any], bool], examples: int,
                seed: int | None, result: PartyResult, shrink: bool = True) -> None:
    counted = [0]
    failed = [False]

    def test(data: Any) -> None:  # counts the cases compared before the first disagreement (not shrinking)
        try:
            agreed = body(data)
        except Mismatch:
            failed[0] = True
            raise
        if agreed and not failed[0]:
            counted[0] += 1

    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else [])]
    wrapped = settings(max_examples=examples, deadline=None, database=None, derandomize=seed is None,
                       suppress_health_check=list(HealthCheck), print_blob=False,
                       phases=phases)(given(strategy)(test))
    if seed is not None:
        wrapped = seeded(seed)(wrapped)
    try:
        wrapped()
    except Mismatch as m:  # Hypothesis re-raises the shrunk case's error
        result.failure = PartyFailure(prop, m, "derandomized" if seed is None else str(seed))
    result.examples += counted[0]


@st.composite
def menus_of(draw: st.DrawFn, text: str) -> tuple[Menu, int, PartyRules]:
    """As :func:`~sushigo.checks.party.menus`, the menu fixed to ``text``."""
    setup = draw(menus())
    menu = parse_menu(text, uramaki=setup[2].uramaki_split)
    low, high = menu.players()
    return menu, draw(st.integers(low, high)), setup[2]


def run_party(examples: int, seed: int | None, menu: str | None = None) -> list[PartyResult]:
    """Run the three families, ``examples`` Hypothesis cases each (plus every suggested menu once,
    or ``menu`` at every player count it seats)."""
    results = []
    t0 = time.perf_counter()
    rounds = PartyResult("party-round-scores", DESCRIPTIONS["party-round-scores"])
    rng = random.Random(f"party-check {seed}")
    if menu is None:
        fixed = suggested_cases()
    else:
        fixed = [(menu, n) for n in parse_menu(menu).seats()]
    setups = menus() if menu is None else menus_of(menu)
    # Hypothesis first: a disagreement it finds is shrunk to a minimal case.
    failing: list[RoundCase] = []
    _hypothesis(rounds.prop, st.tuples(setups, st.randoms(use_true_random=False)),
                lambda d: _round_case(d[0], d[1], failing), examples, seed, rounds, shrink=False)
    if rounds.failure is not None and failing:
        rounds.failure.mismatch = shrink_round(failing[0], rounds.failure.mismatch)
    done = 0
    for name, players in fixed if rounds.failure is None else ():
        menu_ = parse_menu(name)
        try:
            check_party_round(menu_, players, PartyRules(), deal(menu_, players, rng))
        except Mismatch as m:
            rounds.failure = PartyFailure(rounds.prop, m, "derandomized" if seed is None else str(seed))
            break
        done += 1
    rounds.examples += done
    rounds.notes.append(f"{done} fixed cases" if menu else f"{done} suggested menus")
    rounds.seconds = time.perf_counter() - t0
    results.append(rounds)

    t0 = time.perf_counter()
    desserts = PartyResult("party-dessert-scores", DESCRIPTIONS["party-dessert-scores"])
    _hypothesis(desserts.prop, st.tuples(setups, st.randoms(use_true_random=False)),
                lambda d: _dessert_case(*d), examples, seed, desserts)
    desserts.seconds = time.perf_counter() - t0
    results.append(desserts)

    t0 = time.perf_counter()
    turns = PartyResult("party-turns", DESCRIPTIONS["party-turns"])
    _hypothesis(turns.prop, turn_rounds(), check_party_turns, examples, seed, turns)
    turns.seconds = time.perf_counter() - t0
    results.append(turns)
    return results


def statement(results: list[PartyResult], menu: str | None = None) -> list[str]:
    """What the run established, one line per family, in plain words."""
    where = (f"menu {menu}, every player count it seats" if menu
             else "every suggested menu and random legal menus, 2 to 8 players")
    words = {
        "party-round-scores": "{n} Party rounds (" + where + ", every reading a final tableau shows): "
                              "the same points for every seat and kind",
        "party-dessert-scores": "{n} Party games' desserts: the same game-end dessert points for every seat",
        "party-turns": "{n} Party rounds of cards no kind acts on during a turn: played turn by turn, the "
                       "same tableaux and points as scoring the cards played",
    }
    out = []
    for r in results:
        verdict = "DISAGREE (see below)" if r.failure else (
            "the executor and the model agree" if r.prop != "party-turns" else "the two readings agree")
        out += textwrap.wrap(f"{words[r.prop].format(n=r.examples)}: {verdict}", 96, initial_indent="- ",
                             subsequent_indent="  ", break_on_hyphens=False)
    return out
