"""Tests of ``checks``: the strategies' oracle, the enumerated tie structures, the runner, the mutants.

Expected values are worked by hand from RULES.md or are known sequences (the
Fubini numbers count ordered partitions: OEIS A000670).
"""

from __future__ import annotations

import itertools
import json

import pytest
from sushigo.checks import edge_cases as E
from sushigo.checks import runner as R
from sushigo.checks.mutants import MUTANTS
from sushigo.checks.properties import Mismatch, check_turn, oracle_turn
from sushigo.checks.strategies import TurnCase, tableau_of_picks
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import OFFICIAL, RULESETS
from sushigo.spec.tableau import Tableau, parse_tableau

from sushigo.cli import main


def picks(text: str) -> list[Card]:
    return [Card[w.upper()] for w in text.split()]


@pytest.mark.parametrize(("order", "tableau"), [
    # RULES.md: a nigiri taken while a free wasabi lies in front of you goes on it...
    ("wasabi squid", "wasabi+squid"),
    # ...and a wasabi never goes on a nigiri already played.
    ("squid wasabi", "squid wasabi"),
    # Each wasabi holds one nigiri, oldest wasabi first.
    ("wasabi wasabi egg salmon squid", "squid wasabi+egg wasabi+salmon"),
    ("egg wasabi salmon wasabi", "egg wasabi wasabi+salmon"),
])
def test_tableau_of_picks_places_nigiri_by_order(order: str, tableau: str) -> None:
    assert tableau_of_picks(picks(order)) == parse_tableau(tableau)


def _hand(*cards: Card) -> tuple[int, ...]:
    h = [0] * len(Card)
    for c in cards:
        h[int(c)] += 1
    return tuple(h)


def test_oracle_forbids_chopsticks_taken_this_turn() -> None:
    # RULES.md: chopsticks help only from a later turn (R-CHOPSTICKS-EARLIER).
    rule, _, _ = oracle_turn(_hand(Card.CHOPSTICKS, Card.SQUID), Tableau.parse("-").counts,
                             [(Card.CHOPSTICKS, None), (Card.SQUID, None)], OFFICIAL)
    assert rule == "R-CHOPSTICKS-EARLIER"


def test_oracle_returns_used_chopsticks_to_the_hand() -> None:
    start = Tableau.parse("chopsticks").counts
    rule, hand, tab = oracle_turn(_hand(Card.WASABI, Card.SQUID, Card.EGG), start,
                                  [(Card.WASABI, None), (Card.SQUID, None)], OFFICIAL)
    assert rule is None
    assert Tableau(tab) == parse_tableau("wasabi+squid")  # designer ruling: same-turn wasabi counts
    assert hand == _hand(Card.EGG, Card.CHOPSTICKS)


def test_check_turn_reports_a_disagreement_in_notation() -> None:
    # A nigiri kept off a free wasabi is illegal under automatic placement; the executor agrees.
    case = TurnCase(_hand(Card.EGG), Tableau.parse("wasabi").counts, ((Card.EGG, False),))
    check_turn(case, OFFICIAL)


@pytest.mark.parametrize(("n", "fubini"), [(1, 1), (2, 3), (3, 13), (4, 75), (5, 541)])
def test_weak_orders_are_counted_by_the_fubini_numbers(n: int, fubini: int) -> None:
    orders = E.weak_orders(n)
    assert len(orders) == fubini
    assert len(set(orders)) == fubini


def _realises(structure: str, values: list[int]) -> bool:
    """Read '{0,2} > {1}=0' back and test the values against it, independently of the solver."""
    zero = structure.endswith("=0")
    groups = [[int(x) for x in g.strip("{}").split(",")] for g in structure.removesuffix("=0").split(" > ")]
    reps = [values[g[0]] for g in groups]
    return (all(values[s] == values[g[0]] for g in groups for s in g)
            and all(a > b for a, b in itertools.pairwise(reps))
            and ((reps[-1] == 0) if zero else reps[-1] > 0))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_maki_witness_realises_its_structure(seats: int) -> None:
    cases = E.maki_cases(seats)
    assert len(cases) == 2 * len(E.weak_orders(seats))
    for case in cases:
        assert case.value is not None, case  # 2..4 seats: the deck realises every structure
        tabs = case.tableaux()
        assert all(t.size <= OFFICIAL.hand_size(seats) for t in tabs)
        assert _realises(case.structure, [t.maki_icons() for t in tabs]), case


def test_pudding_structures_beyond_the_deck_are_impossible() -> None:
    # Five distinct positive pudding counts need at least 1+2+3+4+5 = 15 puddings; the deck has 10.
    by_name = {c.structure: c for c in E.pudding_cases(5)}
    assert by_name["{0} > {1} > {2} > {3} > {4}"].value is None
    # With the lowest at zero, 0+1+2+3+4 = 10 fits exactly.
    v = by_name["{0} > {1} > {2} > {3} > {4}=0"].value
    assert v == (4, 3, 2, 1, 0)


def test_quick_run_of_every_property_passes() -> None:
    opts = R.Options(examples=40, rulesets=[RULESETS["official"], RULESETS["dutch"]], edge=False)
    outs = R.run_all(opts)
    assert {o.prop for o in outs} >= {"round-scores", "pudding-scores", "winners", "turn-rules",
                                      "pick-orders", "turn-machine", "executor-games"}
    for o in outs:
        assert o.status in ("ok", "skipped"), (o.prop, o.failure and o.failure.text())
        if o.status == "ok":
            assert o.examples > 0


