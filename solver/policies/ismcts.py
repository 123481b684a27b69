"""``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse 2012), to the end of the round.

Each iteration deals the cards the seat cannot see (:func:`knowledge.determinise`: its own hand,
the hands it has seen pass and every tableau stay as they are), then walks a tree of the seat's
own turns: at a node the turns this deal allows compete by UCB1 with availability counts (a turn
is scored by how often it was available, not by the parent's visits), an untried one is added,
and the round is played out. The other seats choose by the rollout policy throughout (random,
or a cheap greedy: the most dish points now), since their picks reach the seat only as the
tableaux it sees next turn; the tree is open loop, keyed by the seat's own turns (each a change
of the packed hand and tableau, the same object in every deal).

A playout ends when the round does; the table is then valued for the seat: the round's points
(spec.scoring) plus the finished rounds' and the pudding points of the puddings held (all of
them in the last round, where the value is the game's result; a share by rounds played before),
as a win (1, a shared win split, 0) mixed with the margin over the best other seat.

Speed: the playouts run on the packed engine of spec.game (hands and tableaux packed into ints,
the legal turns and their changes from the memoised option table), never on Turn objects.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from sushigo.solver.policies.knowledge import Memory, determinise, knowledge
from sushigo.spec.cards import Card, Token
from sushigo.spec.game import Change, Options, _options_of, _round_end, pack, seats_of
from sushigo.spec.policies import PlayerView
from sushigo.spec.scoring import dish_points, winners
from sushigo.spec.turns import Turn

__all__ = ["IsmctsPolicy", "Search"]

#: UCB1's exploration constant for rewards in [0, 1] (sqrt 2 in theory; lower suits the short
#: trees of one round, and was measured so in benchmarks/bench_policies.py's runs).
EXPLORATION = 0.7
#: The weight of the win in a playout's value (the rest is the margin, squashed to [0, 1]).
WIN_WEIGHT = 0.6
#: Points of margin that move the margin part most of the way (tanh's scale).
MARGIN_SCALE = 8.0
_PUD_TOKEN = int(Token.PUDDING)
_N_CARDS = len(Card)
_N_TOKENS = len(Token)


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Change, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class Search:
    """One seat's search from one view: the state every playout starts from."""

    def __init__(self, view: PlayerView, memory: Memory, rollout: str, rng: random.Random) -> None:
        rules = view.rules
        n = view.players
        self.seats = seats_of(rules, n)
        self.rules, self.players, self.seat = rules, n, view.seat
        self.offset = rules.pass_offset(view.round_index) % n
        self.known = knowledge(view, memory, self.offset)
        self.size = sum(view.hand)
        self.tabs = [pack(t) for t in view.tableaux]
        self.kept = tuple(p - t[_PUD_TOKEN] for p, t in zip(view.puddings, view.tableaux, strict=True))
        self.before = [sum(col) for col in zip(*view.scores, strict=True)] if view.scores else [0] * n
        self.last = view.round_index + 1 == rules.rounds
        self.pudding_weight = (view.round_index + 1) / rules.rounds
        self.greedy = rollout == "greedy"
        self.rand = random.Random(rng.getrandbits(64)).random  # one draw from the policy's generator
        self.sample_rng = random.Random(rng.getrandbits(64))
        self.root = _Node()
        self.points: dict[int, int] = {}

    # ------------------------------------------------------------------ playout pieces
    def _dish(self, tab: int) -> int:
        """Dish points of a packed tableau (memoised: the cheap greedy asks for the same ones often)."""
        found = self.points.get(tab)
        if found is None:
            if len(self.points) > 200_000:
                self.points.clear()
            found = self.points[tab] = sum(dish_points(tab.to_bytes(_N_TOKENS, "little"), self.rules))
        return found

    def _rollout_pick(self, found: Options, hand: int, tab: int) -> Change:
        turns = found.turns
        every = found.every
        if len(turns) == 1:
            return every[id(turns[0])]
        if not self.greedy:
            return every[id(turns[int(self.rand() * len(turns))])]
        best: list[Change] = []
        best_gain = -1 << 30
        base = self._dish(tab)
        for t in turns:
            change = every[id(t)]
            gain = self._dish(tab + change[1]) - base
            if gain > best_gain:
                best, best_gain = [change], gain
            elif gain == best_gain:
                best.append(change)
        return best[0] if len(best) == 1 else best[int(self.rand() * len(best))]

    def _value(self, tabs: Sequence[int]) -> float:
        """The value for the seat of the table at the end of the round (see the module's text)."""
        totals, kept = _round_end(tabs, self.kept, self.rules)
        pud = self.seats.pudding_points(kept)
        s = self.seat
        if self.last:
            final = [b + t + p for b, t, p in zip(self.before, totals, pud, strict=True)]
            won = winners(final, kept, self.rules, self.players)
            win = (1.0 / len(won)) if s in won else 0.0
        else:
            w = self.pudding_weight
            final = [b + t + w * p for b, t, p in zip(self.before, totals, pud, strict=True)]
            top = max(final)
            win = 0.0 if final[s] < top else 1.0 / final.count(top)
        margin = final[s] - max(f for j, f in enumerate(final) if j != s)
        return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * 0.5 * (1.0 + math.tanh(margin / MARGIN_SCALE))

    # ------------------------------------------------------------------ one iteration
    def iterate(self) -> None:
        hands = [pack(h) for h in determinise(self.known, self.size, self.sample_rng)]
        tabs = list(self.tabs)
        n, s, offset = self.players, self.seat, self.offset
        table = self.seats.table
        node = self.root
        path = [node]
        in_tree = True
        for _turn in range(self.size):
            opts = _options_of(table, hands, tabs)
            mine = opts[s]
            if in_tree:
                every = mine.every
                changes = [every[id(t)] for t in mine.turns]
                children = node.children
                untried = [c for c in changes if c not in children]
                for c in changes:
                    child = children.get(c)
                    if child is not None:
                        child.avail += 1
                if untried:
                    pick = untried[int(self.rand() * len(untried))] if len(untried) > 1 else untried[0]
                    child = children[pick] = _Node()
                    child.avail = 1
                    in_tree = False
                else:
                    best = -1.0
                    pick = changes[0]
                    for c in changes:
                        ch = children[c]
                        score = ch.total / ch.visits + EXPLORATION * math.sqrt(math.log(ch.avail) / ch.visits)
                        if score > best:
                            best, pick = score, c
                    child = children[pick]
                node = child
                path.append(node)
            else:
                pick = self._rollout_pick(mine, hands[s], tabs[s])
            moved = []
            for j in range(n):
                change = pick if j == s else self._rollout_pick(opts[j], hands[j], tabs[j])
                moved.append(hands[j] + change[0])
                tabs[j] += change[1]
            hands = moved[-offset:] + moved[:-offset] if offset else moved
        value = self._value(tabs)
        for nd in path:
            nd.visits += 1
            nd.total += value

    def best(self) -> Change:
        """The most visited turn at the root (ties: the higher mean)."""
        return max(self.root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))[0]


