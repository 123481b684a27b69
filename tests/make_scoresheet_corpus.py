"""Write ``tests/scoresheet_corpus.json``: the scoresheet test corpus (deterministic; rerun to regenerate).

    python tests/make_scoresheet_corpus.py

Possible sheets are recorded from executor games (spec.executor.play_game, seeds listed).
Impossible sheets alter one cell of a recorded sheet; where the change is impossible by a
reasoning independent of the Z3 model, ``check`` names that reasoning and ``expect`` is its
verdict:

* ``above-round-max``: the cell exceeds the most K cards can score by brute force
  (brute.formula_counts) plus the most maki points any reading pays.
* ``pudding-row``: no pudding counts give that row (brute force over every count vector).
* ``totals-sum``: the totals cell is not the sum of its column (rounds + pudding).
* ``unreachable-cell``: a round cell below the bound that no tableau of K cards reaches with any
  maki share the ruleset pays (brute force: formula_counts for each share, every share found by
  spec.scoring.maki_points over small icon vectors).

Cells altered by a small amount have ``check: "tool"``: the label is the tool's own, kept
for the record; the tests check such entries by re-scoring the witness or by the altered
cell appearing in the explanation, not by the label.
"""

from __future__ import annotations

import itertools
import json
import pathlib
from typing import Any

from brute import formula_counts
from sushigo.spec.cards import Card
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import Ruleset, get_ruleset
from sushigo.spec.scoring import maki_points, pudding_points

OUT = pathlib.Path(__file__).with_name("scoresheet_corpus.json")
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli")

GAMES: tuple[tuple[str, int, int], ...] = (
    # (ruleset, players, seed)
    ("official", 2, 1), ("official", 2, 2), ("official", 3, 1), ("official", 3, 2), ("official", 3, 3),
    ("official", 4, 1), ("official", 4, 2), ("official", 4, 3), ("official", 5, 1), ("official", 5, 2),
    ("french", 3, 4), ("dutch", 4, 4), ("slovenian", 4, 5), ("pass-both-ways", 3, 6),
    ("pass-both-ways", 4, 7), ("dummy-2p", 2, 8), ("dummy-2p", 2, 9),
)


def round_bound(rules: Ruleset, players: int) -> int:
    k = rules.hand_size(players)
    return max(formula_counts(k, 0, rules)) + rules.maki_first_points


def maki_shares(rules: Ruleset, seats: int) -> set[int]:
    return {p for icons in itertools.product(range(4), repeat=seats) for p in maki_points(icons, rules)}


def unreachable_cell(rules: Ruleset, players: int) -> int | None:
    """The lowest round score that no tableau reaches with any maki share."""
    k, seats = rules.hand_size(players), rules.seats(players)
    shares = maki_shares(rules, seats)
    reach = {s for m in shares for s in formula_counts(k, m, rules)}
    missing = [v for v in range(round_bound(rules, players)) if v not in reach]
    return min(missing) if missing else None


def pudding_rows(rules: Ruleset, seats: int, players: int) -> set[tuple[int, ...]]:
    cap = rules.copies(Card.PUDDING)
    return {tuple(pudding_points(c, rules)[:players])
            for c in itertools.product(range(cap + 1), repeat=seats) if sum(c) <= cap}


def main() -> None:
    cases: list[dict[str, Any]] = []
    for name, players, seed in GAMES:
        rules = get_ruleset(name)
        g = play_game(players, seed, rules)
        sheet: dict[str, Any] = {
            "rules": name,
            "players": list(NAMES[:players]),
            "rounds": [list(r.scores[:players]) for r in g.rounds],
            "pudding": list(g.pudding[:players]) if g.pudding is not None else None,
            "totals": list(g.totals[:players]),
        }
        src = f"sushigo.spec.executor.play_game(players={players}, seed={seed}, rules={name})"
        cases.append({"id": f"{name}-{players}p-seed{seed}", "source": src, "check": "recorded",
                      "expect": "possible", "sheet": sheet})
        seats = rules.seats(players)
        # one altered cell per game, rotating through the kinds of change
        kind = seed % 4 if players > 2 or name == "dummy-2p" else seed % 2 * 3
        bad = json.loads(json.dumps(sheet))
        who = seed % players
        if kind == 0:
            r = seed % rules.rounds
            bad["rounds"][r][who] = round_bound(rules, players) + 1 + seed
            check, expect, what = "above-round-max", "impossible", f"round {r + 1}, {NAMES[who]}"
        elif kind == 1:
            rows = pudding_rows(rules, seats, players)
            row = list(sheet["pudding"])
            for delta in (1, 2, 3, 6, -1, -2):
                row[who] = sheet["pudding"][who] + delta
                if tuple(row) not in rows:
                    break
            bad["pudding"] = row
            bad["totals"] = None
            check, expect, what = "pudding-row", "impossible", f"pudding, {NAMES[who]}"
        elif kind == 2:
            bad["totals"][who] += 1 + seed % 3
            check, expect, what = "totals-sum", "impossible", f"total, {NAMES[who]}"
        else:
            r = (seed + 1) % rules.rounds
            bad["rounds"][r][who] += 1
            bad["totals"] = None
            bad["pudding"] = None
            check, expect, what = "tool", None, f"round {r + 1}, {NAMES[who]}"
        cases.append({"id": f"{name}-{players}p-seed{seed}-altered", "source": f"{src}, {what} altered",
                      "check": check, "expect": expect, "altered": what, "sheet": bad})
        value = unreachable_cell(rules, players)
        if value is not None:
            bad = json.loads(json.dumps(sheet))
            r = (seed + 2) % rules.rounds
            bad["rounds"][r][who] = value
            bad["totals"] = None
            what = f"round {r + 1}, {NAMES[who]}"
            cases.append({"id": f"{name}-{players}p-seed{seed}-unreachable",
                          "source": f"{src}, {what} set to {value}", "check": "unreachable-cell",
                          "expect": "impossible", "altered": what, "sheet": bad})
    # tool-labelled entries get their label from the tool (documented as such)
    from sushigo.solver.scoresheet import check_sheet, parse_sheet

    for case in cases:
        if case["check"] == "tool":
            verdict = check_sheet(parse_sheet(case["sheet"]))
            case["expect"] = verdict.status
    OUT.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "cases": cases}, indent=1) + "\n")
    print(f"wrote {len(cases)} sheets to {OUT}")


if __name__ == "__main__":
    main()
