"""The batch path: many all-random games at once, vectorised across games with numpy.

Exactly the games of ``play_game(players, seed, rules, ["random"])``, seed by seed: the same
deal, the same picks, the same scores. An accelerator of the engine, not a second engine: the
deck of each game is the engine's one shuffle (:func:`spec.engine.shuffle.fast_shuffled_deck`,
which also gives the policies' seed), the legal turns and what they do are the engine's option
tables (:class:`spec.engine.options.OptionTable`), numbered here by hand pattern so that a whole
table of games looks up its options with one array index, and rounds are scored for the whole
table at once by ``_Scorer`` (the numbers of :mod:`spec.scoring`). What is vectorised besides
is the policies' generator, reproduced word for word rather than replaced:

* The policies' generator is ``random.Random(policy_seed)``, asked for a block of raw 32-bit
  words (``getrandbits(32 * W)``: the words in the order the generator makes them); each
  ``random()`` uses two of its words: ``((a >> 5) * 2**26 + (b >> 6)) / 2**53``.
* The random policy takes option ``int(random() * n)`` of the ``n`` legal turns in
  legal_turns order, and draws nothing when there is one; seats decide in seat order.

tests/test_one_engine.py holds the batch to the engine (the step API driven by the same random
policy) game by game under every named ruleset. Dummy-2p is not played here
(:func:`spec.executor.fast_random_games` sends it to play_game).
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from sushigo.spec.cards import Token
from sushigo.spec.engine.options import OptionTable, option_table
from sushigo.spec.engine.packed import BITS, N_CARDS, N_TOKENS, pack
from sushigo.spec.engine.seats import seats_of
from sushigo.spec.engine.shuffle import fast_shuffled_deck
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points, winners

__all__ = ["CHUNK", "batch_games"]

CHUNK = 2048  # games vectorised together (memory: a few MB)
_WASABI, _CHOP, _PUD = int(Token.WASABI), int(Token.CHOPSTICKS), int(Token.PUDDING)
_BIT_WEIGHTS = (1 << np.arange(N_CARDS, dtype=np.int64)).astype(np.int64)

I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]


class _Numbered:
    """The options of one ruleset as arrays: per option its card and token deltas (rows of
    ``dh``, ``dt``), found for a whole table of decisions at once.

    Without chopsticks in the tableau the options depend on 13 bits (kinds held, a free
    wasabi): a dense array maps them to an entry (first row, count) of OptionTable's list.
    With chopsticks, OptionTable lists the one-card turns of the kinds held, then the
    two-card pieces whose kinds the hand holds, all in one fixed order (see
    ``OptionTable._build``): here that order is one row list per free-wasabi state with the
    kind bits each row needs, and a hand's options are the rows whose needs it meets."""

    def __init__(self, table: OptionTable) -> None:
        self.table = table
        self.dense = np.full(1 << 13, -1, dtype=np.int64)
        self.entries = 0
        self.rows = 0
        self.starts = np.zeros(1 << 13, dtype=np.int64)
        self.counts = np.zeros(1 << 13, dtype=np.int64)
        self.dh = np.zeros((1 << 12, N_CARDS), dtype=np.int8)
        self.dt = np.zeros((1 << 12, N_TOKENS), dtype=np.int8)
        # per free wasabi (0, 1, 2) with chopsticks: (rows, kind bits needed) in OptionTable order
        self.chop: list[tuple[I64, I64]] = [self._chop_rows(w) for w in range(3)]

    def _store(self, hand: Sequence[int], tab: Sequence[int], changes: Sequence[tuple[int, int]]) -> int:
        """Append the count deltas of ``changes`` (packed, from ``hand`` in ``tab``); first row."""
        first, n = self.rows, len(changes)
        while first + n > self.dh.shape[0]:
            self.dh = np.concatenate([self.dh, np.zeros_like(self.dh)])
            self.dt = np.concatenate([self.dt, np.zeros_like(self.dt)])
        ph, pt = pack(hand), pack(tab)
        # a packed delta added to the packed start unpacks (C speed) to the counts after
        after_h = np.frombuffer(b"".join((ph + d).to_bytes(N_CARDS, "little") for d, _ in changes), np.int8)
        after_t = np.frombuffer(b"".join((pt + d).to_bytes(N_TOKENS, "little") for _, d in changes), np.int8)
        self.dh[first : first + n] = after_h.reshape(n, N_CARDS) - np.array(hand, dtype=np.int8)
        self.dt[first : first + n] = after_t.reshape(n, N_TOKENS) - np.array(tab, dtype=np.int8)
        self.rows = first + n
        return first

    def _chop_rows(self, wasabi: int) -> tuple[I64, I64]:
        pieces = self.table.pieces(wasabi, 1)
        tab = [0] * N_TOKENS
        tab[_WASABI], tab[_CHOP] = wasabi, 1
        rows: list[int] = []
        needs: list[int] = []
        for c in range(N_CARDS):
            one = [0] * N_CARDS
            one[c] = 1
            first = self._store(one, tab, [ch for _, ch in pieces.singles[c]])
            rows += range(first, first + len(pieces.singles[c]))
            needs += [1 << c] * len(pieces.singles[c])
        every = [2] * N_CARDS
        for c1 in range(N_CARDS):
            first = self._store(every, tab, [ch for _, _, ch in pieces.pairs[c1]])
            rows += range(first, first + len(pieces.pairs[c1]))
            for bit, _, _ in pieces.pairs[c1]:
                c2, twice = divmod(bit.bit_length() - 1, BITS)
                # c1 held, and c2 held (or c1 held twice when c2 == c1: code bit 12 + c1)
                needs.append((1 << c1) | (1 << (12 + c2) if twice else 1 << c2))
        return np.array(rows, dtype=np.int64), np.array(needs, dtype=np.int64)

    def _add(self, code: int) -> None:
        hand = [(code >> c) & 1 for c in range(N_CARDS)]
        tab = [0] * N_TOKENS
        tab[_WASABI] = (code >> 12) & 1
        options = self.table(pack(hand), pack(tab))
        entry = self.entries
        self.starts[entry], self.counts[entry] = self._store(hand, tab, options.changes), len(options.turns)
        self.dense[code] = entry
        self.entries = entry + 1

    def lookup(self, codes: I64) -> tuple[I64, Callable[[I64], I64]]:
        """Per decision: the number of options, and a function from option index to row."""
        chop = (codes >> 26).astype(bool)
        small = (codes & 0xFFF) | (((codes >> 24) & 1) << 12)
        entry = self.dense[small]
        missing = (entry < 0) & ~chop
        if missing.any():
            for c in np.unique(small[missing]).tolist():
                self._add(c)
            entry = self.dense[small]
        counts = self.counts[entry]
        starts = self.starts[entry]
        where = np.nonzero(chop)[0]
        picks: list[tuple[I64, I64, npt.NDArray[np.bool_]]] = []
        for w in range(3):
            sel = where[((codes[where] >> 24) & 3) == w]
            if sel.size:
                rows, needs = self.chop[w]
                allowed = (needs[None, :] & ~(codes[sel] & 0xFFFFFF)[:, None]) == 0
                counts[sel] = allowed.sum(axis=1)
                picks.append((sel, rows, allowed))

        def rows_of(pick: I64) -> I64:
            out: I64 = starts + pick
            for sel, rows, allowed in picks:
                rank = np.cumsum(allowed, axis=1)
                out[sel] = rows[np.argmax(rank > pick[sel][:, None], axis=1)]
            return out

        return counts, rows_of


