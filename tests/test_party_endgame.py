"""``sushigo endgame --game party``: exact two-player values (worked by hand from RB p8's nigiri
points), a last turn against the turn-by-turn scorer, the paranoid value, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sushigo.solver.party.endgame import parse_position, solve_party_endgame
from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import parse_menu
from sushigo.spec.party.turns import play_round

from sushigo.cli import main


def test_two_nigiri_each_is_a_saddle_point_worked_by_hand() -> None:
    # seat 0 holds squid+egg, seat 1 egg+salmon; hands swap after turn 1 (RB p8: 1 / 2 / 3).
    # diffs: (squid, salmon) 4-3=1, (squid, egg) 5-2=3, (egg, salmon) 2-5=-3, (egg, egg) 3-4=-1
    pos = parse_position({"menu": "sushi-go", "hands": ["squid egg", "egg salmon"]})
    res = solve_party_endgame(pos)
    assert res.value == 1 and res.rows == (("squid", 1),) and res.cols == (("salmon", 1),)


def test_the_last_turn_scores_as_the_whole_round() -> None:
    turns = [["wasabi", "maki2"], ["tempura", "tempura"]]
    pos = parse_position({"menu": "sushi-go", "hands": ["squid", "maki1"], "turns": turns})
    totals = play_round([*turns, ["squid", "maki1"]], parse_menu("sushi-go")).score.totals
    assert solve_party_endgame(pos).value == totals[0] - totals[1]


def test_a_mixed_value_and_the_paranoid_value() -> None:
    pos = parse_position({"menu": "sushi-go", "hands": ["squid tempura maki3", "wasabi tempura egg"],
                          "turns": [["wasabi", "maki2"], ["chopsticks-1", "tempura"]]})
    res = solve_party_endgame(pos)
    assert res.status == "optimal" and sum(p for _, p in res.rows) == 1 == sum(p for _, p in res.cols)
    three = parse_position({"menu": "sushi-go", "hands": ["squid egg", "egg salmon", "tempura maki1"]})
    worst = solve_party_endgame(three)
    assert worst.objective == "paranoid" and worst.value is not None and 2 <= worst.value <= 5


def test_cli_and_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"menu": "sushi-go", "hands": ["squid egg", "egg salmon"]}))
    assert main(["endgame", "--game", "party", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "1"
    path.write_text(json.dumps({"menu": "sushi-go", "hands": ["squid egg", "egg"]}))
    assert main(["endgame", "--game", "party", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the same number of cards" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(InputError, match="eel is not on the menu"):
        parse_position({"menu": "sushi-go", "hands": ["eel", "egg"]})
