"""``sushigo balance``: two rulesets side by side for a designer (issue 17 item 4)."""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sushigo.common import add_game_args, add_json_arg, budget_seconds, print_json, print_table

if TYPE_CHECKING:
    from sushigo.spec.ruleset import Ruleset

ORDER = 75
HELP = "two rulesets side by side: maxima, smallest difference, per-card value over seeded games"

_PROGRESS_MIN_GAMES = 500
_EPILOG = """\
points per card kind: a set's points go to its kind (tempura, sashimi, dumpling); a nigiri
brings its face value and a wasabi the extra its nigiri scored (0 when unused); a player's maki
placement points are spread over their maki icons; pudding bonus and penalty go to pudding;
chopsticks bring 0. Pick rate = cards of the kind / cards taken (players' final tableaux).
Both rulesets play the same seeds (common random numbers); with random players and rulesets
that differ only in scoring, the very same games are scored twice. Intervals are 95%, normal
approximation over games (delta method; quantiles: Woodruff; win shares: Wilson). See docs/designing.md.

With --game party (Sushi Go Party!): --menu NAME --players N plays one menu; --menu all (or no
--menu) plays every suggested menu at every player count it seats and ranks them per player count
by seat advantage (the spread of the seats' win shares) and by score spread; --rule and --rule-vs
choose Party readings (sushigo rules --game party). No proved maxima or smallest difference. See
docs/party-balance.md.

examples:
  sushigo balance maki-first-each --games 20000
  sushigo balance official --rule winner_tie=none --vs official --no-maxima --plot balance.png
  sushigo balance --game party --menu sushi-go --players 4 --policy greedy --games 200
  sushigo balance --game party --menu all --policy greedy --games 100 --plot menus.png
"""


