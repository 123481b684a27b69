"""A model built once per shape (spec.model.rulevars) states each ruleset's rules.

``sushigo check`` asks a template, whose rule numbers and readings are inputs, instead of
building a model per ruleset. Expected values come from an independent computation: the
ruleset's own model (its numbers written into its terms, as every other command builds it)
decided by Z3's solver, on the executor's values and on one moved off by one, under named
rulesets, drawn readings, changed rule numbers, a longer dumpling table and another deck.
Both the template's compiled evaluator and the template itself decided by the solver (the
rule values as facts) are held to it, so the symbolic statement is tested, not only its
compilation.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.checks import properties as P
from sushigo.checks import strategies as S
from sushigo.spec import scoring
from sushigo.spec.cards import Token
from sushigo.spec.model import facts as F
from sushigo.spec.model.rulevars import shape_of
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from test_check_compiled import NUMBER_BASES, SETTINGS, maki_cases
from test_check_evaluate import game_model_case, round_cases

#: Numbers a designer changes that the named rulesets never do: another shape (a dumpling table
#: of 7 entries) and other deck copies (the copies bound every count of the model).
OTHER = (
    OFFICIAL.replace(name="dumplings-7", dumpling_points=(0, 1, 3, 6, 10, 15, 21)),
    OFFICIAL.replace(name="deck-small", deck={"squid": 2, "tempura": 17, "pudding": 7, "maki2": 15,
                                                 "wasabi": 3, "egg": 8},
                     tempura_set=3, sashimi_set=2, nigiri_points=(2, 2, 4), maki_icons=(1, 1, 4)),
)


def any_rulesets() -> st.SearchStrategy[Ruleset]:
    bases = st.sampled_from([*NUMBER_BASES, *OTHER])
    return st.one_of(S.named_rulesets(), st.sampled_from(OTHER), bases.flatmap(S.rulesets))


def _moved(outputs: list[Any], k: int) -> list[Any]:
    out = list(outputs)
    k %= len(out)
    out[k] = (not out[k]) if isinstance(out[k], bool) else out[k] + (1 if k % 2 else -1)
    return out


def _both(kind: str, rules: Ruleset, seats: int, inputs: list[int], outputs: list[Any], k: int) -> None:
    """The template (compiled, and by the solver) answers as the ruleset's own model's solver."""
    own = P._BUILDERS[kind][1](rules, seats)
    tm = P.template(kind, rules, seats)
    ev = tm.checker.evaluator("compiled")
    assert ev is not None, (kind, rules.name)
    values = tm.rule_vars.values(rules)
    for claim in (outputs, _moved(outputs, k)):
        want = own._decide([*own.facts(inputs), *own.claims(claim)])
        full = [*values, *inputs]
        assert ev.agrees(full, claim) == want, (kind, rules.name, inputs, claim)
        assert tm.checker._decide([*tm.checker.facts(full), *tm.checker.claims(claim)]) == want
    P.release_models()


@SETTINGS
@given(round_cases(any_rulesets()))
def test_round_template(case: tuple[Ruleset, list[int], list[Any], int]) -> None:
    rules, inputs, outputs, k = case
    _both("round", rules, len(inputs) // len(Token), inputs, outputs, k)


@SETTINGS
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.pudding_counts(r), st.integers(0, 10**6))))
def test_pudding_template(case: tuple[Ruleset, tuple[int, ...], int]) -> None:
    rules, counts, k = case
    _both("pudding", rules, len(counts), list(counts), list(scoring.pudding_points(counts, rules)), k)


@SETTINGS
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.totals_and_puddings(r),
                                                  st.integers(0, 10**6))))
def test_winner_template(case: tuple[Ruleset, tuple[tuple[int, ...], tuple[int, ...]], int]) -> None:
    rules, (totals, puds), k = case
    won = scoring.winners(totals, puds, rules, S.players_of(rules, len(totals)))
    n = len(P.template("winner", rules, len(totals)).checker.outputs)
    _both("winner", rules, len(totals), [*totals, *puds], [i in won for i in range(n)], k)


@settings(SETTINGS, max_examples=20)
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.games(r), st.integers(0, 10**6))))
def test_game_template(case: tuple[Ruleset, S.Game, int]) -> None:
    rules, game, k = case
    _, inputs, outputs = game_model_case(rules, game)
    _both("game", rules, game.seats, inputs, outputs, k)


@SETTINGS
@given(maki_cases())
def test_maki_template(case: tuple[Ruleset, list[int], list[int], int]) -> None:
    rules, inputs, outputs, k = case
    _both("maki", rules, len(inputs) // len(P._MAKI_TOKENS), inputs, outputs, k)


@SETTINGS
@given(st.lists(st.integers(-3, 16), min_size=3, max_size=3), st.lists(st.integers(-7, 12), min_size=3,
       max_size=3), st.integers(0, 10**6), st.sampled_from([OFFICIAL, *OTHER]))
def test_out_of_the_decks_domain(puds: list[int], claims: list[int], k: int, rules: Ruleset) -> None:
    """Counts beyond the deck's copies (the copies are inputs of a template): no, as the own model says."""
    _both("pudding", rules, 3, puds, claims, k)


