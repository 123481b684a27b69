"""``sushigo.balance``: two rulesets side by side for a designer: proved maxima, the smallest
situation where they differ, and per card kind, score spread and win shares over seeded games.

The solvers import z3; they are imported when a question is asked, not with this module."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from sushigo.api.base import (
    MAX_GAMES,
    Outcome,
    Rule,
    budget_of,
    in_range,
    public,
    rules_from_options,
    tagged,
)
from sushigo.spec.errors import InputError, check_first_seed
from sushigo.spec.model import budget
from sushigo.spec.policies import Policy
from sushigo.spec.ruleset import Ruleset

FORMAT = "sushigo-balance-result/1"
DEFAULT_GAMES = 2000
DEFAULT_TIMEOUT = 20.0  # seconds per solver question (each maximum, the diff)
#: The strong policy of ``skill`` and its games per opponent (a search per move: far fewer games
#: than the pick figures take, and its interval says how few).
DEFAULT_SKILL_POLICY = "ismcts:iterations=200"
DEFAULT_SKILL_GAMES = 100
#: What a card kind's points are (docs/designing.md says the same at length).
ATTRIBUTION = (
    "points per card: a set's points go to its kind (tempura, sashimi, dumpling); a nigiri brings "
    "its face value, a wasabi the extra its nigiri scored; maki placement points are spread over "
    "the player's maki icons; pudding bonus and penalty go to pudding; chopsticks bring 0"
)
INTERVALS = ("95% intervals: normal approximation over games (delta method; quantiles: Woodruff; "
             "win shares: Wilson)")

Progress = Callable[[str], None]


class BalanceDetail(NamedTuple):
    """What the table and the picture are drawn from."""

    rules: tuple[Ruleset, Ruleset]
    sides: tuple[Any, Any]  # solver.balance.Side
    figures: tuple[Any, Any]  # solver.balance.Figures


def _games(games: object) -> int:
    if in_range(games, 0, MAX_GAMES):
        count = cast(float, games)  # in_range passed: an int or a float (never a bool)
        if int(count) == count:
            return int(count)
    raise InputError(f"--games must be a whole number from 1 to {MAX_GAMES}, got {games!r}")


def _check_players(rules: Ruleset, players: int) -> None:
    from sushigo.spec.game import check_players

    check_players(rules, players)


def _quiet(_message: str) -> None:
    return None


def balance_outcome(
    ruleset: str = "official",
    *,
    vs: str = "official",
    rule: Rule = None,
    rule_vs: Rule = None,
    games: int = DEFAULT_GAMES,
    players: int | None = None,
    policy: str | Sequence[str | Policy] | Policy | None = None,
    seed: int = 0,
    maxima: bool = True,
    smallest_diff: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    progress: bool | Progress = False,
    skill: bool = False,
    skill_policy: str = DEFAULT_SKILL_POLICY,
    skill_games: int = DEFAULT_SKILL_GAMES,
) -> Outcome:
    """Ruleset ``ruleset`` (with ``rule`` overrides) beside ``vs`` (with ``rule_vs``): the proved
    round and game maxima of ``players`` players (``maxima``), the smallest situation where the two
    differ (``smallest_diff``; each solver question gets ``timeout`` seconds, past which it says
    "unknown" with the budget), and over ``games`` games from seeds ``seed, seed+1, ...`` (the
    same seeds for both) with ``policy`` players: per card kind the pick rate and the points per
    card, the score spread and the win shares per seat and per policy, each with its 95% interval.
    ``progress``: True shows one line on standard error for a long run, a function receives
    each message instead. ``skill`` adds how much the rules reward skill: ``skill_policy`` in one
    seat (rotated) against random and against greedy players over ``skill_games`` games per
    opponent and ruleset, its win share beside the even share (the gap, with its Wilson interval).
    Returns what ``sushigo balance --json`` prints."""
    from sushigo.solver.balance import difference_rows, figures, skill_rows, summary_rows, tally
    from sushigo.solver.estimates import mean, share
    from sushigo.solver.policies import make_policy, resolve_policies
    from sushigo.spec.executor import policy_names
    from sushigo.spec.stats import summarise

    show = terminal_progress if progress is True else progress or _quiet
    n = _games(games)
    check_first_seed(seed, "--seed")
    budget_of(timeout)  # the bounds of every solver budget
    a = rules_from_options(ruleset, rule)
    b = rules_from_options(vs, rule_vs)
    if a.name == b.name and a != b:
        b = b.replace(name=b.name + "'")
    count = players if players is not None else (2 if a.dummy_2p or b.dummy_2p else 4)
    for rules in (a, b):
        _check_players(rules, count)
    policies = resolve_policies(count, policy)
    if skill:
        make_policy(skill_policy)  # a bad spec is refused before any game is played
        strong_games = _games(skill_games)

    side_a, side_b, shared = tally(
        count, seed, n, a, b, policies,
        lambda name, k: show(f"{name}: played {k}/{n} games"))
    fig_a, fig_b = figures(side_a), figures(side_b)
    sides = []
    for side, fig in ((side_a, fig_a), (side_b, fig_b)):
        summary = summarise(count, seed, n, side.rules, policies, zip(side.totals, side.winners,
                                                                             strict=True))
        for row in summary["seats"]:
            row["mean_ci95"] = mean(side.seat_scores(row["seat"])).as_json()["ci95"]
            row["win_share_ci95"] = (share(side.win_shares([row["seat"]])).as_json()["ci95"]
                                     if row["win_share"] is not None else None)
        for row in summary["by_policy"]:
            mine = row["seats"]
            means = [sum(t[s] for s in mine) / len(mine) for t in side.totals]
            row["mean_ci95"] = mean(means).as_json()["ci95"]
            # A policy that holds every seat wins every game: its share is 1, not an estimate.
            row["win_share_ci95"] = share(side.win_shares(mine), certain=len(mine) == count).as_json()["ci95"]
        sides.append({
            "rules": side.rules.describe(),
            "readings": side.rules.readings(),
            "maxima": _maxima(side.rules, count, seed, timeout, show) if maxima else None,
            **summary_rows(side, fig),
            "seats": summary["seats"],
            "by_policy": summary["by_policy"],
            "games_without_winner": summary["games_without_winner"],
        })
    data = tagged(FORMAT, {
        "games": n,
        "players": count,
        "first_seed": seed,
        "policies": list(policy_names(policies)),
        "same_games": shared,
        "attribution": ATTRIBUTION,
        "intervals": INTERVALS,
        "ruleset": sides[0],
        "vs": sides[1],
        "difference": difference_rows(fig_a, fig_b),
        "smallest_difference": _smallest(a, b, timeout, show) if smallest_diff else None,
    })
    if skill:
        data["skill"] = {
            "ruleset": skill_rows(count, seed, strong_games, a, skill_policy, lambda w, k: show(f"{w}: {k}")),
            "vs": skill_rows(count, seed, strong_games, b, skill_policy, lambda w, k: show(f"{w}: {k}")),
        }
    unknown = any(s["maxima"] and any(m["status"] != "optimal" for m in s["maxima"].values()) for s in sides)
    if data["smallest_difference"] and data["smallest_difference"]["status"] == "unknown":
        unknown = True
    return Outcome(data, 1 if unknown else 0, BalanceDetail((a, b), (side_a, side_b), (fig_a, fig_b)))


def _stopped() -> None:
    """A solver stopped by Ctrl-C returns what it had; the report must not go on as if answered."""
    if budget.stop_requested():
        raise KeyboardInterrupt


def _maxima(rules: Ruleset, players: int, seed: int, timeout: float, show: Progress) -> dict[str, Any]:
    """The proved best round and best game of one player (solver/alldeals.py), or "unknown"."""
    from sushigo.solver.alldeals import best_over_deals

    out: dict[str, Any] = {}
    for kind in ("round", "game"):
        show(f"{rules.name}: proving the best {kind} of {players} players (budget {timeout:g} s)")
        res = best_over_deals(players, kind, rules, False, timeout, seed)
        _stopped()
        entry: dict[str, Any] = {"score": res.score, "status": res.status}
        if res.status != "optimal":
            entry["reason"] = res.reason
            entry["budget_seconds"] = timeout
        out[kind] = entry
    return out


def _smallest(a: Ruleset, b: Ruleset, timeout: float, show: Progress) -> dict[str, Any]:
    """The smallest situation where ``a`` and ``b`` disagree (solver/diff.py), or the proof of none."""
    from sushigo.solver.diff import diff

    show(f"looking for the smallest situation where {a.name} and {b.name} differ (budget {timeout:g} s)")
    res = diff(a, b, timeout_ms=int(timeout * 1000), extend=False)
    _stopped()
    out: dict[str, Any] = {"status": res.status, "reason": res.reason,
                           "witness": res.witness.as_json() if res.witness else None}
    if res.status == "unknown":
        out["budget_seconds"] = timeout
    return out


def terminal_progress(message: str) -> None:
    """One line on standard error, rewritten in place (used when it is a terminal)."""
    print("\r\033[K" + message, end="", file=sys.stderr, flush=True)


balance = public(balance_outcome, "balance")


# --- Sushi Go Party! (issue 29 item 4) ---------------------------------------------------------

PARTY_FORMAT = "sushigo-party-balance-result/1"
PARTY_MENUS_FORMAT = "sushigo-party-balance-menus/1"
PARTY_DEFAULT_GAMES = 200
#: What a Party card kind's points are (docs/party.md says the same at length).
PARTY_ATTRIBUTION = (
    "points per card: a kind's round points as the scoring books them (a special order's go to the "
    "kind it copies, a wasabi's triple to its nigiri, a flipped card's 2 to the takeout box), the "
    "dessert's game-end points to the dessert; cards: every card put on the table, by its own kind; "
    "chopsticks, spoon, menu, special order and wasabi bring 0 of their own"
)
PARTY_INTERVALS = "95% intervals: normal approximation over games (delta method; win shares: Wilson)"


def _party_policies(policy: str | Sequence[str] | None, players: int) -> list[str]:
    from sushigo.api.party_play import _policies

    names = [policy] if isinstance(policy, str) else list(policy or ())
    return _policies(names, players)


def balance_party_outcome(
    menu: str | None = None,
    *,
    players: int | None = None,
    rule: Sequence[str] = (),
    rule_vs: Sequence[str] = (),
    games: int = PARTY_DEFAULT_GAMES,
    policy: str | Sequence[str] | None = None,
    seed: int = 0,
    progress: bool | Progress = False,
) -> Outcome:
    """Sushi Go Party! menus over ``games`` seeded games (seeds ``seed, seed+1, ...``) played by
    ``policy`` (random, greedy or first; one for every seat or one per seat). ``menu`` names one
    menu (a suggested menu or its kinds) played at ``players``: per seat its mean points and win
    share, the score spread, per card kind its pick rate and points per card, each with its 95%
    interval; with ``rule`` or ``rule_vs`` (Party readings, NAME=VALUE) the menu under the readings
    ``rule`` beside the readings ``rule_vs`` from the same seeds, and their paired differences.
    ``menu`` None or ``"all"``: every suggested menu at every player count it seats (only
    ``players`` when given), ranked at each player count by seat advantage (the spread of the
    seats' win shares) and by score spread. Returns what ``sushigo balance --game party --json`` prints."""
    from sushigo.spec.party.menus import PLAYERS, parse_menu, suggested_tables
    from sushigo.spec.party.readings import party_rules

    show = terminal_progress if progress is True else progress or _quiet
    n = _games(games)
    check_first_seed(seed, "--seed")
    a = party_rules(list(rule))
    if menu is None or menu.strip().lower() == "all":
        if rule_vs:
            raise InputError("--rule-vs compares two reading sets on one menu: add --menu NAME")
        if players is not None and not (isinstance(players, int) and PLAYERS[0] <= players <= PLAYERS[1]):
            raise InputError(f"--players {players!r}: Sushi Go Party! seats {PLAYERS[0]} to {PLAYERS[1]}")
        tables = [(m, k) for m, k in suggested_tables() if players is None or k == players]
        if isinstance(policy, Sequence) and not isinstance(policy, str) and len(policy) > 1:
            raise InputError("--menu all plays several player counts: give one --policy for every seat")
        return _menus_table(tables, a, n, seed, policy, show)
    if players is None:
        raise InputError("balance --game party --menu NAME: add --players N (2 to 8; the menu's tiles may "
                         "allow fewer), or drop --menu for every suggested menu")
    b = party_rules(list(rule_vs))
    table = parse_menu(menu, players, uramaki=a.uramaki_split)
    policies = _party_policies(policy, players)
    compare = bool(rule or rule_vs)
    side_a = _party_side(table.label, players, a, policies, seed, n, show)
    data: dict[str, Any] = {
        "game": "party", "menu": table.label, "kinds": list(table.kinds), "players": players, "games": n,
        "first_seed": seed, "policies": policies, "attribution": PARTY_ATTRIBUTION,
        "intervals": PARTY_INTERVALS,
    }
    from sushigo.solver.balance_party import side_rows

    data["ruleset"] = side_rows(side_a)
    sides = [side_a]
    if compare:
        side_b = _party_side(table.label, players, b, policies, seed, n, show)
        sides.append(side_b)
        data["vs"] = side_rows(side_b)
        data["difference"] = _party_difference(side_a, side_b)
    else:
        data["vs"] = None
        data["difference"] = None
    return Outcome(tagged(PARTY_FORMAT, data), 0, PartyDetail(tuple(sides)))


class PartyDetail(NamedTuple):
    """What the table and the picture of a Party report are drawn from: its sides' games."""

    sides: tuple[Any, ...]  # solver.balance_party.PartySide


def _party_side(menu: str, players: int, rules: Any, policies: Sequence[str], seed: int, n: int,
                show: Progress) -> Any:
    from sushigo.solver.balance_party import play_side
    from sushigo.spec.party.menus import parse_menu

    table = parse_menu(menu, players, uramaki=rules.uramaki_split)
    label = rules.describe()
    return play_side(table, players, rules, label, policies, seed, n,
                     lambda k: show(f"{table.label} at {players} ({label}): played {k}/{n} games"))


def _party_difference(a: Any, b: Any) -> dict[str, Any]:
    """``a`` minus ``b``, paired game by game: the mean and spread of scores, each seat's mean
    points and win share, each kind's points per card."""
    from sushigo.solver.estimates import mean, ratio, share

    seats = []
    for k in range(a.players):
        seats.append({
            "seat": k,
            "mean": mean(a.seat_scores(k)).minus(mean(b.seat_scores(k))).as_json(),
            "win_share": share(a.win_shares([k])).minus(share(b.win_shares([k]))).as_json(),
        })
    return {
        "score_mean": a.score_mean().minus(b.score_mean()).as_json(),
        "score_sd": a.score_sd().minus(b.score_sd()).as_json(),
        "seats": seats,
        "kinds": [{"kind": kind,
                   "points_per_card": ratio(a.points[kind], a.cards[kind]).minus(
                       ratio(b.points[kind], b.cards[kind])).as_json()}
                  for kind in a.menu.kinds],
    }


def _menus_table(tables: Sequence[tuple[str, int]], rules: Any, n: int, seed: int,
                 policy: str | Sequence[str] | None, show: Progress) -> Outcome:
    """Every (menu, players) of ``tables``, each over the same seeds; ranked per player count."""
    from sushigo.solver.balance_party import side_rows

    rows, sides = [], []
    for name, players in tables:
        side = _party_side(name, players, rules, _party_policies(policy, players), seed, n, show)
        sides.append(side)
        rows.append({"menu": name, "players": players, **side_rows(side)})
    for players in sorted({r["players"] for r in rows}):
        here = [r for r in rows if r["players"] == players]
        for key, rank in (("win_share_spread", "rank_advantage"), ("sd", "rank_spread")):
            for r in here:  # equal figures share a place (1, 2, 2, 4)
                r[rank] = 1 + sum(_figure(o, key) < _figure(r, key) for o in here)
    names = _party_policies(policy, 2)[:1]
    data = {"game": "party", "games": n, "first_seed": seed, "policy": names[0],
            "rules": rules.describe(), "readings": rules.changed(), "attribution": PARTY_ATTRIBUTION,
            "intervals": PARTY_INTERVALS, "tables": rows}
    return Outcome(tagged(PARTY_MENUS_FORMAT, data), 0, PartyDetail(tuple(sides)))


def _figure(row: dict[str, Any], key: str) -> float:
    """What a menu is ranked by: its seat advantage, or its score spread (lowest first)."""
    if key == "sd":
        value = row["score"]["sd"]["value"]
        return float(value) if value is not None else 0.0
    return float(row["advantage"][key])


balance_party = public(balance_party_outcome, "balance_party")
