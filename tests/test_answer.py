"""One answer type, one place for Z3 calls, one error root (issue 13 item 4)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
import z3
from sushigo.spec.answer import STATUS_WORDS, Verdict, combine, verdict_of, with_outcome
from sushigo.spec.errors import RulesError, SushiGoError, Unsettled
from sushigo.spec.model.budget import Budget, ceiling, current_ceiling, decide

ROOT = Path(__file__).resolve().parent.parent
#: The one place a Z3 ``check()`` is called (spec/model/budget.py, :func:`decide`).
ONE_PLACE = ROOT / "spec" / "model" / "budget.py"


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """Lines of code without comments and docstring lines (a ``check()`` named in prose is fine)."""
    out = []
    in_doc = False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        quotes = text.count('"""')
        if in_doc or text.startswith('"""'):
            if quotes == 1:
                in_doc = not in_doc
            continue
        out.append((n, line.split("#", 1)[0]))
    return out


def test_no_direct_z3_check_outside_the_one_place() -> None:
    # A Z3 check() is a call `.check(` on a solver; the project's own `check` functions and
    # methods (F.check, prop.check, tr.check: they call decide) are named here, nothing else.
    own = re.compile(r"\b(F|prop|tr|self|T|facts|R)\.check\(")
    sites = []
    for top in ("spec", "solver", "checks", "sushigo"):
        for path in (ROOT / top).rglob("*.py"):
            if path == ONE_PLACE:
                continue
            for n, line in _code_lines(path):
                if ".check(" in line and not own.search(line):
                    sites.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert sites == [], "Z3 check() outside spec/model/budget.decide:\n" + "\n".join(sites)


def test_the_grep_finds_a_planted_direct_call(tmp_path: Path) -> None:
    planted = tmp_path / "x.py"
    planted.write_text('"""doc: s.check() in prose"""\nr = s.check()  # direct\n')
    assert [n for n, line in _code_lines(planted) if ".check(" in line] == [2]


def _modules() -> list[str]:
    # spec/, solver/ and checks/ install as sushigo.spec, ... (package_dir): walk each one.
    names = {"sushigo"}
    for top in ("sushigo", "sushigo.spec", "sushigo.solver", "sushigo.checks"):
        package = importlib.import_module(top)
        names.add(top)
        for info in pkgutil.walk_packages(package.__path__, top + "."):
            if not info.name.endswith("__main__"):  # running it runs the CLI
                names.add(info.name)
    return sorted(names)


def test_every_exception_class_derives_from_sushigo_error() -> None:
    loose = []
    imported = 0
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra (openspiel, pettingzoo) that is not installed
            continue
        imported += 1
        for _cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, Exception):
                continue
            if not issubclass(cls, SushiGoError):
                loose.append(f"{name}.{cls.__qualname__}")
    assert imported > 50  # the walk really reached the package
    assert loose == []


def test_every_ran_out_name_is_the_one_exception() -> None:
    from sushigo.checks.conform.engine import OutOfTime
    from sushigo.solver import table
    from sushigo.solver.endgame import BudgetExceeded
    from sushigo.solver.regret import Unsolved
    from sushigo.solver.tableaux import SolverUnknown
    from sushigo.spec.errors import BudgetSpent
    from sushigo.spec.model.budget import UnknownAnswer, Z3Answer

    # the seven names a spent budget raised under (issue 27) are one class now
    for old in (Unsettled, UnknownAnswer, SolverUnknown, BudgetExceeded, table.BudgetSpent, Unsolved,
                OutOfTime):
        assert old is BudgetSpent
    assert issubclass(BudgetSpent, SushiGoError) and not issubclass(BudgetSpent, ValueError)
    exc = Z3Answer("unknown", "canceled").spent()
    assert (str(exc), exc.reason, exc.whole_run) == ("solver answered unknown: canceled", "canceled", False)
    z3ish = BudgetSpent.unknown("timeout", "rlimit 5")
    assert (str(z3ish), z3ish.reason, z3ish.budget) == ("unknown: timeout (budget rlimit 5)", "timeout",
                                                         "rlimit 5")
    assert BudgetSpent(whole_run=True).whole_run


