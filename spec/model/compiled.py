"""A model's verdict on a fully determined case by its terms compiled once into Python.

:class:`sushigo.spec.model.evaluate.Evaluator` answers a case by substituting the inputs into
the model's terms and letting ``z3.simplify`` fold them: every case builds and walks Z3 terms
through the Python API, and building the evaluator inlines the definitions by repeated
substitution, so the AST wrappers (not Z3's own work) cost most of ``sushigo check``'s time.
:class:`CompiledEvaluator` reads the same terms once, straight from the C API (no wrapper per
node), and writes them as one Python function over ints and bools: one assignment per shared
node of the term DAG, in dependency order, a definition ``v == e`` becoming ``v``'s value
instead of being inlined. A case is then one call of plain Python. The model's terms still
decide (the function is their transcription, operator by operator, with Z3's semantics:
integer ``div`` and ``mod`` are SMT-LIB's Euclidean ones); only the search is skipped.
A case costs 3 to 40 microseconds (0.3 to 2 ms by substitution, 0.4 to 10 ms with the
solver) and a build 1 to 30 ms (3 to 150 ms by substitution), so ``sushigo check`` asks it
from a model's first case and makes the solver only when a question reaches it.

It reads exactly what the substitution path reads: the same split of the constraints into
definitions and conditions, the same search of a variable no equation defines over the values
its ``Or`` of equations allows (the pudding maximum). An operator it does not know, a variable
that is neither an input nor defined nor chosen among values, or cyclic definitions raise
:class:`~sushigo.spec.model.evaluate.Undecided` when it is built (the solver decides that
model's cases); a division by zero raises it for that case. ``sushigo check`` uses it for
agreement only and leaves every disagreement to the solver (:class:`spec.model.agree.TermChecker`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import z3
from sushigo.spec.model.core import Model
from sushigo.spec.model.evaluate import Undecided

# Inlined operands nest no deeper than this (Python's parser stops at 200 nested parentheses).
_MAX_DEPTH = 40

_NARY = {z3.Z3_OP_ADD: " + ", z3.Z3_OP_SUB: " - ", z3.Z3_OP_MUL: " * ",
         z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or "}
_CONSTANTS = {z3.Z3_OP_TRUE: "True", z3.Z3_OP_FALSE: "False"}
_BINARY = {z3.Z3_OP_LE: " <= ", z3.Z3_OP_LT: " < ", z3.Z3_OP_GE: " >= ", z3.Z3_OP_GT: " > ",
           z3.Z3_OP_EQ: " == ", z3.Z3_OP_XOR: " != "}


def _div(a: int, b: int) -> int:
    """SMT-LIB integer ``div``: ``a == b * q + r`` with ``0 <= r < |b|`` (Python's ``//`` floors)."""
    if b == 0:
        raise Undecided("division by zero")  # Z3 leaves ``a div 0`` unspecified: the solver decides
    return -(a // -b) if b < 0 else a // b


def _mod(a: int, b: int) -> int:
    """SMT-LIB integer ``mod``: the ``r`` of :func:`_div`, never negative."""
    if b == 0:
        raise Undecided("division by zero")
    return a % abs(b)


@dataclass
class _Node:
    op: int | str  # a Z3 decl kind, or "leaf" (a literal), "input", "hidden"
    args: list[int] = field(default_factory=list)  # the keys of the (definition-resolved) arguments
    text: str = ""  # a numeral's literal, an input's or hidden variable's name
    hidden: bool = False  # depends on a variable chosen among values
    uses: int = 0


class _Terms:
    """The term DAG under some roots, read through the raw C API and keyed by AST address."""

    def __init__(self, ctx: z3.Context, inputs: Sequence[Any]) -> None:
        self.ref = ctx.ref()
        self.ins = {self.id(v.as_ast()): k for k, v in enumerate(inputs)}
        for v in inputs:
            if not z3.is_int(v):
                raise Undecided(f"input {v} is not an integer")
        self.defs: dict[int, Any] = {}  # variable key -> the AST that defines it
        self.nodes: dict[int, _Node] = {}
        self.order: list[int] = []  # every node after its arguments
        self.kinds: dict[int, int] = {}  # declaration address -> its kind

    def id(self, a: Any) -> int:
        # The AST's address: Z3 shares equal terms, so while the model holds them one address is
        # one term (a dictionary key without a call into Z3, unlike ``Z3_get_ast_id``).
        return int(a.value)

    def op(self, a: Any) -> int:
        """The kind of ``a``'s declaration (a numeral is an application too: ``Z3_OP_ANUM``)."""
        try:
            decl = z3.Z3_get_app_decl(self.ref, a)
        except z3.Z3Exception as exc:
            raise Undecided("a quantifier or bound variable") from exc
        op = self.kinds.get(decl.value)  # few declarations, shared by many nodes: one call each
        if op is None:
            op = self.kinds[decl.value] = z3.Z3_get_decl_kind(self.ref, decl)
        return op

    # bool(): the C API's results are untyped (z3 ships no annotations); a comparison of them is Any
    def is_var(self, a: Any) -> bool:
        return bool(self.op(a) == z3.Z3_OP_UNINTERPRETED and z3.Z3_get_app_num_args(self.ref, a) == 0)

    def is_int_numeral(self, a: Any) -> bool:
        r = self.ref
        return bool(
            self.op(a) == z3.Z3_OP_ANUM and z3.Z3_get_sort_kind(r, z3.Z3_get_sort(r, a)) == z3.Z3_INT_SORT
        )

    def args(self, a: Any) -> list[Any]:
        r = self.ref
        return [z3.Z3_get_app_arg(r, a, i) for i in range(z3.Z3_get_app_num_args(r, a))]

    def definition(self, c: Any) -> tuple[int, Any] | None:
        """``(key of v, e)`` if ``c`` is ``v == e`` (or ``3 == v``), ``v`` neither an input nor defined."""
        if self.op(c) != z3.Z3_OP_EQ:
            return None
        lhs, rhs = self.args(c)
        if self.is_int_numeral(lhs) and self.is_var(rhs):  # ``v == 3`` built from an int comes as ``3 == v``
            lhs, rhs = rhs, lhs
        k = self.id(lhs)
        if self.is_var(lhs) and k not in self.ins and k not in self.defs:
            return k, rhs
        return None

    def resolve(self, a: Any) -> tuple[int, Any]:
        """``a``, or the term a defined variable stands for (through chains of definitions)."""
        k = self.id(a)
        for _ in range(len(self.defs) + 1):
            if k in self.ins or k not in self.defs:
                return k, a
            a = self.defs[k]
            k = self.id(a)
        raise Undecided("cyclic definitions")

    def read(self, root: Any) -> int:
        """Add the DAG under ``root`` (each shared node once); the key of its resolved root."""
        top, a = self.resolve(root)
        stack = [(a, False)]
        open_: set[int] = set()
        r = self.ref
        nodes, order = self.nodes, self.order
        while stack:
            a, done = stack.pop()
            k = int(a.value)
            if done:
                open_.discard(k)
                order.append(k)
                continue
            if k in open_:
                raise Undecided("cyclic definitions")
            if k in nodes:
                continue
            if k in self.ins:
                nodes[k] = _Node("input", text=f"x{self.ins[k]}")
                order.append(k)
                continue
            op = self.op(a)
            if op == z3.Z3_OP_ANUM:
                if z3.Z3_get_sort_kind(r, z3.Z3_get_sort(r, a)) != z3.Z3_INT_SORT:
                    raise Undecided("a numeral that is not an integer")
                value = int(z3.Z3_get_numeral_string(r, a))
                nodes[k] = _Node("leaf", text=f"({value})" if value < 0 else str(value))
                order.append(k)
                continue
            n = z3.Z3_get_app_num_args(r, a)
            if op in _CONSTANTS:
                nodes[k] = _Node("leaf", text=_CONSTANTS[op])
                order.append(k)
                continue
            if op == z3.Z3_OP_UNINTERPRETED and n == 0:
                if z3.Z3_get_sort_kind(r, z3.Z3_get_sort(r, a)) != z3.Z3_INT_SORT:
                    raise Undecided("a variable that is neither an input nor defined, and not an integer")
                nodes[k] = _Node("hidden", text=f"h{len(nodes)}", hidden=True)
                order.append(k)
                continue
            resolved = [self.resolve(z3.Z3_get_app_arg(r, a, i)) for i in range(n)]
            nodes[k] = _Node(op, [j for j, _ in resolved])
            open_.add(k)
            stack.append((a, True))
            stack.extend((x, False) for _, x in reversed(resolved))
        return top


def _alternatives(t: _Terms, conds: Sequence[Any]) -> dict[int, list[int]]:
    """For each variable ``v``, the keys of the ``e`` of the first condition ``Or(v == e1, v == e2,
    ...)`` (or ``v == e``) about it."""
    out: dict[int, list[int]] = {}
    for c in conds:
        parts = t.args(c) if t.op(c) == z3.Z3_OP_OR else [c]
        sides = [t.args(p) if t.op(p) == z3.Z3_OP_EQ else None for p in parts]
        if not sides or any(s is None for s in sides):
            continue
        lhs = {t.resolve(s[0])[0] for s in sides if s is not None}
        if len(lhs) == 1:
            out.setdefault(lhs.pop(), [t.resolve(s[1])[0] for s in sides if s is not None])
    return out


class CompiledEvaluator:
    """The model's verdict on one case by one call of Python compiled from the model's terms.

    Same contract as :class:`~sushigo.spec.model.evaluate.Evaluator`: :meth:`agrees` says
    whether the model plus the inputs plus the claimed outputs are satisfiable, True or False,
    and raises :class:`Undecided` where it cannot tell. ``source`` is the generated code.
    """

    def __init__(self, m: Model, inputs: Sequence[Any], outputs: Sequence[Any]) -> None:
        constraints = m.constraints()
        ctx = constraints[0].ctx if constraints else z3.main_ctx()
        t = _Terms(ctx, inputs)
        conds: list[Any] = []
        for c in constraints:
            a = c.as_ast()
            d = t.definition(a)
            if d is None:
                conds.append(a)
            else:
                t.defs[d[0]] = d[1]
        # ``constraints`` and ``outputs`` keep every AST walked here alive (children are owned by
        # their parents), so the raw pointers need no reference counts of their own.
        out_ids = [t.read(o.as_ast()) for o in outputs]
        cond_ids = [t.read(c) for c in conds]
        choices: list[tuple[int, list[int]]] = []
        hidden = [k for k in t.order if t.nodes[k].op == "hidden"]
        about = _alternatives(t, conds) if hidden else {}
        for k in hidden:
            alts = about.get(k)
            if alts is None:
                raise Undecided("a variable is neither defined nor chosen among values")
            choices.append((k, alts))
        for k in t.order:
            node = t.nodes[k]
            node.hidden = node.hidden or any(t.nodes[j].hidden for j in node.args)
        for _, alts in choices:
            if any(t.nodes[a].hidden for a in alts):
                raise Undecided("an alternative depends on a chosen variable")
        self.source = _source(t, out_ids, cond_ids, choices, len(inputs), len(outputs))
        self._agrees = _function(self.source)
        self._sizes = (len(inputs), len(outputs))

    def agrees(self, inputs: Sequence[int], outputs: Sequence[object]) -> bool:
        """Are the model plus ``inputs`` plus ``outputs`` satisfiable? (True or False, never a guess.)"""
        if (len(inputs), len(outputs)) != self._sizes:
            raise Undecided("wrong number of inputs or outputs")
        return self._agrees(inputs, outputs)


@lru_cache(maxsize=64)
def _function(source: str) -> Callable[[Sequence[int], Sequence[object]], bool]:
    """The function ``source`` defines (compiling costs more than reading the model's terms;
    models of the same shape, as many rulesets give, share it)."""
    namespace: dict[str, Any] = {"_div": _div, "_mod": _mod, "_product": itertools.product}
    exec(compile(source, "<compiled model>", "exec"), namespace)
    return namespace["_agrees"]  # type: ignore[no-any-return]


def _source(t: _Terms, out_ids: list[int], cond_ids: list[int], choices: list[tuple[int, list[int]]],
            n_inputs: int, n_outputs: int) -> str:
    """The function ``_agrees(I, C)``: the conditions hold and every output equals its claim."""
    nodes = t.nodes
    for k in t.order:
        for j in nodes[k].args:
            # A node read inside the loop over chosen values but not depending on them is named,
            # so it is computed once, before the loop.
            nodes[j].uses += 1 if nodes[j].hidden == nodes[k].hidden else 2
    for k in [*out_ids, *cond_ids]:
        nodes[k].uses += 1
    for _, alts in choices:
        for a in alts:
            nodes[a].uses += 2  # read before the loop: named
    for i, (h, _) in enumerate(choices):
        nodes[h].text = f"h{i}"
    expr: dict[int, str] = {}
    depth: dict[int, int] = {}
    lines: dict[bool, list[str]] = {False: [], True: []}
    for k in t.order:
        node = nodes[k]
        if isinstance(node.op, str):
            expr[k], depth[k] = node.text, 0
            continue
        code = _code(node.op, [expr[j] for j in node.args])
        d = 1 + max((depth[j] for j in node.args), default=0)
        # A node used once is written into its user; the rest are named.
        if node.uses == 1 and d < _MAX_DEPTH:
            expr[k], depth[k] = code, d
        else:
            # Names in order, not by AST: models of the same shape get the same source (one compile).
            name = f"v{len(expr)}"
            lines[node.hidden].append(f"{name} = {code}")
            expr[k], depth[k] = name, 0
    checks: dict[bool, list[str]] = {False: [], True: []}
    for k in cond_ids:
        checks[nodes[k].hidden].append(expr[k])
    for i, k in enumerate(out_ids):
        checks[nodes[k].hidden].append(f"{expr[k]} == c{i}")
    body = ["def _agrees(I, C):"]
    if n_inputs:
        body.append(f"    {', '.join(f'x{i}' for i in range(n_inputs))}, = I")
    if n_outputs:
        body.append(f"    {', '.join(f'c{i}' for i in range(n_outputs))}, = C")
    body += [f"    {line}" for line in lines[False]]
    fixed = " and ".join(checks[False]) or "True"
    if not choices:
        body.append(f"    return bool({fixed})")
        return "\n".join(body) + "\n"
    names = ", ".join(nodes[h].text for h, _ in choices)
    options = ", ".join(f"sorted({{{', '.join(expr[a] for a in alts)}}})" for _, alts in choices)
    body.append(f"    if not ({fixed}):")
    body.append("        return False")
    body.append(f"    for {names}, in _product({options}):")
    body += [f"        {line}" for line in lines[True]]
    body.append(f"        if {' and '.join(checks[True]) or 'True'}:")
    body.append("            return True")
    body.append("    return False")
    return "\n".join(body) + "\n"


def _code(op: int, args: list[str]) -> str:
    """One operator over its operands' code, with Z3's meaning."""
    if op in _NARY and args:
        return "(" + _NARY[op].join(args) + ")"
    if op in _BINARY and len(args) == 2:
        return f"({args[0]}{_BINARY[op]}{args[1]})"
    if op == z3.Z3_OP_ITE:
        return f"({args[1]} if {args[0]} else {args[2]})"
    if op == z3.Z3_OP_NOT:
        return f"(not {args[0]})"
    if op == z3.Z3_OP_UMINUS:
        return f"(-{args[0]})"
    if op == z3.Z3_OP_IMPLIES:
        return f"((not {args[0]}) or {args[1]})"
    if op == z3.Z3_OP_DISTINCT:
        return f"(len({{{', '.join(args)}}}) == {len(args)})"
    if op == z3.Z3_OP_IDIV:
        return f"_div({args[0]}, {args[1]})"
    if op == z3.Z3_OP_MOD:
        return f"_mod({args[0]}, {args[1]})"
    raise Undecided(f"operator {op} is not compiled")
