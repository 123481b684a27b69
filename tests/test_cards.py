"""The Card and Token enumerations, derived from spec.kinds (issue 13 item 1).

The expected members are the enumerations as they were written out by hand in spec/cards.py
before they were derived (commit eb35e6a): names, values and order must not change, since
records, positions and worker processes carry them. The copies per kind are RULES.md's
component list ("14 tempura, 14 sashimi, 14 dumpling; 26 maki (6 with 1 roll, 12 with 2, 8
with 3); 20 nigiri (10 salmon, 5 squid, 5 egg); 10 pudding, 6 wasabi, 4 chopsticks").
"""

from __future__ import annotations

import ast
import pickle
import pickletools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sushigo.spec import cards
from sushigo.spec.cards import Card, Token

ROOT = Path(__file__).resolve().parent.parent

CARD_MEMBERS = [
    ("TEMPURA", 0), ("SASHIMI", 1), ("DUMPLING", 2), ("MAKI1", 3), ("MAKI2", 4), ("MAKI3", 5),
    ("EGG", 6), ("SALMON", 7), ("SQUID", 8), ("PUDDING", 9), ("WASABI", 10), ("CHOPSTICKS", 11),
]
TOKEN_MEMBERS = [*CARD_MEMBERS, ("WASABI_EGG", 12), ("WASABI_SALMON", 13), ("WASABI_SQUID", 14)]
COPIES = {"tempura": 14, "sashimi": 14, "dumpling": 14, "maki1": 6, "maki2": 12, "maki3": 8,
          "egg": 5, "salmon": 10, "squid": 5, "pudding": 10, "wasabi": 6, "chopsticks": 4}


def test_members_names_values_and_order_are_kept() -> None:
    assert [(c.name, c.value) for c in Card] == CARD_MEMBERS
    assert [(t.name, t.value) for t in Token] == TOKEN_MEMBERS
    assert {c.label: cards.KINDS[c].copies for c in Card} == COPIES


def test_text_forms() -> None:
    assert str(Card.MAKI2) == "maki2" and Card.CHOPSTICKS.label == "chopsticks"
    assert str(Token.WASABI_SQUID) == "wasabi+squid" and Token.WASABI_EGG.label == "wasabi+egg"
    assert repr(Card.EGG) == "<Card.EGG: 6>" and repr(Token.WASABI_SALMON) == "<Token.WASABI_SALMON: 13>"
    assert Token.WASABI_SALMON.cards == (Card.WASABI, Card.SALMON) and Token.WASABI_SALMON.size == 2
    assert Token.PUDDING.cards == (Card.PUDDING,) and Token.PUDDING.size == 1
    # IntEnum members are their numbers (tableaux index count vectors with them)
    assert Card.SQUID + 1 == 9 and [0] * 15 == [0] * len(Token)
    assert cards.parse_token("Wasabi+SQ") is Token.WASABI_SQUID and cards.parse_card("m3") is Card.MAKI3


@pytest.mark.parametrize("member", [*Card, *Token], ids=str)
def test_members_pickle_by_reference(member: Card | Token) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        data = pickle.dumps(member, protocol=protocol)
        strings = [arg for op, arg, _ in pickletools.genops(data) if isinstance(arg, str)]
        assert "sushigo.spec.cards" in " ".join(strings) and type(member).__name__ in " ".join(strings)
        assert pickle.loads(data) is member


def test_members_unpickle_in_a_fresh_process() -> None:
    # as a worker process receives them: the class is found again by its module and name
    data = pickle.dumps([Card.SQUID, Token.WASABI_EGG, list(Card)])
    code = ("import pickle, sys; xs = pickle.loads(sys.stdin.buffer.read()); "
            "print(repr(xs[0]), repr(xs[1]), len(xs[2]), str(xs[1]))")
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True,
                         timeout=120)
    assert out.stdout.decode().split() == ["<Card.SQUID:", "8>", "<Token.WASABI_EGG:", "12>", "12",
                                           "wasabi+egg"]


def _declared() -> dict[str, list[str]]:
    """Member names declared for type checkers under ``if TYPE_CHECKING:`` in spec/cards.py."""
    tree = ast.parse((ROOT / "spec" / "cards.py").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for cls in node.body:
                if isinstance(cls, ast.ClassDef):
                    out[cls.name] = [t.id for s in cls.body if isinstance(s, ast.Assign)
                                     for t in s.targets if isinstance(t, ast.Name)]
    return out


def test_the_type_checking_declaration_names_real_members_in_order() -> None:
    declared = _declared()
    assert set(declared) == {"Card", "Token"}
    for enum_ in (Card, Token):
        names = [m.name for m in enum_]
        assert all(n in names for n in declared[enum_.__name__]), declared[enum_.__name__]
        positions = [names.index(n) for n in declared[enum_.__name__]]
        assert positions == sorted(positions)


def test_every_member_the_code_names_is_declared() -> None:
    """A member the code names but type checkers are not shown would be an error under mypy."""
    declared = _declared()
    used: dict[str, set[str]] = {"Card": set(), "Token": set()}
    for folder in ("spec", "solver", "checks", "sushigo", "tests", "benchmarks", "examples"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve() or ".venv" in path.parts:
                continue  # this file names made-up members on purpose
            for enum_name, member in re.findall(r"\b(Card|Token)\.([A-Z][A-Z0-9_]*)\b",
                                                path.read_text(encoding="utf-8")):
                used[enum_name].add(member)
    assert used["Card"] and used["Token"]
    for enum_name, members in used.items():
        assert members <= set(declared[enum_name]), members - set(declared[enum_name])


def test_a_scoring_only_kind_joins_the_enumerations_without_editing_this_module() -> None:
    # natto (4 points per card) appended to the definitions before spec.cards loads: it gets
    # the next card number, and the wasabi stacks move up by one.
    code = """
import sushigo.spec.kinds as kinds
natto = kinds.CardKind("natto", copies=6, scoring=kinds.PerCard(4), category="natto", rule="R-NATTO")
kinds.KINDS = (*kinds.KINDS, natto)
from sushigo.spec.cards import Card, Token, parse_token
print(Card.NATTO.value, Token.NATTO.value, Token.WASABI_EGG.value, str(parse_token("natto")), len(Card))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["12", "12", "13", "natto", "13"]


@pytest.mark.parametrize("name", ["natto_roll", "Natto", "natto roll", ""])
def test_a_kind_name_that_cannot_be_a_member_is_refused(name: str) -> None:
    with pytest.raises(ImportError, match="lower-case letters and digits"):
        cards._members(["tempura", name])
