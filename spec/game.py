"""The step API: a game position as a value, driven one simultaneous turn at a time.

For game-AI builders who bring their own policy::

    game = Game.new(players=3, seed=7)
    while not game.over:
        actions = [my_policy(game.observation(s), game.legal_actions(s)) for s in range(game.players)]
        game = game.apply(actions)
    game.scores(), game.winners()

A :class:`Game` is immutable: :meth:`Game.apply` returns the next position and leaves the
old one as it was (so a search can keep and revisit positions). Positions are always
"waiting for every player's turn" or :attr:`Game.over`: the turn that empties the hands
also scores the round and deals the next one. The deal is the deal of
:func:`spec.executor.play_game` for the same seed, and :attr:`Game.policy_seed` seeds the
policies' generator the way play_game does, so a driver that calls the shipped policies in
seat order plays exactly the games of play_game (play_game itself is such a driver).

Rules are never stated here: the legal turns are :func:`spec.turns.legal_turns` (same
order), their effect is :func:`spec.turns.apply_turn`, rounds are scored by
:func:`spec.scoring.round_totals`. What is added is speed: hands and tableaux are count
vectors packed into one int (a byte a field), and the legal turns with their effect on
the packed vectors are memoised per hand pattern and tableau state (see ``_entry``).

Not covered: the dummy-2p variant (the dummy's turn is chosen by a controller mid-turn);
``Game.new`` refuses it and :func:`spec.executor.play_game` plays it on its own engine.
"""

from __future__ import annotations

import random
from _random import Random as _CoreRandom
from collections.abc import Sequence
from itertools import pairwise
from operator import add, itemgetter
from operator import index as _index
from typing import Self, TypeVar

from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import IllegalMoveError, InputError, RulesError
from sushigo.spec.policies import PlayerView
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import pudding_points, round_totals, winners
from sushigo.spec.tableau import HandCounts, TableauCounts
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns

__all__ = [
    "DUMMY_SEAT",
    "Game",
    "MutableGame",
    "check_players",
    "dummy_controller",
    "fast_shuffled_deck",
    "land",
    "pass_hands",
    "score_round",
    "seats_of",
    "shuffled_deck",
]

N_CARDS = len(Card)
N_TOKENS = len(Token)
_PUD_TOKEN = int(Token.PUDDING)
_CARDS: tuple[Card, ...] = tuple(Card)
_new = object.__new__
_setattr = object.__setattr__

# ----------------------------------------------------------------- packed vectors and option tables
# A hand (12 counts) and a tableau (15 token counts) are packed into ints, one byte a field:
# a hand hashes and compares as one int, and a tableau unpacks with int.to_bytes (C speed).
BITS = 8
WC_SHIFT = BITS * int(Token.WASABI)  # free wasabi and chopsticks are adjacent tokens (10, 11)
_ONES = sum(1 << (BITS * c) for c in range(N_CARDS))
MAX_TABLE = 1 << 20  # entries kept before a table is started afresh (bounds the memory)
FILL_AFTER = 100  # plain entries built one at a time before a table fills them all (_fill_plain)
CARD_BIT: tuple[int, ...] = tuple(1 << (BITS * c) for c in range(N_CARDS))
# The top bit of every hand field: a hand count never exceeds 127, so a packed hand with one of
# these bits set is a hand that gave a card it did not hold (the field went below 0 and borrowed).
HIGH = sum(0x80 << (BITS * c) for c in range(N_CARDS))
# Added to a packed hand, these set a field's top bit iff its count is at least 1 (_AT_LEAST_1)
# or 2 (_AT_LEAST_2): no field carries into the next while counts stay below 128 (see HIGH).
_AT_LEAST_1 = 0x7F * _ONES
_AT_LEAST_2 = 0x7E * _ONES
# The 4,096 sets of kinds (one bit a byte apart, as pattern() gives them) leave 4,096 distinct
# remainders modulo 2**13 + 1 (tests/test_game.py checks it): an index into a plain list.
DENSE = 8193

Change = tuple[int, int]  # (change of the packed hand, change of the packed tableau)


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


_NO_OPTIONS = Options((), {}, {})


def pack(counts: Sequence[int]) -> int:
    return int.from_bytes(bytes(counts), "little")


def unpack(value: int, n: int) -> bytes:
    return value.to_bytes(n, "little")


_PUDDINGS_OF = itemgetter(_PUD_TOKEN)


_WC_FIELD = (1 << (2 * BITS)) - 1
_TWICE_BITS = 2 * sum(1 << (BITS * c) for c in range(N_CARDS))  # bit 1 of every hand field
_PATTERN_SHIFT = BITS * N_CARDS
_KINDS = (1 << _PATTERN_SHIFT) - 1


