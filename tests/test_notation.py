"""The text notations: tableaux (round-trip and every accepted spelling), picks and turns,
and the errors bad text gets."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sushigo.spec.cards import ALIASES, NIGIRI, Card, Token, parse_card, parse_token
from sushigo.spec.errors import NotationError
from sushigo.spec.tableau import EMPTY, N_TOKENS, Tableau, format_tableau, parse_tableau
from sushigo.spec.turns import Pick, format_turn, parse_turn

tableaux = st.lists(st.integers(0, 6), min_size=N_TOKENS, max_size=N_TOKENS).map(
    lambda c: Tableau(tuple(c))
)

# Every alias spelling of each canonical name (plus the name itself).
SPELLINGS: dict[str, list[str]] = {t.label: [t.label] for t in Token}
for alias, name in ALIASES.items():
    SPELLINGS[name].append(alias)
for stack in ("wasabi+egg", "wasabi+salmon", "wasabi+squid"):
    nigiri = stack.partition("+")[2]
    SPELLINGS[stack] += [f"{w}+{n}" for w in SPELLINGS["wasabi"] for n in SPELLINGS[nigiri]]


@given(tableaux)
def test_round_trip(t: Tableau) -> None:
    assert parse_tableau(format_tableau(t)) == t


@given(tableaux)
def test_canonical_form_is_stable(t: Tableau) -> None:
    text = format_tableau(t)
    assert format_tableau(parse_tableau(text)) == text
    assert (text == EMPTY) == (sum(t.counts) == 0)


@st.composite
def spelled(draw: st.DrawFn) -> tuple[Tableau, str]:
    """A tableau and one of its many legal spellings: any order, separators, case,
    aliases, and multiplicities as name*N, N*name or repetition."""
    t = draw(tableaux)
    parts: list[str] = []
    for token in Token:
        left = t.counts[int(token)]
        while left:
            n = draw(st.integers(1, left))
            left -= n
            name = draw(st.sampled_from(SPELLINGS[token.label]))
            name = "".join(
                ch.upper() if draw(st.booleans()) else ch for ch in name
            )
            form = draw(st.sampled_from(["rep", "suffix", "prefix"]))
            if form == "rep" or (n == 1 and draw(st.booleans())):
                parts += [name] * n
            elif form == "suffix":
                parts.append(f"{name}*{n}")
            else:
                parts.append(f"{n}*{name}")
    parts = draw(st.permutations(parts))
    seps = draw(st.lists(st.sampled_from([" ", ",", ", ", " ,\t", "\n"]), min_size=len(parts),
                         max_size=len(parts)))
    text = "".join(sep + p for sep, p in zip(seps, parts, strict=True))
    if draw(st.booleans()):
        text += draw(st.sampled_from([" ", ",", "  \n"]))
    return t, text


@given(spelled())
def test_parse_accepts_every_spelling(case: tuple[Tableau, str]) -> None:
    t, text = case
    assert parse_tableau(text) == t


@given(tableaux, st.randoms(use_true_random=False))
def test_order_does_not_matter(t: Tableau, rnd: object) -> None:
    tokens = [tok.label for tok in t.tokens()]
    rnd.shuffle(tokens)  # type: ignore[attr-defined]
    assert parse_tableau(" ".join(tokens)) == t
    assert parse_tableau(",".join(tokens)) == t


def test_examples_by_hand() -> None:
    t = parse_tableau("Tempura, 2*sashimi sashimi WASABI+squid tem*2")
    assert t[Token.TEMPURA] == 3 and t[Token.SASHIMI] == 3 and t[Token.WASABI_SQUID] == 1
    assert format_tableau(t) == "tempura*3 sashimi*3 wasabi+squid"
    assert t.size == 3 + 3 + 2  # a stack is two cards
    assert parse_tableau("-") == parse_tableau("") == Tableau((0,) * N_TOKENS)
    assert format_tableau(parse_tableau("wa+sq m3*2 was")) == "maki3*2 wasabi wasabi+squid"
    assert parse_tableau("squid*0") == parse_tableau("-")


@given(tableaux)
def test_size_counts_stacks_twice(t: Tableau) -> None:
    stacks = t[Token.WASABI_EGG] + t[Token.WASABI_SALMON] + t[Token.WASABI_SQUID]
    assert t.size == sum(t.counts) + stacks
    assert sum(t.card_counts()) == t.size


# --- errors ---------------------------------------------------------------------------

def _typos(name: str) -> list[str]:
    """A doubled letter and a dropped letter: typos whose nearest name is unambiguous."""
    return [name[:2] + name[1] + name[2:], name[0] + name[2:]]


@pytest.mark.parametrize("token", list(Token), ids=lambda t: t.label)
def test_unknown_name_is_quoted_with_nearest_suggestion(token: Token) -> None:
    names = [t.label for t in Token]
    for typo in _typos(token.label):
        if typo in names or typo in ALIASES:
            continue
        expect = difflib.get_close_matches(typo, names, n=1, cutoff=0.5)
        with pytest.raises(NotationError) as err:
            parse_tableau(f"tempura {typo}*2 squid")
        message = str(err.value)
        assert repr(typo) in message
        assert "\n" not in message
        assert expect, typo  # every typo here is close to some name
        assert f"did you mean {expect[0]!r}" in message
        assert expect[0] == token.label, (typo, expect)


def test_hopeless_name_lists_the_names() -> None:
    with pytest.raises(NotationError) as err:
        parse_tableau("zzzz")
    assert "'zzzz'" in str(err.value) and "did you mean" not in str(err.value)
    assert "chopsticks" in str(err.value)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("squid*", "squid*"),
        ("egg 2*squid*3", "2*squid*3"),
        ("*squid", "*squid"),
        ("squid*x tempura", "squid*x"),
        ("sq uid*2*2", "uid*2*2"),
        ("squid**2", "squid**2"),
    ],
)
def test_bad_multiplicity_syntax_names_the_token(text: str, bad: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_tableau(text)
    assert repr(bad) in str(err.value)
    assert "NAME*N" in str(err.value)


def test_stack_of_non_nigiri_is_rejected_with_suggestion() -> None:
    with pytest.raises(NotationError) as err:
        parse_token("wasabi+tempura")
    assert "'wasabi+tempura'" in str(err.value)
    assert "did you mean 'wasabi+" in str(err.value)


def test_card_names_and_aliases() -> None:
    for card in Card:
        assert parse_card(card.label.upper()) is card
    for alias, name in ALIASES.items():
        assert parse_card(alias).label == name
    with pytest.raises(NotationError, match="did you mean 'salmon'"):
        parse_card("salmn")


# --- picks and turns ------------------------------------------------------------------

picks = st.one_of(
    st.builds(Pick, st.sampled_from(list(Card))),
    st.builds(Pick, st.sampled_from(list(NIGIRI)), st.booleans()),
)
turns = st.lists(picks, min_size=1, max_size=2).map(tuple)


@given(turns)
def test_turn_round_trip_json_and_text(turn: tuple[Pick, ...]) -> None:
    as_json = format_turn(turn)
    assert parse_turn(as_json) == turn
    assert parse_turn(" ".join(as_json)) == turn
    assert parse_turn(", ".join(s.upper() for s in as_json)) == turn


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ("", "one card, or two"),
        ("squid tempura egg", "one card, or two"),
        ("tempura:wasabi", "only a nigiri"),
        ("squid:maybe", "':wasabi' or ':plain'"),
        ("sqiud", "did you mean 'squid'"),
    ],
)
def test_bad_turns(bad: str, needle: str) -> None:
    with pytest.raises(NotationError, match=needle.replace("(", r"\(")) as err:
        parse_turn(bad)
    assert "\n" not in str(err.value)