def test_no_other_exception_class_means_ran_out() -> None:
    """Walk the package: an exception class whose name says a budget ran out is BudgetSpent."""
    import re

    words = re.compile(r"Budget|Spent|Exceeded|Unsettled|Unknown|Unsolved|OutOfTime|TimedOut|Timeout")
    found = set()
    for name in _modules():
        try:
            mod = importlib.import_module(name)
        except ImportError:  # an optional extra that is not installed
            continue
        for cls in vars(mod).values():
            ours = isinstance(cls, type) and cls.__module__.startswith("sushigo")
            if ours and issubclass(cls, BaseException) and words.search(cls.__name__):
                found.add(f"{cls.__module__}.{cls.__qualname__}")
    assert found == {"sushigo.spec.errors.BudgetSpent"}


def test_every_status_word_maps_and_a_new_word_is_refused() -> None:
    assert verdict_of("optimal") is Verdict.PROVED
    assert verdict_of("unsat") is Verdict.IMPOSSIBLE
    assert verdict_of("unknown") is Verdict.UNKNOWN
    assert set(STATUS_WORDS.values()) == set(Verdict)
    with pytest.raises(RulesError, match="no verdict"):
        verdict_of("maybe")


def test_combine_unknown_dominates_then_impossible() -> None:
    P, N, U = Verdict.PROVED, Verdict.IMPOSSIBLE, Verdict.UNKNOWN
    assert combine([P, P]) is P
    assert combine([P, N]) is N
    assert combine([N, U, P]) is U
    assert combine([]) is P


def test_with_outcome_sits_after_format_and_keeps_every_field() -> None:
    data = {"format": "x/1", "status": "optimal", "score": 3}
    out = with_outcome(data, Verdict.PROVED)
    assert list(out) == ["format", "outcome", "status", "score"]
    assert out["outcome"] == "proved" and out["score"] == 3


def test_decide_maps_sat_unsat() -> None:
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x > 2)
    assert decide(s).verdict is Verdict.PROVED
    s.add(x < 1)
    a = decide(s)
    assert a.unsat and a.verdict is Verdict.IMPOSSIBLE


def _hard_solver() -> z3.Solver:
    """A pigeonhole problem (9 pigeons, 8 holes): unsat, and far beyond a tiny rlimit."""
    s = z3.Solver()
    n = 9
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    for i in range(n):
        s.add(z3.Or(*p[i]))
    for j in range(n - 1):
        for i in range(n):
            for k in range(i + 1, n):
                s.add(z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])))
    return s


def test_an_exhausted_rlimit_is_unknown_with_the_budget() -> None:
    a = decide(_hard_solver(), Budget(timeout_ms=10_000, rlimit=1000))
    assert a.unknown and a.verdict is Verdict.UNKNOWN
    assert "rlimit 1000" in a.reason


def test_the_ceiling_lowers_every_budget_and_unwinds() -> None:
    assert current_ceiling() is None
    with ceiling(Budget(None, 1000)):
        with ceiling(Budget(5000, 10**9)):
            assert current_ceiling() == Budget(5000, 1000)
        a = decide(_hard_solver(), Budget(10_000, 10**9))  # the ceiling's rlimit wins
        assert a.unknown and "rlimit 1000" in a.reason
    assert current_ceiling() is None


def test_decide_from_several_threads_at_once() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def one(k: int) -> str:
        ctx = z3.Context()
        x = z3.Int("x", ctx)
        s = z3.Solver(ctx=ctx)
        s.add(x > k, x < k + (2 if k % 2 else 1))  # odd k: sat, even k: unsat
        return decide(s, Budget(10_000, 10**7)).status

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(one, range(16)))
    assert got == ["sat" if k % 2 else "unsat" for k in range(16)]


