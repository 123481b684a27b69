"""A Z3 model with named variables and constraints grouped by rule id."""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import z3
from sushigo.spec.answer import Answer, Z3Status
from sushigo.spec.model.budget import Budget, decide


@dataclass
class Model:
    """Constraints grouped by rule id, plus the named variables they mention.

    ``groups`` keeps insertion order; :meth:`solver` tracks each group under a
    Boolean named ``<rule id>|<label>`` so an unsat core names the rules.
    """

    groups: list[tuple[str, str, list[z3.BoolRef]]] = field(default_factory=list)
    vars: dict[str, z3.ArithRef] = field(default_factory=dict)
    bools: dict[str, z3.BoolRef] = field(default_factory=dict)
    terms: dict[str, z3.ArithRef] = field(default_factory=dict)
    _bounds: dict[str, tuple[builtins.int | None, builtins.int | None]] = field(
        default_factory=dict, repr=False
    )

    def int(self, name: str, lo: builtins.int | None = 0, hi: builtins.int | None = None) -> z3.ArithRef:
        """A named integer variable (bounds go in as rule R-DOMAIN).

        Asking again for a name returns the same variable; asking with other
        bounds is a naming clash (two meanings under one name) and raises.
        """
        if name in self.vars:
            if self._bounds.get(name) != (lo, hi):
                raise ValueError(
                    f"model variable {name!r} requested with bounds {(lo, hi)} but exists with "
                    f"{self._bounds.get(name)}: two quantities share one name; use distinct prefixes"
                )
            return self.vars[name]
        # Straight to the C API: z3.Int(name) and the operators coerce and sort-check each
        # operand and wrap every temporary, which dominates building a whole-game model.
        ctx = z3.main_ctx()
        ref = ctx.ref()
        v = z3.ArithRef(z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, name), z3.Z3_mk_int_sort(ref)), ctx)
        self.vars[name] = v
        self._bounds[name] = (lo, hi)
        bounds = []
        if lo is not None:
            bounds.append(z3.BoolRef(z3.Z3_mk_ge(ref, v.as_ast(), _num(lo, ctx).as_ast()), ctx))
        if hi is not None:
            bounds.append(z3.BoolRef(z3.Z3_mk_le(ref, v.as_ast(), _num(hi, ctx).as_ast()), ctx))
        if bounds:
            self.add("R-DOMAIN", bounds, label=name)
        return v

    def bool(self, name: str) -> z3.BoolRef:
        if name in self.bools:
            return self.bools[name]
        b = z3.Bool(name)
        self.bools[name] = b
        return b

    def add(self, rule_id: str, constraints: Iterable[z3.BoolRef] | z3.BoolRef, label: str = "") -> None:
        if isinstance(constraints, z3.BoolRef):
            items = [constraints]
        else:
            items = list(constraints)
        if items:
            self.groups.append((rule_id, label, items))

    def constraints(self) -> list[z3.BoolRef]:
        return [c for _, _, cs in self.groups for c in cs]

    def rule_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for rid, _, _ in self.groups:
            seen.setdefault(rid, None)
        return list(seen)

    def solver(
        self,
        track: builtins.bool = False,
        timeout_ms: builtins.int | None = None,
        rlimit: builtins.int | None = None,
        optimize: builtins.bool = False,
    ) -> z3.Solver | z3.Optimize:
        """A fresh solver holding every group. With ``track``, each group is tracked for cores."""
        s: z3.Solver | z3.Optimize = z3.Optimize() if optimize else z3.Solver()
        if timeout_ms is not None:
            s.set("timeout", timeout_ms)
        if rlimit is not None:
            s.set("rlimit", rlimit)
        for k, (rid, label, cs) in enumerate(self.groups):
            if track and not optimize:
                assert isinstance(s, z3.Solver)
                s.assert_and_track(z3.And(*cs), z3.Bool(f"{rid}|{label or k}|{k}"))
            else:
                s.add(*cs)
        return s

    def size(self) -> tuple[builtins.int, builtins.int]:
        """(named variables, constraints)."""
        return len(self.vars) + len(self.bools), sum(len(cs) for _, _, cs in self.groups)


_C_INT = range(-(2**31), 2**31)


def _int_ast(ref: z3.ContextObj, k: int, sort: z3.Sort) -> z3.Ast:
    """The numeral ``k``: ``Z3_mk_int`` takes a C int and silently wraps a larger value (a
    record's score of 2**40 would become 0), so those go in as text, as ``z3.IntVal`` does."""
    if k in _C_INT:
        return z3.Z3_mk_int(ref, k, sort)
    return z3.Z3_mk_numeral(ref, str(k), sort)


