"""The balance report of Sushi Go Party! menus (issue 29 item 4): over seeded games of a menu at
a player count, the mean points and win share of every seat, the spread of scores, and what each
card kind brought; and the suggested menus ranked by seat advantage and by score spread.

Game ``g`` is the game of seed ``first_seed + g`` (:func:`spec.party.executor.play_party`), so
two reading sets compared play from the same seeds: the same deals while their decks agree, and
every difference of two figures is paired game by game (:meth:`Estimate.minus`). Intervals come
from :mod:`solver.estimates` (win shares: Wilson).

Points per card kind: the round's points as the rules' scoring books them (a special order's
points go to the kind it copies, a wasabi's triple to the nigiri on it, a flipped card's 2 to the
takeout box), the desserts' game-end points to the dessert. Cards per kind: every card a player
put on the table, from the hand, a menu's draw or a spoon, counted once by its own kind
(chopsticks and spoons reused as bonus actions are not played again).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sushigo.solver.estimates import Estimate, mean, ratio, share, spread
from sushigo.spec.party.executor import PartyRecord, play_party
from sushigo.spec.party.menus import Menu
from sushigo.spec.party.readings import PartyRules
from sushigo.spec.party.tableau import FLIPPED, SPECIAL, kind_name

__all__ = ["PartySide", "advantage", "kind_points", "play_side", "played_cards", "side_rows"]

_TOOLS = ("chopsticks", "spoon")


def played_cards(play: str) -> list[str]:
    """The cards one play of a record puts on the table (``eel chopsticks-1:menu-7:squid``: eel,
    menu-7, squid). A bonus action's chopsticks or spoon is not played again; a special order's
    target and a takeout box's flips are cards already there."""
    words = play.split()
    out = _card_of(words[0]) if words and words[0] != "-" else []
    for bonus in words[1:]:
        parts = bonus.split(":")
        rest = parts[2:] if parts[0] == SPECIAL else parts[1:]  # special-order:chopsticks-1:CARD
        if rest and rest != ["-"]:
            out += _card_of(":".join(rest))
    return out


def _card_of(text: str) -> list[str]:
    head, _, rest = text.partition(":")
    if kind_name(head) == "menu" and rest and rest != "-":
        return [head, *_card_of(rest)]
    return [head]


def kind_points(record: PartyRecord) -> list[dict[str, int]]:
    """Per seat, the points of each kind of the menu over the game (they add up to its total)."""
    assert record.score is not None
    menu = record.menu
    out = [dict.fromkeys(menu.kinds, 0) for _ in range(record.players)]
    for rnd in record.scored:
        for seat, points in zip(out, rnd.score.points, strict=True):
            for category, p in points.items():
                seat["takeout" if category == FLIPPED else category] += p
    for seat, p in zip(out, record.score.dessert_points or (), strict=True):
        seat[menu.dessert.name] += p
    return out


@dataclass
class PartySide:
    """One reading set's games of a menu, kept as the per-game values its figures come from."""

    label: str
    menu: Menu
    players: int
    rules: PartyRules
    policies: tuple[str, ...]
    totals: list[tuple[int, ...]] = field(default_factory=list)
    winners: list[tuple[int, ...]] = field(default_factory=list)
    points: dict[str, list[float]] = field(default_factory=dict)  # kind -> per game, every seat
    cards: dict[str, list[int]] = field(default_factory=dict)

    def add(self, record: PartyRecord) -> None:
        assert record.score is not None
        self.totals.append(record.score.totals)
        self.winners.append(record.score.winners)
        per_seat = kind_points(record)
        counts = dict.fromkeys(self.menu.kinds, 0)
        for rnd in record.rounds:
            for plays in rnd.turns:
                for play in plays:
                    for card in played_cards(play):
                        counts[kind_name(card)] += 1
        for kind in self.menu.kinds:
            self.points.setdefault(kind, []).append(float(sum(s[kind] for s in per_seat)))
            self.cards.setdefault(kind, []).append(counts[kind])

    # --- figures ---------------------------------------------------------------------------
    def player_scores(self) -> list[list[float]]:
        return [list(t) for t in self.totals]

    def seat_scores(self, seat: int) -> list[float]:
        return [t[seat] for t in self.totals]

    def win_shares(self, seats: Sequence[int]) -> list[float]:
        """Per game, the share of the win that went to ``seats`` (a shared win split evenly)."""
        return [sum(1 / len(w) for s in seats if s in w) for w in self.winners]

    def score_mean(self) -> Estimate:
        return mean([statistics.fmean(t) for t in self.totals])

    def score_sd(self) -> Estimate:
        return spread(self.player_scores())


def play_side(menu: Menu, players: int, rules: PartyRules, label: str, policies: Sequence[str], seed: int,
              games: int, tick: Callable[[int], None] = lambda _k: None) -> PartySide:
    """Games ``seed .. seed+games-1`` of ``menu`` at ``players``; ``tick(k)`` after the first k."""
    side = PartySide(label, menu, players, rules, tuple(policies))
    for g in range(games):
        side.add(play_party(menu, players, seed + g, list(policies), rules))
        tick(g + 1)
    return side


def advantage(seats: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """How far the seats are from even: the spread (highest less lowest) of their win shares and
    of their mean points, and the seats whose win share's Wilson interval leaves out the even share."""
    even = 1 / players
    return {
        "even_share": even,
        "win_share_spread": max(r["win_share"] for r in seats) - min(r["win_share"] for r in seats),
        "mean_spread": max(r["mean"] for r in seats) - min(r["mean"] for r in seats),
        "seats_off_even": [r["seat"] for r in seats
                           if r["win_share_ci95"] is not None
                           and not r["win_share_ci95"][0] <= even <= r["win_share_ci95"][1]],
    }


def side_rows(side: PartySide) -> dict[str, Any]:
    """The figures of one side as JSON: score, seats, policies, seat advantage, kinds."""
    n = side.players
    seats = []
    for k in range(n):
        m, w = mean(side.seat_scores(k)), share(side.win_shares([k]))
        seats.append({"seat": k, "policy": side.policies[k], "mean": m.value,
                      "mean_ci95": m.as_json()["ci95"], "win_share": w.value,
                      "win_share_ci95": w.as_json()["ci95"]})
    by_policy = []
    for name in dict.fromkeys(side.policies):
        mine = [k for k, p in enumerate(side.policies) if p == name]
        m = mean([sum(t[s] for s in mine) / len(mine) for t in side.totals])
        w = share(side.win_shares(mine), certain=len(mine) == n)
        by_policy.append({"policy": name, "seats": mine, "mean": m.value, "mean_ci95": m.as_json()["ci95"],
                          "win_share": w.value, "win_share_ci95": w.as_json()["ci95"]})
    every = [sum(col) for col in zip(*side.cards.values(), strict=True)]
    kinds = []
    for kind in side.menu.kinds:
        pts, cards = side.points[kind], side.cards[kind]
        kinds.append({"kind": kind, "cards": sum(cards), "pick_rate": ratio(cards, every).as_json(),
                      "points": sum(pts), "points_per_card": ratio(pts, cards).as_json(),
                      "points_per_game": mean([p / n for p in pts]).as_json()})
    return {
        "rules": side.label,
        "readings": side.rules.changed(),
        "score": {"mean": side.score_mean().as_json(), "sd": side.score_sd().as_json()},
        "seats": seats,
        "by_policy": by_policy,
        "advantage": advantage(seats, n),
        "kinds": kinds,
    }
