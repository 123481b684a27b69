"""Every pinned position (spec/data/pinned.json) evaluated through the Z3 model, under every named ruleset.

The expected values in the data file were worked by hand (each case names its
source); the model must give exactly them, and the same as spec.scoring.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sushigo.spec as spec
import z3
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.deal import deck_constraints, pudding_carry
from sushigo.spec.model.game import build_game
from sushigo.spec.model.scoring import pudding_terms, round_terms, tableau_vars, winner_terms
from sushigo.spec.ruleset import RULESETS, Ruleset
from sushigo.spec.scoring import CATEGORIES, pudding_points, score_game, score_round, winners
from sushigo.spec.tableau import parse_tableau

PINNED = Path(spec.__file__).parent / "data" / "pinned.json"
CASES: list[dict[str, Any]] = json.loads(PINNED.read_text(encoding="utf-8"))["cases"]


def _expected(case: dict[str, Any], name: str) -> dict[str, Any]:
    exp: dict[str, Any] = case["expect"].get(name, case["expect"]["default"])
    return exp


def _solve(m: Model) -> z3.ModelRef:
    s = m.solver()
    assert s.check() == z3.sat
    return s.model()


def _ints(model: z3.ModelRef, terms: list[z3.ArithRef]) -> list[int]:
    return [model.eval(t, model_completion=True).as_long() for t in terms]


def _fix(m: Model, tabs: list[list[z3.ArithRef]], texts: list[str]) -> None:
    for vs, text in zip(tabs, texts, strict=True):
        m.add("FACT", [v == k for v, k in zip(vs, parse_tableau(text).counts, strict=True)], text)


def _round(case: dict[str, Any], rules: Ruleset) -> dict[str, Any]:
    m = Model()
    texts = case["input"]["tableaux"]
    tabs = [tableau_vars(m, f"p{i}", rules) for i in range(len(texts))]
    _fix(m, tabs, texts)
    seats = round_terms(m, "r0", tabs, rules)
    mod = _solve(m)
    out = {c: _ints(mod, [d[c] for d in seats]) for c in CATEGORIES}
    out["totals"] = _ints(mod, [d["total"] for d in seats])
    return out


def _game(case: dict[str, Any], rules: Ruleset) -> dict[str, Any]:
    m = Model()
    rounds = case["input"]["rounds"]
    seats = len(rounds[0])
    finals, scores = [], []
    for r, texts in enumerate(rounds):
        tabs = [tableau_vars(m, f"p{i}_r{r}", rules) for i in range(seats)]
        _fix(m, tabs, texts)
        scores.append(round_terms(m, f"r{r}", tabs, rules))
        finals.append(tabs)
    puddings = pudding_carry(m, finals, seats)
    pudding = pudding_terms(m, "game", puddings, rules)
    totals = [z3.Sum([sc[i]["total"] for sc in scores] + [pudding[i]]) for i in range(seats)]
    players = seats - 1 if rules.dummy_2p and seats == 3 else seats
    wins = winner_terms(m, "game", totals, puddings, rules, players)
    mod = _solve(m)
    return {"pudding": _ints(mod, pudding), "totals": _ints(mod, totals),
            "winners": [i for i, w in enumerate(wins) if z3.is_true(mod.eval(w, model_completion=True))]}


def _deck(rules: Ruleset) -> dict[str, Any]:
    """Card copies as the largest number the model lets be dealt over a game."""
    counts = {}
    for c in Card:
        m = Model()
        deals = [[[m.int(f"r{r}_{k.label}", 0) for k in Card]] for r in range(rules.rounds)]
        deck_constraints(m, deals, rules)
        dealt = z3.Sum([d[0][int(c)] for d in deals])
        opt = z3.Optimize()
        opt.add(*m.constraints())
        h = opt.maximize(dealt)
        assert opt.check() == z3.sat
        counts[c.label] = h.value().as_long()
    return {"counts": counts, "total": sum(counts.values())}


def _hand_size(rules: Ruleset, players: int) -> int:
    """The only hand size the deal rules of a 1-round game model allow a seat."""
    gm = build_game(rules, players, rounds=1)
    dealt = z3.Sum(gm.rounds[0].deal[0])
    # The deal and the ranges alone settle it (the turns follow from the deal).
    s = z3.Solver()
    for rid, _, cs in gm.model.groups:
        if rid in ("R-DEAL", "R-DOMAIN", "R-DECK"):
            s.add(*cs)
    assert s.check() == z3.sat
    size = s.model().eval(dealt).as_long()
    s.add(dealt != size)
    assert s.check() == z3.unsat
    return int(size)


NAMES = list(RULESETS)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_pinned_case_through_the_model(case: dict[str, Any]) -> None:
    kind, inp = case["kind"], case["input"]
    for name in NAMES:
        rules = RULESETS[name]
        exp = _expected(case, name)
        if kind == "round":
            got = _round(case, rules)
            ref = score_round([parse_tableau(t) for t in inp["tableaux"]], rules)
            assert got["totals"] == [s.total for s in ref], name
            for key, value in exp.items():
                assert got[key] == value, (name, key)
        elif kind == "pudding":
            m = Model()
            pv = [m.int(f"p{i}_puddings", 0) for i in range(len(inp["puddings"]))]
            m.add("FACT", [v == k for v, k in zip(pv, inp["puddings"], strict=True)])
            pts = pudding_terms(m, "game", pv, rules)
            got_p = _ints(_solve(m), pts)
            assert got_p == exp["pudding"] == pudding_points(inp["puddings"], rules), name
        elif kind == "winners":
            m = Model()
            tv = [z3.IntVal(x) for x in inp["totals"]]
            pv2 = [z3.IntVal(x) for x in inp["puddings"]]
            wins = winner_terms(m, "w", tv, pv2, rules)
            mod = _solve(m)
            got_w = [i for i, w in enumerate(wins) if z3.is_true(mod.eval(w, model_completion=True))]
            assert got_w == exp["winners"] == winners(inp["totals"], inp["puddings"], rules), name
        elif kind == "game":
            got_g = _game(case, rules)
            ref_g = score_game([[parse_tableau(t) for t in r] for r in inp["rounds"]], rules)
            assert got_g["totals"] == list(ref_g.totals) and got_g["winners"] == list(ref_g.winners), name
            for key, value in exp.items():
                assert got_g[key] == value, (name, key)
        elif kind == "deck":
            if name not in ("official", "dummy-2p"):
                continue  # the deck is a rule number shared by every named ruleset
            got_d = _deck(rules)
            assert got_d["counts"] == exp["counts"] and got_d["total"] == exp["total"], name
            sizes = {p: _hand_size(rules, int(p)) for p in exp["hand_sizes"]}
            assert sizes == exp["hand_sizes"], name
            seats = {p: build_game(rules, int(p), rounds=1).seats for p in exp["seats"]}
            assert seats == exp["seats"], name
        else:
            raise AssertionError(f"unknown pinned kind {kind!r}")


def test_every_kind_is_covered() -> None:
    assert {c["kind"] for c in CASES} <= {"round", "pudding", "game", "deck", "winners"}
    assert len(Token) == 15
