"""Issue 31, item 4: the frictions a new user met, each held by a test that failed before its fix."""

from __future__ import annotations

import pytest

from sushigo.cli import main


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command exits 2 with exactly one line on stderr, which is returned."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2, (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ------------------------------------------------------------------ did-you-mean, commands and options


@pytest.mark.parametrize(("argv", "hint"), [
    (("scroe",), "did you mean 'score'?"),
    (("tablaeux",), "did you mean 'tableaux'?"),
    (("check", "--profile", "quik"), "did you mean 'quick'?"),
    (("completion", "fsh"), "did you mean 'fish'?"),  # any choice, not only commands
])
def test_a_misspelt_choice_names_the_nearest(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                             hint: str) -> None:
    line = refused(capsys, *argv)
    assert f"invalid choice: {argv[-1]!r}" in line and f"; {hint} (see '" in line, line


@pytest.mark.parametrize(("argv", "hint"), [
    (("play", "--player", "3"), "did you mean --players?"),
    (("play", "--player=3"), "did you mean --players?"),
    (("score", "tempura*2", "sashimi", "--jsno"), "did you mean --json?"),
    (("best", "examples/puzzle.json", "--engin", "z3"), "did you mean --engine?"),
])
def test_a_misspelt_option_names_the_nearest(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                             hint: str) -> None:
    line = refused(capsys, *argv)
    assert line.startswith(f"sushigo {argv[0]}: error: unrecognized arguments: "), line
    assert f"; {hint} (see 'sushigo {argv[0]} --help')" in line


def test_nothing_near_names_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert "did you mean" not in refused(capsys, "zzzzzz")
    assert "did you mean" not in refused(capsys, "play", "--qqqqqqqq")


# ------------------------------------------------------------ Game.hand / Game.tableau print in the notation


def test_the_step_api_hand_and_tableau_print_in_the_notation() -> None:
    from collections import Counter

    from sushigo.spec.cards import Card
    from sushigo.spec.game import Game
    from sushigo.spec.tableau import HandCounts, Tableau, TableauCounts

    game = Game.new(4, 7)
    hand = game.hand(0)
    # Independent of the formatter: the dealt cards counted by name, in Card order.
    dealt = Counter(c.label for c in game.dealt(0)[0])
    want = " ".join(name if dealt[name] == 1 else f"{name}*{dealt[name]}" for name in
                    (c.label for c in Card) if dealt[name])
    assert str(hand) == want
    assert repr(hand) == f"HandCounts.parse({want!r})" and eval(repr(hand)) == hand
    # still the tuple of counts it was: equal, hashed and indexed as one
    assert hand == tuple(dealt[c.label] for c in Card) and hash(hand) == hash(tuple(hand))
    assert hand[Card.TEMPURA] == dealt["tempura"]

    turn = game.legal_actions(0)[0]
    after = game.apply([turn] + [game.legal_actions(s)[0] for s in range(1, 4)])
    tableau = after.tableau(0)
    assert str(tableau) == str(Tableau(tuple(tableau))) != "-"
    assert eval(repr(tableau)) == tableau and isinstance(tableau.tableau(), Tableau)
    assert str(Game.new(2, 1).tableau(1)) == "-"
    assert isinstance(tableau, TableauCounts) and isinstance(hand, HandCounts)


# ------------------------------------------------------------------ PettingZoo render_mode="human"


def test_pettingzoo_render_test_passes_in_every_mode() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test

    from sushigo import pettingzoo as pz

    assert "human" in pz.SushiGoParallelEnv.metadata["render_modes"]
    render_test(lambda render_mode=None: pz.env(players=3, render_mode=render_mode))


def test_pettingzoo_render_shows_each_seats_hand(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo")
    from collections import Counter

    from sushigo.spec.cards import Card
    from sushigo.spec.game import Game

    from sushigo import pettingzoo as pz

    # reset(seed=S) deals the hands of 'sushigo play --seed S': the step API's first deal.
    dealt = Counter(c.label for c in Game.new(3, 11).dealt(0)[2])
    want = " ".join(n if dealt[n] == 1 else f"{n}*{dealt[n]}" for n in (c.label for c in Card) if dealt[n])
    ansi = pz.parallel_env(players=3, render_mode="ansi")
    ansi.reset(seed=11)
    text = ansi.render()
    assert text is not None and f"player_2: hand {want} | tableau -" in text.splitlines()
    human = pz.parallel_env(players=3, render_mode="human")
    human.reset(seed=11)
    assert human.render() is None
    assert capsys.readouterr().out == text + "\n"


# ------------------------------------------------------------------ help(sushigo.score) says what it returns


def test_the_public_functions_annotate_what_they_return() -> None:
    import inspect
    import pydoc

    import sushigo
    from sushigo.api.base import DOCUMENT, DOCUMENTS

    functions = [n for n in sushigo.__all__ if n[0].islower() and callable(getattr(sushigo, n))]
    assert "score" in functions and "check" in functions
    for name in functions:
        returns = inspect.signature(getattr(sushigo, name)).return_annotation
        assert "Outcome" not in str(returns), name
    assert inspect.signature(sushigo.score).return_annotation == DOCUMENT == "dict[str, Any]"
    assert inspect.signature(sushigo.replay).return_annotation == DOCUMENTS  # a list for many records
    assert inspect.signature(sushigo.ruleset).return_annotation == "Ruleset"
    assert "-> 'dict[str, Any]'" in pydoc.render_doc(sushigo.score)
    # and they do return that: a dict, a list where the annotation says one may come
    assert isinstance(sushigo.score(["tempura*2", "sashimi"]), dict)
    assert isinstance(sushigo.rules(), dict) and isinstance(sushigo.schema(), dict)
    assert isinstance(sushigo.puzzle(list=True), list)
    assert inspect.signature(sushigo.puzzle).return_annotation == DOCUMENTS
    # the parameters are the command's own, as before
    assert list(inspect.signature(sushigo.score).parameters) == ["input", "rules", "rule", "game", "menu"]


# ------------------------------------------------------------------ check says what it established


def _outcomes() -> tuple[list[object], object]:
    from sushigo.checks.runner import Failure, Options, PropertyResult
    from sushigo.spec.ruleset import RULESETS

    opts = Options(examples=40, rulesets=[RULESETS["official"], RULESETS["dutch"]])
    outs = [
        PropertyResult("round-scores", "scoring", "", rulesets=2, examples=51),
        PropertyResult("winners", "scoring", "", rulesets=2, examples=44, unknown=3),
        PropertyResult("pudding-scores", "scoring", "", rulesets=2, examples=7, status="FAIL",
                failure=Failure("pudding-scores", "dutch", "puddings [0, 0, 0, 0] (4 players)",
                                "[0, 0, 0, 0]", "[-1, -1, -1, -1]", "Z3 model", "executor",
                                ("R-PUDDING-MOST",), "")),
        PropertyResult("solver-best", "solver", "", status="skipped", note="z3 not available"),
        PropertyResult("turn-machine", "executor", "", status="incomplete",
                       note="interrupted before it finished"),
    ]
    return outs, opts  # type: ignore[return-value]


def test_check_statement_names_rules_rulesets_cases_and_disagreements() -> None:
    from sushigo.checks.summary import statement

    outs, opts = _outcomes()
    text = "\n".join(statement(outs, opts))  # type: ignore[arg-type]
    flat = " ".join(text.split())
    assert flat.startswith("Held against each other under 2 rulesets (official, dutch): ")
    # the scoring rules by id and by name, with the cases counted
    assert ("- 51 rounds of 2 to 5 players: the same tempura, sashimi, dumpling, nigiri and maki points "
            "and round total for every player from the executor and the Z3 model (R-TEMPURA, R-SASHIMI, "
            "R-DUMPLING, R-NIGIRI, R-MAKI-FIRST, R-MAKI-SECOND, R-ROUND-TOTAL)") in flat
    # a reading the check exercises is named with it (winner_tie's rule id, from PARAMETERS)
    assert "ties broken by most puddings) from the executor and the Z3 model (R-WINNER, R-WINNER-TIE)" in flat
    assert "- DISAGREE: pudding-scores under dutch: the two sides differ on a case of R-PUDDING" in flat
    assert "- not checked: solver-best (z3 not available)" in flat
    assert "- NOT FINISHED: turn-machine (" in flat
    assert "A disagreement in 1 of 5 checks (pudding-scores)" in flat
    assert "3 cases were left unknown within the solver's budget and not compared." in flat
    assert "Every case agreed" not in flat
    assert all(len(line) <= 100 for line in text.splitlines())
    assert all(not line.endswith("-") for line in text.splitlines())  # no rule id broken at a hyphen


def test_every_check_has_a_statement_of_catalogued_rules() -> None:
    from sushigo.checks import runner as R
    from sushigo.checks.summary import ESTABLISHED, rule_ids
    from sushigo.spec.model.catalogue import RULE_CATALOGUE

    names = R.task_names(R.Options())
    assert sorted(names) == sorted(ESTABLISHED)
    for name in names:
        assert rule_ids(name) and set(rule_ids(name)) <= set(RULE_CATALOGUE), name


def test_check_prints_the_statement_and_the_table_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--only", "pudding-scores", "--examples", "12", "--ruleset", "french", "--no-edge",
            "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Held against each other under 1 ruleset (french):\n- ")
    assert "end-of-game pudding counts: the same pudding points" in out and "Every case agreed" in out
    assert "time (s)" not in out and "-------" not in out  # the table is behind --table
    assert main([*argv, "--table"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("property        family    rulesets    examples    time (s)    result\n")
    assert table.split("\n\n", 1)[1].startswith("Held against each other under 1 ruleset (french):")


# ------------------------------------------------------------------ rule texts carry the ruleset's numbers


def test_rule_statements_carry_the_rulesets_own_numbers() -> None:
    from sushigo.spec.model.catalogue import RULE_CATALOGUE, rule_statement
    from sushigo.spec.ruleset import OFFICIAL

    # The rulebook's numbers (RULES.md): a pair of tempura 5, three sashimi 10, wasabi triples.
    assert RULE_CATALOGUE["R-TEMPURA"] == "Each pair of tempura scores 5; a single tempura scores nothing."
    assert RULE_CATALOGUE["R-SASHIMI"] == "Each set of three sashimi scores 10; fewer score nothing."
    assert RULE_CATALOGUE["R-DUMPLING"] == "Dumplings score 1, 3, 6, 10, 15 for 1, 2, 3, 4, 5 or more."
    assert RULE_CATALOGUE["R-NIGIRI"] == "Egg 1, salmon 2, squid 3; a nigiri on a wasabi scores triple."
    other = OFFICIAL.replace(name="other", tempura_points=6, sashimi_set=4, sashimi_points=12,
                             dumpling_points=(0, 1, 3, 6, 10, 15, 21), nigiri_points=(2, 3, 4),
                             wasabi_multiplier=2, maki_first_points=8, maki_second_points=4,
                             pudding_most_points=7, pudding_fewest_penalty=5, rounds=2)
    said = {rid: rule_statement(rid, other) for rid in RULE_CATALOGUE}
    assert said["R-TEMPURA"] == "Each pair of tempura scores 6; a single tempura scores nothing."
    assert said["R-SASHIMI"] == "Each set of four sashimi scores 12; fewer score nothing."
    assert said["R-DUMPLING"] == "Dumplings score 1, 3, 6, 10, 15, 21 for 1, 2, 3, 4, 5, 6 or more."
    assert said["R-NIGIRI"] == "Egg 2, salmon 3, squid 4; a nigiri on a wasabi scores double."
    assert "scores 8" in said["R-MAKI-FIRST"] and "scores 4" in said["R-MAKI-SECOND"]
    assert "gains 7" in rule_statement("R-PUDDING-MOST", other)
    assert "loses 5" in rule_statement("R-PUDDING-FEWEST", other)
    assert rule_statement("R-ROUNDS", other) == "A game has two rounds."


def test_diff_shows_each_sides_rule_text_in_its_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    toml = Path(__file__).resolve().parent.parent / "examples" / "tempura6.toml"
    assert main(["diff", "official", str(toml)]) == 0
    out = capsys.readouterr().out
    # official: a pair scores 5 (the rulebook); tempura6.toml: tempura_points = 6
    tail = "; a single tempura scores nothing.\n"
    assert "  R-TEMPURA under official: Each pair of tempura scores 5" + tail in out
    assert "  R-TEMPURA under tempura6: Each pair of tempura scores 6" + tail in out
    assert "R-TEMPURA: Each pair of tempura scores 5" not in out


def test_scoresheet_words_and_rules_catalogue_carry_the_rulesets_numbers(
        capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from sushigo.solver.scoresheet.explain import rule_words
    from sushigo.spec.ruleset import OFFICIAL

    assert rule_words("R-NIGIRI", OFFICIAL) == "nigiri score egg/salmon/squid points, tripled on a wasabi"
    assert rule_words("R-NIGIRI", OFFICIAL.replace(wasabi_multiplier=2)).endswith("doubled on a wasabi")
    assert rule_words("R-SASHIMI", OFFICIAL.replace(sashimi_set=4)) == "sashimi scores only per set of four"
    toml = Path(__file__).resolve().parent.parent / "examples" / "tempura6.toml"
    assert main(["rules", str(toml), "--catalogue", "--json"]) == 0
    import json

    rows = {r["id"]: r["statement"] for r in json.loads(capsys.readouterr().out)["catalogue"]["rules"]}
    assert rows["R-TEMPURA"] == "Each pair of tempura scores 6; a single tempura scores nothing."


# ------------------------------------------------------- balance --plot: policies, win shares, legend order


def test_why_pudding_brings_zero_per_card() -> None:
    from itertools import product

    from sushigo.spec.ruleset import OFFICIAL
    from sushigo.spec.scoring import pudding_points

    from sushigo.balance_plot import pudding_note

    # The reason, checked on its own: at 3 and 4 players every pudding count gives the table a
    # net of 0 (most +6, fewest -6, both shared; RULES.md), at 5 a 4-way tie rounds a share.
    for players in (3, 4):
        assert {sum(pudding_points(c, OFFICIAL)) for c in product(range(6), repeat=players)} == {0}
    assert {sum(pudding_points(c, OFFICIAL)) for c in product(range(5), repeat=5)} == {-2, 0, 2}
    assert sum(pudding_points((3, 1), OFFICIAL)) == 6  # two players: the penalty is not paid
    note = pudding_note(OFFICIAL, 4)
    assert note is not None and "both 6" in note and "cancel" in note and "0 points per card" in note
    assert "tie and a share is rounded" not in note
    five = pudding_note(OFFICIAL, 5)
    assert five is not None and "games where 4 or more players tie and a share is rounded" in five
    assert pudding_note(OFFICIAL, 2) is None
    assert pudding_note(OFFICIAL.replace(pudding_fewest_penalty=3), 4) is None


def test_balance_plot_names_the_policies_shows_win_shares_and_orders_the_legend(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from matplotlib.container import BarContainer

    figures: list[object] = []
    monkeypatch.setattr(plt, "close", figures.append)  # keep the figure to look at it
    target = f"{tmp_path}/b.png"
    assert main(["balance", "official", "--vs", "maki-first-each", "--games", "40", "--no-maxima",
                 "--no-diff", "--players", "3", "--policy", "greedy", "random", "random",
                 "--plot", target]) == 0
    out = capsys.readouterr().out
    assert "pudding: at 3 players the most-pudding bonus and the fewest-pudding penalty are both 6" \
        in " ".join(out.split())
    [fig] = figures
    title = fig._suptitle.get_text()  # type: ignore[attr-defined]
    assert "policies: greedy, random x2" in title and "40 games of 3 players" in title
    axes = fig.axes  # type: ignore[attr-defined]
    assert [ax.get_title() for ax in axes] == ["score distribution", "what each card kind brought", "who won"]
    for ax in axes[1:]:
        first, second = [c for c in ax.containers if isinstance(c, BarContainer)]
        # the first ruleset's bar is the upper one (smaller y on the inverted axis), as in the legend
        assert all(a.get_y() < b.get_y() for a, b in zip(first, second, strict=True))
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["official", "maki-first-each"]
    assert [t.get_text() for t in axes[2].get_yticklabels()] == ["seat 0: greedy", "seat 1: random",
                                                                  "seat 2: random"]
