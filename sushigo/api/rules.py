"""``sushigo.rules``: every contested reading, its value in each named ruleset, the texts behind
it, the rule numbers, and (``catalogue``) which model constraints encode which rule."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from typing import Any

from sushigo.api.base import Outcome, Rule, as_list, override_texts, public, tagged
from sushigo.spec.document import DUMMY_PLAYERS
from sushigo.spec.errors import InputError, SushiGoError
from sushigo.spec.ruleset import (
    NUMBERS,
    OFFICIAL,
    PARAMETERS,
    RULESETS,
    SINGLE_READING_VARIANTS,
    Ruleset,
    apply_overrides,
    format_number,
    get_ruleset,
)

FORMAT = "sushigo-rules-result/1"

#: The rulesets that follow one rule text each (shown side by side by default).
TEXT_RULESETS: tuple[str, ...] = tuple(n for n in RULESETS if n not in SINGLE_READING_VARIANTS)

_NOT_NUMBERS = {"name", "source", *(p.name for p in PARAMETERS)}


def numbers(rules: Ruleset) -> dict[str, Any]:
    """The ruleset's rule numbers (deck, hand sizes, points): every field but the readings."""
    return {
        f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name not in _NOT_NUMBERS
    }


def _statement(catalogue: Any, rid: str, chosen: list[Ruleset]) -> str:
    """``rid``'s statement in the chosen rulesets' own numbers; each ruleset's, named, where
    their numbers make them differ."""
    texts = {r.name: catalogue.rule_statement(rid, r) for r in chosen}
    if not texts:
        return str(catalogue.RULE_CATALOGUE.get(rid, ""))
    if len(set(texts.values())) == 1:
        return str(next(iter(texts.values())))
    return " | ".join(f"{name}: {text}" for name, text in texts.items())


def _catalogue(chosen: list[Ruleset], players: int) -> dict[str, Any] | str:
    """The catalogue as data, or a one-line note when the model's catalogue is not there."""
    try:
        # Lazy: the model imports z3, which plain 'sushigo rules' does not need.
        catalogue: Any = importlib.import_module("sushigo.spec.model.catalogue")
    except ImportError as exc:
        return f"rule catalogue not available ({exc}); it lives in spec/model/catalogue.py"
    counts: dict[str, dict[str, int | None]] = {}
    for rules in chosen:
        n = DUMMY_PLAYERS if rules.dummy_2p else players
        try:
            counts[rules.name] = dict(catalogue.constraint_counts(rules, n))
        except SushiGoError:
            counts[rules.name] = {}
    ids = list(catalogue.RULE_CATALOGUE)
    for per in counts.values():
        ids += [i for i in per if i not in ids]
    param_of = {p.rule_id: p.name for p in PARAMETERS}
    return {
        "players": players,
        "rules": [
            {
                "id": rid,
                "statement": _statement(catalogue, rid, chosen),
                "parameter": param_of.get(rid),
                "constraints": {name: per.get(rid, 0) for name, per in counts.items()},
            }
            for rid in ids
        ],
    }


def beside(chosen: Sequence[Ruleset], vs: Ruleset) -> dict[str, Any]:
    """Every rules-file key of ``chosen`` beside ``vs``: each value, and which rulesets change it."""
    from sushigo.spec.rulefile import DECK, DECK_MEANING, KEYS, META, NUMBERS, ruleset_dict

    def flat(rules: Ruleset) -> dict[str, tuple[Any, str]]:
        data = ruleset_dict(rules)
        out: dict[str, tuple[Any, str]] = {}
        for key in KEYS:
            if key in META:
                continue
            if key == DECK:
                out |= {f"{DECK}.{kind}": (n, DECK_MEANING) for kind, n in data[DECK].items()}
            else:
                param = next((p for p in PARAMETERS if p.name == key), None)
                out[key] = (data[key], param.question if param else NUMBERS[key][1])
        return out

    base = flat(vs)
    mine = {r.name: flat(r) for r in chosen}
    keys = [
        {
            "key": key,
            "meaning": meaning,
            "values": {name: values[key][0] for name, values in mine.items()},
            "vs": value,
            "changed": [name for name, values in mine.items() if values[key][0] != value],
        }
        for key, (value, meaning) in base.items()
    ]
    return {"vs": vs.name, "keys": keys}


