"""``sushigo.conform``: hold another Sushi Go engine's scoring against the reference.

The generator imports Hypothesis; it is imported when run, not with this module."""

from __future__ import annotations

from sushigo.api.base import Outcome, Rule, public, rules_from_options, tagged
from sushigo.spec.errors import InputError

FORMAT = "sushigo-conform-result/1"


def conform_outcome(
    target: str,
    *,
    rules: str = "official",
    rule: Rule = None,
    examples: int = 2000,
    seed: int | None = None,
) -> Outcome:
    """Score generated rounds and pudding counts (every maki and pudding tie structure included)
    with ``target`` (a ``.py`` file or an importable module with ``score_round(tableaux)`` and
    optionally ``score_puddings(counts)``, docs/checks.md) and with the reference under ``rules``.
    Returns what ``sushigo conform --json`` prints: each distinct disagreement minimised with its
    rule ids, and which reading of each contested rule the target follows (exit code 1 when they
    disagree)."""
    from sushigo.checks import conform as C

    ruleset = rules_from_options(rules, rule)
    if examples < 1:
        raise InputError(f"--examples must be at least 1, got {examples}")
    engine = C.load_target(target)  # BadTarget is an InputError
    report = C.conform(engine, ruleset, examples, seed)
    return Outcome(tagged(FORMAT, report.as_dict()), 0 if report.ok else 1, (ruleset, report))


conform = public(conform_outcome, "conform")
