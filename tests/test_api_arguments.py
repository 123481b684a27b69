"""The public functions refuse a wrong argument with one InputError naming it, never a
TypeError, AttributeError, OverflowError, Z3 error or hang from deep inside (found by probing
every parameter of every public function with a value of every type: tools/fuzz_cli.py's
report lists the probe). Valid forms the documentation promises stay accepted."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import OFFICIAL

import sushigo
from sushigo.api.arguments import describe

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORD = str(EXAMPLES / "record-2p.json")
PUZZLE = str(EXAMPLES / "puzzle.json")
POSITION = str(EXAMPLES / "position.json")

# (function, valid keyword arguments, the parameter replaced, the wrong value, words of the message)
WRONG: list[tuple[str, dict[str, Any], str, Any, str]] = [
    ("tableaux", {"score": 6}, "cards", 3.0, "cards must be a whole number or None, got 3.0"),
    ("tableaux", {"cards": 3}, "score", math.nan, "score must be a whole number or None, got nan"),
    ("tableaux", {"cards": 3, "score": 6}, "limit", "x", "limit must be a whole number or None"),
    ("tableaux", {"cards": 3, "score": 6}, "must", [None], "must must be a string or a list of strings"),
    ("tableaux", {"cards": 3, "score": 6}, "maki_points", None, "maki_points must be a whole number"),
    ("play", {"players": 2}, "seed", "x", "seed must be a whole number, got 'x'"),
    ("play", {"players": 2}, "games", 3.0, "games must be a whole number"),
    ("play", {}, "players", "2", "players must be a whole number or None"),
    ("play", {"players": 2}, "policy", 3, "policy must be a string or a list"),
    ("play", {"players": 2}, "rule", True, "rule must be a string or a mapping"),
    ("score", {}, "input", ["egg", 3], "input must be a mapping or a string or a path or a list"),
    ("score", {}, "input", b"egg", "input must be"),
    ("best", {"input": PUZZLE}, "timeout", None, "timeout must be a number, got None"),
    ("endgame", {"input": POSITION}, "max_nodes", 2.5, "max_nodes must be a whole number"),
    ("scoresheet", {"input": {"players": ["A", "B"], "rounds": [[3, 2]]}}, "rlimit", "9", "rlimit must be"),
    ("puzzle", {}, "show", "1", "show must be a whole number or None"),
    ("schema", {}, "name", 3, "name must be a string or None"),
]


@pytest.mark.parametrize(("name", "kwargs", "param", "value", "words"), WRONG,
                         ids=[f"{w[0]}-{w[2]}-{w[3]!r:.10}" for w in WRONG])
def test_a_wrong_type_names_the_parameter(name: str, kwargs: dict[str, Any], param: str, value: Any,
                                          words: str) -> None:
    with pytest.raises(InputError) as caught:
        getattr(sushigo, name)(**{**kwargs, param: value})
    assert f"sushigo.{name}: {words}" in str(caught.value)


# Values no game or budget reaches: were an OverflowError, a hang (play) or accepted silently.
OUT_OF_RANGE: list[tuple[str, dict[str, Any], str]] = [
    ("play", {"players": 2, "games": 10**400}, "--games must be a whole number from 1 to 10000000"),
    ("best", {"input": PUZZLE, "timeout": math.inf}, "--timeout must be a number of seconds above 0"),
    ("best", {"input": PUZZLE, "timeout": 10**400}, "--timeout must be a number of seconds above 0"),
    ("endgame", {"input": POSITION, "time_limit": 10**400}, "--time-limit a number of seconds up to"),
    ("endgame", {"input": POSITION, "time_limit": math.nan}, "--time-limit a number of seconds up to"),
]


@pytest.mark.parametrize(("name", "kwargs", "words"), OUT_OF_RANGE,
                         ids=[f"{o[0]}-{sorted(o[1])[-1]}-{o[2][:12]}" for o in OUT_OF_RANGE])
def test_a_value_out_of_range_is_refused(name: str, kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError, match=words):
        getattr(sushigo, name)(**kwargs)


@pytest.mark.parametrize(("call", "value"), [
    ("replay", 3), ("replay", [None]), ("rules", b"official"), ("diff", object()),
], ids=["replay-int", "replay-list", "rules-bytes", "diff-object"])
def test_a_ruleset_that_is_no_name_is_refused(call: str, value: Any) -> None:
    # Was: AttributeError ('int' object has no attribute 'lower') from get_ruleset.
    kwargs: dict[str, Any] = {"replay": {"input": RECORD, "rules": value}, "rules": {"rules": value},
                              "diff": {"a": value, "b": "french", "players": [2], "timeout": 3}}[call]
    with pytest.raises(InputError, match=r"a ruleset is named by a string|rules must be a ruleset.s name"):
        getattr(sushigo, call)(**kwargs)


def test_the_documented_forms_stay_accepted(tmp_path: Path) -> None:
    # docs/designing.md: rules= takes a name, a path (str or pathlib.Path), a Ruleset or a dict;
    # rule= a mapping, a list of NAME=VALUE texts, or one such text.
    # R-TEMPURA: a pair of tempura scores 5 (official); R-EGG: an egg nigiri 1.
    for rules in ("official", OFFICIAL, {"tempura_points": 5}):
        assert sushigo.score(["tempura*2", "egg"], rules=rules)["totals"] == [5, 1]
    for rule in ("tempura_points=6", ["tempura_points=6"], {"tempura_points": 6}):
        assert sushigo.score(["tempura*2", "egg"], rule=rule)["totals"] == [6, 1]
    assert sushigo.replay(Path(RECORD))["ok"] is True
    assert sushigo.replay(RECORD, rules=OFFICIAL)["ok"] is True
    assert sushigo.tableaux(cards=3, score=6, limit=1)["count"] >= 1
    assert sushigo.diff("official", "official", players=2, timeout=5)["format"] == "sushigo-diff/1"


def test_describe_reads_the_annotations() -> None:
    assert describe(int | None) == "a whole number or None"
    assert describe(list[str]) == "a list of strings"
    assert describe(float | bool) == "a number or True or False"
