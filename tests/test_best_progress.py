"""``sushigo best --round/--game`` over all deals: the open range narrowing, shown on a terminal
(issue 18, item 5). Expected maxima are worked by hand (tests/test_best_alldeals.py) and checked
against the brute force there: 45 for a 2-player round."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from sushigo.solver.alldeals import best_over_deals
from sushigo.solver.search import STATUS_OPTIMAL
from sushigo.spec.ruleset import OFFICIAL
from test_table_budget import _on_pty

STEP = re.compile(r"^(best (?:losing )?(?:round|game), \d players): (nothing found yet|(\d+) found), "
                  r"(\?|\d+)\.\.(\?|\d+) open(?:, (bounding|asking for \d+))?$")

# 2 players, 10 cards: five wasabi+squid (5 x 9) or four, a maki and a squid (36 + 6 + 3).
ROUND_MAX_2P = 45


def _steps(messages: list[str], label: str) -> list[tuple[int | None, int | None]]:
    """(best found, proved bound) of each step of one question."""
    out = []
    for msg in messages:
        m = STEP.match(msg)
        assert m is not None, msg
        if m.group(1) == label:
            out.append((None if m.group(3) is None else int(m.group(3)),
                        None if m.group(5) == "?" else int(m.group(5))))
    return out


def test_round_steps_narrow_to_the_proved_maximum() -> None:
    messages: list[str] = []
    res = best_over_deals(2, "round", OFFICIAL, progress=messages.append)
    assert res.status == STATUS_OPTIMAL and res.score == ROUND_MAX_2P
    steps = _steps(messages, "best round, 2 players")
    assert len(steps) >= 3
    found = [b for b, _ in steps if b is not None]
    bounds = [h for _, h in steps if h is not None]
    assert found == sorted(found) and found[-1] == ROUND_MAX_2P  # better games only
    assert bounds == sorted(bounds, reverse=True)  # the bound only falls
    assert all(h >= ROUND_MAX_2P for h in bounds)  # never below the true maximum
    assert all(b <= h for b, h in steps if b is not None and h is not None)


def test_game_steps_include_the_round_bound() -> None:
    messages: list[str] = []
    # proved optimal in about 4 s on a quiet machine (the round maximum well before): the budget
    # (wall time) leaves room for a loaded CI box
    res = best_over_deals(2, "game", OFFICIAL, timeout=30, progress=messages.append)
    assert res.score is not None
    # the game's bound starts from the solved round maximum: 3 rounds x 45 + 6 for puddings
    assert _steps(messages, "best round, 2 players")[-1][0] == ROUND_MAX_2P
    game = _steps(messages, "best game, 2 players")
    bounds = [h for _, h in game if h is not None]
    assert bounds and bounds[0] == 3 * ROUND_MAX_2P + OFFICIAL.pudding_most_points
    assert bounds == sorted(bounds, reverse=True) and bounds[-1] >= res.score
    assert [b for b, _ in game if b is not None][-1] == res.score


def test_progress_on_a_terminal_only() -> None:
    argv = ["best", "--round", "--players", "2"]
    code, out, err = _on_pty(argv, seconds=600)
    assert code == 0 and f"round   2          {ROUND_MAX_2P}" in out
    assert "best round, 2 players: " in err and " open" in err and err.endswith("\r\033[K")
    assert "\033[K" not in out
    code, out, err = _on_pty([*argv, "--json"], seconds=600)
    assert code == 0 and json.loads(out)["results"][0]["best"]["score"] == ROUND_MAX_2P
    assert err == ""
    done = subprocess.run([sys.executable, "-m", "sushigo", *argv], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and done.stderr == ""