class IsmctsPolicy:
    """``ismcts:iterations=N,time=SECONDS,rollout=random|greedy`` (docs/policies.md).

    Stops at ``iterations`` playouts or after ``time`` seconds of CPU, whichever comes first
    (one of them at least; iterations alone by default). Dummy-2p (which the packed engine does
    not play) and a dummy's card fall back to ``fallback`` and are counted in ``fallbacks``."""

    def __init__(self, name: str, iterations: int | None, seconds: float | None, rollout: str,
                 fallback: object | None = None) -> None:
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.memories: dict[int, Memory] = {}
        self.fallbacks = 0
        self.decisions = 0
        self.playouts = 0
        from sushigo.solver.policies.lookahead import LookaheadPolicy

        self.fallback = fallback or LookaheadPolicy("lookahead")

    def memory(self, view: PlayerView) -> Memory:
        mem = self.memories.get(view.seat)
        if mem is None:
            mem = self.memories[view.seat] = Memory()
        mem.see(view)
        return mem

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        mem = self.memory(view)
        if len(options) == 1:
            return options[0]
        if view.rules.dummy_2p or view.for_dummy:
            self.fallbacks += 1
            return self.fallback.choose(view, options, rng)  # type: ignore[attr-defined,no-any-return]
        table = seats_of(view.rules, view.players).table
        found = _options_of(table, [pack(view.hand)], [pack(view.tableau)])[0]
        if found.turns != tuple(options):  # not the engine's list (a caller's own): no search
            self.fallbacks += 1
            return self.fallback.choose(view, options, rng)  # type: ignore[attr-defined,no-any-return]
        self.decisions += 1
        return self.search(view, mem, found, options, rng)

    def search(
        self, view: PlayerView, mem: Memory, found: Options, options: Sequence[Turn], rng: random.Random
    ) -> Turn:
        """The turn of ``options`` (``found.turns``, the engine's list) the search visits most."""
        search = Search(view, mem, self.rollout, rng)
        limit = self.iterations
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while limit is None or done < limit:
            search.iterate()
            done += 1
            if deadline is not None and (done & 7) == 0 and time.process_time() >= deadline:
                break
        self.playouts += done
        pick = search.best()
        every = found.every
        for i, t in enumerate(found.turns):
            if every[id(t)] == pick:
                return options[i]
        raise AssertionError("the search chose a turn the hand does not hold")
