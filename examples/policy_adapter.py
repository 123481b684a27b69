"""A complete policy adapter for ``sushigo evaluate``: a small hand-written Sushi Go player.

This file stands for *your* bot. It imports nothing from this project, so it can be copied as
a template: keep ``choose``'s signature and call your own code inside it.

    sushigo evaluate examples/policy_adapter.py

Protocol (docs/evaluate.md): ``choose(observation)`` receives a dict with ``hand`` (card names),
``tableaux`` (per seat, the tokens at the start of the turn: ``"wasabi+squid"`` is a squid on a
wasabi), ``puddings``, ``scores``, ``round``, ``turn``, ``players``, ``seat`` and ``options`` (the
legal turns, each a list of one or two card names); it returns one of ``options``.

The player: each turn is worth the points it banks now plus what its unfinished sets are likely
to bring before the round ends (a tempura alone counts half a pair when a partner may still
come, a wasabi the nigiri it may still hold, a pudding a share of the end-of-game race). Greedy
(``--policy greedy``) counts the points banked now only.
"""

from __future__ import annotations

NIGIRI = {"egg": 1, "salmon": 2, "squid": 3}
ICONS = {"maki1": 1, "maki2": 2, "maki3": 3}
DUMPLINGS = [0, 1, 3, 6, 10, 15]


def _chance(turns_left: int, needed: int) -> float:
    """A rough chance of finding ``needed`` more cards of a kind in ``turns_left`` more turns."""
    if turns_left < needed:
        return 0.0
    return min(1.0, 0.25 * (turns_left - needed + 1)) ** needed


def _place(mine: int, others: list[int], first: float, second: float) -> float:
    """Placement points of ``mine`` against the best of ``others`` (most first, runner-up second)."""
    top = max(others, default=0)
    if mine > top:
        return first
    if mine == top:
        return first / 2 if mine else 0.0
    return second if mine > 0 else 0.0


def _value(cards: list[str], mine: dict[str, int], left: int, rounds_left: int,
           race: dict[str, list[int]]) -> float:
    """What taking ``cards`` (in order) adds to a tableau holding ``mine``, ``left`` turns to go;
    ``race`` holds the other seats' maki icons and puddings."""
    have = dict(mine)
    value = 0.0
    icons = sum(n * have.get(m, 0) for m, n in ICONS.items())
    puddings = race["my_puddings"][0]
    for card in cards:
        n = have.get(card, 0)
        if card == "tempura":
            value += 5.0 if n % 2 else 2.5 * _chance(left, 1)
        elif card == "sashimi":
            value += 10.0 if n % 3 == 2 else (10 / 3) * _chance(left, 2 - n % 3)
        elif card == "dumpling":
            value += DUMPLINGS[min(n + 1, 5)] - DUMPLINGS[min(n, 5)]
        elif card in NIGIRI:
            if have.get("wasabi", 0):
                have["wasabi"] -= 1
                value += 3 * NIGIRI[card]
                continue
            value += NIGIRI[card]
        elif card == "wasabi":
            value += 4.0 * _chance(left, 1)
        elif card in ICONS:
            # The maki race against the table as it stands, and a little for the turns to come.
            now = _place(icons, race["maki"], 6, 3)
            icons += ICONS[card]
            value += _place(icons, race["maki"], 6, 3) - now + (0.3 * ICONS[card] if left > 2 else 0.0)
        elif card == "pudding":
            if rounds_left == 0:  # the pudding race is scored at the end of this round
                gain = _place(puddings + 1, race["puddings"], 6, 0) - _place(puddings, race["puddings"], 6, 0)
                value += gain
            else:
                value += 1.5
            puddings += 1
        elif card == "chopsticks":
            value += 1.0 if left > 4 else 0.0
        have[card] = n + 1
    if len(cards) == 2:
        value -= 1.0  # the chopsticks go back into the hand
    return value


def _tableau(tokens: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for token in tokens:
        card = token.split("+")[-1] if token.startswith("wasabi+") else token
        out[card] = out.get(card, 0) + 1  # a nigiri on a wasabi: the wasabi is used up
    return out


def _race(observation: dict, seat: int) -> dict[str, list[int]]:
    others = [t for s, t in enumerate(observation["tableaux"]) if s != seat]
    return {
        "maki": [sum(ICONS.get(c, 0) for c in t) for t in others],
        "puddings": [n for s, n in enumerate(observation["puddings"]) if s != seat],
        "my_puddings": [observation["puddings"][seat]],
    }


def choose(observation: dict) -> list[str]:
    seat, players = observation["seat"], observation["players"]
    mine = _tableau(observation["tableaux"][seat])
    left = len(observation["hand"]) - 1
    rounds_left = 3 - observation["round"]
    race = _race(observation, seat)
    # The hand goes on to the next seat: what it can take from what we leave counts against us
    # (fully with two players, where every point of theirs is one less of difference).
    after = (seat + 1) % players
    theirs, their_race = _tableau(observation["tableaux"][after]), _race(observation, after)
    denial = 1.0 if players == 2 else 0.5 / (players - 1)
    best = observation["options"][0]
    best_value = float("-inf")
    for option in observation["options"]:
        rest = list(observation["hand"])
        for card in option:
            rest.remove(card)
        if len(option) == 2:
            rest.append("chopsticks")
        gift = max((_value([c], theirs, left - 1, rounds_left, their_race) for c in set(rest)), default=0.0)
        v = _value(option, mine, left, rounds_left, race) - denial * gift
        if v > best_value:
            best, best_value = option, v
    return best
