"""The score document: tableaux of 1..3 rounds, parsed and checked against the rules.

A score document is the input of ``sushigo score``::

    {"rules": "official", "rounds": [["tempura*2 squid", "maki3 egg"], ...]}

Each round lists one tableau per seat, as a notation string or a list of token
names. Checking happens in two steps because the ruleset may come from the
document itself: :func:`read_document` checks the shape and the notation,
:func:`check_rounds` checks the limits a ruleset sets (players, rounds, hand
size, copies in the deck over the whole document).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from sushigo.spec.frozen import frozen

from sushigo.spec.cards import Card
from sushigo.spec.errors import InputError, NotationError
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.tableau import Tableau, parse_tableau, tableau_from_json

#: The optional format tag of a score document (older documents have none).
FORMAT = "sushigo-score/1"
_KEYS = ("format", "rules", "rounds")
#: The dummy variant is a two-player game (the rulebook's variant for exactly 2).
DUMMY_PLAYERS = 2
_EXAMPLE = '{"rules": "official", "rounds": [["tempura*2 squid", "maki3 egg"]]}'


@frozen
class RawDocument:
    """A document that parsed: the ruleset it names (unchecked) and its tableaux."""

    rules: object  # the "rules" value as given (None when absent)
    rounds: tuple[tuple[Tableau, ...], ...]


@frozen
class ScoreDocument:
    """A checked document: every limit of ``rules`` holds."""

    rules: Ruleset
    rounds: tuple[tuple[Tableau, ...], ...]
    players: int  # seats that can win (the dummy of dummy-2p cannot)

    @property
    def seats(self) -> int:
        return len(self.rounds[0])


def check_format(data: Mapping[str, object], tag: str, what: str) -> None:
    """A document's optional ``"format"`` must be ``tag`` (documents written before tags had none)."""
    fmt = data.get("format", tag)
    if fmt != tag:
        raise InputError(f'unknown {what} format {fmt!r}; expected "{tag}" or no "format"')


def _where(round_index: int | None, seat: int) -> str:
    return f"player {seat}" if round_index is None else f"round {round_index + 1}, player {seat}"


def parse_tableaux(values: Sequence[object], round_index: int | None = None) -> tuple[Tableau, ...]:
    """One round's tableaux; a notation error names the round and seat it came from."""
    out = []
    for seat, value in enumerate(values):
        where = _where(round_index, seat)
        try:
            out.append(tableau_from_json(value, where))
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from exc
    return tuple(out)


def parse_tableau_args(texts: Sequence[str]) -> tuple[Tableau, ...]:
    """One round from command-line arguments, one tableau per seat."""
    out = []
    for seat, text in enumerate(texts):
        try:
            out.append(parse_tableau(text))
        except NotationError as exc:
            raise NotationError(f"{_where(None, seat)}: {exc}") from exc
    return tuple(out)


def read_document(data: object) -> RawDocument:
    """Check the JSON shape of a score document and parse every tableau."""
    if not isinstance(data, dict):
        raise InputError(
            f"a score document is a JSON object like {_EXAMPLE}, got {type(data).__name__}"
        )
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("sushigo-record"):
        raise InputError("this is a game record, not a score document; check it with 'sushigo replay'")
    check_format(data, FORMAT, "score document")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise InputError(
            f"unknown key {unknown[0]!r} in the score document; it takes only "
            f"{' and '.join(repr(k) for k in _KEYS)}, e.g. {_EXAMPLE}"
        )
    if "rounds" not in data:
        raise InputError(f'the score document has no "rounds"; expected e.g. {_EXAMPLE}')
    rounds = data["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise InputError(
            f'"rounds" must be a non-empty list of rounds, each a list of tableaux; got {rounds!r}'
        )
    parsed = []
    for r, round_value in enumerate(rounds):
        if not isinstance(round_value, list):
            raise InputError(
                f"round {r + 1} must be a list with one tableau per player, got {round_value!r}"
            )
        parsed.append(parse_tableaux(round_value, r))
    return RawDocument(data.get("rules"), tuple(parsed))


def check_rounds(rounds: Sequence[Sequence[Tableau]], rules: Ruleset = OFFICIAL) -> int:
    """Check every limit of ``rules``; return the number of players (seats that can win).

    Raises :class:`InputError` naming the first broken limit.
    """
    if not rounds:
        raise InputError(f"no rounds to score; give 1 to {rules.rounds} rounds")
    if len(rounds) > rules.rounds:
        raise InputError(f"{len(rounds)} rounds given, but a game has only {rules.rounds}")
    seats = len(rounds[0])
    for r, tableaux in enumerate(rounds):
        if len(tableaux) != seats:
            raise InputError(
                f"round {r + 1} has {len(tableaux)} tableaux but round 1 has {seats}; "
                "every round needs the same players"
            )
    if rules.dummy_2p:
        expected = rules.seats(DUMMY_PLAYERS)
        if seats != expected:
            raise InputError(
                f"{seats} tableaux per round, but the dummy-2p variant scores {expected} seats "
                f"({DUMMY_PLAYERS} players and the dummy, last)"
            )
        players, hand = DUMMY_PLAYERS, rules.hand_size(DUMMY_PLAYERS)
    else:
        if not rules.min_players <= seats <= rules.max_players:
            raise InputError(
                f"{seats} tableaux per round, but Sushi Go! takes "
                f"{rules.min_players} to {rules.max_players} players"
            )
        players, hand = seats, rules.hand_size(seats)
    for r, tableaux in enumerate(rounds):
        for seat, t in enumerate(tableaux):
            if t.size > hand:
                where = _where(r if len(rounds) > 1 else None, seat)
                raise InputError(
                    f"{where}: {t.size} cards, but a hand holds only {hand} with {seats} seats "
                    f"(a stack like wasabi+squid is 2 cards)"
                )
    _check_deck(rounds, rules)
    return players


def _check_deck(rounds: Sequence[Sequence[Tableau]], rules: Ruleset) -> None:
    per_round = [[sum(t.card_counts()[int(c)] for t in tableaux) for c in Card] for tableaux in rounds]
    for c in Card:
        used = sum(r[int(c)] for r in per_round)
        if used > rules.copies(c):
            if len(rounds) > 1:
                per = ", ".join(f"round {k + 1}: {r[int(c)]}" for k, r in enumerate(per_round))
                raise InputError(
                    f"{used} {c.label} cards over the rounds given ({per}), but the deck has only "
                    f"{rules.copies(c)}; cards of earlier rounds never return to the deck"
                )
            raise InputError(
                f"{used} {c.label} cards in the round, but the deck has only {rules.copies(c)}"
            )


def build_document(raw: RawDocument, rules: Ruleset) -> ScoreDocument:
    players = check_rounds(raw.rounds, rules)
    return ScoreDocument(rules, raw.rounds, players)