def games_count(text: str) -> int:
    """argparse type of --games: a whole number of at least 1 (no nan, inf or fractions)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 1 and value == int(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games: "
                                         "give a whole number of at least 1")
    return int(value)


def register(subparsers: Any) -> None:
    from sushigo.api.balance import (
        DEFAULT_GAMES,
        DEFAULT_SKILL_GAMES,
        DEFAULT_SKILL_POLICY,
        DEFAULT_TIMEOUT,
        PARTY_DEFAULT_GAMES,
    )
    from sushigo.solver.policies import POLICY_NAMES

    p = subparsers.add_parser(
        "balance", help=HELP, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compare RULESET with --vs (default official): the proved best round and game, "
        "the smallest situation where they differ, and over seeded games per card kind the pick rate "
        "and points per card, the score spread and the win shares per seat and policy, each with "
        "its 95% interval.")
    p.add_argument("ruleset", metavar="RULESET", nargs="?", default=None,
                   help="named ruleset (see 'sushigo rules') or FILE.toml (not with --game party)")
    p.add_argument("--vs", default="official", metavar="NAME",
                   help="ruleset (or rules file) to compare with (default official)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule parameter of RULESET (repeatable)")
    p.add_argument("--rule-vs", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule parameter of --vs (repeatable)")
    p.add_argument("--games", type=games_count, default=None, metavar="N",
                   help=f"games per ruleset (default {DEFAULT_GAMES}; {PARTY_DEFAULT_GAMES} per menu and "
                   "player count with --game party)")
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="players, 2 to 5 (default 4; 2 under dummy-2p); with --game party 2 to 8 "
                   "(with --menu all: only that player count)")
    p.add_argument("--policy", action="extend", nargs="+", default=[], metavar="NAME",
                   help=f"policy for every player, or one per seat ({', '.join(POLICY_NAMES)}; "
                   "NAME:OPTION=VALUE,... sets options, e.g. ismcts:iterations=1000; default random)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the first game, 0 or more (default 0)")
    p.add_argument("--timeout", type=budget_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"budget of each solver question (default {DEFAULT_TIMEOUT:g}); past it: unknown")
    p.add_argument("--no-maxima", action="store_true", help="skip the proved round and game maxima")
    p.add_argument("--no-diff", action="store_true", help="skip the smallest differing situation")
    p.add_argument("--plot", metavar="FILE",
                   help="draw score distributions and points per card (.png or .svg; "
                   "needs pip install 'sushigo-spec[plot]')")
    p.add_argument("--skill", action="store_true",
                   help="also measure how much skill the rules reward: --skill-policy in one seat "
                   "against random and against greedy players (win share beside the even share)")
    p.add_argument("--skill-policy", default=DEFAULT_SKILL_POLICY, metavar="SPEC",
                   help=f"the strong policy of --skill (default {DEFAULT_SKILL_POLICY})")
    p.add_argument("--skill-games", type=games_count, default=DEFAULT_SKILL_GAMES, metavar="N",
                   help=f"games of --skill per opponent and ruleset (default {DEFAULT_SKILL_GAMES})")
    add_game_args(p, "menus over seeded games: --menu NAME --players N, or --menu all for every "
                  "suggested menu ranked", "'all' (the default with --game party): every suggested menu")
    add_json_arg(p)
    p.set_defaults(func=run)


def _ci(est: dict[str, Any], fmt: str) -> str:
    if est["value"] is None:
        return "-"
    text = format(est["value"], fmt)
    if est["ci95"] is None:
        return text
    lo, hi = est["ci95"]
    return f"{text} [{format(lo, fmt)}, {format(hi, fmt)}]"


def _short(ci95: list[float] | None, fmt: str) -> str:
    return "" if ci95 is None else f" [{format(ci95[0], fmt)}, {format(ci95[1], fmt)}]"


def _maximum(m: dict[str, Any] | None) -> str:
    if m is None:
        return "-"
    if m["status"] == "optimal":
        return str(m["score"])
    found = "none found" if m["score"] is None else f"{m['score']} found"
    return f"unknown ({found}, budget {m['budget_seconds']:g} s)"


def print_report(data: dict[str, Any], rules: Sequence[Ruleset] = ()) -> None:
    """The report of ``data``; ``rules`` (the two rulesets) add why pudding can bring 0 per card."""
    a, b = data["ruleset"], data["vs"]
    how = "the same games scored under both" if data["same_games"] else "the same seeds for both"
    pol = ", ".join(dict.fromkeys(data["policies"]))
    print(f"balance: {a['rules']} vs {b['rules']}; {data['games']} games of {data['players']} players "
          f"({pol}), seeds {data['first_seed']}..{data['first_seed'] + data['games'] - 1}, {how}")
    if a["maxima"] is not None:
        rows = [[f"best {kind} (proved)", _maximum(a["maxima"][kind]), _maximum(b["maxima"][kind])]
                for kind in ("round", "game")]
        print()
        print_table(rows, ["maximum, one player", a["rules"], b["rules"]])
    small = data["smallest_difference"]
    if small is not None:
        print()
        if small["witness"] is not None:
            print(f"smallest difference: {small['witness']['summary']}")
        elif small["status"] == "equivalent":
            print("smallest difference: none (the solver proved the two agree)")
        else:
            print(f"smallest difference: {small['status']} ({small['reason']})")
    d = data["difference"]
    score_rows = [[name, _ci(a["score"][name], ".2f"), _ci(b["score"][name], ".2f"),
                   _ci(d[f"score_{name}"], "+.2f")] for name in ("mean", "sd")]
    for qa, qb in zip(a["score"]["quantiles"], b["score"]["quantiles"], strict=True):
        score_rows.append([f"q{round(qa['q'] * 100):02d}", _ci(qa, "g"), _ci(qb, "g"), ""])
    print()
    print_table(score_rows, ["player score", a["rules"], b["rules"], "difference"])
    kind_rows = [
        [ka["kind"], _ci(ka["pick_rate"], ".3f"), _ci(kb["pick_rate"], ".3f"),
         _ci(ka["points_per_card"], ".2f"), _ci(kb["points_per_card"], ".2f"),
         _ci(kd["points_per_card"], "+.2f")]
        for ka, kb, kd in zip(a["kinds"], b["kinds"], d["kinds"], strict=True)
    ]
    print()
    print_table(kind_rows, ["kind", "pick rate", "(vs)", "points/card", "(vs)", "difference"])
    if all("taken_when_offered" in k for k in (*a["kinds"], *b["kinds"], *d["kinds"])):
        offer_rows = [[ka["kind"], _ci(ka["taken_when_offered"], ".3f"), _ci(kb["taken_when_offered"], ".3f"),
                       _ci(kd["taken_when_offered"], "+.3f")]
                      for ka, kb, kd in zip(a["kinds"], b["kinds"], d["kinds"], strict=True)]
        print()
        print_table(offer_rows, ["kind", "taken when in hand", "(vs)", "difference"])
    from sushigo.balance_plot import pudding_note

    for note in dict.fromkeys(n for n in (pudding_note(r, data["players"]) for r in rules) if n):
        print(textwrap.fill(note, 100))
    for side in (a, b):
        rows = [[f"seat {r['seat']}" if r["win_share"] is not None else "dummy", r["policy"] or "-",
                 f"{r['mean']:.2f}{_short(r['mean_ci95'], '.2f')}",
                 "-" if r["win_share"] is None
                 else f"{r['win_share']:.1%}{_short(r['win_share_ci95'], '.1%')}"]
                for r in side["seats"]]
        rows += [[f"policy {r['policy']}", f"{len(r['seats'])} seats",
                  f"{r['mean']:.2f}{_short(r['mean_ci95'], '.2f')}",
                  f"{r['win_share']:.1%}{_short(r['win_share_ci95'], '.1%')}"] for r in side["by_policy"]]
        print()
        print_table(rows, ["", "policy", "mean score", "win share"], title=f"{side['rules']}:")
    if "skill" in data:
        _print_skill(data)
    print()
    print("[low, high]: 95% interval (normal approximation over games; win shares: Wilson); difference = "
          f"{a['rules']} - {b['rules']}, paired by seed; a shared win counts 1/k")


def _print_skill(data: dict[str, Any]) -> None:
    """The skill measure: per ruleset and opponent, the strong policy's win share and its gap."""
    rows = []
    for key in ("ruleset", "vs"):
        side = data["skill"][key]
        for r in side["against"]:
            rows.append([data[key]["rules"], f"{side['policy']} vs {r['opponent']}",
                         f"{r['win_share']:.1%}{_short(r['win_share_ci95'], '.1%')}",
                         f"{r['even_share']:.1%}",
                         f"{r['gap']:+.1%}{_short(r['gap_ci95'], '+.1%')}"])
    games = data["skill"]["ruleset"]["games"]
    print()
    print_table(rows, ["skill", "one seat against the rest", "win share", "even", "gap"],
                title=f"skill ({games} seat-rotated games per row):")