class _Scorer:
    """Round totals of a whole table of games at once, as :func:`spec.scoring.round_totals` gives
    them, with every number read from spec.scoring's public functions (no rule stated here):

    * dish points: each token's points are a function of its own count (tempura sets, sashimi
      sets, dumpling steps, nigiri values), read from ``dish_points`` for every count a round can
      hold, so a tableau's points are one gather and a sum;
    * maki: icons per token from ``maki_icons``; the shares of a tie for most and for second,
      per number of tied seats, from ``maki_points`` on tables that have such a tie. A lone
      leader takes the share of one and the next highest positive total places second; a tie for
      most shares it and nobody places second; no icons, no points.

    tests/test_game.py holds it to round_totals on random and tie-heavy tables."""

    def __init__(self, rules: Ruleset, players: int, most: int) -> None:
        table = np.zeros((N_TOKENS, most + 1), dtype=np.int64)
        for tok in range(N_TOKENS):
            for k in range(most + 1):
                counts = [0] * N_TOKENS
                counts[tok] = k
                table[tok, k] = sum(dish_points(counts, rules))
        self.dish = table
        self.icons = np.array([maki_icons([int(t == tok) for t in range(N_TOKENS)], rules)
                               for tok in range(N_TOKENS)], dtype=np.int64)
        first = np.zeros(players + 1, dtype=np.int64)
        second = np.zeros(players + 1, dtype=np.int64)
        for n in range(1, players + 1):
            first[n] = maki_points([1] * n + [0] * (players - n), rules)[0]
            if n < players:
                second[n] = maki_points([2] + [1] * n + [0] * (players - 1 - n), rules)[1]
        self.first, self.second = first, second
        self.tokens = np.arange(N_TOKENS)

    def totals(self, tabs: I8) -> I64:
        """Round totals per game and seat of final tableaux ``tabs`` (games, seats, tokens)."""
        t = tabs.astype(np.int64)
        points: I64 = self.dish[self.tokens, t].sum(axis=2)
        icons = t @ self.icons
        top = icons.max(axis=1, keepdims=True)
        at_top = (icons == top) & (top > 0)
        n_top = at_top.sum(axis=1, keepdims=True)
        points += np.where(at_top, self.first[n_top], 0)
        below = np.where(icons < top, icons, 0)
        runner = below.max(axis=1, keepdims=True)
        at_second = (icons == runner) & (runner > 0) & (n_top == 1)
        points += np.where(at_second, self.second[at_second.sum(axis=1, keepdims=True)], 0)
        return points


