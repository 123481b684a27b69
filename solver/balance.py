"""The balance report: two rulesets side by side over the same seeded games, with their proved
maxima and the smallest situation where they differ (issue 17 item 4).

Common random numbers: game ``k`` of both rulesets is the game of seed ``first_seed + k``, so
both get the same shuffle (when their decks agree) and the players the same random stream. When
the two rulesets differ only in how tableaux are scored and every player is random, the games
are the same games (random players never read a score): they are played once and scored under
both (:func:`same_games`). Otherwise each ruleset plays its own games from the same seeds.
Either way the difference of two figures is paired game by game (:meth:`Estimate.minus`).

Games come from the executor: the batch path (:func:`spec.executor.fast_random_games`) for
random players, :func:`spec.executor.play_game` otherwise. Points per card kind follow
:mod:`spec.attribution`; the intervals :mod:`solver.estimates`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sushigo.solver.estimates import Estimate, mean, quantile, ratio, share, spread
from sushigo.spec.attribution import KINDS, card_counts, game_attribution
from sushigo.spec.cards import Token
from sushigo.spec.executor import PolicyLike, fast_random_games, play_game, policy_names
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import NUMBERS, Effect, Ruleset
from sushigo.spec.scoring import pudding_points, round_totals, winners
from sushigo.spec.turns import apply_turn, hand_counts

__all__ = ["QUANTILES", "SCORING_ONLY", "SKILL_OPPONENTS", "Side", "same_games", "skill_rows", "tally"]

#: Quantiles of the score spread.
QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)

#: Ruleset fields that only say how finished tableaux score: random players never read them.
#: A field not listed here (a new one included) is taken to change play, so two rulesets that
#: differ in it play their own games: slower, never wrong.
#: The rule numbers come from their table (spec.ruleset.NUMBERS, effect "scoring"); the readings
#: are listed, since dummy_2p is a scoring reading that also changes play.
SCORING_ONLY: frozenset[str] = frozenset({
    "name", "source", *(n.name for n in NUMBERS if n.effect is Effect.SCORING), "maki_first_tie",
    "maki_second_tie", "pudding_penalty_rounding", "pudding_all_tied", "pudding_penalty_2p",
    "winner_tie",
})

_CHUNK = 2048  # games per call to the batch path (spec.batch.CHUNK): progress between calls
_PUD = int(Token.PUDDING)

Tableaux = Sequence[Sequence[Sequence[int]]]  # per round, per seat, token counts
Game = tuple[Tableaux, Sequence[int], Sequence[int], Sequence[int]]  # tableaux, puddings, totals, winners


def same_games(a: Ruleset, b: Ruleset, policies: Sequence[PolicyLike]) -> bool:
    """Whether ``a`` and ``b`` play exactly the same games from every seed with ``policies``."""
    if any(p != "random" for p in policy_names(policies)):
        return False  # a greedy player reads scores
    return all(getattr(a, f.name) == getattr(b, f.name)
               for f in dataclasses.fields(Ruleset) if f.name not in SCORING_ONLY)


def offers(record: GameRecord) -> tuple[list[int], list[int]]:
    """Per card kind, the player turns whose hand held the kind, and those that took it: what a
    pick rate cannot show, since every dealt card ends in a tableau whatever is chosen (the
    dummy-2p variant is left out: its controller's hand changes mid-turn)."""
    offered, taken = [0] * len(KINDS), [0] * len(KINDS)
    players = record.players
    rules = record.rules
    for r, rnd in enumerate(record.rounds):
        hands = [hand_counts(h) for h in rnd.hands[:players]]
        tabs = [[0] * len(Token) for _ in range(players)]
        offset = rules.pass_offset(r) % players
        for step in rnd.turns:
            for s in range(players):
                for c, k in enumerate(hands[s]):
                    if k:
                        offered[c] += 1
                for c in {int(p.card) for p in step[s]}:
                    taken[c] += 1
                apply_turn(hands[s], tabs[s], step[s], rules)
            hands = hands[-offset:] + hands[:-offset] if offset else hands
    return offered, taken


def played(
    players: int, seed: int, n: int, rules: Ruleset, policies: Sequence[PolicyLike],
    tick: Callable[[int], None] = lambda _k: None, offered: list[tuple[list[int], list[int]]] | None = None,
) -> Iterator[list[Game]]:
    """Games ``seed .. seed+n-1`` in chunks, each game (tableaux, puddings, totals, winners);
    ``tick(k)`` after the first k games. Games played from records (not the batch path of
    random players) also append their :func:`offers` to ``offered`` when it is given."""
    fast = all(p == "random" for p in policy_names(policies)) and not rules.dummy_2p
    for start in range(seed, seed + n, _CHUNK):
        count = min(_CHUNK, seed + n - start)
        chunk: list[Game] = []
        if fast:
            for g in fast_random_games(players, start, count, rules, tableaux=True):
                assert g.tableaux is not None
                chunk.append((g.tableaux, g.puddings, g.totals, g.winners))
        else:
            for s in range(start, start + count):
                rec = play_game(players, s, rules, policies)
                if offered is not None and not rules.dummy_2p:
                    offered.append(offers(rec))
                chunk.append(([[t.counts for t in rnd.tableaux] for rnd in rec.rounds], rec.puddings,
                              rec.totals, rec.winners))
        yield chunk
        tick(start - seed + count)


def rescore(tableaux: Tableaux, puddings: Sequence[int], rules: Ruleset, players: int
            ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Totals and winners of finished tableaux under ``rules`` (the scorer of spec.scoring)."""
    seats = len(tableaux[0])
    pud = pudding_points(puddings, rules)
    totals = [pud[s] for s in range(seats)]
    for rnd in tableaux:
        for s, points in enumerate(round_totals(rnd, rules)):
            totals[s] += points
    return tuple(totals), tuple(winners(totals, puddings, rules, players))


@dataclass
class Side:
    """One ruleset's games, kept as the per-game values its figures are estimated from."""

    rules: Ruleset
    players: int
    totals: list[tuple[int, ...]] = field(default_factory=list)  # per game, every seat
    winners: list[tuple[int, ...]] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=lambda: [[] for _ in KINDS])  # per kind, per game
    cards: list[list[int]] = field(default_factory=lambda: [[] for _ in KINDS])
    _every: list[int] = field(default_factory=list, repr=False)  # cards per game, every kind
    offered: list[tuple[list[int], list[int]]] = field(default_factory=list)  # per game: offers()

    def add(self, tableaux: Tableaux, puddings: Sequence[int], totals: Sequence[int],
            won: Sequence[int]) -> None:
        """One game: its players' cards and attributed points per kind (the dummy's are not
        a player's), its totals and winners. The reference for :meth:`add_many`."""
        self.totals.append(tuple(totals))
        self.winners.append(tuple(won))
        attributed = game_attribution(tableaux, self.rules, puddings)[: self.players]
        for k in range(len(KINDS)):
            self.points[k].append(float(sum(row[k] for row in attributed)))
        held = [0] * len(KINDS)
        for rnd in tableaux:
            for counts in rnd[: self.players]:
                for k, c in enumerate(card_counts(counts)):
                    held[k] += c
        for k, c in enumerate(held):
            self.cards[k].append(c)

    def add_many(self, games: Sequence[Game]) -> None:
        """Several games at once: :meth:`add` on each, vectorised when numpy is there."""
        try:
            from sushigo.solver.balance_arrays import attribute
        except ImportError:  # no numpy: one game at a time
            for game in games:
                self.add(*game)
            return
        points, cards = attribute([g[0] for g in games], [g[1] for g in games], self.rules, self.players)
        for k in range(len(KINDS)):
            self.points[k] += points[k]
            self.cards[k] += cards[k]
        self.totals += [tuple(g[2]) for g in games]
        self.winners += [tuple(g[3]) for g in games]

    # --- figures ---------------------------------------------------------------------------
    def player_scores(self) -> list[list[float]]:
        return [list(t[: self.players]) for t in self.totals]

    def seat_scores(self, seat: int) -> list[float]:
        return [t[seat] for t in self.totals]

    def win_shares(self, seats: Sequence[int]) -> list[float]:
        """Per game, the share of the win that went to ``seats`` (a shared win split evenly)."""
        return [sum(1 / len(w) for s in seats if s in w) if w else 0.0 for w in self.winners]

    def score_mean(self) -> Estimate:
        return mean([sum(g) / len(g) for g in self.player_scores()])

    def score_sd(self) -> Estimate:
        return spread(self.player_scores())

    def score_quantiles(self) -> list[Estimate]:
        scores = self.player_scores()
        return [quantile(scores, q) for q in QUANTILES]

    def pick_rate(self, k: int) -> Estimate:
        if len(self._every) != len(self.totals):
            self._every = [sum(col) for col in zip(*self.cards, strict=True)]
        return ratio(self.cards[k], self._every)

    def taken_when_offered(self, k: int) -> Estimate | None:
        """The share of player turns whose hand held kind ``k`` that took one (None without records)."""
        if not self.offered or len(self.offered) != len(self.totals):
            return None
        return ratio([t[k] for _, t in self.offered], [o[k] for o, _ in self.offered])

    def points_per_card(self, k: int) -> Estimate:
        return ratio(self.points[k], self.cards[k])

    def points_per_game(self, k: int) -> Estimate:
        """Points the kind brought one player in one game."""
        return mean([p / self.players for p in self.points[k]])


def tally(
    players: int, seed: int, n: int, a: Ruleset, b: Ruleset, policies: Sequence[PolicyLike],
    tick: Callable[[str, int], None] = lambda _what, _k: None,
) -> tuple[Side, Side, bool]:
    """Both sides over games ``seed .. seed+n-1``, and whether they played the same games."""
    side_a, side_b = Side(a, players), Side(b, players)
    shared = same_games(a, b, policies)
    for chunk in played(players, seed, n, a, policies, lambda k: tick(a.name, k), side_a.offered):
        side_a.add_many(chunk)
        if shared:
            side_b.add_many([(tab, pud, *rescore(tab, pud, b, players)) for tab, pud, _t, _w in chunk])
    if not shared:
        for chunk in played(players, seed, n, b, policies, lambda k: tick(b.name, k), side_b.offered):
            side_b.add_many(chunk)
    return side_a, side_b, shared


@dataclass(frozen=True)
class Figures:
    """Every estimate of one side (computed once: the report and the differences share them)."""

    score_mean: Estimate
    score_sd: Estimate
    quantiles: tuple[Estimate, ...]
    pick_rate: tuple[Estimate, ...]  # per kind
    points_per_card: tuple[Estimate, ...]
    points_per_game: tuple[Estimate, ...]
    taken_when_offered: tuple[Estimate | None, ...] = ()  # per kind; () when the games kept no turns


def figures(side: Side) -> Figures:
    kinds = range(len(KINDS))
    offered = tuple(side.taken_when_offered(k) for k in kinds)
    return Figures(
        side.score_mean(), side.score_sd(), tuple(side.score_quantiles()),
        tuple(side.pick_rate(k) for k in kinds), tuple(side.points_per_card(k) for k in kinds),
        tuple(side.points_per_game(k) for k in kinds),
        offered if all(e is not None for e in offered) else (),
    )


def summary_rows(side: Side, f: Figures) -> dict[str, Any]:
    """The figures of one side that need no solver, as JSON."""
    return {
        "score": {
            "mean": f.score_mean.as_json(),
            "sd": f.score_sd.as_json(),
            "quantiles": [{"q": q, **e.as_json()} for q, e in zip(QUANTILES, f.quantiles, strict=True)],
        },
        "kinds": [
            {"kind": card.label, "cards": sum(side.cards[k]),
             "pick_rate": f.pick_rate[k].as_json(),
             "points_per_card": f.points_per_card[k].as_json(),
             "points_per_game": f.points_per_game[k].as_json()}
            | _offered(f.taken_when_offered, k)
            for k, card in enumerate(KINDS)
        ],
    }


def _offered(estimates: Sequence[Estimate | None], k: int) -> dict[str, Any]:
    """``taken_when_offered`` of kind ``k`` when the games kept their turns (else no field: the
    batch path of random players reports exactly what it did before)."""
    if not estimates:
        return {}
    est = estimates[k]
    return {} if est is None else {"taken_when_offered": est.as_json()}


def difference_rows(a: Figures, b: Figures) -> dict[str, Any]:
    """``a`` minus ``b`` for every figure but the quantiles, paired game by game."""
    return {
        "score_mean": a.score_mean.minus(b.score_mean).as_json(),
        "score_sd": a.score_sd.minus(b.score_sd).as_json(),
        "kinds": [
            {"kind": card.label,
             "pick_rate": a.pick_rate[k].minus(b.pick_rate[k]).as_json(),
             "points_per_card": a.points_per_card[k].minus(b.points_per_card[k]).as_json(),
             "points_per_game": a.points_per_game[k].minus(b.points_per_game[k]).as_json()}
            | _offered([x.minus(y) for x, y in zip(a.taken_when_offered, b.taken_when_offered, strict=True)
                        if x is not None and y is not None] if a.taken_when_offered and b.taken_when_offered
                       else [], k)
            for k, card in enumerate(KINDS)
        ],
    }


#: The opponents the skill measure plays a strong policy against (issue 30 item 3).
SKILL_OPPONENTS: tuple[str, ...] = ("random", "greedy")


def skill_rows(
    players: int, seed: int, n: int, rules: Ruleset, strong: str,
    tick: Callable[[str, int], None] = lambda _what, _k: None,
) -> dict[str, Any]:
    """How much the rules reward skill: ``strong`` in one seat (rotated game by game: game ``k``
    puts it in seat ``k % players``) against ``players - 1`` of each of :data:`SKILL_OPPONENTS`,
    over games ``seed .. seed+n-1``. Per opponent: the strong policy's win share with its Wilson
    interval, the even share (1 / players) and the gap between them (the interval shifted by the
    even share). A gap near 0 says the rules leave the result to the deal."""
    from sushigo.solver.policies import make_policy

    even = 1 / players
    rows = []
    for opponent in SKILL_OPPONENTS:
        shares: list[float] = []
        for k, game_seed in enumerate(range(seed, seed + n)):
            me = k % players
            policies = [make_policy(strong if s == me else opponent) for s in range(players)]
            rec = play_game(players, game_seed, rules, policies)
            shares.append(1 / len(rec.winners) if me in rec.winners else 0.0)
            tick(f"{rules.name}: {strong} against {opponent}", k + 1)
        est = share(shares)
        lo, hi = (est.low, est.high) if est.low is not None and est.high is not None else (None, None)
        rows.append({
            "opponent": opponent,
            "win_share": est.value,
            "win_share_ci95": None if lo is None else [lo, hi],
            "even_share": even,
            "gap": None if est.value is None else est.value - even,
            "gap_ci95": None if lo is None or hi is None else [lo - even, hi - even],
        })
    return {"policy": make_policy(strong).name, "games": n, "against": rows}
