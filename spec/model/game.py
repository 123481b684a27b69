"""A whole game as one Z3 model: deal, turns, round scores, puddings, winners.

:func:`build_game` returns a :class:`GameModel`: the :class:`~spec.model.core.Model`
(named variables and rule-tagged groups) plus handles on the parts. Nothing is
solved here; facts (a record, tableaux, scores) are added by
:mod:`spec.model.facts`.

Names (seats, rounds and turns count from 0): the turn model's
``p{i}_r{r}_t{t}_...`` (see :mod:`spec.model.turns`), the scoring model's
``r{r}_p{i}_total`` / ``r{r}_p{i}_maki_icons`` (aliased in ``m.terms`` as
``p{i}_r{r}_total``, ``p{i}_r{r}_maki_icons``, ``p{i}_r{r}_maki_points``...),
``p{i}_puddings``, ``game_p{i}_pudding``, ``p{i}_game_total`` and ``game_p{i}_wins``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3
from sushigo.spec.errors import RulesError
from sushigo.spec.model.core import Model
from sushigo.spec.model.deal import deck_constraints, pudding_carry
from sushigo.spec.model.rulevars import Rules, RuleVars
from sushigo.spec.model.scoring import pudding_terms, round_terms, winner_terms
from sushigo.spec.model.turns import RoundModel, build_round
from sushigo.spec.ruleset import OFFICIAL, Ruleset


@dataclass
class GameModel:
    model: Model
    rules: Ruleset
    players: int
    rounds: list[RoundModel] = field(default_factory=list)
    scores: list[list[dict[str, z3.ArithRef]]] = field(default_factory=list)  # [r][seat]
    puddings: list[z3.ArithRef] = field(default_factory=list)
    pudding: list[z3.ArithRef] | None = None  # pudding points, only when every round is modelled
    totals: list[z3.ArithRef] = field(default_factory=list)
    wins: list[z3.BoolRef] = field(default_factory=list)
    #: A template's rule inputs (:func:`build_template`); None when ``rules`` is written in.
    rule_vars: RuleVars | None = None

    @property
    def seats(self) -> int:
        return self.rules.seats(self.players)

    @property
    def complete(self) -> bool:
        return len(self.rounds) == self.rules.rounds


def build_game(rules: Ruleset = OFFICIAL, players: int = 4, rounds: int | None = None) -> GameModel:
    """The model of a game of ``players`` over ``rounds`` rounds (default: all of them).

    With fewer rounds than the ruleset plays, puddings are counted but not
    scored, and the totals are the round totals so far (as in spec.scoring.score_game).
    """
    return _build(rules, players, rounds, template=False)


def build_template(rules: Ruleset, players: int) -> GameModel:
    """The whole-game model of ``players`` for every ruleset of ``rules``' shape
    (:func:`spec.model.rulevars.shape_of`): each rule number and reading is an input variable
    (``gm.rule_vars``); with ``gm.rule_vars.facts(r)`` added it is ``build_game(r, players)``'s
    statement for any ruleset ``r`` of that shape."""
    return _build(rules, players, None, template=True)


def _build(rules: Ruleset, players: int, rounds: int | None, template: bool) -> GameModel:
    rules.hand_size(players)  # raises RulesError for a player count the rules do not allow
    n_rounds = rules.rounds if rounds is None else rounds
    if not 1 <= n_rounds <= rules.rounds:
        raise RulesError(f"a game has 1 to {rules.rounds} rounds, not {n_rounds}")
    m = Model()
    gm = GameModel(m, rules, players)
    read: Rules = rules
    if template:
        gm.rule_vars = RuleVars(m, rules)
        read = gm.rule_vars
    for r in range(n_rounds):
        rm = build_round(m, read, players, r)
        gm.rounds.append(rm)
        scores = round_terms(m, f"r{r}", rm.final, read)
        for i, d in enumerate(scores):
            for k, v in d.items():
                alias = {"icons": "maki_icons", "total": "total"}.get(k, f"{k}_points")
                m.terms[f"p{i}_r{r}_{alias}"] = v
        gm.scores.append(scores)
    deck_constraints(m, [rm.deal for rm in gm.rounds], read)
    seats = gm.seats
    gm.puddings = pudding_carry(m, [rm.final for rm in gm.rounds], seats)
    if gm.complete:
        gm.pudding = pudding_terms(m, "game", gm.puddings, read)
    for i in range(seats):
        tot = m.int(f"p{i}_game_total", None)
        parts = [sc[i]["total"] for sc in gm.scores]
        if gm.pudding is not None:
            parts.append(gm.pudding[i])
        m.add("R-GAME-TOTAL", tot == z3.Sum(parts), f"p{i}")
        gm.totals.append(tot)
    gm.wins = winner_terms(m, "game", gm.totals, gm.puddings, read, players)
    return gm