def test_a_mutant_failure_names_case_rules_and_seed() -> None:
    mutant = next(m for m in MUTANTS if m.name == "pudding-penalty-2p")
    opts = R.Options(examples=200, rulesets=[OFFICIAL], only=("pudding-scores",), edge=False, seed=3)
    with mutant.active():
        [out] = R.run_all(opts)
    assert out.failure is not None
    assert "R-PUDDING-2P" in out.failure.rule_ids
    assert out.failure.seed == "--seed 3"
    assert "--seed 3" in out.failure.text()
    # The shrunk case: two players with different pudding counts (RULES.md: no penalty with 2 players).
    counts = json.loads(out.failure.case.split("puddings ")[1].split(" (")[0])
    assert len(counts) == 2 and counts[0] != counts[1]
    assert out.failure.expected_by == "Z3 model" and out.failure.actual_by == "executor"


def test_the_floor_division_mutant_is_caught_by_the_enumerated_ties() -> None:
    mutant = next(m for m in MUTANTS if m.name == "pudding-floor-division")
    with mutant.active():
        [out] = R.run_edges(R.Options(rulesets=[OFFICIAL], only=("edge-pudding-ties",)))
    assert out.failure is not None and "R-PUDDING-SPLIT" in out.failure.rule_ids
    # Only 4 or more tied for fewest tell -6 // n from -(6 // n) apart (n = 4: -2 against -1).
    counts = json.loads(out.failure.case.split("puddings ")[1].split(" (")[0])
    assert counts.count(min(counts)) >= 4


def test_mutants_are_undone() -> None:
    import sushigo.spec.scoring as scoring
    import sushigo.spec.turns as turns

    before = (scoring.pudding_points, turns.apply_turn)
    for m in MUTANTS:
        with m.active():
            pass
    assert (scoring.pudding_points, turns.apply_turn) == before


def test_there_are_at_least_ten_mutants() -> None:
    assert len({m.name for m in MUTANTS}) >= 10


@pytest.mark.parametrize("name", [m.name for m in MUTANTS])
def test_every_mutant_is_caught(name: str) -> None:
    # The real thing, with a smaller budget than the CLI's default (one ruleset, 100 cases a property).
    opts = R.Options(examples=100, rulesets=[OFFICIAL])
    [out] = R.run_mutants(opts, [name])
    assert out.caught_by is not None, f"mutant {name} was not caught"


def test_mismatch_is_an_assertion() -> None:
    assert issubclass(Mismatch, AssertionError)


def test_cli_check_json_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--examples", "30", "--ruleset", "french", "--only", "pudding-scores",
                 "--no-edge", "--json", "--jobs", "1"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] is True
    assert [p["property"] for p in out["properties"]] == ["pudding-scores"]
    assert main(["check", "--only", "no-such-property"]) == 2
    assert "unknown property" in capsys.readouterr().err
    assert main(["check", "--examples", "0"]) == 2
    assert main(["check", "--ruleset", "frnch"]) == 2


def test_cli_mutants_reports_the_catching_property(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--mutants", "--mutant", "dumplings-past-five", "--examples", "100",
                 "--ruleset", "official", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    [m] = out["mutants"]
    assert m["caught_by"] is not None and "dumpling" in m["case"]


def test_a_required_module_that_fails_to_import_fails_the_property(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a module that is not there at all skips a property. One that is there but cannot be
    imported (here: a name its import asks for does not exist, as when a worker forked before an
    upgrade meets new code; or a dependency of its own is missing) is a broken install: the
    property fails, so the run is not ok. It was reported "skipped" and the run "ok" with none
    of its cases checked."""
    from hypothesis import strategies as st
    from sushigo.checks.properties import Property

    (tmp_path / "sg_broken_name.py").write_text("from sushigo.spec.errors import no_such_name\n")
    (tmp_path / "sg_broken_dep.py").write_text("import sg_no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def prop(requires: tuple[str, ...]) -> Property:
        return Property("p", "f", "d", lambda rules: st.just(0), lambda case, rules: None, requires=requires)

    opts = R.Options(examples=5, rulesets=[OFFICIAL], edge=False)
    for broken in ("sg_broken_name", "sg_broken_dep"):
        out = R.run_given(prop(("sushigo.spec.cards", broken)), opts)
        assert out.status == "FAIL" and out.failure is not None and out.examples == 0
        assert out.failure.actual.startswith(f"{broken} does not import (")
        cause = "no_such_name" if broken == "sg_broken_name" else "sg_no_such_dependency"
        assert cause in out.failure.actual
    absent = R.run_given(prop(("sushigo.checks.sg_not_written_yet",)), opts)
    assert absent.status == "skipped" and "sushigo.checks.sg_not_written_yet not available" in absent.note
    whole = R.run_given(prop(("sushigo.spec.cards",)), opts)
    assert whole.status == "ok" and whole.examples > 0


def test_an_edge_family_that_crashes_fails_instead_of_a_traceback() -> None:
    """As a property's crash: the family fails with the error and where it happened, and the run is
    not ok (it was a traceback through the worker pool)."""
    def crash_cases(rules: object) -> list[E.EdgeCase]:
        raise RuntimeError("no cases today")

    def crash_run(case: E.EdgeCase, rules: object) -> None:
        raise ZeroDivisionError("a case that divides by zero")

    opts = R.Options(examples=5, rulesets=[OFFICIAL], edge=True)
    out = R._edge_outcome("edge-x", "d", (), opts, crash_cases, R._run_round)
    assert out.status == "FAIL" and out.failure is not None
    assert out.failure.case == "(enumerating the cases)"
    assert out.failure.actual == "RuntimeError: no cases today"
    out = R._edge_outcome("edge-x", "d", (), opts, R._maki, crash_run)
    assert out.status == "FAIL" and out.failure is not None and out.examples == 0
    assert out.failure.case.startswith("maki structure ")
    assert out.failure.actual == "ZeroDivisionError: a case that divides by zero"
