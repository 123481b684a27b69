"""The legal turns: per ruleset, an option table of every hand pattern's turns and their effect.

Rules are never stated here: the turns of a pattern are :func:`spec.turns.legal_turns` on a
stand-in hand (same order), and what a turn does to the packed hand and tableau is
:func:`spec.turns.apply_turn`'s. What is added is speed: the turns and their changes are
memoised per hand pattern and tableau state (:func:`spec.engine.packed.pattern`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from sushigo.spec.cards import Token
from sushigo.spec.engine.packed import (
    AT_LEAST_1,
    AT_LEAST_2,
    BITS,
    CARD_BIT,
    CHOP_STATE,
    DENSE,
    HIGH,
    KINDS,
    N_CARDS,
    N_TOKENS,
    ONES,
    PATTERN_SHIFT,
    TWICE_BITS,
    WC_FIELD,
    WC_SHIFT,
    Change,
    pack,
    unpack,
)
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns

MAX_TABLE = 1 << 20  # entries kept before a table is started afresh (bounds the memory)
FILL_AFTER = 100  # plain entries built one at a time before a table fills them all (_fill_plain)


class Options:
    """The legal turns of one hand pattern in one tableau state, in legal_turns order."""

    __slots__ = ("change_of", "every", "turns")

    def __init__(
        self, turns: tuple[Turn, ...], change_of: dict[int, Change], every: dict[int, Change]
    ) -> None:
        self.turns = turns
        # The change of a turn by the turn's id, for every turn of this tableau state that takes
        # exactly the cards it lists (_Pieces.fast): shared by all the state's entries, so it stays
        # in cache, and a driver hands back the very objects legal_actions gave it (an int key
        # hashes far faster than a tuple of Pick dataclasses). A turn found here is this hand's
        # iff the hand holds its cards: ``hand + change[0]`` has no field below 0 (see HIGH).
        # An id names one listed object: the turns live as long as the table, so no other
        # object can carry one of these ids meanwhile.
        self.change_of = change_of
        # The change of every listed turn of the state by its id (_Pieces.every), shared too: an
        # entry keeps no per-turn changes of its own (one tuple fewer to build and hold).
        self.every = every

    @property
    def changes(self) -> tuple[Change, ...]:
        """Per turn: what it does to the packed hand and tableau."""
        every = self.every
        return tuple([every[id(t)] for t in self.turns])

    def find(self, turn: tuple[Pick, ...]) -> int:
        """The index of ``turn`` (the very object, or an equal one), -1 if it is not listed."""
        for i, listed in enumerate(self.turns):
            if listed is turn:
                return i
        try:
            return self.turns.index(turn)
        except ValueError:
            return -1


NO_OPTIONS = Options((), {}, {})

# Changes are interned: a few hundred distinct values shared by every entry stay in cache.
_INTERNED: dict[Change, Change] = {}


class _Pieces:
    """The legal turns in one tableau state, from legal_turns on stand-in hands, ready to be
    cut down to any hand: the one-card turns of each kind, and every two-card turn of a hand
    that holds each kind twice, in legal_turns order with a repeated outcome listed once.

    Cutting keeps order and dedupe exact: two turns with the same outcome take the same
    cards, so a hand holds both or neither, and the first of them is kept either way."""

    def __init__(self, rules: Ruleset, wasabi: int, chopsticks: int) -> None:
        tab = [0] * N_TOKENS
        tab[int(Token.WASABI)], tab[int(Token.CHOPSTICKS)] = wasabi, chopsticks
        self.singles: list[list[tuple[Turn, Change]]] = []
        for c in range(N_CARDS):
            one = [0] * N_CARDS
            one[c] = 1
            self.singles.append([(t, _change(one, tab, t, rules)) for t in legal_turns(one, tab, rules)])
        # pairs[c1]: (bit, turn, change) of the two-card turns whose first pick is c1; a hand
        # (pattern key) allows one when it has the bit: kind c2 held, or c1 held twice if c2 == c1
        self.pairs: list[list[tuple[int, Turn, Change]]] = [[] for _ in range(N_CARDS)]
        if chopsticks:
            every = [2] * N_CARDS
            for turn in legal_turns(every, tab, rules):
                if len(turn) == 2:
                    c1, c2 = int(turn[0].card), int(turn[1].card)
                    bit = 1 << (BITS * c2 + (c1 == c2))
                    self.pairs[c1].append((bit, turn, _change(every, tab, turn, rules)))
        # per kind: its one-card turns (the lists above as tuples)
        self.single_turns = tuple(tuple(t for t, _ in ps) for ps in self.singles)
        # pairs[c1] for _build's test on the pattern's bytes (1: held, 3: held twice): (c2, need,
        # turn), need 1 (kind c2 held) or 2 (c2 is c1: held twice)
        self.pair_needs = tuple(
            tuple((b.bit_length() // BITS, 2 if b & TWICE_BITS else 1, t) for b, t, _ in ps)
            for ps in self.pairs
        )
        # rows[c1][twice][c2]: the two-card turns (c1, c2) as a tuple (none: empty), c1's pairs
        # with itself only in the row for a hand holding c1 twice (twice = 1); lower[c1]: whether c1
        # has pairs with lower kinds. A hand's pairs by rows (c1, then c2 held, in order) are
        # pair_needs cut for it when pair_needs[c1] lists its pairs by second kind, never falling:
        # legal_turns does so unless a first pick has variants (optional wasabi with a free one);
        # then rows is None and _build cuts pair_needs.
        self.rows: tuple[tuple[tuple[tuple[Turn, ...], ...], ...], ...] | None = None
        self.lower = tuple(any(c2 < c1 for c2, _, _ in ps) for c1, ps in enumerate(self.pair_needs))
        if chopsticks and all(
            all(a[0] <= b[0] for a, b in pairwise(ps)) for ps in self.pair_needs
        ):
            rows = []
            for c1, ps in enumerate(self.pair_needs):
                by_c2 = [tuple(t for c2, _, t in ps if c2 == k) for k in range(N_CARDS)]
                without = list(by_c2)
                without[c1] = ()
                rows.append((tuple(without), tuple(by_c2)))
            self.rows = tuple(rows)
        # Every turn of this state that a hand may take exactly when it holds the turn's cards (all
        # of them: see _build), and whose change takes each of those cards from the hand. Not so a
        # chopsticks turn taking a chopsticks card: the used pair rejoins the hand and hides it.
        listed = [p for ps in self.singles for p in ps] + [(t, ch) for ps in self.pairs for _, t, ch in ps]
        self.fast: dict[int, Change] = {id(t): ch for t, ch in listed if _takes_its_cards(t, ch)}
        self.every: dict[int, Change] = {id(t): ch for t, ch in listed}


def _takes_its_cards(turn: Turn, change: Change) -> bool:
    """Whether ``change`` takes every card ``turn`` picks out of the hand (none comes back)."""
    need = sum(CARD_BIT[int(p.card)] for p in turn)
    left = unpack(need + change[0], N_CARDS)
    return all(left[int(p.card)] == 0 for p in turn)


def _change(hand: Sequence[int], tab: Sequence[int], turn: Turn, rules: Ruleset) -> Change:
    new_hand, new_tab = list(hand), list(tab)
    apply_turn(new_hand, new_tab, turn, rules)
    change = (pack(new_hand) - pack(hand), pack(new_tab) - pack(tab))
    return _INTERNED.setdefault(change, change)


class OptionTable:
    """The legal turns of every hand pattern under one ruleset, built on first use.

    Without chopsticks in the tableau a pattern is a set of kinds and whether a wasabi is free:
    its entry sits in ``plain[free][kinds % DENSE]`` (two lists, no hashing). With chopsticks
    there are millions of patterns; those met are kept in ``by_pattern``.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.by_pattern: dict[int, Options] = {}
        self.plain: tuple[list[Options | None], list[Options | None]] = ([None] * DENSE, [None] * DENSE)
        self._pieces: dict[int, _Pieces] = {}
        self._plain_misses = 0
        self._kinds: list[tuple[int, ...] | None] = [None] * DENSE  # the kinds of a set, at plain's index

    def __call__(self, hand: int, tab: int) -> Options:
        return options_of(self, (hand,), (tab,))[0]

    def pieces(self, wasabi: int, chopsticks: int) -> _Pieces:
        """The one- and two-card turns in a tableau state (wasabi up to 2, chopsticks 0 or 1)."""
        state = wasabi | (chopsticks << 8)
        pieces = self._pieces.get(state)
        if pieces is None:
            pieces = self._pieces[state] = _Pieces(self.rules, wasabi, chopsticks)
        return pieces

    def _build(self, key: int) -> Options:
        state = key >> PATTERN_SHIFT
        pieces = self._pieces.get(state) or self.pieces(state & 0xFF, state >> 8)
        if not state >> 8:
            # The first misses build their entry alone (a process that plays a game or two under
            # many rulesets keeps small tables); past FILL_AFTER the whole list is filled at once.
            self._plain_misses += 1
            if self._plain_misses > FILL_AFTER:
                found = self._fill_plain(state, pieces)[(key & KINDS) % DENSE]
                assert found is not None  # every entry is filled
                return found
            kinds: Sequence[int] | None  # a list here, a memoised tuple below
            kinds = [c for c in range(N_CARDS) if key >> (BITS * c) & 1]
            found = Options(sum((pieces.single_turns[c] for c in kinds), ()), pieces.fast, pieces.every)
            self.plain[state][(key & KINDS) % DENSE] = found
            return found
        # the pattern's bytes (small ints, where shifting the key would make a big int per test)
        held = (key & KINDS).to_bytes(N_CARDS, "little")
        index = (key & ONES) % DENSE
        kinds = self._kinds[index]
        if kinds is None:
            kinds = self._kinds[index] = tuple(c for c in range(N_CARDS) if held[c])
        turns: list[Turn] = []
        for c in kinds:
            turns += pieces.single_turns[c]
        rows = pieces.rows
        if rows is None:
            for c1 in kinds:
                for c2, need, turn in pieces.pair_needs[c1]:
                    if held[c2] & need:
                        turns.append(turn)
        else:
            # by rows: the pairs (c1, c2) for the kinds c2 held, in order; from c1 on unless c1
            # has pairs with lower kinds (a wasabi before a nigiri)
            lower = pieces.lower
            for at, c1 in enumerate(kinds):
                row = rows[c1][held[c1] >> 1]
                for c2 in kinds if lower[c1] else kinds[at:]:
                    turns += row[c2]
        if len(self.by_pattern) > MAX_TABLE:
            self.by_pattern.clear()
        self.by_pattern[key] = found = Options(tuple(turns), pieces.fast, pieces.every)
        return found

    def _fill_plain(self, state: int, pieces: _Pieces) -> list[Options | None]:
        """Every entry of ``plain[state]`` at once (all 4,096 sets of kinds, a few ms): a set's
        list is that of the set without its highest kind, then that kind's singles, which is
        _build's order. Filled once, so no later game builds one of these."""
        entries = self.plain[state]
        turns: list[tuple[Turn, ...]] = [()]
        kinds = [0]
        fast, every = pieces.fast, pieces.every
        entries[0] = Options((), fast, every)
        for m in range(1, 1 << N_CARDS):
            top = m.bit_length() - 1
            rest = m ^ (1 << top)
            turns.append(turns[rest] + pieces.single_turns[top])
            kinds.append(kinds[rest] + CARD_BIT[top])
            entries[kinds[m] % DENSE] = Options(turns[m], fast, every)
        return entries


_TABLES: dict[Ruleset, OptionTable] = {}


def option_table(rules: Ruleset) -> OptionTable:
    """The option table of ``rules`` (one per ruleset, kept for the process)."""
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = OptionTable(rules)
    return table


def options_of(table: OptionTable, hands: Sequence[int], tabs: Sequence[int]) -> list[Options]:
    """Each seat's options: pattern() and the table look-up inlined (this runs per seat and turn)."""
    plain = table.plain
    get = table.by_pattern.get
    out = []
    for hand, tab in zip(hands, tabs):  # noqa: B905 (one tableau per hand; strict costs here)
        wc = (tab >> WC_SHIFT) & WC_FIELD
        once = ((hand + AT_LEAST_1) & HIGH) >> 7
        if wc < 256:
            found = plain[wc > 0][once % DENSE]
            if found is None:
                found = table._build(once | ((wc > 0) << PATTERN_SHIFT))
        else:
            key = once | (((hand + AT_LEAST_2) & HIGH) >> 6) | CHOP_STATE[wc & 0xFF]
            found = get(key) or table._build(key)
        out.append(found)
    return out