# Integer terms straight through the C API. Each builds exactly the term its operator or z3py
# function does (``a + b`` and ``z3.Sum([a, b])`` are one n-ary ``Z3_mk_add``; ``a - b`` a binary
# ``Z3_mk_sub``; a Python int is the Int numeral the operator would coerce it to), without the
# coercions, sort checks and temporary wrappers that dominate building a whole-game model.
# Operands are Int terms of one context (or ints, where a helper says so); nothing is checked.
Term: TypeAlias = "z3.ArithRef | builtins.int"


_MAIN_NUMS: dict[builtins.int, z3.ArithRef] = {}  # small Int numerals of the main context


def _num(k: builtins.int, ctx: z3.Context) -> z3.ArithRef:
    """The Int numeral ``k`` (in a wrapper, so that Z3 keeps it alive while it is used).

    The main context (every model's) lives as long as the process: its small numerals are
    made once, a record's facts and a game's bounds compare against the same few dozen."""
    main = ctx is z3.main_ctx() and -1024 <= k <= 1024
    if main and k in _MAIN_NUMS:
        return _MAIN_NUMS[k]
    ref = ctx.ref()
    num = z3.ArithRef(_int_ast(ref, k, z3.Z3_mk_int_sort(ref)), ctx)
    if main:
        _MAIN_NUMS[k] = num
    return num


# ctypes makes an array type per (item type, length) and caches it only weakly: once no array of
# that length is alive, the type (a reference cycle) waits for the cyclic collector, and the next
# array of that length builds the type again, about 15 microseconds, plus about 20 to collect it.
# A puzzle's model made some 30 of them a puzzle. Kept here, each is made once; while one is
# kept, z3py's own arrays of that length (assumptions, arguments) reuse it too.
_ARRAYS: dict[tuple[Any, builtins.int], type[ctypes.Array[Any]]] = {}
_KEPT_LENGTHS = 4096  # longer arrays (rare) are made as before


def _array(item: Any, n: builtins.int) -> type[ctypes.Array[Any]]:
    hit = _ARRAYS.get((item, n))
    if hit is None:
        hit = item * n
        if n <= _KEPT_LENGTHS:
            _ARRAYS[(item, n)] = hit
    return hit


def ast_array(n: builtins.int) -> type[ctypes.Array[z3.Ast]]:
    """The ctypes type of an array of ``n`` Z3 ASTs (``z3.Ast * n``), made once per length."""
    return _array(z3.Ast, n)


def int_array(n: builtins.int) -> type[ctypes.Array[ctypes.c_int]]:
    """The ctypes type of an array of ``n`` C ints (``ctypes.c_int * n``), made once per length."""
    return _array(ctypes.c_int, n)


for _n in range(9):  # z3py's own short arrays (a check's assumptions, none included) from the start
    ast_array(_n)


def mk_sum(xs: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """``z3.Sum(xs)`` of one or more Int terms (also ``a + b`` for two)."""
    ctx = xs[0].ctx
    arr = ast_array(len(xs))(*[x.as_ast() for x in xs])
    return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), len(xs), arr), ctx)


