"""Z3 certifies the search: for positions of up to 3 turns, each first pick's pure guarantee g is proved.

For every first pick the solver shows (see :func:`solver.endgame.certify_guarantee`): player 0 can
force >= g, the opponent can force <= g, and player 0 cannot force >= g + 1. The turns are encoded
independently of :mod:`spec.turns` and the final scores come from :mod:`spec.model.scoring`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sushigo.solver.endgame import Position, certify_guarantee, random_position, solve_two
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import OFFICIAL, get_ruleset

sys.path.insert(0, str(Path(__file__).parent))
from test_endgame import crafted


def _positions() -> list[tuple[str, Position]]:
    out = []
    for seed in range(3):
        out.append((f"random-r{1 + seed}-{seed}", random_position(seed, 2, 3, OFFICIAL, 1 + seed)))
    out.append(("random-k2", random_position(11, 2, 2, OFFICIAL, 3)))
    for seed, rules in ((1, "official"), (2, "wasabi-strict"), (3, "wasabi-optional"), (4, "pass-both-ways")):
        out.append((f"crafted-{rules}", crafted(seed, 3, rules=get_ruleset(rules), rnd=1 + seed % 3)))
    return out


@pytest.mark.parametrize(("name", "pos"), _positions())
def test_every_first_pick_guarantee_is_proved(name: str, pos: Position) -> None:
    res = solve_two(pos, "diff")
    assert res.status == "solved"
    for pv in res.first_picks:
        cert = certify_guarantee(pos, pv.turn, int(pv.guarantee))
        assert cert.status == "proved", (name, pv, cert)


def test_own_objective_is_proved_too() -> None:
    pos = crafted(7, 3, rnd=3)
    res = solve_two(pos, "own")
    for pv in res.first_picks:
        assert certify_guarantee(pos, pv.turn, int(pv.guarantee), "own").status == "proved"


def test_wrong_guarantees_are_refuted() -> None:
    pos = crafted(1, 3)
    pv = solve_two(pos, "diff").first_picks[0]
    g = int(pv.guarantee)
    high = certify_guarantee(pos, pv.turn, g + 1)
    assert high.status == "refuted" and high.holds is False and high.opponent_holds is True
    low = certify_guarantee(pos, pv.turn, g - 1)
    assert low.status == "refuted" and low.holds is True and low.better_refuted is False


def test_certification_is_for_short_endgames() -> None:
    with pytest.raises(InputError, match="up to 3 turns"):
        pos = random_position(1, 2, 4)
        certify_guarantee(pos, solve_two(pos).first_picks[0].turn, 0)


def test_cli_certify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sushigo.cli import main

    path = tmp_path / "p.json"
    path.write_text(json.dumps(random_position(2, 2, 3, OFFICIAL, 3).to_json()))
    assert main(["endgame", str(path), "--certify", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["certified"] for p in out["first_picks"]] == ["proved"] * len(out["first_picks"])
    path.write_text(json.dumps(random_position(2, 2, 4).to_json()))
    assert main(["endgame", str(path), "--certify"]) == 2
    assert "up to 3 turns" in capsys.readouterr().err