#: The result class of each question and the status words its ``Literal`` allows: the words
#: docs/answers.md gives each command (written out here, not read from the code).
RESULT_CLASSES = {
    "sushigo.spec.model.budget.Z3Answer": {"sat", "unsat", "unknown"},
    "sushigo.spec.model.core.Core": {"sat", "unsat", "unknown"},
    "sushigo.spec.model.facts.CheckResult": {"sat", "unsat", "unknown"},
    "sushigo.solver.search.BestResult": {"optimal", "unknown"},
    "sushigo.solver.alldeals.AllDealsResult": {"optimal", "unknown"},
    "sushigo.solver.endgame.result.EndgameResult": {"solved", "unknown"},
    "sushigo.solver.endgame.certificate.Certificate": {"proved", "refuted", "unknown"},
    "sushigo.solver.scoresheet.check.SheetAnswer": {"possible", "impossible", "unknown"},
    "sushigo.solver.table.TableAnswer": {"possible", "impossible", "unknown"},
    "sushigo.solver.party_sheet.PartyVerdict": {"possible", "impossible", "unknown"},
    "sushigo.solver.diff.results.DiffResult": {"differ", "equivalent", "unknown", "not-applicable"},
    "sushigo.solver.diff.matrix.MatrixCell": {"differ", "equivalent", "unknown", "not-applicable"},
}


def _class(path: str) -> type:
    module, _, name = path.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    assert isinstance(cls, type)
    return cls


def test_every_result_class_is_an_answer_with_its_questions_words() -> None:
    import dataclasses
    import typing

    from sushigo.spec.answer import Answer

    for path, words in RESULT_CLASSES.items():
        cls = _class(path)
        assert issubclass(cls, Answer) and dataclasses.is_dataclass(cls), path
        assert cls.__dataclass_params__.frozen, path  # type: ignore[attr-defined]
        status = typing.get_type_hints(cls)["status"]
        assert typing.get_origin(status) is typing.Literal, (path, status)
        assert set(typing.get_args(status)) == words, path


def test_the_questions_words_are_the_status_words() -> None:
    import typing

    from sushigo.spec import answer

    literals = [answer.Z3Status, answer.BestStatus, answer.EndgameStatus, answer.CertificateStatus,
                answer.PossibleStatus, answer.DiffStatus, answer.ExtensionStatus, answer.ConformStatus]
    words = [w for lit in literals for w in typing.get_args(lit)]
    assert set(words) == set(STATUS_WORDS)  # every word belongs to a question, and no other
    assert len(STATUS_WORDS) == 15


def test_an_answers_verdict_is_what_its_word_means() -> None:
    from sushigo.solver.search import BestResult
    from sushigo.spec.model.budget import Z3Answer

    # best's words (docs/answers.md): optimal is proved, unknown is unknown
    assert BestResult(3, (), "optimal", "search", 0.0).verdict is Verdict.PROVED
    assert BestResult(3, (), "unknown", "search", 0.0).verdict is Verdict.UNKNOWN
    assert Z3Answer("unsat").verdict is Verdict.IMPOSSIBLE
    with pytest.raises(RulesError):
        BestResult(3, (), "maybe", "search", 0.0).verdict  # type: ignore[arg-type]  # noqa: B018


def test_one_class_of_each_answer_name() -> None:
    """Answer, Verdict and Outcome each name one class in the package (issue 27: three Answer,
    two Verdict, two Outcome)."""
    seen: dict[str, set[str]] = {"Answer": set(), "Verdict": set(), "Outcome": set()}
    for name in _modules():
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        for cls in vars(mod).values():
            if isinstance(cls, type) and cls.__name__ in seen and cls.__module__.startswith("sushigo"):
                seen[cls.__name__].add(f"{cls.__module__}.{cls.__qualname__}")
    assert seen == {"Answer": {"sushigo.spec.answer.Answer"}, "Verdict": {"sushigo.spec.answer.Verdict"},
                    "Outcome": {"sushigo.api.base.Outcome"}}
