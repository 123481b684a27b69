"""Rulesets: named variants, overrides, numbers from the rulebook."""

from __future__ import annotations

import pytest
from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError
from sushigo.spec.ruleset import OFFICIAL, PARAMETERS, RULESETS, SINGLE_READING_VARIANTS, get_ruleset


def test_deck_composition_from_the_rulebook() -> None:
    # Rulebook component list: 108 cards; maki 6x1, 12x2, 8x3; 10 salmon, 5 squid, 5 egg.
    expected = {
        Card.TEMPURA: 14, Card.SASHIMI: 14, Card.DUMPLING: 14,
        Card.MAKI1: 6, Card.MAKI2: 12, Card.MAKI3: 8,
        Card.EGG: 5, Card.SALMON: 10, Card.SQUID: 5,
        Card.PUDDING: 10, Card.WASABI: 6, Card.CHOPSTICKS: 4,
    }
    assert {c: OFFICIAL.copies(c) for c in Card} == expected
    assert OFFICIAL.deck_size() == 108


def test_hand_sizes() -> None:
    assert [OFFICIAL.hand_size(n) for n in (2, 3, 4, 5)] == [10, 9, 8, 7]
    with pytest.raises(RulesError, match="2 to 5 players"):
        OFFICIAL.hand_size(6)
    assert RULESETS["dummy-2p"].hand_size(2) == 9


def test_single_reading_variants_differ_from_official_in_one_parameter() -> None:
    base = OFFICIAL.readings()
    for name in SINGLE_READING_VARIANTS:
        readings = RULESETS[name].readings()
        assert sum(readings[k] != base[k] for k in base) == 1, name


def test_every_reading_has_a_named_ruleset() -> None:
    for p in PARAMETERS:
        values = {getattr(r, p.name) for r in RULESETS.values()}
        assert values == set(p.values), p.name


def test_overrides() -> None:
    r = get_ruleset("official", ["maki_first_tie=each", "pudding-penalty-2p=yes"])
    assert r.maki_first_tie == "each" and r.pudding_penalty_2p is True
    assert "maki_first_tie=each" in r.name


@pytest.mark.parametrize(
    ("name", "overrides", "message"),
    [
        ("oficial", [], "did you mean 'official'"),
        ("official", ["maki_first_tie=double"], "choose one of split, each, half"),
        ("official", ["nonsense=1"], "unknown rule parameter"),
        ("official", ["maki_first_tie"], "NAME=VALUE"),
        ("official", ["pudding_penalty_2p=maybe"], "choose one of no, yes"),
    ],
)
def test_bad_rules(name: str, overrides: list[str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        get_ruleset(name, overrides)


def test_pass_both_ways_passes_right_in_round_two() -> None:
    r = RULESETS["pass-both-ways"]
    assert [r.pass_offset(i) for i in range(3)] == [1, -1, 1]
    assert [OFFICIAL.pass_offset(i) for i in range(3)] == [1, 1, 1]


# --- the package spec/ruleset/ (issue 27 item 8) ---------------------------------------------

#: The public names of spec/ruleset.py before it became a package (main at 5b8695a, read off the
#: file by hand): code, tests and docs import them from sushigo.spec.ruleset.
NAMES_OF_THE_MODULE = {
    "MakiFirstTie", "MakiSecondTie", "PenaltyRounding", "PuddingAllTied", "WasabiPlacement",
    "WinnerTie", "Passing", "Effect", "Observability", "Parameter", "PARAMETERS",
    "PARAMETER_BY_NAME", "Shape", "NumberParameter", "NUMBERS", "NUMBER_BY_NAME", "PLAYER_LIMITS",
    "SETTABLE_BY_NAME", "format_number", "validate_numbers", "parse_number", "Ruleset",
    "parse_value", "OFFICIAL", "RULESETS", "SINGLE_READING_VARIANTS", "get_ruleset",
    "apply_overrides", "format_value",
}


def test_the_package_exports_the_names_the_module_had() -> None:
    import sushigo.spec.ruleset as package

    assert set(package.__all__) == NAMES_OF_THE_MODULE
    star: dict[str, object] = {}
    exec("from sushigo.spec.ruleset import *", star)
    assert set(star) - {"__builtins__"} == NAMES_OF_THE_MODULE
    # each name is defined in one of the package's modules, not picked up from elsewhere
    outside = {name for name in NAMES_OF_THE_MODULE
               if getattr(getattr(package, name), "__module__", "sushigo.spec.ruleset.")
               .rpartition(".")[0] != "sushigo.spec.ruleset"}
    assert outside == set()


def test_rulesets_pickle_into_a_fresh_process() -> None:
    # Worker processes (check, conform, play --jobs) receive rulesets pickled; the readings'
    # enum members must come back as the members themselves, the numbers as tuples.
    import pickle
    import subprocess
    import sys

    sent = [*RULESETS.values(), get_ruleset("dutch", ["deck.squid=9", "dumpling_points=1,2,4"])]
    code = ("import pickle, sys\n"
            "from sushigo.spec.cards import Card\n"
            "from sushigo.spec.ruleset import RULESETS, MakiFirstTie, get_ruleset\n"
            "got = pickle.loads(sys.stdin.buffer.read())\n"
            "want = [*RULESETS.values(), get_ruleset('dutch', ['deck.squid=9', 'dumpling_points=1,2,4'])]\n"
            "assert got == want and [r.name for r in got] == [r.name for r in want], 'rulesets differ'\n"
            "assert got[-1].maki_first_tie is MakiFirstTie.HALF and got[-1].copies(Card.SQUID) == 9\n"
            "print('ok')")
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(sent, protocol=protocol),
                              capture_output=True, timeout=120)
        assert done.stdout.decode().strip() == "ok", done.stderr.decode()
