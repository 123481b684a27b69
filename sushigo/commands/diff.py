"""``sushigo diff``: where two rulesets disagree (the smallest witness), or the proof they agree."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sushigo.common import add_jobs_args, add_json_arg, budget_count, budget_seconds, print_json, print_table

if TYPE_CHECKING:
    from sushigo.solver.diff import DiffResult, GameDiff, MatrixCell, Witness
    from sushigo.solver.diff.party import PartyDiff
    from sushigo.spec.ruleset import Ruleset

ORDER = 70
HELP = "smallest situation where two rulesets disagree, or the proof that they agree"

_EPILOG = """\
examples:
  sushigo diff official french                     # smallest witness, side by side
  sushigo diff official official --rule-b maki_first_tie=each
  sushigo diff official slovenian --all            # one witness per differing reading
  sushigo diff official english                    # proved equivalent (z3 unsat) up to the bound
  sushigo diff official pudding-penalty-2p --players 3
  sushigo diff --matrix                            # every pair of named rulesets
  sushigo diff official pass-both-ways --game game.json   # does it matter for our game?
  sushigo diff --game party defaults edamame_cap=round     # Sushi Go Party! readings
  sushigo diff --game party defaults takeout_stack=together --menu master-menu
situations: a table (one tableau per seat), one seat's turns (wasabi readings), or a deal
(passing); 'cards' counts the cards of the situation. Exit: 0 answered, 1 unknown within the
budget, 2 bad input. Details: docs/diff.md
"""


def register(subparsers: Any) -> None:
    from sushigo.api.diff import DEFAULT_TIMEOUT

    parser = subparsers.add_parser(
        "diff",
        help=HELP,
        description="Find the smallest situation (fewest players, then fewest cards) where rulesets A "
        "and B give different round scores, game scores or winners, or prove with the solver that "
        "none exists for 2..5 players and the game's hand sizes.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", nargs="?", metavar="A",
                        help="named ruleset A (see 'sushigo rules'), or FILE.toml")
    parser.add_argument("b", nargs="?", metavar="B", help="named ruleset B or rules file FILE.toml")
    parser.add_argument("--rule-a", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule parameter of A (repeatable)")
    parser.add_argument("--rule-b", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule parameter of B (repeatable)")
    parser.add_argument("--all", action="store_true", help="one witness per differing reading")
    parser.add_argument("--matrix", action="store_true",
                        help="every pair of named rulesets: differ or not, smallest witness size")
    parser.add_argument("--game", metavar="RECORD",
                        help="a game record (JSON, or '-'): do its scores or winner change? 'party' compares "
                        "Sushi Go Party! readings instead: A and B are each 'defaults' or NAME=VALUE[,...] "
                        "(docs/party.md); 'base' is the base game (the default)")
    parser.add_argument("--menu", default=None, metavar="MENU",
                        help="with --game party: only this menu (a suggested menu's name or KIND,KIND,...; "
                        "default: every menu that holds the cards)")
    parser.add_argument("--max-cards", type=int, default=None, metavar="N",
                        help="with --game party: search rounds of at most N cards (default 7); past it "
                        "'unknown'")
    parser.add_argument("--players", type=int, action="append", metavar="N",
                        help="only these player counts (repeatable; default 2..5)")
    parser.add_argument("--timeout", type=budget_seconds, default=None, metavar="SECONDS",
                        help=f"z3 budget per query (default {DEFAULT_TIMEOUT:g}); past it the answer is "
                        "'unknown'")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="z3 resource limit per query (machine-independent budget); past it 'unknown'")
    parser.add_argument("--no-extend", action="store_true",
                        help="skip extending a table witness to a full legal game")
    add_jobs_args(parser, "with --matrix: local worker processes (default 1)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.diff import DEFAULT_TIMEOUT, diff_outcome
    from sushigo.spec.errors import InputError

    if args.game == "party" and args.timeout is not None:
        raise InputError("--timeout is a z3 budget of the base game's diff; --game party searches rounds "
                         "up to --max-cards")
    out = diff_outcome(args.a, args.b, rule_a=list(args.rule_a), rule_b=list(args.rule_b), all=args.all,
                       matrix=args.matrix, game=args.game, players=args.players,
                       timeout=DEFAULT_TIMEOUT if args.timeout is None else args.timeout,
                       rlimit=args.rlimit, no_extend=args.no_extend,
                       progress=args.matrix and sys.stderr.isatty() and not args.json,
                       jobs=args.jobs, cluster=args.cluster, menu=args.menu, max_cards=args.max_cards)
    if args.json:
        print_json(out.data)
    elif args.matrix:
        _print_matrix(*out.detail)
    elif args.game == "party":
        _print_party(out.detail)
    elif args.game and args.game != "base":
        _print_game(out.detail)
    else:
        _print_result(out.detail, args.all)
    return out.code


def _counts(counts: list[int]) -> str:
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}"
    return ", ".join(str(c) for c in counts)


def _print_result(res: DiffResult, show_all: bool) -> None:
    from sushigo.solver.diff import describe_parameters

    a, b = res.a.name, res.b.name
    params = describe_parameters(res.a, res.b)
    from sushigo.spec.ruleset import NUMBER_BY_NAME as _NUMBERS

    if params and any(p[0] in _NUMBERS for p in params):
        # rule numbers differ too: the table lists parameters, not only readings
        print_table([list(p) for p in params], ["parameter", "rule id", a, b],
                    title="differing readings and rule numbers:")
    elif params:
        print_table([list(p) for p in params], ["reading", "rule id", a, b], title="differing readings:")
    else:
        print(f"{a} and {b} have the same readings and rule numbers.")
    print()
    if res.status == "differ":
        ws = res.witnesses if show_all else (res.witness,)
        print(f"{a} and {b} DIFFER.")
        if res.reason:
            print(f"note: {res.reason}")
        for k, w in enumerate(ws):
            if w is None:
                continue
            head = "smallest witness" if not show_all else f"witness {k + 1}/{len(ws)}"
            print()
            _print_witness(w, res.a, res.b, head)
        for name, proofs in res.no_effect:
            print()
            print(f"{name}: no witness on its own (it changes nothing here):")
            for p in proofs:
                print(f"  {p}")
    elif res.status == "not-applicable":
        print(f"NOT COMPARED: {res.reason}")
        for p in res.proofs:
            print(f"  {p}")
    elif res.status == "equivalent":
        counts = sorted({p.players for p in res.proofs})
        print(f"{a} and {b} are PROVED EQUIVALENT for {_counts(counts)} players (every table within "
              "the hand sizes and the deck):")
        for p in res.proofs:
            print(f"  {p}")
    else:
        print(f"UNKNOWN: {res.reason}")
        for p in res.proofs:
            print(f"  {p}")


def _print_witness(w: Witness, rules_a: Ruleset, rules_b: Ruleset, head: str) -> None:
    from sushigo.solver.diff.parameters import parameter
    from sushigo.spec.model.catalogue import rule_statement

    a, b = rules_a.name, rules_b.name
    print(f"{head}: {w.summary}")
    rows = [[r.label, r.a, r.b, "*" if r.differs else ""] for r in w.rows]
    print_table(rows, ["", a, b, "differs"])
    causes = ", ".join(w.causes) or "(the differing parameters together)"
    print(f"cause: {causes}; rule ids: {', '.join(w.rule_ids)}")
    for name in w.causes:
        # Each side's statement in its own numbers: a rule number that differs reads differently.
        rid = parameter(name).rule_id
        text_a, text_b = rule_statement(rid, rules_a), rule_statement(rid, rules_b)
        if text_a == text_b and text_a:
            print(f"  {rid}: {text_a}")
        elif text_a or text_b:
            print(f"  {rid} under {a}: {text_a}")
            print(f"  {rid} under {b}: {text_b}")
    if w.minimality:
        print("minimal:")
        for p in w.minimality:
            print(f"  {p}")
    else:
        print("minimal: no situation has fewer cards")
    ext = w.extension
    if ext is not None and w.kind == "picks" and ext.get("status") == "found":
        turns = " | ".join(" ".join(t) for t in ext["script"])
        print(f"in a full 2-player round (seat 0 plays {turns} first, fillers after; "
              "replayed by the executor):")
        for side in ext["sides"]:
            if side["legal"]:
                print(f"  {side['rules']}: seat 0 ends with {side['tableau']}, round score {side['score']}")
            else:
                print(f"  {side['rules']}: not legal: {side['error']}")
    elif ext is not None:
        if ext.get("status") == "found":
            print("in a full game (every tableau a full hand, one deck; round 1 holds the witness):")
            for k, rd in enumerate(ext["rounds"]):
                print(f"  round {k + 1}: " + " | ".join(rd))
            for side in ext["scores"]:
                win = " ".join(f"p{x}" for x in side["winners"]) or "nobody"
                print(f"  {side['rules']}: totals {side['totals']}, winners {win}")
            if ext.get("note"):
                print(f"  note: {ext['note']}")
        else:
            print(f"full game: {ext.get('status')} ({ext.get('reason')})")


def _print_party(res: PartyDiff) -> None:
    import json

    a, b = res.a.describe(), res.b.describe()
    from sushigo.solver.diff.party import differing

    names = differing(res.a, res.b)
    if names:
        print_table([[n, str(getattr(res.a, n)), str(getattr(res.b, n))] for n in names],
                    ["reading", "A", "B"], title="differing readings:")
    else:
        print(f"A and B are the same readings: {a}.")
    print()
    w = res.witness
    if res.status == "differ" and w is not None:
        c = w.case
        print(f"A ({a}) and B ({b}) DIFFER.")
        print()
        print(f"smallest witness: {c.cards} cards, {c.players} players, {len(c.turns)} turns, menu {c.menu}")
        print_table([[f"turn {k + 1}", *t] for k, t in enumerate(c.turns)],
                    ["", *(f"player {s}" for s in range(c.players))])
        print_table([[r[0], r[1], r[2], "*" if r[3] else ""] for r in w.rows], ["", "A", "B", "differs"])
        if w.categories:
            print(f"categories: {', '.join(w.categories)}; rule ids: {', '.join(w.rule_ids)}")
        print(f"cause: {', '.join(w.causes) or '(the differing readings together)'}")
        if res.scope is not None:
            print(f"minimal: the same scores under both in {res.scope}")
        print(f"as a score document (sushigo score --game party FILE, under B): "
              f"{json.dumps(c.document(res.b))}")
    elif res.status == "equivalent":
        print(f"A and B AGREE on every round: {res.reason}")
    else:
        print(f"UNKNOWN: {res.reason}")


def _print_game(gd: GameDiff) -> None:
    a, b = gd.a, gd.b
    for side in (a, b):
        if not side.legal:
            print(f"the record is NOT LEGAL under {side.rules.name}: {side.error}")
    if not gd.comparable:
        return
    rows = []
    for k, (ra, rb) in enumerate(zip(a.rounds, b.rounds, strict=True)):
        for s, (x, y) in enumerate(zip(ra, rb, strict=True)):
            rows.append([f"round {k + 1} p{s}", x, y, "*" if x != y else ""])
    if a.pudding is not None and b.pudding is not None:
        for s, (x, y) in enumerate(zip(a.pudding, b.pudding, strict=True)):
            rows.append([f"pudding p{s}", x, y, "*" if x != y else ""])
    for s, (x, y) in enumerate(zip(a.totals, b.totals, strict=True)):
        rows.append([f"total p{s}", x, y, "*" if x != y else ""])
    wa = " ".join(f"p{x}" for x in a.winners) or "nobody"
    wb = " ".join(f"p{x}" for x in b.winners) or "nobody"
    rows.append(["winners", wa, wb, "*" if wa != wb else ""])
    print_table([[str(c) for c in r] for r in rows], ["", a.rules.name, b.rules.name, "differs"])
    print(f"scores change: {'yes' if gd.scores_change else 'no'}; "
          f"winner changes: {'yes' if gd.winner_changes else 'no'}")


def _print_matrix(names: list[str], cells: list[MatrixCell]) -> None:
    by = {(c.a, c.b): c for c in cells}
    rows = []
    for x in names:
        row = [x]
        for y in names:
            if x == y:
                row.append("")
                continue
            c = by.get((x, y)) or by[(y, x)]
            row.append(c.short())
        rows.append(row)
    headers = [""] + [f"{k}" for k in range(len(names))]
    rows = [[f"{k} {r[0]}", *r[1:]] for k, r in enumerate(rows)]
    print_table(rows, headers)
    print("cell: '=' proved equivalent (z3 unsat up to the bound), 'Np/Mc' smallest witness has "
          "N players and M cards, '?' unknown within the budget")
