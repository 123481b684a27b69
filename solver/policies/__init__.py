"""Policies that play: ``make_policy("ismcts:iterations=1000")`` and the table of names.

spec/policies.py states what a player sees and the two plain policies (random, greedy); the
policies here search (docs/policies.md). Every one follows spec.policies.Policy: ``name`` (its
full spec) and ``choose(view, options, rng)``, drawing only from the generator it is handed,
so a game is the same for the same seed.
"""

from sushigo.solver.policies.registry import (
    POLICY_NAMES,
    Option,
    make_policy,
    option_help,
    parse_spec,
    resolve_policies,
)

__all__ = ["POLICY_NAMES", "Option", "make_policy", "option_help", "parse_spec", "resolve_policies"]
