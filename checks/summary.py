"""What a ``sushigo check`` run established, in the rules' words (issue 31, item 3).

The family table (``sushigo check --table``) names checks (``edge-maki-ties``, ``turn-machine``);
a rules lawyer or a scorekeeper asks which rules were held against which, under which rulesets,
on how many cases, and whether the two sides agreed. :func:`statement` says that, one line per
check, naming the rule ids of the catalogue (``sushigo rules --catalogue``). It reads the
outcomes only: nothing here imports Hypothesis or Z3.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sushigo.spec.ruleset import PARAMETERS

if TYPE_CHECKING:
    from sushigo.checks.runner import Options, PropertyResult

#: Per check: what agreeing on its cases establishes (``{n}`` the cases, ``{players}`` the player
#: counts), and the rule ids it holds. The contested readings a check exercises (their
#: ``check_family``) are added to its ids by :func:`rule_ids`, so a new reading needs no line here.
ESTABLISHED: dict[str, tuple[str, tuple[str, ...]]] = {
    "edge-maki-ties": (
        "every way maki icon totals can tie among {players} players ({n} cases): the same first and "
        "second places and points from the executor and the Z3 model",
        ("R-MAKI-ICONS", "R-MAKI-ZERO", "R-MAKI-FIRST", "R-MAKI-SECOND", "R-MAKI-POINTS")),
    "edge-pudding-ties": (
        "every way pudding counts can tie among {players} players ({n} cases): the same pudding "
        "points from the executor and the Z3 model",
        ("R-PUDDING-MOST", "R-PUDDING-FEWEST")),
    "edge-dish-counts": (
        "every count of every scoring card one tableau can hold ({n} cases): the same points from "
        "the executor and the Z3 model",
        ("R-TEMPURA", "R-SASHIMI", "R-DUMPLING", "R-NIGIRI")),
    "edge-wasabi-orders": (
        "every order of up to 4 wasabi and nigiri picks ({n} cases), played a card a turn: the "
        "nigiri each wasabi holds and the points, executor = Z3 model",
        ("R-WASABI-ONE", "R-NIGIRI")),
    "round-scores": (
        "{n} rounds of {players} players: the same tempura, sashimi, dumpling, nigiri and maki "
        "points and round total for every player from the executor and the Z3 model",
        ("R-TEMPURA", "R-SASHIMI", "R-DUMPLING", "R-NIGIRI", "R-MAKI-FIRST", "R-MAKI-SECOND",
         "R-ROUND-TOTAL")),
    "pudding-scores": (
        "{n} end-of-game pudding counts: the same pudding points (most gains, fewest loses, ties "
        "shared) from the executor and the Z3 model",
        ("R-PUDDING", "R-PUDDING-MOST", "R-PUDDING-FEWEST")),
    "winners": (
        "{n} final totals with puddings: the same winners (ties broken by most puddings) from the "
        "executor and the Z3 model",
        ("R-WINNER",)),
    "game-totals": (
        "{n} whole games of three rounds from one deck: the same pudding points, game totals and "
        "winners from the executor and the Z3 model",
        ("R-DECK", "R-PUDDING-CARRY", "R-GAME-TOTAL", "R-WINNER")),
    "turn-rules": (
        "{n} proposed turns, legal or not: the executor allows exactly the turns a second, "
        "independent reading of the turn rules allows, and leaves the same hand and tableau",
        ("R-PICK", "R-CHOPSTICKS-EARLIER", "R-CHOPSTICKS-ONCE", "R-CHOPSTICKS-RETURN", "R-WASABI-ONE")),
    "pick-orders": (
        "{n} pick orders played a card a turn: the executor leaves the tableau the placement "
        "rules give",
        ("R-TABLEAU", "R-WASABI-ONE")),
    "mixed-readings": (
        "{n} rounds and pudding counts under mixtures of the contested readings that no named "
        "ruleset holds: executor = Z3 model",
        ("R-ROUND-TOTAL", "R-PUDDING-MOST", "R-PUDDING-FEWEST")),
    "solver-best": (
        "{n} puzzles: the best play of the Z3 engine and of the search score the same, replay "
        "through the executor to that score, and no legal play scores more",
        ("R-PICK", "R-ROUND-TOTAL")),
    "solver-tableaux": (
        "{n} tableaux questions: every tableau listed has the cards asked and the executor scores "
        "it as asked",
        ("R-ROUND-TOTAL",)),
    "executor-games": (
        "{n} steps of played games: every card of the deck accounted for after every step, and "
        "each whole record (deal, picks, tableaux, scores, puddings, winners) satisfies the Z3 "
        "model of the rules",
        ("R-DEAL", "R-HAND", "R-PICK", "R-RECORD", "R-SCORE")),
    "turn-machine": (
        "{n} steps of a state machine playing any legal turn to the round's end: no card lost, "
        "each hand one card smaller a turn, round scores = the Z3 model",
        ("R-HAND-SIZE", "R-LAST-CARD", "R-CHOPSTICKS-RETURN", "R-ROUND-TOTAL")),
}

#: The width the statement is wrapped to.
WIDTH = 100


def rule_ids(check: str) -> tuple[str, ...]:
    """The rule ids ``check`` holds: its own, then the readings it exercises."""
    own = ESTABLISHED[check][1] if check in ESTABLISHED else ()
    readings = tuple(p.rule_id for p in PARAMETERS if p.check_family == check and p.rule_id not in own)
    return own + readings


def _players(opts: Options) -> str:
    low = min(r.min_players for r in opts.rulesets)
    high = max(r.max_players for r in opts.rulesets)
    return f"{low}" if low == high else f"{low} to {high}"


def _claim(o: PropertyResult, opts: Options) -> str:
    text = ESTABLISHED[o.prop][0] if o.prop in ESTABLISHED else f"{o.description} ({{n}} cases)"
    return text.format(n=o.examples, players=_players(opts))


def _item(head: str, body: str) -> list[str]:
    return textwrap.wrap(body, WIDTH, initial_indent=f"{head} ", subsequent_indent="    ",
                         break_on_hyphens=False)  # a rule id stays whole


def statement(outs: Sequence[PropertyResult], opts: Options) -> list[str]:
    """The lines saying what the run ``outs`` established, under ``opts``' rulesets."""
    names = [r.name for r in opts.rulesets]
    count = "1 ruleset" if len(names) == 1 else f"{len(names)} rulesets"
    lines = _item("Held against each other under", f"{count} ({', '.join(names)}):")
    failed, unknown, unfinished = [], 0, []
    for o in outs:
        ids = ", ".join(rule_ids(o.prop))
        if o.status == "skipped":
            lines += _item("-", f"not checked: {o.prop} ({o.note})")
            continue
        if o.failure is not None:
            failed.append(o)
            lines += _item("- DISAGREE:", f"{o.prop} under {o.failure.ruleset}: the two sides differ on "
                           f"a case of {ids} (the case, both results and how to reproduce it are below)")
            continue
        if o.status != "ok":  # a stop cut it short: nothing it holds is claimed
            unfinished.append(o.prop)
            lines += _item("- NOT FINISHED:", f"{o.prop} ({ids}): interrupted before it finished")
            continue
        unknown += o.unknown
        lines += _item("-", f"{_claim(o, opts)} ({ids})")
    if failed:
        verdict = (f"A disagreement in {len(failed)} of {len(outs)} checks "
                   f"({', '.join(o.prop for o in failed)}): the two sides read a rule differently; "
                   "every other check agreed on every case.")
    elif unfinished:
        verdict = (f"Interrupted: {len(unfinished)} of {len(outs)} checks did not finish "
                   f"({', '.join(unfinished)}); no disagreement was found in the cases compared.")
    else:
        verdict = "Every case agreed: the two sides of each check above read its rules alike."
    if unknown:
        verdict += f" {unknown} cases were left unknown within the solver's budget and not compared."
    lines += ["", *textwrap.wrap(verdict, WIDTH)]
    return lines