def mk_sub(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """``a - b``."""
    arr = ast_array(2)(a.as_ast(), b.as_ast())
    return z3.ArithRef(z3.Z3_mk_sub(a.ctx.ref(), 2, arr), a.ctx)


def _rel(mk: object, a: z3.ArithRef, b: Term) -> z3.BoolRef:
    if isinstance(b, builtins.int):
        b = _num(b, a.ctx)  # an Int numeral: ``a`` is an Int term (another sort fails in Z3)
    if type(b) is not type(a) and isinstance(b, type(a)):
        # Python asks the right operand first when its class is a subclass of the left's:
        # ``s <= n`` with ``n`` a numeral (IntNumRef) is built as ``n >= s``. So here too.
        a, b = b, a
        mk = _FLIPPED[mk]
    return z3.BoolRef(mk(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)  # type: ignore[operator]


_FLIPPED = {z3.Z3_mk_le: z3.Z3_mk_ge, z3.Z3_mk_ge: z3.Z3_mk_le, z3.Z3_mk_eq: z3.Z3_mk_eq}


def mk_eq(a: z3.ExprRef, b: z3.ExprRef | builtins.int) -> z3.BoolRef:
    """``a == b`` (``b`` an int only when ``a`` is an Int term)."""
    return _rel(z3.Z3_mk_eq, a, b)


def mk_le(a: z3.ArithRef, b: Term) -> z3.BoolRef:
    """``a <= b``."""
    return _rel(z3.Z3_mk_le, a, b)


def mk_ge(a: z3.ArithRef, b: Term) -> z3.BoolRef:
    """``a >= b``."""
    return _rel(z3.Z3_mk_ge, a, b)


def mk_implies(a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    """``z3.Implies(a, b)``."""
    return z3.BoolRef(z3.Z3_mk_implies(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def assert_all(s: z3.Solver, constraints: Iterable[z3.BoolRef]) -> None:
    """``s.add(*constraints)`` by direct C API calls for Boolean terms of the solver's context
    (``Solver.add`` casts each term in Python: on a whole-game model or a puzzle's pick model
    that costs more than the check itself); anything else goes through ``s.add``."""
    ref, solver = s.ctx.ref(), s.solver
    for c in constraints:
        if isinstance(c, z3.BoolRef):
            z3.Z3_solver_assert(ref, solver, c.as_ast())
        else:
            s.add(c)


def mk_if(c: z3.BoolRef, a: Term, b: Term) -> z3.ArithRef:
    """``z3.If(c, a, b)`` over Int terms or ints."""
    x = _num(a, c.ctx) if isinstance(a, builtins.int) else a
    y = _num(b, c.ctx) if isinstance(b, builtins.int) else b
    return z3.ArithRef(z3.Z3_mk_ite(c.ctx.ref(), c.as_ast(), x.as_ast(), y.as_ast()), c.ctx)


def core_rule_ids(core: Iterable[z3.BoolRef]) -> list[str]:
    """Rule ids named by an unsat core of a tracked solver, in first-seen order."""
    seen: dict[str, None] = {}
    for b in core:
        seen.setdefault(str(b).split("|", 1)[0], None)
    return list(seen)


@dataclass(frozen=True)
class Core(Answer[Z3Status]):
    """An explanation by unsat core: ``status`` is "sat" (the claims hold), "unsat" (``rule_ids``
    name a minimal set of broken rules) or "unknown" (``reason`` says which budget ran out)."""

    status: Z3Status
    rule_ids: tuple[str, ...] = ()
    reason: str = ""


def minimal_core(m: Model, hard: Sequence[z3.BoolRef], timeout_ms: builtins.int,
                 rlimit: builtins.int, total_ms: builtins.int) -> Core:
    """Rule ids of a minimal set of the model's groups that contradicts ``hard`` (facts, claims).

    Z3's own ``core.minimize`` runs inside ``unsat_core()``, outside the timer and the
    resource limit of ``check()``, and has hung there; so the core is minimised here by
    deletion, every ``check()`` under ``timeout_ms`` and ``rlimit`` and all of them under
    ``total_ms``. A budget that runs out makes the answer "unknown", never a guess.
    """
    s = z3.Solver()
    s.set("rlimit", rlimit)
    lits: list[z3.BoolRef] = []
    for k, (rid, label, cs) in enumerate(m.groups):
        lits.append(z3.Bool(f"{rid}|{label or k}|{k}"))
        s.add(z3.Implies(lits[-1], z3.And(*cs)))
    s.add(*hard)
    deadline = time.monotonic() + total_ms / 1000
    budget = f"budget {timeout_ms} ms and rlimit {rlimit} a check, {total_ms} ms in all"

    def check(assumed: Sequence[z3.BoolRef]) -> str:
        left = builtins.int((deadline - time.monotonic()) * 1000)
        if left <= 0:
            return "deadline"
        return decide(s, Budget(min(timeout_ms, left), None), assumed).status  # rlimit set above

    res = check(lits)
    if res == "sat":
        return Core("sat")
    if res != "unsat":
        why = s.reason_unknown() if res == "unknown" else "out of time"
        return Core("unknown", reason=f"{why}; {budget}")
    todo = list(s.unsat_core())
    keep: list[z3.BoolRef] = []
    while todo:
        rest = todo[1:]
        res = check(keep + rest)
        if res == "sat":
            keep.append(todo[0])
            todo = rest
        elif res == "unsat":
            # Clause-set refinement: the new core drops every literal it did not use.
            used = {str(b) for b in s.unsat_core()}
            todo = [b for b in rest if str(b) in used]
        else:
            why = s.reason_unknown() if res == "unknown" else "out of time"
            return Core("unknown", reason=f"core minimisation stopped: {why}; {budget}")
    return Core("unsat", tuple(core_rule_ids(keep)))


@contextlib.contextmanager
def interrupts_reach_python() -> Iterator[None]:
    """While inside, a SIGINT during ``check()`` is left to Python's handler.

    By default Z3 traps SIGINT inside ``check()``, cancels the search and answers unknown
    ("interrupted from keyboard"); the program then goes on as if the budget had run out and
    the interrupt is lost. With ``ctrl_c`` off the signal waits for ``check()`` to return
    (every call under a budget), then Python raises KeyboardInterrupt as usual.
    """
    z3.set_param("ctrl_c", False)
    try:
        yield
    finally:
        z3.set_param("ctrl_c", True)


# Inside the CLI's stop scope, Z3's own Ctrl-C handler must be off from the first import of z3
# (spec.model.budget.stop_on_signals); every model is built through this module.
from sushigo.spec.model import budget as _budget  # noqa: E402

_budget.z3_loaded()
