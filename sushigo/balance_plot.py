"""``sushigo balance --plot FILE``: the picture of a balance report (the ``plot`` extra).

Left: the distribution of player scores under both rulesets (share of scores per point, the
same games). Middle: the points each card kind brought per card taken. Right: each seat's share
of the wins, named by the policy that played it. Intervals are 95%; in each pair of bars the
first ruleset's is the upper one, as in the legend. The title names the policies and seeds; a
note says why pudding brings 0 points per card where its bonus and penalty cancel
(:func:`pudding_note`). matplotlib is imported only here, with the Agg backend (no display needed)."""

from __future__ import annotations

import os
import textwrap
from collections import Counter
from typing import TYPE_CHECKING, Any

from sushigo.spec.errors import InputError
from sushigo.spec.files import replacing

if TYPE_CHECKING:
    from sushigo.spec.ruleset import Ruleset

SUFFIXES = (".png", ".svg")
INSTALL = "pip install 'sushigo-spec[plot]'"


def check_plot_target(path: str) -> None:
    """InputError unless ``path`` names a PNG or SVG file and matplotlib is installed."""
    suffix = os.path.splitext(path)[1].lower()
    if "\x00" in path:  # no command line holds one; a library call can
        raise InputError(f"--plot {path!r}: a file name holds no NUL character")
    if suffix not in SUFFIXES:
        raise InputError(f"--plot {path!r}: give a file name ending in .png or .svg")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise InputError(f"--plot needs matplotlib: {INSTALL}") from exc


def pudding_note(rules: Ruleset, players: int) -> str | None:
    """Why pudding's points per card are 0 (or next to it) under ``rules`` at ``players``
    players, or None where they are not. Points per card add up every player's points of a
    kind; pudding's are one bonus and one penalty shared out at the end of the game, and where
    the two are the same number they cancel across the table."""
    seats = rules.seats(players)
    bonus, penalty = rules.pudding_most_points, rules.pudding_fewest_penalty
    if not rules.pudding_penalty_applies(seats) or bonus != penalty:
        return None
    # a share of n among k tied players drops (or rounds off) a remainder when k does not divide n
    uneven = [k for k in range(2, seats) if bonus % k]
    except_when = (f", but for games where {uneven[0]} or more players tie and a share is rounded "
                   f"(a net of a point or two)" if uneven else "")
    return (f"pudding: at {players} players the most-pudding bonus and the fewest-pudding penalty are "
            f"both {bonus}, each shared among the players tied for it, so over the whole table they "
            f"cancel and pudding brings 0 points per card{except_when}: a pudding moves points from "
            "the fewest holders to the most, it adds none")


def draw(data: dict[str, Any], detail: Any, path: str) -> None:
    """Write the picture of report ``data`` (its sides' games in ``detail``) to ``path``."""
    check_plot_target(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [data["ruleset"]["rules"], data["vs"]["rules"]]
    colours = ["#d1495b", "#00798c"]
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(17, 6.2),
                                              gridspec_kw={"width_ratios": [1, 1.1, 0.9]})
    _scores(left, data, detail, names, colours)
    kinds = [k["kind"] for k in data["ruleset"]["kinds"]]
    per_card = [[row["points_per_card"] for row in data[key]["kinds"]] for key in ("ruleset", "vs")]
    _bars(middle, kinds, per_card, names, colours, 1.0)
    middle.axvline(0, color="black", linewidth=0.6)
    notes = {n for n in (pudding_note(r, data["players"]) for r in detail.rules) if n}
    if notes and "pudding" in kinds:  # an empty row needs its reason beside it
        middle.text(0.02, kinds.index("pudding"), "0: its bonus and penalty cancel (note below)",
                    fontsize=8, va="center", transform=middle.get_yaxis_transform())
    middle.set_xlabel("points per card taken (95% interval)")
    middle.set_title("what each card kind brought")
    seats = [r for r in data["ruleset"]["seats"] if r["win_share"] is not None]
    labels = [f"seat {r['seat']}: {r['policy']}" for r in seats]
    shares = [[{"value": r["win_share"], "ci95": r["win_share_ci95"]}
               for r in data[key]["seats"] if r["win_share"] is not None] for key in ("ruleset", "vs")]
    _bars(right, labels, shares, names, colours, 100.0)
    right.axvline(100 / len(seats), color="grey", linewidth=0.8, linestyle="--")
    highest = max((x for side in shares for est in side for x in (est["ci95"] or [est["value"]])), default=0)
    right.set_xlim(0, max(highest * 100, 100 / len(seats)) * 1.9)  # room for the legend
    right.set_xlabel("share of the wins, % (95% interval; dashed: an even share)")
    right.set_title("who won")
    players = ", ".join(f"{p} x{n}" if n > 1 else p for p, n in Counter(data["policies"]).items())
    fig.suptitle(f"{names[0]} vs {names[1]}: {data['games']} games of {data['players']} players "
                 f"(policies: {players}), seeds {data['first_seed']}.."
                 f"{data['first_seed'] + data['games'] - 1}")
    for note in sorted(notes):
        fig.text(0.01, 0.01, textwrap.fill(note, 190), fontsize=8, va="bottom")
    fig.tight_layout(rect=(0, 0.05 if notes else 0, 1, 0.95))
    kind = os.path.splitext(path)[1].lower()[1:]
    with replacing(path) as fh:  # a failed write leaves any picture that was there as it was
        fig.savefig(fh, format=kind, metadata={"Software": None} if kind == "png" else {"Date": None})
    plt.close(fig)


