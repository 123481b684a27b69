"""Issue 18 items 4 and 5: one set of options, no abbreviations, one-line parse errors,
contradictions refused with exit 2, --version, Hypothesis' files out of the working directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sushigo.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command exits 2 with exactly one line on stderr, which is returned."""
    code, _out, err = run(capsys, *argv)
    assert code == 2, (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# ------------------------------------------------------------------ item 4: parsing


def test_abbreviated_long_option_is_refused_naming_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "check", "--rul", "official")
    assert line.startswith("sushigo check: error:"), line
    assert "--rul" in line and "(see 'sushigo check --help')" in line


def test_missing_argument_error_names_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "score")
    assert line.startswith("sushigo score: error:") and "'sushigo score --help'" in line


def _check_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    code, out, err = run(capsys, "check", "--only", "round-scores", "--examples", "3", "--no-edge",
                         "--jobs", "1", "--json", *extra)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_check_rule_is_an_override_not_the_ruleset_option(capsys: pytest.CaptureFixture[str]) -> None:
    # Before, argparse read '--rule' as an abbreviation of '--ruleset' and failed on the
    # unknown ruleset 'maki_first_tie=each'.
    from sushigo.api.check import check_outcome

    _check_json(capsys, "--rule", "maki_first_tie=each", "--rules", "official")
    out = check_outcome(only="round-scores", examples=3, no_edge=True, jobs=1, rules="official",
                        rule={"maki_first_tie": "each"})
    opts = out.detail[0]
    assert [r.maki_first_tie for r in opts.rulesets] == ["each"]
    assert [r.name for r in opts.rulesets] != ["official"]  # the override is visible in the name


def test_check_rules_and_ruleset_are_one_option(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.api.check import check_outcome

    assert check_outcome(only="round-scores", examples=1, no_edge=True, jobs=1,
                         rules="dutch").detail[0].rulesets[0].name == "dutch"
    line = refused(capsys, "check", "--rules", "nope", "--only", "round-scores")
    assert "unknown ruleset 'nope'" in line


def test_check_unknown_rule_parameter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "check", "--rule", "no_such=1", "--only", "round-scores")
    assert "unknown rule parameter 'no_such'" in line


