"""A witness extended to a full legal game or round, as a record the executor replays."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import z3
from sushigo.solver.diff.parameters import DEFAULT_TIMEOUT_MS
from sushigo.solver.diff.picks import _pick_variants
from sushigo.solver.diff.table_search import _build_table_query, _tableaux_from
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.record import record_document, record_from_tableaux
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import score_game, score_round
from sushigo.spec.tableau import Tableau, format_tableau
from sushigo.spec.turns import Pick, apply_turn, hand_counts


def extend_to_game(
    tableaux: Sequence[Tableau], rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]],
    players: int, timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int | None = None,
) -> dict[str, Any]:
    """A full legal game (exact hand sizes, one deck) whose first round contains the witness table and
    where the rulesets still differ. Verified with :func:`spec.scoring.score_game`."""
    base = rulesets[0]
    q = _build_table_query(rulesets, pairs, players, rounds=base.rounds, full=True)
    s = q.model.solver(timeout_ms=timeout_ms, rlimit=rlimit)
    assert isinstance(s, z3.Solver)
    for i, t in enumerate(tableaux):
        for tok in Token:
            s.add(q.model.vars[f"t0_s{i}_{_TOKEN_VAR[tok]}"] >= t.counts[int(tok)])
    r = decide(s, Budget.kept()).status  # built with timeout_ms and rlimit
    if r != "sat":
        return {"status": "unknown" if r == "unknown" else "impossible",
                "reason": s.reason_unknown() if r == "unknown" else
                "no full game keeps the difference with this table in round 1"}
    model = s.model()
    seats = q.seats
    game = [
        _tableaux_from(model, [[model.eval(q.model.vars[f"t{k}_s{i}_{n}"], model_completion=True)
                                for n in _TOKEN_VAR.values()] for i in range(seats)])
        for k in range(base.rounds)
    ]
    scored = []
    for rules in rulesets[:2]:
        n = rules.seats(players)
        g = score_game([rd[:n] for rd in game], rules, players)
        scored.append({"rules": rules.name, "totals": list(g.totals), "winners": list(g.winners),
                       "rounds": [[s_.total for s_ in rd] for rd in g.rounds],
                       "pudding": list(g.pudding) if g.pudding is not None else None})
    out: dict[str, Any] = {"status": "found", "rounds": [[format_tableau(t) for t in rd] for rd in game],
                           "scores": scored}
    sizes = {r.hand_size(players) for r in rulesets[:2]}
    if len(sizes) > 1:
        legal = [r.name for r in rulesets[:2] if r.hand_size(players) == min(sizes)]
        out["note"] = (f"hands of {min(sizes)} cards: a full round under {', '.join(legal)} only "
                       "(the rulesets deal different hand sizes)")
    # the same game as a record ('sushigo diff A B --game' or the executor replays it), dealt
    # by a ruleset whose hand sizes it fits
    dealer = next((r for r in rulesets[:2] if r.hand_size(players) == min(sizes)), base)
    out["record"] = record_from_tableaux([rd[:dealer.seats(players)] for rd in game], dealer, players)
    return out


_TOKEN_VAR: dict[Token, str] = {t: t.label.replace("+", "_") for t in Token}


def _run_script(script: Sequence[tuple[Pick, ...]], rules: Ruleset) -> tuple[int, ...] | None:
    """The seat's tableau after the script (explicit picks), or None if a turn is illegal."""
    tab = [0] * len(Token)
    for turn in script:
        hand = hand_counts([p.card for p in turn])
        try:
            apply_turn(hand, tab, turn, rules)
        except ValueError:
            return None
    return tuple(tab)


def distinguishing_script(
    seq: Sequence[Sequence[Card]], a: Ruleset, b: Ruleset
) -> list[tuple[Pick, ...]] | None:
    """Explicit picks (wasabi choices spelled out) for the turns that land differently under a and b.

    Preferred: legal under both and scoring differently; else legal under one only.
    """
    one_sided: list[tuple[Pick, ...]] | None = None
    for choice in itertools.product(*[itertools.product(*[_pick_variants(c) for c in t]) for t in seq]):
        script = [tuple(t) for t in choice]
        ta, tb = _run_script(script, a), _run_script(script, b)
        if ta is None and tb is None:
            continue
        if ta is not None and tb is not None:
            sa = score_round([Tableau(ta)], a)[0].total
            sb = score_round([Tableau(tb)], b)[0].total
            if sa != sb:
                return script
        elif one_sided is None:
            one_sided = script
    return one_sided


def seat_round_record(script: Sequence[tuple[Pick, ...]], rules: Ruleset, players: int = 2) -> dict[str, Any]:
    """A one-round record where seat 0 plays ``script`` first and everything else is filler.

    Seat 0 holds the hand dealt to seat ``-offset * t`` at turn ``t``; the script's cards of
    turn t are dealt into that hand, every other card is a filler (tempura, then sashimi,
    then dumpling) that every seat takes first, so the script's cards wait for seat 0.
    """
    size = rules.hand_size(players)
    d = rules.pass_offset(0)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for t, turn in enumerate(script):
        hands[(-d * t) % players].extend(p.card for p in turn)
    fill = [c for c in (Card.TEMPURA, Card.SASHIMI, Card.DUMPLING) for _ in range(rules.copies(c))]
    for h in hands:
        while len(h) < size:
            h.append(fill.pop(0))
    cur = [hand_counts(h) for h in hands]
    tabs = [[0] * len(Token) for _ in range(players)]
    order = (Card.TEMPURA, Card.SASHIMI, Card.DUMPLING, *Card)
    turns = []
    for t in range(size):
        step = []
        for s in range(players):
            if s == 0 and t < len(script):
                turn = tuple(script[t])
            else:
                turn = (Pick(next(c for c in order if cur[s][int(c)] > 0)),)
            apply_turn(cur[s], tabs[s], turn, rules)
            step.append([str(p) for p in turn])
        turns.append(step)
        cur = [cur[(s - d) % players] for s in range(players)]
    final = [Tableau(tuple(t)) for t in tabs]
    return record_document([{"hands": [[c.label for c in h] for h in hands], "turns": turns}], [final],
                           rules, players)


def extend_picks(seq: Sequence[Sequence[Card]], a: Ruleset, b: Ruleset) -> dict[str, Any]:
    """The witness turns as seat 0's first turns of a full 2-player round, replayed by the executor."""
    script = distinguishing_script(seq, a, b)
    if script is None:
        return {"status": "impossible", "reason": "no explicit picks land differently"}
    legal_under = a if _run_script(script, a) is not None else b
    record = seat_round_record(script, legal_under)
    out: dict[str, Any] = {"status": "found", "script": [[str(p) for p in t] for t in script],
                           "record": record, "sides": []}
    from sushigo.spec import executor

    for rules in (a, b):
        res = executor.replay(record, rules)
        if res.record is None:
            out["sides"].append({"rules": rules.name, "legal": False, "error": res.error})
        else:
            rnd = res.record.rounds[0]
            out["sides"].append({"rules": rules.name, "legal": True,
                                 "tableau": format_tableau(rnd.tableaux[0]), "score": rnd.scores[0]})
    return out