_NUMBERED: dict[Ruleset, _Numbered] = {}
_SCORERS: dict[tuple[Ruleset, int], _Scorer] = {}


def _codes(hands: I8, tabs: I8) -> I64:
    """The pattern code of each hand in its tableau (see spec.engine.packed.pattern; same information)."""
    once = (hands > 0).astype(np.int64) @ _BIT_WEIGHTS
    twice = (hands > 1).astype(np.int64) @ _BIT_WEIGHTS
    wasabi = tabs[..., _WASABI].astype(np.int64)
    chop = tabs[..., _CHOP] > 0
    return np.where(chop, once | (twice << 12) | (np.minimum(wasabi, 2) << 24) | (1 << 26),
                    once | ((wasabi > 0).astype(np.int64) << 24))


def _words(rng: random.Random, seeds: Sequence[int], n: int) -> npt.NDArray[np.uint32]:
    """``n`` raw words of ``random.Random(s)`` for each seed (one row per seed)."""
    blob = bytearray()
    for s in seeds:
        rng.seed(s)
        blob += rng.getrandbits(32 * n).to_bytes(4 * n, "little")
    return np.frombuffer(bytes(blob), dtype="<u4").reshape(len(seeds), n)


Result = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
               tuple[tuple[tuple[int, ...], ...], ...] | None]


