"""Fingerprints of Party games' output, to show a change to the executor or the scorer leaves
every result as it was: the same seed, the same bytes.

For each table (the suggested menus at every player count they allow, under both policies; a
few menus of chosen kinds; every non-default reading on some of those) it plays seeded games
through :func:`sushigo.api.party_play.play_party_outcome` (what ``sushigo play --game party``
runs) and hashes the ``--json`` summary, every game's record (what ``--record`` writes), and the
final tableaux, events and round scores behind them. A table the rules refuse hashes its one
error line. Run it on two checkouts and compare::

    python -m benchmarks.party_bytes --games 40 > after.txt   # and before.txt on the other
    diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json

from sushigo.spec.errors import SushiGoError
from sushigo.spec.party.menus import SUGGESTED, parse_menu
from sushigo.spec.party.readings import READINGS

from sushigo.api.party_play import play_party_outcome

#: Menus of chosen kinds, between them every kind that acts during a turn.
CHOSEN = ("uramaki,onigiri,tofu,miso,menu,special-order,pudding",
          "maki,tempura,sashimi,miso,takeout,chopsticks,fruit",
          "temaki,eel,edamame,tofu,soy-sauce,special-order,green-tea-ice-cream",
          "uramaki,tempura,eel,miso,takeout,wasabi,pudding",
          "maki,tempura,eel,miso,chopsticks,spoon,fruit",
          "uramaki,dumpling,eel,miso,takeout,special-order,pudding",
          "temaki,onigiri,tofu,miso,menu,spoon,fruit")


def fingerprint(menu: str, players: int, seed: int, games: int, policy: str = "random",
                rule: tuple[str, ...] = ()) -> str:
    try:
        out = play_party_outcome(menu=menu, players=players, seed=seed, games=games, policy=(policy,),
                                 rule=rule)
    except SushiGoError as exc:
        return f"refused: {exc}"
    h = hashlib.sha256(json.dumps(out.data).encode())
    for record in out.detail:
        h.update(json.dumps(record.as_json()).encode())
        h.update(repr([(t.events, t.tableaux, t.score) for t in record.scored]).encode())
    return h.hexdigest()[:16]


def tables(games: int) -> list[tuple[str, str, int, int, int, str, tuple[str, ...]]]:
    out = []
    for i, name in enumerate(SUGGESTED):
        for n in parse_menu(name).seats():
            out.append((f"{name}/{n}/random", name, n, 7 * i + n, games, "random", ()))
            out.append((f"{name}/{n}/first", name, n, 7 * i + n, 3, "first", ()))
    for menu in CHOSEN:
        out += [(f"{menu}/{n}", menu, n, n, games, "random", ()) for n in (2, 4, 6)]
    for reading in READINGS:
        if reading.name == "uramaki_split":
            continue
        for value, _who in reading.support:
            if value != reading.default:
                out += [(f"{reading.name}={value}/{menu}/{n}", menu, n, 3 + n, max(2, games // 8), "random",
                         (f"{reading.name}={value}",))
                        for menu in ("dinner-for-two", *CHOSEN) for n in (2, 5)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games a table (readings: an eighth)")
    args = parser.parse_args()
    for key, menu, players, seed, games, policy, rule in tables(args.games):
        print(key, fingerprint(menu, players, seed, games, policy, rule))


if __name__ == "__main__":
    main()