def run(args: argparse.Namespace) -> int:
    from sushigo.api.balance import DEFAULT_GAMES, balance_outcome, terminal_progress
    from sushigo.spec.errors import InputError

    if args.game == "party":
        return _run_party(args)
    if args.menu is not None:
        raise InputError("--menu names a Sushi Go Party! menu: add --game party (or drop --menu)")
    if args.ruleset is None:
        raise InputError("balance: name the RULESET to compare with --vs (e.g. sushigo balance "
                         "maki-first-each), or add --game party for Party menus")
    if args.games is None:
        args.games = DEFAULT_GAMES

    if args.plot is not None:  # an empty name is refused below, not taken as "no picture"
        from sushigo.balance_plot import check_plot_target

        check_plot_target(args.plot)
    show = args.games >= _PROGRESS_MIN_GAMES or not (args.no_maxima and args.no_diff)
    progress = terminal_progress if show and sys.stderr.isatty() else None
    try:
        out = balance_outcome(
            args.ruleset, vs=args.vs, rule=list(args.rule), rule_vs=list(args.rule_vs), games=args.games,
            players=args.players, policy=list(args.policy), seed=args.seed, maxima=not args.no_maxima,
            smallest_diff=not args.no_diff, timeout=args.timeout, progress=progress or False,
            skill=args.skill, skill_policy=args.skill_policy, skill_games=args.skill_games)
    finally:
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    return _show(args, out, "draw", lambda: print_report(out.data, out.detail.rules))


def _show(args: argparse.Namespace, out: Any, drawing: str, report: Callable[[], None]) -> int:
    """Draw ``out`` with :mod:`sushigo.balance_plot`'s ``drawing`` when --plot asks, then print it."""
    from sushigo.spec.errors import InputError

    if args.plot is not None:
        from sushigo import balance_plot

        try:
            getattr(balance_plot, drawing)(out.data, out.detail, args.plot)
        except OSError as exc:
            raise InputError(f"cannot write the picture to {args.plot!r}: {exc.strerror or exc}") from exc
    if args.json:
        print_json(out.data)
    else:
        report()
        if args.plot:
            print(f"picture: {args.plot}")
    return int(out.code)


# --- Sushi Go Party! ---------------------------------------------------------------------------

_BASE_ONLY = (("ruleset", None, "RULESET"), ("vs", "official", "--vs"), ("skill", False, "--skill"))


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.api.balance import PARTY_DEFAULT_GAMES, balance_party_outcome, terminal_progress
    from sushigo.spec.errors import InputError

    for name, default, shown in _BASE_ONLY:
        if getattr(args, name, default) != default:
            raise InputError(f"balance --game party: {shown} is for the base game; a Party report compares "
                             "readings with --rule NAME=VALUE and --rule-vs NAME=VALUE")
    if args.plot is not None:
        from sushigo.balance_plot import check_plot_target

        check_plot_target(args.plot)
    games = PARTY_DEFAULT_GAMES if args.games is None else args.games
    progress = terminal_progress if sys.stderr.isatty() else None
    try:
        out = balance_party_outcome(args.menu, players=args.players, rule=list(args.rule),
                                    rule_vs=list(args.rule_vs), games=games, policy=list(args.policy),
                                    seed=args.seed, progress=progress or False)
    finally:
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    report = print_party_menus if "tables" in out.data else print_party_report
    return _show(args, out, "draw_party", lambda: report(out.data))


def _pct(value: float, ci95: list[float] | None) -> str:
    return f"{value:.1%}{_short(ci95, '.1%')}"