# The tableau state part of a chopsticks pattern key, by the free wasabi byte: the free wasabi up
# to 2, and the chopsticks bit (a look-up instead of min() and two operations per seat and turn).
_CHOP_STATE = tuple((min(wasabi, 2) | 256) << _PATTERN_SHIFT for wasabi in range(256))


def pattern(hand: int, tab: int) -> int:
    """What the legal turns of a packed hand in a packed tableau depend on (exactly):

    which kinds the hand holds; with chopsticks in the tableau also which it holds twice (a
    pair of one kind) and the free wasabi up to 2 (two nigiri in one turn); without, only
    whether a wasabi is free. Counts beyond that change what is left, never what may be taken.
    """
    wc = (tab >> WC_SHIFT) & _WC_FIELD
    once = ((hand + _AT_LEAST_1) & HIGH) >> 7
    if wc < 256:  # no chopsticks: singles only
        return once | ((wc > 0) << _PATTERN_SHIFT)
    twice = ((hand + _AT_LEAST_2) & HIGH) >> 6
    return once | twice | _CHOP_STATE[wc & 0xFF]


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
            tuple((b.bit_length() // BITS, 2 if b & _TWICE_BITS else 1, t) for b, t, _ in ps)
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
        return _options_of(self, (hand,), (tab,))[0]

    def pieces(self, wasabi: int, chopsticks: int) -> _Pieces:
        """The one- and two-card turns in a tableau state (wasabi up to 2, chopsticks 0 or 1)."""
        state = wasabi | (chopsticks << 8)
        pieces = self._pieces.get(state)
        if pieces is None:
            pieces = self._pieces[state] = _Pieces(self.rules, wasabi, chopsticks)
        return pieces

    def _build(self, key: int) -> Options:
        state = key >> _PATTERN_SHIFT
        pieces = self._pieces.get(state) or self.pieces(state & 0xFF, state >> 8)
        if not state >> 8:
            # The first misses build their entry alone (a process that plays a game or two under
            # many rulesets keeps small tables); past FILL_AFTER the whole list is filled at once.
            self._plain_misses += 1
            if self._plain_misses > FILL_AFTER:
                found = self._fill_plain(state, pieces)[(key & _KINDS) % DENSE]
                assert found is not None  # every entry is filled
                return found
            kinds: Sequence[int] | None  # a list here, a memoised tuple below
            kinds = [c for c in range(N_CARDS) if key >> (BITS * c) & 1]
            found = Options(sum((pieces.single_turns[c] for c in kinds), ()), pieces.fast, pieces.every)
            self.plain[state][(key & _KINDS) % DENSE] = found
            return found
        # the pattern's bytes (small ints, where shifting the key would make a big int per test)
        held = (key & _KINDS).to_bytes(N_CARDS, "little")
        index = (key & _ONES) % DENSE
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


# ----------------------------------------------------------------- deal

DUMMY_SEAT = 2  # the dummy pile's seat in dummy-2p


def dummy_controller(turn: int) -> int:
    """The seat controlling the dummy at ``turn`` (from 0) of any round, in dummy-2p."""
    return turn % 2



def check_players(rules: Ruleset, players: int) -> None:
    """InputError unless ``players`` can play a whole game under ``rules``."""
    if not isinstance(rules, Ruleset):
        raise InputError(f"rules must be a Ruleset (get_ruleset(name) gives one by name), not {rules!r}")
    try:
        rules.hand_size(players)
    except RulesError as exc:
        raise InputError(str(exc)) from exc
    if rules.dummy_2p and players != 2:
        raise InputError(f"the dummy-2p variant is for 2 players, not {players}")
    need = rules.rounds * rules.seats(players) * rules.hand_size(players)
    if need > rules.deck_size():
        raise InputError(f"{players} players need {need} cards; the deck has {rules.deck_size()}")


def shuffled_deck(rules: Ruleset, seed: int) -> tuple[list[int], int]:
    """The deck (card numbers) as ``random.Random(seed)`` shuffles it once, and the 64 bits
    drawn right after the shuffle that seed the policies' generator."""
    rng = random.Random(seed)
    deck = [c for c in range(N_CARDS) for _ in range(rules.deck[c])]
    rng.shuffle(deck)
    return deck, rng.getrandbits(64)


# A 108-card shuffle draws 159 words for the median seed, more than 192 for one seed in a
# thousand: those take the plain path (the same result, drawn again).
_BLOCK = 192
# per deck size and cards kept: (i, shift) from the top down, above the cards kept and among them
_DOWN: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}


def fast_shuffled_deck(base: Sequence[int], seed: int, keep: int | None = None) -> tuple[list[int], int]:
    """:func:`shuffled_deck` of the unshuffled deck ``base``, without its per-card calls.

    ``random.shuffle`` asks ``_randbelow(i + 1)`` for i from the top down, and that asks
    ``getrandbits(k)`` (k = bit length of i + 1) until the value is at most i; for k <= 32,
    ``getrandbits(k)`` is the generator's next 32-bit word shifted right by ``32 - k``, and
    ``getrandbits(32 * W)`` gives the next W words, the first one lowest. So the words are
    drawn in one block and the same loop runs on them; the policies' seed is the next two words
    (``getrandbits(64)``: first word low). With at most 255 cards k is at most 8, so only each
    word's top byte counts (shifted right by ``8 - k``): the loop reads the block's every fourth
    byte, small ints that need no allocation. tests/test_game.py compares it with shuffled_deck.

    With ``keep``, only the first ``keep`` cards are returned (the cards a game deals): step i of
    the shuffle fixes position i for good, so above ``keep`` a step only moves the card at i
    down to j (the same words drawn, the same first ``keep`` cards).
    """
    n = len(base)
    if n > 255:
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    if keep is None or keep > n:
        keep = n
    down = _DOWN.get((n, keep))
    if down is None:
        steps = [(i, 8 - (i + 1).bit_length()) for i in range(n - 1, 0, -1)]
        down = _DOWN[(n, keep)] = (tuple(steps[: n - keep]), tuple(steps[n - keep :]))
    above, below = down
    # random.Random(seed) for an int seed is its C base class seeded with it (Random.seed passes
    # an int straight on); the base class skips the Python-level __init__ and seed().
    rng = _CoreRandom(seed) if type(seed) is int else random.Random(seed)
    block = rng.getrandbits(32 * _BLOCK).to_bytes(4 * _BLOCK, "little")
    tops = list(block[3::4])  # a list: indexing it is the interpreter's fastest path
    deck = list(base)
    p = 0
    try:
        for i, shift in above:
            j = tops[p] >> shift
            p += 1
            while j > i:
                j = tops[p] >> shift
                p += 1
            deck[j] = deck[i]
        for i, shift in below:
            j = tops[p] >> shift
            p += 1
            while j > i:
                j = tops[p] >> shift
                p += 1
            deck[i], deck[j] = deck[j], deck[i]
    except IndexError:
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    if 4 * p + 8 > len(block):
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    del deck[keep:]
    return deck, int.from_bytes(block[4 * p : 4 * p + 8], "little")


def shuffled_deck_of(base: Sequence[int], seed: int) -> tuple[list[int], int]:
    """The plain shuffle of ``base`` (what :func:`shuffled_deck` does with the ruleset's deck)."""
    rng = random.Random(seed)
    deck = list(base)
    rng.shuffle(deck)
    return deck, rng.getrandbits(64)


# ----------------------------------------------------------------- the game value


class _Seats:
    """What every game of one ruleset and player count shares (built once, kept)."""

    __slots__ = (
        "base", "by_pattern", "dealt", "empty", "no_options", "offsets", "plain", "players", "puddings",
        "rules", "size", "table",
    )

    def __init__(self, rules: Ruleset, players: int) -> None:
        check_players(rules, players)
        self.rules, self.players = rules, players
        self.size = rules.hand_size(players)
        self.table = option_table(rules)
        # the table's entry lists and dict (filled and cleared in place, never replaced), one hop nearer
        self.plain, self.by_pattern = self.table.plain, self.table.by_pattern
        self.base = tuple(c for c in range(N_CARDS) for _ in range(rules.deck[c]))
        self.dealt = rules.rounds * players * self.size  # the cards a game deals (check_players: <= deck)
        self.offsets = tuple(rules.pass_offset(r) % players for r in range(rules.rounds))
        self.empty = (0,) * players
        self.no_options = (_NO_OPTIONS,) * players
        self.puddings: dict[tuple[int, ...], tuple[int, ...]] = {}  # pudding points by puddings kept

    def pudding_points(self, kept: tuple[int, ...]) -> tuple[int, ...]:
        """spec.scoring.pudding_points of ``kept``, memoised (few pudding tuples are common)."""
        found = self.puddings.get(kept)
        if found is None:
            if len(self.puddings) >= 4096:
                self.puddings.clear()
            found = self.puddings[kept] = tuple(pudding_points(kept, self.rules))
        return found


# Keyed by the ruleset's id and checked by identity (as spec.scoring keys its tables): hashing a
# Ruleset hashes every field, which costs more than a tenth of a whole game. An entry keeps its
# Ruleset alive (seats.rules), so no other ruleset can take its id meanwhile.
_SEATS: dict[tuple[int, int], _Seats] = {}


def seats_of(rules: Ruleset, players: int) -> _Seats:
    """The shared setup of ``players`` players under ``rules`` (InputError for a count they forbid)."""
    seats = _SEATS.get((id(rules), players))
    if seats is None or seats.rules is not rules:
        if len(_SEATS) >= 256:
            _SEATS.clear()
        seats = _SEATS[(id(rules), players)] = _Seats(rules, players)
    return seats


class _Setup:
    """What every position of one game shares: the seats, the seed, the deal."""

    __slots__ = ("dealt", "deck", "policy_seed", "seats", "seed")

    def __init__(self, seats: _Seats, seed: int) -> None:
        deck, self.policy_seed = fast_shuffled_deck(seats.base, seed, seats.dealt)
        self.seats, self.seed, self.deck = seats, seed, deck
        self.dealt: list[tuple[int, ...] | None] = [None] * seats.rules.rounds

    def hands(self, round_index: int) -> tuple[int, ...]:
        """The packed hands of a round: seat s of round r takes the (r * players + s)-th block."""
        found = self.dealt[round_index]
        if found is None:
            players, size, deck, bit = self.seats.players, self.seats.size, self.deck, CARD_BIT
            first = round_index * players * size
            packed = []
            for start in range(first, first + players * size, size):
                hand = 0
                for c in deck[start : start + size]:  # a plain loop: sum() of wide ints is slower
                    hand += bit[c]
                packed.append(hand)
            found = self.dealt[round_index] = tuple(packed)
        return found


def _options_of(table: OptionTable, hands: Sequence[int], tabs: Sequence[int]) -> list[Options]:
    """Each seat's options: pattern() and the table look-up inlined (this runs per seat and turn)."""
    plain = table.plain
    get = table.by_pattern.get
    out = []
    for hand, tab in zip(hands, tabs):  # noqa: B905 (one tableau per hand; strict costs here)
        wc = (tab >> WC_SHIFT) & _WC_FIELD
        once = ((hand + _AT_LEAST_1) & HIGH) >> 7
        if wc < 256:
            found = plain[wc > 0][once % DENSE]
            if found is None:
                found = table._build(once | ((wc > 0) << _PATTERN_SHIFT))
        else:
            key = once | (((hand + _AT_LEAST_2) & HIGH) >> 6) | _CHOP_STATE[wc & 0xFF]
            found = get(key) or table._build(key)
        out.append(found)
    return out


# ----------------------------------------------------------------- the engine's moves
# The one place a turn lands, hands pass and a round is scored: Game (a seeded game driven by
# its players) and spec.step (the same table with the deals and the dummy-2p variant pushed in
# from outside) both move through these.


def land(
    found: Options, hand: int, tab: int, turn: tuple[Pick, ...], rules: Ruleset, who: str
) -> tuple[int, int]:
    """The packed hand and tableau after ``turn``, taken from ``hand`` in ``tab`` whose options are
    ``found``: one look-up for a listed turn; any other turn (an equal object, the other order of
    a chopsticks turn, or an illegal one) is checked by spec.turns. IllegalMoveError names ``who``."""
    change = found.change_of.get(id(turn))
    if change is not None and not (hand + change[0]) & HIGH:
        return hand + change[0], tab + change[1]
    i = found.find(turn)
    if i >= 0:
        dh, dt = found.every[id(found.turns[i])]
        return hand + dh, tab + dt
    if not is_turn(turn):
        raise IllegalMoveError(
            f"{who} gave {turn!r}, which is not a turn: give one of legal_actions(seat) "
            "(or Turn.parse('squid'); Turn.parse('tempura squid') takes two with chopsticks)"
        )
    if not turn:
        raise IllegalMoveError(f"{who} took no card; every player takes a card each turn (R-PICK)")
    hand_counts, tab_counts = list(unpack(hand, N_CARDS)), list(unpack(tab, N_TOKENS))
    try:
        apply_turn(hand_counts, tab_counts, turn, rules)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"{who} {exc}") from exc
    return pack(hand_counts), pack(tab_counts)


