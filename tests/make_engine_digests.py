"""Record what the game engines gave before spec.step and spec.game.Game became one engine.

``python tests/make_engine_digests.py`` writes ``tests/engine_digests.json``: per named ruleset,
player count and driver, a SHA-256 of every game it played (the records of ``play_game``, each
position of ``spec.step`` and of ``Game`` driven by a seeded random policy, the options offered
at every decision, the error messages of illegal moves). It was run on main at the commit named
in the file, before the engines were merged; tests/test_engine_digests.py plays the same games
on today's code and requires the same digests, so the merged engine is held to the outputs of the
old code, not to itself. Re-running it on newer code proves nothing: keep the recorded file.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from sushigo.spec.errors import SushiGoError
from sushigo.spec.executor import fast_random_games, play_game, seeded_deals
from sushigo.spec.game import Game
from sushigo.spec.ruleset import RULESETS, get_ruleset
from sushigo.spec.step import deal, gift_options, new_game, options, play
from sushigo.spec.turns import Pick, Turn

SEEDS = range(12)
OUT = Path(__file__).with_name("engine_digests.json")


def player_counts(name: str) -> tuple[int, ...]:
    return (2,) if RULESETS[name].dummy_2p else (2, 3, 4, 5)


def digest(items: Iterable[object]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(repr(item).encode())
        h.update(b"\n")
    return h.hexdigest()


def records(name: str, players: int) -> Iterable[object]:
    rules = get_ruleset(name)
    for seed in SEEDS:
        for policies in (["random"], ["greedy"] + ["random"] * (players - 1)):
            yield json.dumps(play_game(players, seed, rules, policies).to_json(), sort_keys=True)


def _attempt(thunk: Callable[[], object]) -> str:
    try:
        thunk()
    except SushiGoError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "accepted"


def _bad_turns(hand: tuple[int, ...]) -> list[Turn]:
    missing = [c for c in range(len(hand)) if hand[c] == 0]
    held = [c for c in range(len(hand)) if hand[c] > 0]
    from sushigo.spec.cards import Card

    bad = [Turn(())]
    if missing:
        bad.append(Turn((Pick(Card(missing[0])),)))
    bad.append(Turn((Pick(Card(held[0])), Pick(Card(held[-1])))))
    bad.append(Turn((Pick(Card(held[0])),) * 3))
    return bad


def steps(name: str, players: int) -> Iterable[object]:
    """spec.step driven by a seeded random chooser on the executor's deals, every position."""
    rules = get_ruleset(name)
    for seed in SEEDS:
        rng = random.Random(seed)
        step = new_game(players, rules)
        for hands in seeded_deals(rules, players, seed):
            step = deal(step, hands)
            yield step
            while step.dealt:
                turns = []
                for s in range(players):
                    opts = options(step, s)
                    yield s, opts
                    turns.append(opts[int(rng.random() * len(opts))])
                gift = None
                if step.controller is not None:
                    gifts = gift_options(step, turns[step.controller])
                    yield "gift", gifts
                    gift = gifts[int(rng.random() * len(gifts))]
                if seed % 8 == 0 and step.turn == 1:
                    for bad in _bad_turns(step.hands[0]):
                        yield _attempt(lambda b=bad, st=step, ts=turns, g=gift: play(st, [b, *ts[1:]], g))
                step = play(step, turns, gift)
                yield step
        yield step.score()


def games(name: str, players: int) -> Iterable[object]:
    """spec.game.Game driven as an AI builder would, with its own seeded random chooser."""
    rules = get_ruleset(name)
    if rules.dummy_2p:
        yield _attempt(lambda: Game.new(players, 0, rules))
        return
    for seed in SEEDS:
        game = Game.new(players, seed, rules)
        rng = random.Random(game.policy_seed)
        yield game.policy_seed, game.dealt(0)
        while not game.over:
            actions = []
            for s in range(players):
                opts = game.legal_actions(s)
                # as plain tuples: the counts are what is recorded (hand() and tableau() return
                # tuple subclasses that print in the notation since the digests were made)
                yield s, opts, tuple(game.hand(s)), tuple(game.tableau(s))
                actions.append(opts[int(rng.random() * len(opts))])
            if seed % 8 == 0 and game.turn == 1:
                for bad in _bad_turns(game.hand(0)):
                    yield _attempt(lambda b=bad, gm=game, ts=actions: gm.apply([b, *ts[1:]]))
            if seed % 4 == 1:
                yield game.observation(players - 1)
            game = game.apply(actions)
            yield game.round_index, game.turn, game.puddings, game.scores()
        yield game.round_scores, game.round_tableaux, game.scores(), game.winners()


def batches(name: str, players: int) -> Iterable[object]:
    yield from fast_random_games(players, 1000, 120, get_ruleset(name), tableaux=True)


DRIVERS: dict[str, Callable[[str, int], Iterable[object]]] = {
    "play_game": records,
    "step": steps,
    "game": games,
    "fast_random_games": batches,
}


def compute() -> dict[str, str]:
    return {
        f"{driver} {name} {players}": digest(run(name, players))
        for driver, run in DRIVERS.items()
        for name in RULESETS
        for players in player_counts(name)
    }


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout
    data = {"commit": commit.strip(), "seeds": [SEEDS.start, SEEDS.stop], "digests": compute()}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(data['digests'])} digests to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