def test_one_template_serves_every_named_ruleset() -> None:
    """The named rulesets share one shape per seat count: the scoring models are built once per
    seat count and builder, and agreeing cases build no model of their own ruleset."""
    P.release_templates()
    P.release_models()
    shapes = {shape_of(r) for r in RULESETS.values() if not r.dummy_2p}
    assert len(shapes) == 1
    tabs = S.Table(((),)).tableaux(OFFICIAL) * 2
    for rules in RULESETS.values():
        if not rules.dummy_2p:
            P.compare_round(tabs, rules)
    assert len(P._TEMPLATES) == 1 and P.round_model.cache_info().currsize == 0


def test_a_disagreement_is_the_own_models() -> None:
    """A claim the template refuses is decided, valued and explained by the ruleset's own model."""
    P.release_models()
    ch = P.shaped("round", OFFICIAL, 2)
    tabs = S.Table(((),)).tableaux(OFFICIAL) * 2
    inputs = [n for t in tabs for n in t.counts]
    outputs = P._flat_round(P.executor_round(tabs, OFFICIAL))
    assert ch.agrees(inputs, outputs) and P.round_model.cache_info().currsize == 0
    wrong = _moved(outputs, 5)  # seat 0's total one off
    assert not ch.agrees(inputs, wrong)
    assert P.round_model.cache_info().currsize == 1
    assert ch.expected(inputs) == outputs
    assert "R-ROUND-TOTAL" in ch.explain(inputs, wrong)


def _record_facts(rules: Ruleset, players: int, record: Any) -> tuple[Any, list[Any]]:
    tm = P._game_template(rules, players)
    return tm, [(F.FACT, "rules", tm.rule_vars.facts(rules)),
                *F.record_facts(tm, record, tableaux=True, scores=True, end=True)]


def test_game_turn_template_decides_records_as_the_own_model() -> None:
    """Played records satisfy the whole-game template under their ruleset's numbers; the same record
    with one round score moved does not, under the template nor under the ruleset's own model."""
    import sushigo.spec.executor as ex

    cases = [(OFFICIAL, 2, 1), (RULESETS["wasabi-strict"], 3, 2), (RULESETS["pass-both-ways"], 4, 3),
             (RULESETS["dummy-2p"], 2, 4), (OTHER[1], 3, 5), (RULESETS["dutch"], 3, 6)]
    for rules, players, seed in cases:
        record = ex.play_game(players, seed, rules, ["random"] * players)
        tm, facts = _record_facts(rules, players, record)
        assert F.check(tm.model, facts, solve_eqs=True, want_model=False).status == "sat", rules.name
        bad = record.to_json()
        bad["rounds"][0]["scores"][0] += 1
        tm, facts = _record_facts(rules, players, bad)
        assert F.check(tm.model, facts, solve_eqs=True, want_model=False).status == "unsat", rules.name
        own = P._game_turn_model(rules, players)
        assert F.check(own.model, F.record_facts(own, bad, tableaux=True, scores=True, end=True),
                       solve_eqs=True, want_model=False).status == "unsat"
    # wasabi-strict differs from official in the turn rules only: one template serves both
    assert P._game_template(RULESETS["wasabi-strict"], 3) is P._game_template(OFFICIAL, 3)


def test_ties_under_every_named_ruleset() -> None:
    """The ties each reading decides (maki, pudding, winners), under every named ruleset: drawn
    cases reach some of them rarely, so they are listed here."""
    for rules in RULESETS.values():
        seats = 3
        for totals, puds in [((10, 10, 5), (2, 2, 1)), ((9, 9, 9), (1, 1, 1)), ((7, 3, 7), (0, 4, 0))]:
            won = scoring.winners(totals, puds, rules, S.players_of(rules, seats))
            n = len(P.template("winner", rules, seats).checker.outputs)
            _both("winner", rules, seats, [*totals, *puds], [i in won for i in range(n)], 1)
            _both("pudding", rules, seats, list(puds), list(scoring.pudding_points(puds, rules)), 2)
        for maki in [(1, 0, 0, 1, 0, 0, 0, 0, 0), (0, 1, 0, 2, 0, 0, 0, 0, 1), (0, 0, 1, 0, 0, 1, 0, 0, 1)]:
            tabs = []
            for i in range(seats):
                vec = [0] * len(Token)
                for t, c in zip(P._MAKI_TOKENS, maki[3 * i:3 * i + 3], strict=True):
                    vec[int(t)] = c
                tabs.append(vec)
            from sushigo.spec.tableau import Tableau

            outputs = [d["maki"] for d in P.executor_round([Tableau(tuple(t)) for t in tabs], rules)]
            _both("maki", rules, seats, list(maki), outputs, 0)
