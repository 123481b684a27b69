"""``sushigo.score``: score one round given as tableaux, or a score document of 1..3 rounds."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from sushigo.api.base import Outcome, Rule, load_input, public, rules_from_options, tagged
from sushigo.spec.document import (
    ScoreDocument,
    build_document,
    check_rounds,
    parse_tableau_args,
    read_document,
)
from sushigo.spec.errors import InputError
from sushigo.spec.scoring import score_game
from sushigo.spec.tableau import Tableau

FORMAT = "sushigo-score-result/1"

#: A score document (dict or path), or one round as one tableau per player (text or Tableau).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    ScoreInput = Mapping[str, Any] | str | os.PathLike[str] | Sequence[str | Tableau]
else:  # the same alias at run time, without typing's Any
    ScoreInput = Mapping[str, object] | str | os.PathLike[str] | Sequence[str | Tableau]


def _is_document(inputs: list[str]) -> bool:
    if len(inputs) != 1:
        return False
    only = inputs[0]
    if only == "-" or only.lower().endswith(".json") or os.path.exists(only):
        return True
    raise InputError(
        f"one tableau given ({only!r}); a round needs one tableau per player (2 to 5), "
        "or give a JSON score document (a file name or '-')"
    )


def load_document(input: ScoreInput, rules: str | None, rule: Rule) -> ScoreDocument:
    """The rounds to score and the rules: a document's own "rules" unless ``rules`` is given."""
    if isinstance(input, str | os.PathLike):
        input = [os.fspath(input)]
    if isinstance(input, Sequence):
        texts = [str(t) for t in input]
        if not _is_document(texts):
            ruleset = rules_from_options(rules, rule)
            tableaux = parse_tableau_args(texts)
            players = check_rounds([tableaux], ruleset)
            return ScoreDocument(ruleset, (tableaux,), players)
        input = texts[0]
    data, _where = load_input(input, schema="score-document")
    raw = read_document(data)
    return build_document(raw, rules_from_options(rules, rule, raw.rules))


def score_outcome(input: ScoreInput, *, rules: str | None = None, rule: Rule = None, game: str = "base",
                  menu: str | None = None) -> Outcome:
    """Score a round (a list of tableaux, one per player: ``["tempura*2", "sashimi*3"]``) or a
    score document (``{"rules": ..., "rounds": [[...], ...]}`` or its path). ``rules`` names the
    ruleset (default: the document's own, else official); ``rule`` overrides parameters.
    Returns what ``sushigo score --json`` prints: per round and seat the points by category,
    pudding points once every round is given, totals and winners.

    ``game="party"`` scores Sushi Go Party! (docs/party.md): ``menu`` names the menu (a suggested
    menu or KIND,KIND,...; a document's own "menu" otherwise), ``rule`` chooses readings
    (``["edamame_cap=round"]``), and the tableaux use Party's card names."""
    if game == "party":
        return _party_outcome(input, rules, rule, menu)
    if game != "base":
        raise InputError(f"game {game!r}: give 'base' (Sushi Go!, the default) or 'party' (Sushi Go Party!)")
    if menu is not None:
        raise InputError("--menu is a Sushi Go Party! menu: add --game party")
    doc = load_document(input, rules, rule)
    result = score_game(doc.rounds, doc.rules, doc.players)
    return Outcome(tagged(FORMAT, result.as_json()), 0, (doc, result))


def _party_outcome(input: ScoreInput, rules: str | None, rule: Rule, menu: str | None) -> Outcome:
    from sushigo.api.base import as_list
    from sushigo.spec.party.document import read_party_document, score_party_tableaux

    if rules is not None:
        raise InputError("--rules names a base-game ruleset; with --game party choose readings with "
                         "--rule NAME=VALUE (sushigo rules --game party)")
    assignments = ([f"{k}={v}" for k, v in rule.items()] if isinstance(rule, Mapping)
                   else [str(a) for a in as_list(rule)])
    if isinstance(input, str | os.PathLike):
        input = [os.fspath(input)]
    if isinstance(input, Sequence) and not (len(input) == 1 and _is_party_document(str(input[0]))):
        if menu is None:
            raise InputError("a Party round needs its menu: --menu NAME or --menu KIND,KIND,... "
                             "(sushigo rules --game party lists the menus)")
        game = score_party_tableaux([str(t) for t in input], menu, assignments)
    else:
        data, _where = load_input(input[0] if isinstance(input, Sequence) else input,
                                  schema="party-score-document")
        game = read_party_document(data, menu, assignments)
    return Outcome(game.as_json(), 0, game)


def _is_party_document(text: str) -> bool:
    return text == "-" or text.lower().endswith(".json") or os.path.exists(text)


score = public(score_outcome, "score")