def batch_games(
    players: int, seeds: Sequence[int], rules: Ruleset, tableaux: bool
) -> list[Result]:
    """Per seed: (round totals, puddings, totals, winners, final tableaux or None)."""
    numbered = _NUMBERED.get(rules)
    if numbered is None:
        numbered = _NUMBERED[rules] = _Numbered(option_table(rules))
    scorer = _SCORERS.get((rules, players))
    if scorer is None:
        scorer = _SCORERS[(rules, players)] = _Scorer(rules, players, players * rules.hand_size(players))
    out: list[Result] = []
    # The results are many small tuples that all live on: the cyclic collector would scan the
    # growing heap again and again while they are built, and can find nothing to free.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for k in range(0, len(seeds), CHUNK):
            out += _chunk(players, list(seeds[k : k + CHUNK]), rules, tableaux, numbered, scorer)
    finally:
        if was_enabled:
            gc.enable()
    return out


def _chunk(
    players: int, seeds: list[int], rules: Ruleset, tableaux: bool, numbered: _Numbered, scorer: _Scorer
) -> list[Result]:
    games = len(seeds)
    size, n_rounds = rules.hand_size(players), rules.rounds
    seats = seats_of(rules, players)  # the unshuffled deck and the cards a game deals
    deals = [fast_shuffled_deck(seats.base, s, seats.dealt) for s in seeds]
    deck = np.frombuffer(b"".join([bytes(cards) for cards, _ in deals]), np.int8).reshape(games, -1)
    policy_seeds = [policy_seed for _, policy_seed in deals]
    rows = np.arange(games)
    rng = random.Random()
    draws = n_rounds * players * size  # at most one random() per decision
    pw = _words(rng, policy_seeds, 2 * draws).astype(np.float64)
    floats = (np.floor(pw[:, 0::2] / 32) * 67108864.0 + np.floor(pw[:, 1::2] / 64)) / 9007199254740992.0
    ptr = np.zeros(games, dtype=np.int64)
    eye = np.eye(N_CARDS, dtype=np.int8)
    kept = np.zeros((games, players), dtype=np.int64)
    scores = np.zeros((games, n_rounds, players), dtype=np.int64)
    final_tabs: list[I8] = []
    for r in range(n_rounds):
        blocks = deck[:, r * players * size : (r + 1) * players * size].reshape(games, players, size)
        hands = eye[blocks.astype(np.int64)].sum(axis=2, dtype=np.int8)  # (games, players, 12)
        tabs = np.zeros((games, players, N_TOKENS), dtype=np.int8)
        off = rules.pass_offset(r) % players
        for _t in range(size):
            counts, rows_of = numbered.lookup(_codes(hands, tabs).reshape(-1))
            counts = counts.reshape(games, players)
            multi = counts > 1
            slot = ptr[:, None] + np.cumsum(multi, axis=1) - multi
            f = floats[rows[:, None], np.minimum(slot, draws - 1)]
            pick = np.where(multi, (f * counts).astype(np.int64), 0)
            chosen = rows_of(pick.reshape(-1)).reshape(games, players)
            hands += numbered.dh[chosen]
            tabs += numbered.dt[chosen]
            ptr += multi.sum(axis=1)
            if off:
                hands = np.roll(hands, off, axis=1)
        kept += tabs[:, :, _PUD]
        scores[:, r] = scorer.totals(tabs)
        if tableaux:
            final_tabs.append(tabs)
    # per game: rounds, puddings, totals before puddings, and (if asked) the tableaux, as lists
    rounds_of = scores.tolist()
    kept_rows = kept.tolist()
    sums = scores.sum(axis=1).tolist()
    tabs_of = np.stack(final_tabs, axis=1).tolist() if tableaux else None
    pudding_memo: dict[tuple[int, ...], list[int]] = {}
    out: list[Result] = []
    for g in range(games):
        puddings = tuple(kept_rows[g])
        pud = pudding_memo.get(puddings)
        if pud is None:
            pud = pudding_memo[puddings] = pudding_points(puddings, rules)
        totals = tuple(a + b for a, b in zip(sums[g], pud, strict=True))
        out.append((tuple(map(tuple, rounds_of[g])), puddings, totals,
                    tuple(winners(totals, puddings, rules, players)),
                    tuple(tuple(map(tuple, rnd)) for rnd in tabs_of[g]) if tabs_of is not None else None))
    return out