def rules_outcome(
    rulesets: str | Sequence[str] = (), *, all: bool = False, catalogue: bool = False, players: int = 4,
    rules: str | None = None, rule: Rule = None, vs: str | None = None,
) -> Outcome:
    """The contested rule parameters: for each its rule id, question, values, the texts that
    support each value and its value in each of ``rulesets`` (default: the rulesets of the rule
    texts; ``all``: every named ruleset); the rulesets' readings and the rule numbers. With
    ``catalogue``, the rule ids and how many Z3 model constraints encode each (for ``players``).
    ``rules`` (as every command spells it) shows that one ruleset; ``rule`` overrides parameters
    in every ruleset shown, and alone shows the official ruleset so overridden. A ruleset given as
    a rules file (or any ruleset with ``vs``) is also shown key by key beside ``vs`` (default
    official), each change marked ("beside").
    Returns what ``sushigo rules --json`` prints."""
    from sushigo.spec.rulefile import is_rules_path

    names = as_list(rulesets)
    overrides = override_texts(rule)
    if rules is not None:
        if names or all:
            raise InputError("--rules NAME names the one ruleset to show: drop it, or the RULESET "
                             "arguments and --all")
        names = [rules]
    if all:
        chosen = list(RULESETS.values())
    elif names:
        chosen = [get_ruleset(name) for name in names]
    elif overrides:
        chosen = [OFFICIAL]
    else:
        chosen = [RULESETS[n] for n in TEXT_RULESETS]
    chosen = [apply_overrides(r, overrides) for r in chosen]
    if not OFFICIAL.min_players <= players <= OFFICIAL.max_players:
        raise InputError(
            f"--players {players}: Sushi Go! takes "
            f"{OFFICIAL.min_players} to {OFFICIAL.max_players} players"
        )
    cat = _catalogue(chosen, players) if catalogue else None
    compared = None
    if vs is not None or any(is_rules_path(n) for n in names):
        compared = beside(chosen, get_ruleset(vs or "official"))
    data = {
        "parameters": [
            {
                "name": p.name,
                "rule_id": p.rule_id,
                "question": p.question,
                "values": list(p.values),
                "support": [{"value": v, "texts": t} for v, t in p.support],
                "rulesets": {r.name: getattr(r, p.name) for r in chosen},
                "rule_ids": list(p.rule_ids),
                "effect": str(p.effect),
                "observable": p.observable,
                "observability": str(p.observability),
                "check_family": p.check_family,
            }
            for p in PARAMETERS
        ],
        "rulesets": [
            {"name": r.name, "source": r.source, "readings": r.readings()} for r in chosen
        ],
        "numbers": dict(numbers(OFFICIAL)),
        "number_parameters": [
            {
                "name": n.name,
                "shape": str(n.shape),
                "minimum": n.minimum,
                "maximum": n.maximum,
                "length": n.length,
                "effect": str(n.effect),
                "rule_ids": list(n.rule_ids),
                "description": n.description,
                "rulesets": {r.name: format_number(n, getattr(r, n.name)) for r in chosen},
            }
            for n in NUMBERS
        ],
        "catalogue": cat if not isinstance(cat, str) else None,
        **({"note": cat} if isinstance(cat, str) else {}),
        **({"beside": compared} if compared is not None else {}),
    }
    return Outcome(tagged(FORMAT, data), 0, (chosen, cat, compared))


def export_rules(ruleset: str = "official", rule: Rule = None, *, args: bool = False) -> str:
    """``ruleset`` (a name or a rules file) with ``rule`` overrides as a commented TOML rules file
    (what ``sushigo rules --export`` prints); ``args`` says other options were given with it."""
    from sushigo.spec.rulefile import to_toml

    if args:
        raise InputError("--export prints one ruleset as TOML: drop the RULESET arguments, --all, "
                         "--catalogue, --rules and --json")
    return to_toml(get_ruleset(ruleset, override_texts(rule)))


rules = public(rules_outcome, "rules")
