"""Import circles that were closed stay closed (issue 27 item 8), read from the source by AST.

Every ``import`` and ``from ... import`` of the package's modules counts, also those inside
functions (a lazy import still closes a circle at run time); only those under
``if TYPE_CHECKING:`` are left out, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository's folders and the import packages they install as (setup.py's ROOTS).
ROOTS = {"sushigo": "sushigo", "spec": "sushigo.spec", "solver": "sushigo.solver", "checks": "sushigo.checks"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = [ROOTS[rel.parts[0]], *rel.parts[1:]]
    parts[-1] = parts[-1].removesuffix(".py")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(path: Path, name: str) -> tuple[set[str], set[str]]:
    """The sushigo modules ``path`` imports when its top level runs, and those it imports anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top: set[str] = set()
    anywhere: set[str] = set()

    def visit(node: ast.AST, at_top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            test = child.test if isinstance(child, ast.If) else None
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                for other in child.orelse:
                    visit(other, at_top)
                continue
            found: list[str] = []
            if isinstance(child, ast.Import):
                found = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                found = [base, *(f"{base}.{a.name}" for a in child.names)]
            for mod in found:
                if mod.startswith("sushigo"):
                    anywhere.add(mod)
                    if at_top:
                        top.add(mod)
            inner = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, at_top and not inner)

    visit(tree, True)
    return top, anywhere


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    files = [p for folder in ROOTS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    names = {_module_name(p): p for p in files}
    top: dict[str, set[str]] = {}
    anywhere: dict[str, set[str]] = {}
    for name, path in names.items():
        t, a = _runtime_imports(path, name)
        top[name] = {m for m in t if m in names}  # a name imported from a module is not a module
        anywhere[name] = {m for m in a if m in names}
    return top, anywhere


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_common_reaches_no_api_module() -> None:
    # sushigo/api/base.py imports sushigo.common; common.rules_from_args imported api.base back
    # (the circle of issue 27, closed when the function went).
    _top, anywhere = _graph()
    assert "sushigo.common" in _reach(anywhere, "sushigo.api.base")  # the probe sees the edge
    assert sorted(m for m in _reach(anywhere, "sushigo.common") if m.startswith("sushigo.api")) == []


def test_the_ruleset_modules_import_one_way() -> None:
    # printed <- readings <- numbers <- value <- named <- parse when the package loads (printed,
    # the rulebook's numbers, imports nothing); value's describe() reads the named rulesets
    # lazily, the one way back.
    top, anywhere = _graph()
    order = ["printed", "readings", "numbers", "value", "named", "parse"]
    for i, mod in enumerate(order):
        inside = {m.rpartition(".")[2] for m in top[f"sushigo.spec.ruleset.{mod}"]
                  if m.startswith("sushigo.spec.ruleset.")}
        assert inside <= set(order[:i]), (mod, sorted(inside))
    assert "sushigo.spec.ruleset.named" in anywhere["sushigo.spec.ruleset.value"]  # the lazy one
