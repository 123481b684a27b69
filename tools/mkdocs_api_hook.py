"""MkDocs hook: the API reference is read from the installed ``sushigo``, not from the checkout.

Installed, spec/, solver/ and checks/ live inside the one package ``sushigo`` (setup.py maps
them); in the repository they sit beside sushigo/ at the top, so a docstring reader pointed at
the checkout finds a ``sushigo`` without them. mkdocstrings reads source files statically
(griffe), which cannot follow an editable install's mapping either. So before any page is
rendered this hook asks the import system where each of the four roots is installed and points
mkdocstrings at a folder shaped like the installed package: site-packages itself for a wheel
(CI's clean venv), or a temporary tree of links for an editable install (a developer's venv).
"""

from __future__ import annotations

import atexit
import importlib.util
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import griffe
from mkdocs.plugins import event_priority

ROOTS = ("sushigo", "sushigo.spec", "sushigo.solver", "sushigo.checks")


def _installed(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        # Also what a checkout ahead of the installed package on sys.path gives (python -m mkdocs
        # from the repository with a wheel installed): its sushigo/ has no spec/.
        raise SystemExit(f"docs: the installed package has no {name}: python -m pip install -e '.[docs]',"
                         " and run mkdocs (not python -m mkdocs) from the repository")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def search_path() -> Path:
    """A folder holding ``sushigo/`` with spec/, solver/ and checks/ inside, as installed."""
    top = _installed("sushigo")
    subs = {name.rsplit(".", 1)[1]: _installed(name) for name in ROOTS[1:]}
    if all(path == top / sub for sub, path in subs.items()):
        return top.parent  # a wheel: the package is already in one piece
    tree = Path(tempfile.mkdtemp(prefix="sushigo-docs-api."))
    atexit.register(shutil.rmtree, tree, ignore_errors=True)
    package = tree / "sushigo"
    package.mkdir()
    for entry in top.iterdir():
        if entry.name not in subs and entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for sub, path in subs.items():
        (package / sub).symlink_to(path)
    return tree


# Before mkdocstrings' own on_config, which already creates the Python handler and reads its paths.
@event_priority(100)
def on_config(config: Any) -> Any:
    handlers = config.plugins["mkdocstrings"].config.handlers
    handlers.setdefault("python", {})["paths"] = [str(search_path())]
    return config


class PublicFunctions(griffe.Extension):
    """Each command function of ``sushigo.api`` is made at import time, ``score =
    public(score_outcome, "score")``: the same arguments, the JSON document as result. A static
    reader sees only an attribute; this shows it as the function it is, with the docstring and
    parameters of the function it wraps, returning the parsed ``--json`` document."""

    CALL = re.compile(r"public\((\w+), ['\"](\w+)['\"]\)")

    def on_module_members(self, *, mod: griffe.Module, **kwargs: Any) -> None:
        if not mod.path.startswith("sushigo.api."):
            return
        for member in list(mod.members.values()):
            if member.is_alias or not member.is_attribute or member.value is None:
                continue
            found = self.CALL.fullmatch(str(member.value))
            wrapped = mod.members.get(found.group(1)) if found else None
            if found is None or wrapped is None or wrapped.is_alias or not wrapped.is_function:
                continue
            function = griffe.Function(
                found.group(2),
                lineno=member.lineno,
                endlineno=member.endlineno,
                parameters=wrapped.parameters,
                returns="dict[str, Any]",
                docstring=wrapped.docstring,
            )
            mod.set_member(function.name, function)


class PlainRoles(griffe.Extension):
    """The docstrings cross-reference in Sphinx's roles (``:class:`InputError```); Markdown
    would print the role itself, so each becomes the code span it names."""

    ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`~?([^`]+)`")

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = self.ROLE.sub(r"`\1`", obj.docstring.value)