def _party_seats(side: dict[str, Any]) -> None:
    rows = [[f"seat {r['seat']}", r["policy"], f"{r['mean']:.2f}{_short(r['mean_ci95'], '.2f')}",
             _pct(r["win_share"], r["win_share_ci95"])] for r in side["seats"]]
    if len(side["by_policy"]) > 1:
        rows += [[f"policy {r['policy']}", f"{len(r['seats'])} seat" + ("s" * (len(r["seats"]) > 1)),
                  f"{r['mean']:.2f}{_short(r['mean_ci95'], '.2f')}",
                  _pct(r["win_share"], r["win_share_ci95"])] for r in side["by_policy"]]
    print()
    print_table(rows, ["", "policy", "mean score", "win share"], title=f"{side['rules']}:")
    adv = side["advantage"]
    off = adv["seats_off_even"]
    verdict = (f"seats {', '.join(map(str, off))} outside the even share" if off
               else "every seat's interval holds the even share")
    print(f"seat advantage: win shares spread {adv['win_share_spread']:.1%}, mean points spread "
          f"{adv['mean_spread']:.2f}; even share {adv['even_share']:.1%}: {verdict}")


def print_party_report(data: dict[str, Any]) -> None:
    """The report of one Party menu (``balance --game party --menu NAME``)."""
    a, b, d = data["ruleset"], data["vs"], data["difference"]
    last = data["first_seed"] + data["games"] - 1
    pol = ", ".join(dict.fromkeys(data["policies"]))
    than = f" vs {b['rules']}, the same seeds for both" if b is not None else ""
    print(f"balance: menu {data['menu']}, {data['players']} players, {data['games']} games ({pol}), seeds "
          f"{data['first_seed']}..{last}; {a['rules']}{than}")
    sides = [a] if b is None else [a, b]
    heads = ["player score", a["rules"]] + ([b["rules"], "difference"] if b is not None else [])
    rows = []
    for name in ("mean", "sd"):
        row = [name] + [_ci(s["score"][name], ".2f") for s in sides]
        if d is not None:
            row.append(_ci(d[f"score_{name}"], "+.2f"))
        rows.append(row)
    print()
    print_table(rows, heads)
    kind_rows = []
    for k, ka in enumerate(a["kinds"]):
        row = [ka["kind"], ka["cards"], _ci(ka["pick_rate"], ".3f"), _ci(ka["points_per_card"], ".2f")]
        if b is not None and d is not None:
            row += [_ci(b["kinds"][k]["points_per_card"], ".2f"),
                    _ci(d["kinds"][k]["points_per_card"], "+.2f")]
        else:
            row.append(_ci(ka["points_per_game"], ".2f"))
        kind_rows.append(row)
    kind_heads = ["kind", "cards", "pick rate", "points/card"] + (
        ["(vs)", "difference"] if b is not None else ["points/game"])
    print()
    print_table(kind_rows, kind_heads)
    for side in sides:
        _party_seats(side)
    print()
    paired = f"; difference = {a['rules']} - {b['rules']}, paired by seed" if b is not None else ""
    print("[low, high]: 95% interval (normal approximation over games; win shares: Wilson)"
          f"{paired}; a shared win counts 1/k")


def print_party_menus(data: dict[str, Any]) -> None:
    """Every suggested menu at every player count it seats, ranked (``balance --game party``)."""
    last = data["first_seed"] + data["games"] - 1
    print(f"balance: the suggested menus at every player count they seat, {data['games']} games each "
          f"({data['policy']}), seeds {data['first_seed']}..{last}; {data['rules']}")
    tables = data["tables"]
    for players in sorted({t["players"] for t in tables}):
        here = sorted((t for t in tables if t["players"] == players),
                      key=lambda t: (t["rank_advantage"], t["rank_spread"], t["menu"]))
        rows = []
        for t in here:
            adv = t["advantage"]
            off = ",".join(map(str, adv["seats_off_even"])) or "-"
            rows.append([t["menu"], f"{adv['win_share_spread']:.1%}", t["rank_advantage"], off,
                         f"{adv['mean_spread']:.2f}", _ci(t["score"]["sd"], ".2f"), t["rank_spread"],
                         _ci(t["score"]["mean"], ".2f")])
        print()
        print_table(rows, ["menu", "win-share spread", "rank", "seats off even", "mean spread", "score sd",
                           "rank", "mean score"], title=f"{players} players (even share {1 / players:.1%}):")
    print()
    print(textwrap.fill("win-share spread: the highest seat's win share less the lowest's (rank 1: the "
                        "most even); seats off even: those whose Wilson 95% interval leaves out the even "
                        "share; mean spread: the same for mean points; score sd: the spread of every "
                        "player's score (rank 1: the tightest); [low, high]: 95% interval", 100))