def _scores(ax: Any, data: dict[str, Any], detail: Any, names: list[str], colours: list[str]) -> None:
    """The distribution of player scores under both rulesets (share of scores per point)."""
    for side, name, colour in zip(detail.sides, names, colours, strict=True):
        scores = Counter(x for game in side.player_scores() for x in game)
        total = sum(scores.values())
        xs = range(min(scores), max(scores) + 1)
        ax.step(list(xs), [scores[x] / total for x in xs], where="mid", color=colour, label=name)
    ax.set_xlabel("player score (game total)")
    ax.set_ylabel("share of player scores")
    ax.set_title("score distribution")
    ax.legend()


def _bars(ax: Any, labels: list[str], sides: list[list[dict[str, Any]]], names: list[str],
          colours: list[str], scale: float) -> None:
    """Horizontal bars, one pair per label, with their 95% intervals. The first ruleset's bar is
    the upper one of each pair, as it is the first in the legend."""
    height = 0.38
    for i, (estimates, name, colour) in enumerate(zip(sides, names, colours, strict=True)):
        ys = [k + (i - 0.5) * height for k in range(len(labels))]  # inverted axis: i=0 on top
        values: list[float] = []
        errs: list[list[float]] = [[], []]
        for est in estimates:
            v = (est["value"] or 0.0) * scale
            lo, hi = [x * scale for x in est["ci95"]] if est["ci95"] else (v, v)
            values.append(v)
            errs[0].append(v - lo)
            errs[1].append(hi - v)
        ax.barh(ys, values, height=height, xerr=errs, color=colour, label=name, capsize=2)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.legend(loc="lower right")


def draw_party(data: dict[str, Any], detail: Any, path: str) -> None:
    """Write the picture of a Party report to ``path``: for one menu the panels of :func:`draw`
    (its reading sets side by side); for every suggested menu, per menu and player count the
    seat advantage (the spread of the seats' win shares) and the score spread."""
    check_plot_target(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = ["#d1495b", "#00798c"]
    last = data["first_seed"] + data["games"] - 1
    if "tables" in data:
        fig = _party_menus(plt, data, colours)
        fig.suptitle(f"Sushi Go Party! suggested menus: {data['games']} games each ({data['policy']}), seeds "
                     f"{data['first_seed']}..{last}; {data['rules']}")
    else:
        keys = ["ruleset"] + (["vs"] if data["vs"] is not None else [])
        names = [data[k]["rules"] for k in keys]
        fig, (left, middle, right) = plt.subplots(1, 3, figsize=(17, 6.2),
                                                  gridspec_kw={"width_ratios": [1, 1.1, 0.9]})
        colours = colours[: len(keys)]
        _scores(left, data, detail, names, colours)
        kinds = [k["kind"] for k in data["ruleset"]["kinds"]]
        _bars(middle, kinds, [[r["points_per_card"] for r in data[k]["kinds"]] for k in keys], names,
              colours, 1.0)
        middle.axvline(0, color="black", linewidth=0.6)
        middle.set_xlabel("points per card played (95% interval)")
        middle.set_title("what each card kind brought")
        labels = [f"seat {r['seat']}: {r['policy']}" for r in data["ruleset"]["seats"]]
        shares = [[{"value": r["win_share"], "ci95": r["win_share_ci95"]} for r in data[k]["seats"]]
                  for k in keys]
        _bars(right, labels, shares, names, colours, 100.0)
        right.axvline(100 / data["players"], color="grey", linewidth=0.8, linestyle="--")
        right.set_xlabel("share of the wins, % (95% Wilson interval; dashed: an even share)")
        right.set_title("who won")
        pol = ", ".join(f"{p} x{n}" if n > 1 else p for p, n in Counter(data["policies"]).items())
        fig.suptitle(f"menu {data['menu']}: {data['games']} games of {data['players']} players "
                     f"(policies: {pol}), seeds {data['first_seed']}..{last}")
        fig.tight_layout(rect=(0, 0, 1, 0.95))
    kind = os.path.splitext(path)[1].lower()[1:]
    with replacing(path) as fh:  # a failed write leaves any picture that was there as it was
        fig.savefig(fh, format=kind, metadata={"Software": None} if kind == "png" else {"Date": None})
    plt.close(fig)


def _party_menus(plt: Any, data: dict[str, Any], colours: list[str]) -> Any:
    """Per (menu, players): the seat advantage (win-share spread) and the score sd, side by side."""
    tables = sorted(data["tables"], key=lambda t: (t["players"], t["menu"]))
    labels = [f"{t['players']}p {t['menu']}" for t in tables]
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, max(6.0, 0.24 * len(tables) + 1.5)))
    spread = [{"value": t["advantage"]["win_share_spread"], "ci95": None} for t in tables]
    _bars(left, labels, [spread], ["win-share spread"], colours[:1], 100.0)
    left.set_xlabel("highest seat's win share less the lowest's, percentage points")
    left.set_title("seat advantage (lower: more even)")
    sd = [t["score"]["sd"] for t in tables]
    _bars(right, labels, [sd], ["score sd"], colours[1:], 1.0)
    right.set_xlabel("standard deviation of a player's score (95% interval)")
    right.set_title("score spread")
    for ax in (left, right):
        ax.get_legend().remove()
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig
