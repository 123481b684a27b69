"""A model's verdict on a fully determined case by substitution and simplification.

Where every input of a model is fixed, its outputs are functions of them: asking a solver
"are these facts and these claimed outputs satisfiable?" (a few milliseconds with
assumptions, which switch off Z3's preprocessing) can be replaced by substituting the
values into the model's own terms and letting ``z3.simplify`` fold them (well under a
millisecond). It is still the model's statement that decides; only the search is skipped.

``sushigo check`` now uses :mod:`sushigo.spec.model.compiled` instead (the same reading of
the model compiled into Python: 50 to 100 times faster a case, and two to six times cheaper
to build, since the Python API's AST wrappers were most of this module's cost); this
one stays as its reference in tests and in ``benchmarks/bench_check.py --compare``
(``checks.properties.EVALUATOR = ["substitution"]``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import z3
from sushigo.spec.errors import SushiGoError
from sushigo.spec.model.core import Model, ast_array


class Undecided(SushiGoError):
    """The evaluator cannot reduce a case to a constant: the solver decides it."""


def _is_var(t: Any) -> bool:
    return bool(z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED)


def _free_vars(terms: Sequence[Any]) -> dict[int, Any]:
    """Every uninterpreted constant under ``terms`` (each shared node visited once)."""
    seen: set[int] = set()
    out: dict[int, Any] = {}
    todo = list(terms)
    while todo:
        t = todo.pop()
        k = t.get_id()
        if k in seen:
            continue
        seen.add(k)
        if _is_var(t):
            out[k] = t
        else:
            todo.extend(t.children())
    return out


class Evaluator:
    """The model's verdict on one case by substitution and simplification, without a solver call.

    The model's constraints are read once: ``v == e`` with ``v`` a variable that is neither an
    input nor defined yet is a definition, everything else (domains, rankings) a condition.
    Definitions are inlined into the outputs and the conditions, so each is a term over the
    inputs. A case substitutes its values and simplifies: every term becomes a constant, so
    "facts and claims are satisfiable" reduces to True or False, still as the model states it.
    A variable that no equation defines (the pudding maximum: ``Or(hi == p0, hi == p1, ...)``
    and ``p <= hi``) is searched over the values its ``Or`` of equations allows, which is
    exhaustive because that ``Or`` is itself a condition. Anything else is :class:`Undecided`.
    """

    def __init__(self, m: Model, inputs: Sequence[Any], outputs: Sequence[Any]) -> None:
        ins = {v.get_id() for v in inputs}
        defs: dict[int, tuple[Any, Any]] = {}
        conds: list[Any] = []
        for c in m.constraints():
            if z3.is_eq(c):
                lhs, rhs = c.arg(0), c.arg(1)
                if z3.is_int_value(lhs) and _is_var(rhs):  # ``v == 3`` built from an int comes as ``3 == v``
                    lhs, rhs = rhs, lhs
                if _is_var(lhs) and lhs.get_id() not in ins and lhs.get_id() not in defs:
                    defs[lhs.get_id()] = (lhs, rhs)
                    continue
            conds.append(c)
        pairs = list(defs.values())
        terms = [*outputs, *conds]
        # Every term as the argument of one application, so each round is a single substitution.
        pack = z3.Function("evaluate_pack", *[t.sort() for t in terms], z3.BoolSort())
        packed = pack(*terms)
        for _ in range(len(pairs) + 1):  # each round inlines one more level of definitions
            nxt = z3.substitute(packed, *pairs) if pairs else packed
            if nxt.eq(packed):
                break
            packed = nxt
        else:
            raise Undecided("cyclic definitions")
        terms = packed.children()
        self.inputs = list(inputs)
        self.outputs = terms[:len(outputs)]
        self.condition = z3.And(*terms[len(outputs):]) if conds else z3.BoolVal(True)
        hidden = [v for k, v in _free_vars([packed]).items() if k not in ins]
        self.choices: list[tuple[Any, list[Any]]] = []
        for v in hidden:
            alts = next((a for c in terms[len(outputs):] if (a := _alternatives(c, v))), None)
            if alts is None:
                raise Undecided(f"{v} is neither defined nor chosen among values")
            self.choices.append((v, alts))
        alts_all = [a for _, alts in self.choices for a in alts]
        # One application holds everything a case reads: the condition, the outputs, then the
        # alternatives of each hidden variable; one substitution and one simplification a case.
        parts = [self.condition, *self.outputs, *alts_all]
        self._pack = z3.Function("evaluate_case", *[t.sort() for t in parts], z3.BoolSort())(*parts)
        self._ctx = self._pack.ctx
        self._from = ast_array(len(self.inputs))(*[v.as_ast() for v in self.inputs])
        self._vals: dict[int, Any] = {}

    def _val(self, x: int) -> Any:
        v = self._vals.get(x)
        if v is None:
            v = self._vals[x] = z3.IntVal(x, self._ctx)
        return v

    def _substitute(self, term: Any, source: Any, values: Sequence[Any]) -> Any:
        """``term`` with ``source`` (a C array of variables) replaced by ``values``, simplified.

        Straight to the C API: ``z3.substitute`` checks every pair's sorts in Python, which
        cost more than the substitution itself."""
        ref = self._ctx.ref()
        to = ast_array(len(values))(*[v.as_ast() for v in values])
        ast = z3.Z3_substitute(ref, term.as_ast(), len(values), source, to)
        return z3.simplify(z3.BoolRef(ast, self._ctx))

    def agrees(self, inputs: Sequence[int], outputs: Sequence[object]) -> bool:
        """Are the model plus ``inputs`` plus ``outputs`` satisfiable? (True or False, never a guess.)"""
        vals = [self._val(x) for x in inputs]
        if len(vals) != len(self.inputs):
            raise Undecided("wrong number of inputs")
        ground = self._substitute(self._pack, self._from, vals)
        if not self.choices:
            return self._holds(ground, outputs)
        kids = ground.children()
        values = kids[1 + len(self.outputs):]
        if not all(z3.is_int_value(x) for x in values):
            raise Undecided("an alternative is not a constant")
        options, k = [], 0
        for _, alts in self.choices:
            options.append(sorted({x.as_long() for x in values[k:k + len(alts)]}))
            k += len(alts)
        hidden = ast_array(len(self.choices))(*[v.as_ast() for v, _ in self.choices])
        return any(self._holds(self._substitute(ground, hidden, [self._val(x) for x in combo]), outputs)
                   for combo in itertools.product(*options))

    def _holds(self, ground: Any, outputs: Sequence[object]) -> bool:
        """The condition is true and every output equals its claim (all constants by now)."""
        kids = ground.children()
        if not _truth(kids[0]):
            return False
        for term, claim in zip(kids[1:1 + len(self.outputs)], outputs, strict=True):
            if z3.is_int_value(term):
                if term.as_long() != claim:
                    return False
            elif z3.is_true(term) or z3.is_false(term):
                if z3.is_true(term) != claim:
                    return False
            else:
                raise Undecided(f"not a constant: {term}")
        return True


def _alternatives(cond: Any, v: Any) -> list[Any] | None:
    """The terms ``e`` of a condition ``Or(v == e1, v == e2, ...)`` (or ``v == e``) about ``v``."""
    parts = cond.children() if z3.is_or(cond) else [cond]
    alts = []
    for p in parts:
        if not (z3.is_eq(p) and p.arg(0).eq(v)):
            return None
        alts.append(p.arg(1))
    return alts


def _truth(t: Any) -> bool:
    if z3.is_true(t):
        return True
    if z3.is_false(t):
        return False
    raise Undecided(f"not a constant: {t}")