# ------------------------------------------------------------------ item 4: contradictions


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_check_jobs_below_one_refused(capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    line = refused(capsys, "check", "--jobs", jobs)
    assert "--jobs" in line and repr(jobs) in line


def test_check_jobs_zero_refused_by_the_api() -> None:
    from sushigo.spec.errors import InputError

    from sushigo.api.check import check

    with pytest.raises(InputError, match="--jobs"):
        check(jobs=0, only="round-scores")


# ------------------------------------------------------------------ item 5: Hypothesis' files


def test_check_writes_nothing_into_the_working_directory(tmp_path: Path) -> None:
    cwd, cache = tmp_path / "cwd", tmp_path / "cache"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("SUSHIGO_HYPOTHESIS_DIR", "HYPOTHESIS_STORAGE_DIRECTORY")}
    env["XDG_CACHE_HOME"] = str(cache)
    proc = subprocess.run([sys.executable, "-m", "sushigo", "check", "--only", "round-scores",
                           "--examples", "3", "--no-edge", "--jobs", "1", "--json"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert list(cwd.iterdir()) == []
    probe = ("import sushigo.checks.runner; from hypothesis.configuration import storage_directory;"
             " print(storage_directory('x', intent_to_write=False).home_directory)")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == cache / "sushigo" / "hypothesis"
    env["SUSHIGO_HYPOTHESIS_DIR"] = "off"
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache2")
    proc = subprocess.run([sys.executable, "-m", "sushigo", "check", "--only", "round-scores",
                           "--examples", "3", "--no-edge", "--jobs", "1", "--json"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert list(cwd.iterdir()) == [] and not (tmp_path / "cache2").exists()


def test_generated_cases_ignore_the_constants_of_local_modules() -> None:
    # Hypothesis draws literal constants from modules outside site-packages; an editable
    # checkout is such a module, a wheel is not, so counts would differ between installs.
    import sushigo.checks.runner  # noqa: F401  (installs the hook)
    from hypothesis.internal.conjecture import providers

    sys.modules["sushigo_local_probe"] = type(sys)("sushigo_local_probe")
    constants = providers._get_local_constants()
    assert (len(constants.integers), len(constants.strings), len(constants.floats)) == (0, 0, 0)


def test_check_json_records_the_hypothesis_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert _check_json(capsys)["hypothesis"] == version("hypothesis")


def test_rules_takes_rules_and_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.api.rules import rules

    code, out, err = run(capsys, "rules", "--rule", "maki_first_tie=each", "--json")
    assert code == 0, err
    shown = json.loads(out)["rulesets"]
    assert len(shown) == 1 and shown[0]["readings"]["maki_first_tie"] == "each"
    assert shown[0]["name"].startswith("official")
    code, out, err = run(capsys, "rules", "--rules", "dutch", "--json")
    assert code == 0, err
    assert [r["name"] for r in json.loads(out)["rulesets"]] == ["dutch"]
    shown = rules(rules="official", rule=["maki_first_tie=each"])["rulesets"]
    assert [r["readings"]["maki_first_tie"] for r in shown] == ["each"]
    assert "--rules" in refused(capsys, "rules", "dutch", "--rules", "official")


def test_puzzle_verify_under_a_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    # The shipped puzzles were generated and judged under the official rules (their positions
    # say so), so re-solving them under --rules official must find no problem.
    code, out, err = run(capsys, "puzzle", "--verify", "--rules", "official", "--json")
    assert code == 0, err
    assert json.loads(out)["problems"] == []
    assert "--verify" in refused(capsys, "puzzle", "--show", "1", "--rule", "maki_first_tie=each")


# Sushi Go! is for 2 to 5 players; most maki icons scores 6, the most any one player can get
# (RULES.md, maki; seeds/ rulebook scoring page).
@pytest.mark.parametrize(("argv", "needle"), [
    (("best", "--game", "--round"), "--round and --game"),
    (("table", "--input", "QUERY", "--scores", "3,3"), "drop --scores"),
    (("tableaux", "--maki-points", "7", "--score", "10", "--cards", "3"), "0 to 6"),
    (("tableaux", "--maki-points", "-1", "--score", "10", "--cards", "3"), "0 to 6"),
    (("tableaux", "--facts", "--count", "--unreachable", "--cards", "3"), "give one"),
    (("tableaux", "--count", "--unreachable", "--cards", "3"), "give one"),
    (("tableaux", "--facts", "--unreachable", "--score", "3", "--cards", "3"), "give one"),
    (("play", "--players", "-1"), "2 to 5"),
    (("play", "--players", "1"), "2 to 5"),
    (("play", "--players", "6"), "2 to 5"),
    (("scoresheet", "SHEET", "--rlimit", "-1", "--timeout", "-1"), "not a budget"),
    (("scoresheet", "SHEET", "--timeout", "-1"), "not a budget"),
    (("endgame", "--time-limit", "nan"), "not a budget"),
    (("endgame", "--time-limit", "-1"), "not a budget"),
])
def test_contradictory_or_out_of_range_options_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], needle: str
) -> None:
    query = tmp_path / "q.json"
    query.write_text(json.dumps({"scores": [3, 3]}))
    argv = tuple(str(query) if a in ("QUERY", "SHEET") else a for a in argv)
    line = refused(capsys, *argv)
    assert line.startswith(f"sushigo {argv[0]}: error:") and needle in line, line


def test_edge_values_still_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    # The range ends themselves are legal: 6 maki points (sole most icons), 2 and 5 players.
    code, out, err = run(capsys, "tableaux", "--maki-points", "6", "--score", "6", "--cards", "1", "--json")
    assert code == 0, err
    # By hand: maki points need maki icons, so one card scoring 6 with them is a maki roll
    # alone (maki1, maki2 or maki3); every other single card scores 0 to 3 points of its own.
    assert json.loads(out)["count"] == 3
    for n in ("2", "5"):
        code, out, err = run(capsys, "play", "--players", n, "--json")
        assert code == 0, err
        assert len(json.loads(out)["totals"]) == int(n)


def test_boolean_scores_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from sushigo.spec.errors import InputError

    from sushigo.api.table import table

    query = tmp_path / "q.json"
    query.write_text(json.dumps({"scores": [True, 3]}))
    assert "True" in refused(capsys, "table", "--input", str(query))
    with pytest.raises(InputError, match="whole numbers"):
        table(scores=[True, 3])


def test_version_is_the_installed_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, err = run(capsys, "--version")
    assert code == 0, err
    assert out.strip() == f"sushigo {version('sushigo-spec')}"