def pass_hands(hands: list[int], offset: int) -> list[int]:
    """The hands after seat i hands its own to seat ``(i + offset) % players`` (offset taken mod players)."""
    return hands[-offset:] + hands[:-offset] if offset else hands


def score_round(
    tabs: Sequence[int], kept: Sequence[int], rules: Ruleset
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A finished round: the round totals per seat, the final tableaux as token counts, and the
    puddings kept (those of earlier rounds plus this round's)."""
    totals, kept = _round_end(tabs, kept, rules)
    return totals, tuple(tuple(unpack(t, N_TOKENS)) for t in tabs), kept



def _round_end(
    tabs: Sequence[int], kept: Sequence[int], rules: Ruleset
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """score_round without the token-count tuples (round_totals reads the unpacked bytes)."""
    vectors: list[bytes] = []
    now: list[int] = []
    for t, k in zip(tabs, kept):  # noqa: B905 (one loop for both lists: comprehensions are calls)
        v = t.to_bytes(N_TOKENS, "little")
        vectors.append(v)
        now.append(k + v[_PUD_TOKEN])
    return tuple(round_totals(vectors, rules)), tuple(now)


def seat_index(seat: object, players: int) -> int:
    """``seat`` as a list index (an int, or an int-like such as numpy's integers); IllegalMoveError
    naming the seats there are if it is not one of them (-1 too: Python would read it from the end)."""
    try:
        i = _index(seat)  # type: ignore[arg-type]
    except TypeError:
        i = -1
    if not 0 <= i < players:
        raise _no_seat(seat, players)
    return i


def _no_seat(seat: object, players: int) -> IllegalMoveError:
    return IllegalMoveError(f"seat {seat!r} is not a player; seats are 0..{players - 1}")


def is_turn(turn: object) -> bool:
    """Whether ``turn`` has the form of a turn: a tuple of Picks (legal or not)."""
    return isinstance(turn, tuple) and all(isinstance(p, Pick) for p in turn)


def turns_given(actions: object) -> int:
    """How many turns a joint move lists; IllegalMoveError if it is not a list of turns at all."""
    try:
        return len(actions)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalMoveError(f"give a list of turns, one per player; got {actions!r}") from None


class _Position:
    """What :class:`Game` and :class:`MutableGame` share: the state of one game and every way to
    read it. The lists a position holds are never changed in place (a move makes new ones), so
    a snapshot may share them."""

    __slots__ = (
        "_hands", "_kept", "_opts", "_round_tabs", "_setup", "_tabs", "_view", "over", "round_index",
        "round_scores", "turn",
    )

    round_index: int
    turn: int
    over: bool
    round_scores: tuple[tuple[int, ...], ...]
    _round_tabs: tuple[Sequence[int], ...]  # the packed final tableaux of the scored rounds
    _setup: _Setup
    _hands: Sequence[int]
    _tabs: Sequence[int]
    _kept: tuple[int, ...]
    _view: dict[str, object] | None  # the fields every seat's observation shares, once asked
    _opts: Sequence[Options]  # each seat's options, found when the position is made

    def __init__(self) -> None:
        raise TypeError(f"use {type(self).__name__}.new(players, seed, rules)")

    @classmethod
    def _start(cls, players: int, seed: int, rules: Ruleset) -> Self:
        seats = seats_of(rules, players)
        if rules.dummy_2p:
            raise InputError("the step API does not play the dummy-2p variant; use play_game for it")
        setup = _Setup(seats, seed)
        game = _new(cls)
        game._setup, game.round_index, game.turn, game.over = setup, 0, 0, False
        game.round_scores, game._round_tabs, game._view = (), (), None
        game._kept = game._tabs = seats.empty
        game._hands = setup.hands(0)
        game._opts = _options_of(seats.table, game._hands, game._tabs)
        return game

    def _copy(self, cls: type[_P]) -> _P:
        other = _new(cls)
        for name in _Position.__slots__:
            _setattr(other, name, getattr(self, name))
        return other

    @property
    def rules(self) -> Ruleset:
        return self._setup.seats.rules

    @property
    def players(self) -> int:
        return self._setup.seats.players

    @property
    def seed(self) -> int:
        return self._setup.seed

    @property
    def policy_seed(self) -> int:
        """Seeds the policies' generator as play_game does: ``random.Random(game.policy_seed)``."""
        return self._setup.policy_seed

    def dealt(self, round_index: int) -> tuple[tuple[Card, ...], ...]:
        """The hands as dealt in a round (seat 0 first), in deal order."""
        setup = self._setup
        size, players = setup.seats.size, setup.seats.players
        first = round_index * players
        return tuple(
            tuple(_CARDS[c] for c in setup.deck[(first + s) * size : (first + s + 1) * size])
            for s in range(players)
        )

    def _seat(self, seat: int) -> int:
        return seat_index(seat, self._setup.seats.players)

    def hand(self, seat: int) -> HandCounts:
        """The hand ``seat`` holds now: 12 counts by Card, a tuple that prints in the notation."""
        seat = self._seat(seat)
        return HandCounts(unpack(self._hands[seat], N_CARDS))

    def tableau(self, seat: int) -> TableauCounts:
        """``seat``'s tableau this round: 15 counts by Token, a tuple that prints in the notation."""
        seat = self._seat(seat)
        return TableauCounts(unpack(self._tabs[seat], N_TOKENS))

    def legal_actions(self, seat: int) -> tuple[Turn, ...]:
        """The legal turns of ``seat``, in :func:`spec.turns.legal_turns` order (empty once over).
        A seat that is not one of the game's raises IllegalMoveError (:func:`seat_index`)."""
        try:
            if seat >= 0:
                return self._opts[seat].turns
        except (IndexError, TypeError):
            pass
        return self._opts[self._seat(seat)].turns  # an int-like seat, or IllegalMoveError

    def observation(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (its hand, every tableau, puddings, finished rounds)."""
        # Seat checks at their cheapest: a plain int >= 0 is looked up, and one past the end
        # fails the look-up; anything else (int-likes, wrong types, negatives) goes to _seat.
        if type(seat) is not int or seat < 0:
            seat = self._seat(seat)
        try:
            hand = self._hands[seat]
        except IndexError:
            raise _no_seat(seat, self._setup.seats.players) from None  # one past the end
        view = self._view
        if view is None:
            tabs = tuple([tuple(unpack(t, N_TOKENS)) for t in self._tabs])
            seats = self._setup.seats
            # The seats' shared fields, made once per position; each seat's view copies them.
            view = self._view = {
                "seat": seat, "target": seat, "players": seats.players,
                "round_index": self.round_index, "turn": self.turn, "hand": (), "tableaux": tabs,
                "puddings": tuple(map(add, self._kept, map(_PUDDINGS_OF, tabs))),
                "scores": self.round_scores, "rules": seats.rules,
            }
        # PlayerView is a frozen dataclass; its generated __init__ (one object.__setattr__ per
        # field) costs more than a whole decision, so the instance dict is set in one step.
        # tests/test_game.py checks the result equals PlayerView(...) built the usual way.
        fields = view.copy()
        fields["seat"] = fields["target"] = seat
        fields["hand"] = tuple(unpack(hand, N_CARDS))
        obs = _new(PlayerView)
        _setattr(obs, "__dict__", fields)
        return obs

    @property
    def round_tableaux(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The final tableaux of the scored rounds: per round, per seat, 15 counts by Token."""
        return tuple(tuple(tuple(unpack(t, N_TOKENS)) for t in tabs) for tabs in self._round_tabs)

    def _advance(self, actions: Sequence[Turn], nxt: _Position) -> None:
        """Make ``nxt`` the position after every seat took ``actions[seat]`` at once: land each turn,
        pass the hands and find each seat's options, or after the round's last turn score the
        round, keep the puddings and deal the next. ``nxt`` is this object, or a new one holding
        this position's round, turn, scores and puddings; it is written only after every turn
        landed, so an illegal turn (IllegalMoveError naming round, turn, player and rule)
        changes nothing."""
        if self.over:
            raise IllegalMoveError("the game is over; there are no more turns (R-ROUNDS)")
        seats = self._setup.seats
        try:
            given = len(actions)  # inline: this is every move's path; turns_given only raises
        except TypeError:
            given = turns_given(actions)
        if given != seats.players:
            raise IllegalMoveError(
                f"give one turn per player: got {given} for {seats.players} players"
            )
        # Two and three seats (the most common tables) land unrolled when every turn is a listed
        # object its hand holds (one HIGH test for all: a borrowed field sets its top bit): no
        # loop, no appends, and the hands are listed already passed. Anything else takes the loop.
        # Two seats also find their options unrolled and keep tuples (a position's hands, tableaux
        # and options are never changed in place, so any sequence does).
        players = seats.players
        hands: Sequence[int] | None = None
        tabs: Sequence[int] = ()
        if players == 2:
            (f0, f1), (a0, a1), (h0, h1) = self._opts, actions, self._hands
            c0, c1 = f0.change_of.get(id(a0)), f1.change_of.get(id(a1))
            if c0 is not None and c1 is not None and not ((m0 := h0 + c0[0]) | (m1 := h1 + c1[0])) & HIGH:
                b0, b1 = self._tabs
                b0 += c0[1]
                b1 += c1[1]
                if seats.offsets[self.round_index]:
                    m0, m1 = m1, m0
                turn: int | Turn  # the next turn's number here, a seat's turn in the loop below
                turn = self.turn + 1
                if turn < seats.size:
                    # both seats' options found inline (as in the loop below), no list built
                    plain = seats.plain
                    wc = (b0 >> WC_SHIFT) & _WC_FIELD
                    once = ((m0 + _AT_LEAST_1) & HIGH) >> 7
                    if wc < 256:
                        o0 = plain[wc > 0][once % DENSE]
                        if o0 is None:
                            o0 = seats.table._build(once | ((wc > 0) << _PATTERN_SHIFT))
                    else:
                        key = once | (((m0 + _AT_LEAST_2) & HIGH) >> 6) | _CHOP_STATE[wc & 0xFF]
                        o0 = seats.by_pattern.get(key) or seats.table._build(key)
                    wc = (b1 >> WC_SHIFT) & _WC_FIELD
                    once = ((m1 + _AT_LEAST_1) & HIGH) >> 7
                    if wc < 256:
                        o1 = plain[wc > 0][once % DENSE]
                        if o1 is None:
                            o1 = seats.table._build(once | ((wc > 0) << _PATTERN_SHIFT))
                    else:
                        key = once | (((m1 + _AT_LEAST_2) & HIGH) >> 6) | _CHOP_STATE[wc & 0xFF]
                        o1 = seats.by_pattern.get(key) or seats.table._build(key)
                    nxt._view = None
                    nxt.turn, nxt._hands, nxt._tabs, nxt._opts = turn, (m0, m1), (b0, b1), (o0, o1)
                    return
                hands, tabs = (m0, m1), (b0, b1)
        elif players == 3:
            (f0, f1, f2), (a0, a1, a2) = self._opts, actions
            (h0, h1, h2), (b0, b1, b2) = self._hands, self._tabs
            c0, c1, c2 = f0.change_of.get(id(a0)), f1.change_of.get(id(a1)), f2.change_of.get(id(a2))
            if (c0 is not None and c1 is not None and c2 is not None
                    and not ((m0 := h0 + c0[0]) | (m1 := h1 + c1[0]) | (m2 := h2 + c2[0])) & HIGH):
                offset = seats.offsets[self.round_index]
                hands = [m2, m0, m1] if offset == 1 else [m1, m2, m0] if offset else [m0, m1, m2]
                tabs = [b0 + c0[1], b1 + c1[1], b2 + c2[1]]
        if hands is None:
            moved_hands: list[int] = []
            new_tabs: list[int] = []
            for found, turn, hand, tab in zip(self._opts, actions, self._hands, self._tabs):  # noqa: B905
                change = found.change_of.get(id(turn))
                if change is not None and not (moved := hand + change[0]) & HIGH:
                    moved_hands.append(moved)
                    new_tabs.append(tab + change[1])
                else:  # not a listed object of this state, or a card not held: land checks it
                    moved, tab = land(found, hand, tab, turn, seats.rules, self._where(len(moved_hands)))
                    moved_hands.append(moved)
                    new_tabs.append(tab)
            offset = seats.offsets[self.round_index]
            if offset:
                moved_hands = moved_hands[-offset:] + moved_hands[:-offset]  # pass_hands inlined
            hands, tabs = moved_hands, new_tabs
        nxt._view = None
        turn = self.turn + 1
        if turn < seats.size:
            nxt.turn, nxt._hands, nxt._tabs = turn, hands, tabs
            # _options_of inlined (the call and its set-up cost as much as a seat's look-up)
            table = seats.table
            plain = table.plain
            found_opts = []
            for hand, tab in zip(hands, tabs):  # noqa: B905 (one tableau per hand)
                wc = (tab >> WC_SHIFT) & _WC_FIELD
                once = ((hand + _AT_LEAST_1) & HIGH) >> 7
                if wc < 256:
                    found = plain[wc > 0][once % DENSE] or table._build(once | ((wc > 0) << _PATTERN_SHIFT))
                else:
                    key = once | (((hand + _AT_LEAST_2) & HIGH) >> 6)
                    key |= _CHOP_STATE[wc & 0xFF]
                    found = table.by_pattern.get(key) or table._build(key)
                found_opts.append(found)
            nxt._opts = found_opts
            return
        rules = seats.rules
        totals, nxt._kept = _round_end(tabs, self._kept, rules)
        nxt.round_scores = (*self.round_scores, totals)
        nxt._round_tabs = (*self._round_tabs, tabs)
        nxt.turn, nxt._tabs = 0, seats.empty
        if self.round_index + 1 < rules.rounds:
            nxt.round_index = self.round_index + 1
            nxt._hands = self._setup.hands(nxt.round_index)
            nxt._opts = _options_of(seats.table, nxt._hands, nxt._tabs)
        else:
            nxt.over, nxt._hands, nxt._opts = True, seats.empty, seats.no_options

    def _where(self, seat: int) -> str:
        return f"round {self.round_index + 1}, turn {self.turn + 1}, player {seat}"

    @property
    def puddings(self) -> tuple[int, ...]:
        """Puddings per seat: kept from scored rounds plus this round's tableau."""
        field = BITS * _PUD_TOKEN
        return tuple(k + ((t >> field) & 0xFF) for k, t in zip(self._kept, self._tabs, strict=True))

    def scores(self) -> tuple[int, ...]:
        """Points per seat so far: the scored rounds, plus the pudding points once the game is over."""
        seats = self._setup.seats
        if not self.over:
            return tuple([sum(column) for column in zip(*self.round_scores, strict=True)] or seats.empty)
        return tuple(map(sum, zip(*self.round_scores, seats.pudding_points(self._kept), strict=True)))

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (most points, then puddings, then winner_tie)."""
        if not self.over:
            return ()
        return tuple(winners(self.scores(), self._kept, self.rules, self.players))

    def _key(self) -> tuple[object, ...]:
        return (self.rules, self.players, self.seed, self.round_index, self.turn, tuple(self._hands),
                tuple(self._tabs), self._kept, self.round_scores)

    def __eq__(self, other: object) -> bool:
        """The same position of the same game, both a Game or both a MutableGame."""
        if type(other) is not type(self) or not isinstance(other, _Position):
            return NotImplemented
        return self._key() == other._key()

    # no __hash__ here, so none is inherited: a Game defines one, a MutableGame (it changes) has none

    def __repr__(self) -> str:
        state = "over" if self.over else f"round {self.round_index + 1}, turn {self.turn + 1}"
        return f"<{type(self).__name__} {self.players} players, seed {self.seed}, {self.rules.name}: {state}>"


_P = TypeVar("_P", bound=_Position)


class Game(_Position):
    """One position of a game (not dummy-2p): immutable; :meth:`apply` gives the next one.

    Attributes: ``rules``, ``players``, ``seed``, ``policy_seed``, ``round_index`` (from 0),
    ``turn`` (turns played in this round), ``over``, ``round_scores`` (round totals per seat
    of the scored rounds), ``round_tableaux`` (final token counts per seat of those rounds).
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int, seed: int, rules: Ruleset = OFFICIAL) -> Game:
        """The position after the first deal of the game ``play_game(players, seed, rules)``."""
        return cls._start(players, seed, rules)

    def apply(self, actions: Sequence[Turn]) -> Game:
        """The position after every player took ``actions[seat]`` at once and passed their hand.

        Raises IllegalMoveError (naming the round, turn, player and rule) for an illegal turn;
        any legal turn is accepted, also one that legal_actions lists in another order.
        """
        nxt = _new(Game)
        nxt._setup, nxt.round_index, nxt.over = self._setup, self.round_index, False
        nxt.round_scores, nxt._round_tabs, nxt._kept = self.round_scores, self._round_tabs, self._kept
        self._advance(actions, nxt)
        return nxt

    def mutable(self) -> MutableGame:
        """A :class:`MutableGame` at this position (this one stays as it is)."""
        return self._copy(MutableGame)

    def __hash__(self) -> int:
        return hash(self._key())


class MutableGame(_Position):
    """The fast face for self-play, where positions need not be kept: the same game as
    :class:`Game` (same deal, same options, same errors, same scores), but :meth:`step` moves
    this object on instead of making a new one. :meth:`snapshot` gives the position as a
    :class:`Game` to keep; ``Game.mutable()`` goes the other way. Unhashable.
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int, seed: int, rules: Ruleset = OFFICIAL) -> MutableGame:
        """The position after the first deal of the game ``play_game(players, seed, rules)``."""
        return cls._start(players, seed, rules)

    def step(self, actions: Sequence[Turn]) -> None:
        """Every player takes ``actions[seat]`` at once and passes their hand: as
        :meth:`Game.apply`, in place. An illegal turn raises IllegalMoveError (the text of
        ``Game.apply``) and leaves the position as it was."""
        self._advance(actions, self)

    def snapshot(self) -> Game:
        """This position as an immutable :class:`Game` (later steps do not change it)."""
        return self._copy(Game)
