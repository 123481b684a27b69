"""Sushi Go! rules stated formally, and questions answered about them: the Python API.

One function per command that has ``--json`` (``sushigo.score``, ``sushigo.best``, ...): the
same input (a dict, or a path) and the same options as keyword arguments, returning exactly the
document ``sushigo <command> --json`` prints. Bad input raises :class:`InputError` (a
``ValueError``) with the one line the CLI prints. Also here: the values a library user builds
on. Everything is imported on first use (PEP 562), so ``import sushigo`` is cheap.
Guide with examples: docs/api.md.
"""

from __future__ import annotations

import importlib

#: typing.TYPE_CHECKING without importing typing (a fifth of ``sushigo --help``'s start-up);
#: mypy reads any name TYPE_CHECKING as true.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    from sushigo.api.balance import balance as balance
    from sushigo.api.base import ruleset as ruleset
    from sushigo.api.best import best as best
    from sushigo.api.check import check as check
    from sushigo.api.conform import conform as conform
    from sushigo.api.diff import diff as diff
    from sushigo.api.endgame import endgame as endgame
    from sushigo.api.evaluate import evaluate as evaluate
    from sushigo.api.ladder import ladder as ladder
    from sushigo.api.play import play as play
    from sushigo.api.puzzle import puzzle as puzzle
    from sushigo.api.replay import replay as replay
    from sushigo.api.rules import rules as rules
    from sushigo.api.schema import schema as schema
    from sushigo.api.score import score as score
    from sushigo.api.scoresheet import scoresheet as scoresheet
    from sushigo.api.table import table as table
    from sushigo.api.tableaux import tableaux as tableaux
    from sushigo.solver.policies import POLICY_NAMES as POLICY_NAMES
    from sushigo.solver.policies import make_policy as make_policy
    from sushigo.spec.cards import Card as Card
    from sushigo.spec.cards import Token as Token
    from sushigo.spec.errors import InputError as InputError
    from sushigo.spec.policies import POLICIES as POLICIES
    from sushigo.spec.policies import PlayerView as PlayerView
    from sushigo.spec.policies import Policy as Policy
    from sushigo.spec.record import GameRecord as GameRecord
    from sushigo.spec.record import RoundRecord as RoundRecord
    from sushigo.spec.ruleset import OFFICIAL as OFFICIAL
    from sushigo.spec.ruleset import RULESETS as RULESETS
    from sushigo.spec.ruleset import Ruleset as Ruleset
    from sushigo.spec.tableau import Tableau as Tableau

#: Public name -> (module, attribute). The one list; ``__all__`` is derived from it.
_EXPORTS: dict[str, tuple[str, str]] = {
    # one function per command with --json
    "rules": ("sushigo.api.rules", "rules"),
    "score": ("sushigo.api.score", "score"),
    "play": ("sushigo.api.play", "play"),
    "replay": ("sushigo.api.replay", "replay"),
    "best": ("sushigo.api.best", "best"),
    "tableaux": ("sushigo.api.tableaux", "tableaux"),
    "table": ("sushigo.api.table", "table"),
    "scoresheet": ("sushigo.api.scoresheet", "scoresheet"),
    "diff": ("sushigo.api.diff", "diff"),
    "check": ("sushigo.api.check", "check"),
    "conform": ("sushigo.api.conform", "conform"),
    "endgame": ("sushigo.api.endgame", "endgame"),
    "puzzle": ("sushigo.api.puzzle", "puzzle"),
    "schema": ("sushigo.api.schema", "schema"),
    "balance": ("sushigo.api.balance", "balance"),
    "ladder": ("sushigo.api.ladder", "ladder"),
    "evaluate": ("sushigo.api.evaluate", "evaluate"),
    # bad input, whatever the command
    "InputError": ("sushigo.spec.errors", "InputError"),
    # rules as values
    "Ruleset": ("sushigo.spec.ruleset", "Ruleset"),
    "ruleset": ("sushigo.api.base", "ruleset"),
    "OFFICIAL": ("sushigo.spec.ruleset", "OFFICIAL"),
    "RULESETS": ("sushigo.spec.ruleset", "RULESETS"),
    # cards and tableaux
    "Card": ("sushigo.spec.cards", "Card"),
    "Token": ("sushigo.spec.cards", "Token"),
    "Tableau": ("sushigo.spec.tableau", "Tableau"),
    # game records
    "GameRecord": ("sushigo.spec.record", "GameRecord"),
    "RoundRecord": ("sushigo.spec.record", "RoundRecord"),
    # the policy interface
    "Policy": ("sushigo.spec.policies", "Policy"),
    "PlayerView": ("sushigo.spec.policies", "PlayerView"),
    "POLICIES": ("sushigo.spec.policies", "POLICIES"),
    "make_policy": ("sushigo.solver.policies", "make_policy"),
    "POLICY_NAMES": ("sushigo.solver.policies", "POLICY_NAMES"),
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'sushigo' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
