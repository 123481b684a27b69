"""``sushigo balance --plot FILE``: the picture of a balance report (the ``plot`` extra).

Left: the distribution of player scores under both rulesets (share of scores per point, the
same games). Right: the points each card kind brought per card taken, with 95% intervals.
matplotlib is imported only here, with the Agg backend (no display needed)."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.files import replacing

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


def draw(data: dict[str, Any], detail: Any, path: str) -> None:
    """Write the picture of report ``data`` (its sides' games in ``detail``) to ``path``."""
    check_plot_target(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [data["ruleset"]["rules"], data["vs"]["rules"]]
    colours = ["#d1495b", "#00798c"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.5), gridspec_kw={"width_ratios": [1, 1.1]})
    for side, name, colour in zip(detail.sides, names, colours, strict=True):
        scores = Counter(x for game in side.player_scores() for x in game)
        total = sum(scores.values())
        xs = range(min(scores), max(scores) + 1)
        left.step(list(xs), [scores[x] / total for x in xs], where="mid", color=colour, label=name)
    left.set_xlabel("player score (game total)")
    left.set_ylabel("share of player scores")
    left.set_title(f"score distribution, {data['games']} games of {data['players']} players")
    left.legend()
    kinds = [k["kind"] for k in data["ruleset"]["kinds"]]
    height = 0.38
    for i, (key, name, colour) in enumerate(zip(("ruleset", "vs"), names, colours, strict=True)):
        ys = [k + (0.5 - i) * height for k in range(len(kinds))]
        values: list[float] = []
        errs: list[list[float]] = [[], []]
        for row in data[key]["kinds"]:
            est = row["points_per_card"]
            v = est["value"] or 0.0
            values.append(v)
            lo, hi = est["ci95"] or (v, v)
            errs[0].append(v - lo)
            errs[1].append(hi - v)
        right.barh(ys, values, height=height, xerr=errs, color=colour, label=name, capsize=2)
    right.set_yticks(range(len(kinds)), kinds)
    right.invert_yaxis()
    right.axvline(0, color="black", linewidth=0.6)
    right.set_xlabel("points per card taken (95% interval)")
    right.set_title("what each card kind brought")
    right.legend(loc="lower right")
    fig.tight_layout()
    kind = os.path.splitext(path)[1].lower()[1:]
    with replacing(path) as fh:  # a failed write leaves any picture that was there as it was
        fig.savefig(fh, format=kind, metadata={"Software": None} if kind == "png" else {"Date": None})
    plt.close(fig)
