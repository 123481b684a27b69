"""``sushigo.best``: the most a player could score, with the picks and a proof nothing beats it.

The solvers import z3; they are imported when a question is asked, not with this module."""

from __future__ import annotations

from typing import Any, NamedTuple

from sushigo.api.base import (
    Document,
    Outcome,
    Rule,
    budget_of,
    load_input,
    override_texts,
    public,
    rules_from_options,
    solver_budget,
    tagged,
)
from sushigo.spec.answer import Verdict, combine, with_outcome
from sushigo.spec.errors import InputError

FORMAT = "sushigo-best-result/1"

#: ``sushigo.solver.best.ENGINES`` (here so the CLI lists them without importing z3; a test
#: holds the two equal).
ENGINES = ("z3", "search")
DEFAULT_TIMEOUT = 60.0
STATUS_OPTIMAL = "optimal"  # sushigo.solver.search.STATUS_OPTIMAL


class BestDetail(NamedTuple):
    """What the tables are drawn from: ``form`` is "puzzle", "hindsight", "dummy" or "alldeals";
    ``question`` the parsed puzzle or round; ``result`` the solver's answer (for "alldeals", a
    list of (kind, players, best, best losing))."""

    form: str
    question: Any
    result: Any


def best_outcome(
    input: Document | None = None,
    *,
    engine: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    seat: int | None = None,
    round: int | str | bool | None = None,
    game: bool | str = False,
    players: int | None = None,
    seed: int | None = None,
    rules: str | None = None,
    rule: Rule = None,
    progress: bool = False,
    jobs: int | None = None,
    cluster: str | None = None,
    rlimit: int | None = None,
    menu: str | None = None,
) -> Outcome:
    """The highest score one player can reach, proved: for a puzzle (fixed hands), a recorded
    round (hindsight, the others' picks fixed; a game record needs ``round`` and ``seat``), or,
    with no input, over all deals (``round="all"`` and/or ``game=True``, ``players`` one count).
    ``timeout`` is the z3 budget in seconds; past it the status is "unknown" with the budget;
    ``rlimit`` caps each Z3 call's resource units (an answer that does not depend on load).
    ``progress`` shows, over all deals, the best score found and the proved bound as the search
    narrows, on a terminal's standard error (only when the questions run in this process).
    Over all deals, each question (kind, player count, best or best losing) is a task on ``jobs``
    local processes or the Dask scheduler at ``cluster``. Returns what ``sushigo best --json``
    prints. ``game="party"``: a Sushi Go Party! puzzle or recorded round (:func:`party_best_outcome`)."""
    if game == "party":
        if rules is not None or jobs is not None or cluster is not None:
            raise InputError("--rules, --jobs and --cluster are for the base game; with --game party choose "
                             "readings with --rule NAME=VALUE (sushigo rules --game party)")
        return party_best_outcome(input, menu=menu, engine=engine, timeout=timeout, seat=seat, round=round,
                                  players=players, seed=seed, rule=rule, rlimit=rlimit)
    if menu is not None:
        raise InputError("--menu is a Sushi Go Party! menu: add --game party")
    game = game is True
    seed = 0 if seed is None else seed
    engine = engine or "z3"
    with solver_budget(None, rlimit):  # the timeout is the search's own deadline
        return _best(input, engine, timeout, seat, round, game, players, seed, rules, rule, progress,
                     jobs, cluster)


def _best(
    input: Document | None, engine: str, timeout: float, seat: int | None,
    round: int | str | bool | None, game: bool, players: int | None, seed: int,
    rules: str | None, rule: Rule, progress: bool, jobs: int | None, cluster: str | None,
) -> Outcome:
    from sushigo.jobs import runner

    where = runner(jobs, cluster)
    if round is True:
        round = "all"
    budget_of(timeout)  # the bounds of every solver budget
    if engine not in ENGINES:
        raise InputError(f"--engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if input is None:
        if round is None and not game:
            raise InputError("give a puzzle file, or --round / --game for the best over all deals")
        if round not in (None, "all"):
            raise InputError(f"--round {round} needs a game record file; alone, --round takes no value")
        if seat is not None:
            raise InputError("--seat needs a game record file")
        if round is not None and game:
            raise InputError("--round and --game ask two questions (the best round, the best game): "
                             "give one, and run the command again for the other")
        return _alldeals(engine, timeout, round is not None, game, players, seed, rules, rule, progress,
                         where)
    if where.spread:
        raise InputError("--jobs and --cluster spread the questions over all deals (--round, --game); "
                         "one file is answered here")
    if game or players is not None or seed != 0:
        raise InputError("--game, --players and --seed are for the best over all deals; "
                         "give no file with them")
    data, source = load_input(input, schema="best-input")  # ``where`` is the runner
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object (a puzzle, a round or a game record)")
    ruleset = rules_from_options(rules, rule, data.get("rules"))
    if rules is None and data.get("numbers") is not None:
        # a record played under changed rule numbers is re-examined under those numbers
        from sushigo.spec.record import rules_from_record
        from sushigo.spec.ruleset import apply_overrides

        ruleset = apply_overrides(rules_from_record(data.get("rules", "official"), data.get("readings"),
                                                    data["numbers"]), override_texts(rule))
    from sushigo.solver.best import solve_hindsight, solve_puzzle
    from sushigo.solver.best_dummy import dummy_hindsight_from_json
    from sushigo.solver.search import hindsight_from_record, parse_hindsight, parse_puzzle
    from sushigo.spec.model.budget import Budget

    if data.get("format") == "sushigo-record/1" or "rounds" in data:
        if round in (None, "all") or seat is None:
            raise InputError("a game record needs --round R (from 1) and --seat K (from 0)")
        try:
            rnd = int(str(round))
        except ValueError as exc:
            raise InputError(f"--round must be a round number, got {round!r}") from exc
        if ruleset.dummy_2p:
            return _dummy(dummy_hindsight_from_json(data, rnd, seat, ruleset))
        h = hindsight_from_record(data, rnd, seat, ruleset)
        return _answer("hindsight", h, solve_hindsight(h, engine, budget=Budget.for_run(timeout)))
    if round is not None or seat is not None:
        raise InputError("--round and --seat apply to a game record; a round JSON names its own \"seat\"")
    if "deal" in data and ruleset.dummy_2p:
        return _dummy(dummy_hindsight_from_json(data, None, None, ruleset))
    if "deal" in data:
        h = parse_hindsight(data, ruleset)
        return _answer("hindsight", h, solve_hindsight(h, engine, budget=Budget.for_run(timeout)))
    puzzle = parse_puzzle(data, ruleset)
    return _answer("puzzle", puzzle, solve_puzzle(puzzle, engine, budget=Budget.for_run(timeout)))


def _answer(form: str, question: Any, res: Any) -> Outcome:
    code = 0 if res.status == STATUS_OPTIMAL else 1
    data = with_outcome(tagged(FORMAT, res.as_json()), res.verdict)
    return Outcome(data, code, BestDetail(form, question, res))


def _dummy(h: Any) -> Outcome:
    """Form 2 under dummy-2p: always the exhaustive search (``engine`` and ``timeout`` unused)."""
    from sushigo.solver.best_dummy import solve_dummy_hindsight

    res = solve_dummy_hindsight(h)  # exhaustive: every line of play searched, so proved
    data = with_outcome(tagged(FORMAT, res.as_json()), Verdict.PROVED)
    return Outcome(data, 0, BestDetail("dummy", h, res))


#: One question over all deals on a worker (:mod:`sushigo.jobs`).
TASK = "sushigo.api.best:alldeals_task"


def alldeals_task(doc: dict[str, Any]) -> dict[str, Any]:
    """One question over all deals (``best_over_deals``'s arguments as JSON): its answer as JSON."""
    from sushigo.jobs import ruleset_from_json
    from sushigo.solver.alldeals import best_over_deals

    res = best_over_deals(doc["players"], doc["kind"], ruleset_from_json(doc["rules"]), doc["losing"],
                          doc["timeout"], doc["seed"])
    return {**res.as_json(), "seconds": res.seconds, "record": res.record}


def _alldeals_answer(doc: dict[str, Any]) -> Any:
    """The ``AllDealsResult`` a task sent back as JSON (its tableaux read back from their notation)."""
    from sushigo.solver.alldeals import AllDealsResult
    from sushigo.spec.tableau import parse_tableau

    tableaux = tuple(tuple(parse_tableau(t) for t in rnd) for rnd in doc["tableaux"])
    return AllDealsResult(doc["players"], doc["kind"], doc["losing"], doc["score"], doc["status"],
                          doc["seconds"], tableaux, tuple(doc["totals"]), doc["record"], doc.get("reason"),
                          doc["seed"])


def _alldeals_tasks(kinds: list[str], counts: list[int], ruleset: Any, timeout: float, seed: int,
                    where: Any) -> dict[tuple[str, int, bool], Any]:
    from sushigo import jobs as J

    questions = [(kind, n, losing) for kind in kinds for n in counts for losing in (False, True)]
    tasks = [J.Task(f"{kind}-{n}-{'losing' if losing else 'best'}",
                    {"players": n, "kind": kind, "rules": J.ruleset_json(ruleset), "losing": losing,
                     "timeout": timeout, "seed": seed}, slow=kind == "game")
             for kind, n, losing in questions]
    answers = J.run(TASK, tasks, where)
    return {q: _alldeals_answer(a) for q, a in zip(questions, answers, strict=True)}


def _alldeals(
    engine: str, timeout: float, round: bool, game: bool, players: int | None, seed: int,
    rules: str | None, rule: Rule, progress: bool = False, where: Any = None,
) -> Outcome:
    from sushigo.progress import terminal_progress
    from sushigo.solver.alldeals import best_over_deals

    if engine != "z3":
        raise InputError(f"--engine {engine} solves puzzles and recorded rounds; the best over all "
                         "deals is answered by z3 only (drop --engine)")
    ruleset = rules_from_options(rules, rule)
    if players is not None:
        ruleset.hand_size(players)  # rejects a player count the rules do not allow
        counts = [players]
    elif ruleset.dummy_2p:
        counts = [2]  # the variant is for two players (and the dummy)
    else:
        counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    kinds = [k for k, on in (("round", round), ("game", game)) if on]
    answers, docs = [], []
    solved = (_alldeals_tasks(kinds, counts, ruleset, timeout, seed, where)
              if where is not None and where.spread else None)
    for kind in kinds:
        for n in counts:
            if solved:
                best, lose = solved[kind, n, False], solved[kind, n, True]
            else:
                with terminal_progress(progress) as show:
                    best = best_over_deals(n, kind, ruleset, False, timeout, seed, show)
                    lose = best_over_deals(n, kind, ruleset, True, timeout, seed, show)
            answers.append((kind, n, best, lose))
            docs.append({
                "kind": kind, "players": n,
                "best": _alldeals_json(best, timeout), "best_losing": _alldeals_json(lose, timeout),
            })
    all_optimal = all(b.status == lo.status == STATUS_OPTIMAL for _k, _n, b, lo in answers)
    verdict = combine(r.verdict for _k, _n, b, lo in answers for r in (b, lo))
    data = with_outcome(tagged(FORMAT, {"rules": ruleset.describe(), "seed": seed, "results": docs}), verdict)
    return Outcome(data, 0 if all_optimal else 1, BestDetail("alldeals", ruleset, answers))


def _alldeals_json(res: Any, budget: float) -> dict[str, Any]:
    out: dict[str, Any] = res.as_json()
    out["outcome"] = res.verdict.value
    out["seconds"] = round(res.seconds, 3)
    if res.status != STATUS_OPTIMAL:
        out["budget_seconds"] = budget
    out["witness"] = res.record
    return out


PARTY_FORMAT = "sushigo-party-best-result/1"
PARTY_ENGINES = ("search", "z3")  # sushigo.solver.party.best.ENGINES


def party_best_outcome(
    input: Document | None = None,
    *,
    menu: str | None = None,
    engine: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    seat: int | None = None,
    round: int | str | bool | None = None,
    players: int | None = None,
    seed: int | None = None,
    rule: Rule = None,
    rlimit: int | None = None,
) -> Outcome:
    """Seat 0's best round score of a Party puzzle (docs/party.md, "The best round"): a puzzle
    file, a Party record with ``round`` and ``seat``, or, with no file, the seeded puzzle
    ``seed`` of ``menu`` for ``players``. ``engine``: "search" (default; every puzzle) or "z3"
    (puzzles without specials or uramaki in the hands). Past ``timeout`` seconds: unknown."""
    from sushigo.solver.party.best import solve_party
    from sushigo.solver.party.puzzle import RECORD_FORMAT, from_record, parse_party_puzzle, random_puzzle

    engine = engine or "search"
    if engine not in PARTY_ENGINES:
        raise InputError(f"--engine {engine}: with --game party choose one of {', '.join(PARTY_ENGINES)}")
    budget_of(timeout, rlimit)
    texts = override_texts(rule)
    if input is None:
        if menu is None or seed is None:
            raise InputError("--game party: give a puzzle or record file, or --menu M --seed S (and "
                             "--players N) for a seeded puzzle")
        if round is not None or seat is not None:
            raise InputError("--round and --seat apply to a Party record file")
        from sushigo.spec.party.readings import party_rules

        puzzle = random_puzzle(seed, menu, players, rules=party_rules(texts))
        form = f"seeded puzzle {seed}"
    else:
        if seed is not None:
            raise InputError("--seed makes a seeded puzzle: give no file with it")
        data, source = load_input(input)
        if not isinstance(data, dict):
            raise InputError(f"{source}: expected a JSON object (a Party puzzle or record)")
        if data.get("format") == RECORD_FORMAT or "rounds" in data:
            if menu is not None or players is not None:
                raise InputError("a Party record names its menu and players: drop --menu and --players")
            if round in (None, True, "all") or seat is None:
                raise InputError("a Party record needs --round R (from 1) and --seat K (from 0)")
            try:
                rnd = int(str(round))
            except ValueError as exc:
                raise InputError(f"--round must be a round number, got {round!r}") from exc
            puzzle = from_record(data, rnd, seat, texts)
            form = f"round {rnd}, seat {seat}"
        else:
            if round is not None or seat is not None:
                raise InputError("--round and --seat apply to a Party record; a puzzle's player is seat 0")
            if players is not None:
                data = {**data, "players": players}
            puzzle = parse_party_puzzle(data, texts, menu, where=source)
            form = "puzzle"
    res = solve_party(puzzle, engine, timeout, rlimit)
    doc = {"menu": puzzle.menu.label, "players": puzzle.players, "readings": puzzle.rules.changed(),
           "question": form, **res.as_json()}
    data_out = with_outcome(tagged(PARTY_FORMAT, doc), res.verdict)
    return Outcome(data_out, 0 if res.status == STATUS_OPTIMAL else 1, BestDetail("party", puzzle, res))


best = public(best_outcome, "best")
