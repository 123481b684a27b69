"""``sushigo rules``: every contested reading, its value in each named ruleset, the texts
behind each reading, the rule numbers, and (``--catalogue``) which model constraints encode
which rule."""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING, Any

from sushigo.common import add_game_args, add_json_arg, add_rules_args, print_json, print_table

if TYPE_CHECKING:
    from sushigo.spec.ruleset import Ruleset

ORDER = 10
HELP = "the rule parameters, their value in each named ruleset, and the texts behind them"

_EPILOG = """\
examples:
  sushigo rules                         # the rule texts side by side, variants, supporting texts
  sushigo rules official dutch          # just these rulesets, every parameter
  sushigo rules --all                   # every named ruleset as a column
  sushigo rules --catalogue --players 3 # rule ids and the model constraints encoding each
  sushigo rules --export official > mine.toml  # a rules file to edit (or: extends = "official")
  sushigo rules mine.toml               # a rules file beside official, changes marked (--vs NAME)
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules",
        help=HELP,
        description="Print every contested rule parameter, its value in each named ruleset, which "
        "rule text supports which reading, and the rule numbers. With --catalogue, the rule ids "
        "and how many constraints of the Z3 model encode each.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "rulesets", nargs="*", metavar="RULESET", help="show only these named rulesets (columns)"
    )
    parser.add_argument("--all", action="store_true", help="every named ruleset as a column")
    parser.add_argument(
        "--catalogue", action="store_true", help="the rule catalogue: rule ids and their constraints"
    )
    parser.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="player count for the constraint counts of --catalogue (default 4; dummy-2p uses 2); "
        "with --game party --menu, the game's hand size and desserts (the menu must allow N)",
    )
    add_game_args(parser, "its menu tiles, suggested menus, numbers, kinds and readings (--rule "
                  "NAME=VALUE)", "shows its deck")
    parser.add_argument(
        "--export", metavar="RULESET", default=None,
        help="print RULESET (a name or a rules file; --rule applies) as a commented TOML rules file",
    )
    parser.add_argument(
        "--vs", metavar="RULESET", default=None,
        help="show the rulesets key by key beside this one, changes marked (default for a rules "
        "file: official)",
    )
    add_rules_args(parser, default=None)
    add_json_arg(parser)
    parser.set_defaults(func=run)


def _fmt_number(name: str, value: Any) -> str:
    from sushigo.spec.cards import Card
    from sushigo.spec.ruleset import format_value

    if name == "deck":
        counts = ", ".join(f"{c.label} {n}" for c, n in zip(Card, value, strict=True))
        return f"{counts} (total {sum(value)})"
    if name == "hand_sizes":
        return ", ".join(f"{n} players {size}" for n, size in value)
    if name == "dumpling_points":
        last = len(value) - 1
        return (", ".join(str(v) for v in value[1:]) + f" for 1..{last} dumplings; "
                f"{value[-1]} for more")
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return format_value(value)


def _users(param: str, value: Any) -> str:
    """The named rulesets reading ``param`` as ``value`` (variants only where they change it)."""
    from sushigo.api.rules import TEXT_RULESETS
    from sushigo.spec.ruleset import OFFICIAL, RULESETS, SINGLE_READING_VARIANTS

    users = [n for n in TEXT_RULESETS if getattr(RULESETS[n], param) == value]
    if value == getattr(OFFICIAL, param):
        return ", ".join(users) + " and every variant that does not change it"
    users += [
        n for n in SINGLE_READING_VARIANTS if n not in users and getattr(RULESETS[n], param) == value
    ]
    return ", ".join(users) if users else "none"


def _metadata(p: Any) -> str:
    """A parameter's rule ids, what it acts on, what conform sees of it and the check exercising it."""
    seen = {"round": "conform observes it in round scores", "pudding": "conform observes it in pudding "
            "points", "none": "conform cannot observe it"}[str(p.observability)]
    return (f"rule ids {', '.join(p.rule_ids)}; acts on {p.effect}; {seen}; exercised by "
            f"sushigo check --only {p.check_family}")


def _print_readings(chosen: list[Ruleset], default_view: bool) -> None:
    from sushigo.api.rules import numbers
    from sushigo.spec.ruleset import OFFICIAL, PARAMETERS, RULESETS, SINGLE_READING_VARIANTS, format_value

    rows = [[p.name, *(format_value(getattr(r, p.name)) for r in chosen)] for p in PARAMETERS]
    title = "contested readings by ruleset"
    if default_view:
        title += " (the rule texts; variants below; all: sushigo rules --all)"
    print_table(rows, ["parameter", *(r.name for r in chosen)], title=title)
    if default_view:
        print()
        vrows = []
        for name in SINGLE_READING_VARIANTS:
            rules = RULESETS[name]
            diffs = [
                f"{p.name}={format_value(getattr(rules, p.name))}"
                for p in PARAMETERS
                if getattr(rules, p.name) != getattr(OFFICIAL, p.name)
            ]
            vrows.append([name, ", ".join(diffs) or "(same as official)"])
        print_table(
            vrows, ["variant", "differs from official in (every other parameter as official)"],
            title="single-reading variants",
        )
    print()
    print("which text supports which reading (texts cited by language, in our words)")
    for p in PARAMETERS:
        print(f"\n  {p.name} [{p.rule_id}]: {p.question}")
        print(textwrap.fill(_metadata(p), width=100, initial_indent="    (", subsequent_indent="     ") + ")")
        for value, texts in p.support:
            head = f"    {format_value(value)}: "
            body = texts + f". Rulesets: {_users(p.name, value)}."
            print(textwrap.fill(body, width=100, initial_indent=head,
                                subsequent_indent=" " * len(head)))
    print()
    base = numbers(OFFICIAL)
    nrows = []
    for name, value in base.items():
        others = sorted(n for n, r in RULESETS.items() if numbers(r)[name] != value)
        note = f" (differs in {', '.join(others)})" if others else ""
        nrows.append([name, _fmt_number(name, value) + note])
    print_table(nrows, ["number", "value"], title="rule numbers (the same in every named ruleset)")


def _print_catalogue(cat: dict[str, Any] | str, chosen: list[Ruleset]) -> None:
    if isinstance(cat, str):
        print(cat)
        return
    rows = []
    for item in cat["rules"]:
        statement = item["statement"]
        if item["parameter"]:
            statement += f" [parameter {item['parameter']}]"
        rows.append([item["id"], textwrap.fill(statement, 60),
                     *(item["constraints"][r.name] for r in chosen)])
    print_table(
        rows, ["rule id", "rule (our words)", *(r.name for r in chosen)],
        title=f"rule catalogue: constraints per rule id in the Z3 model ({cat['players']} players; "
        "dummy-2p: 2)",
    )


def _print_beside(compared: dict[str, Any], chosen: list[Ruleset]) -> None:
    """Every key, each ruleset's value beside ``--vs``'s, a change marked with *."""
    from sushigo.spec.rulefile import describe_value

    vs = compared["vs"]
    rows = []
    for item in compared["keys"]:
        marks = [describe_value(item["key"], item["values"][r.name])
                 + (" *" if r.name in item["changed"] else "") for r in chosen]
        rows.append([item["key"], *marks, describe_value(item["key"], item["vs"])])
    names = ", ".join(r.name for r in chosen)
    print_table(rows, ["key", *(r.name for r in chosen), vs],
                title=f"{names} beside {vs} (* marks a value that differs from {vs})")
    changed = [item for item in compared["keys"] if item["changed"]]
    print()
    if not changed:
        print(f"no change from {vs}")
    for item in changed:
        print(f"changed: {item['key']} ({item['meaning']}): {describe_value(item['key'], item['vs'])} in "
              f"{vs}, " + "; ".join(f"{describe_value(item['key'], item['values'][n])} in {n}"
                                     for n in item["changed"]))


def _cards(items: list[dict[str, Any]]) -> str:
    return ", ".join(f"{c['card']} {c['copies']}" for c in items)


def _seats(pair: list[int]) -> str:
    return f"{pair[0]}-{pair[1]}" if pair[0] < pair[1] else f"{pair[0]}"


def _print_menu(menu: dict[str, Any]) -> None:
    """One menu's deck (``rules --game party --menu MENU``)."""
    rows = [[c["card"], c["copies"]] for c in menu["deck"]]
    total = sum(c["copies"] for c in menu["deck"])
    label = menu["name"] or ",".join(menu["kinds"])
    print_table(rows, ["card", "copies"], title=f"menu {label} ({', '.join(menu['kinds'])}; players "
                f"{_seats(menu['players'])}): the deck, {total} cards")
    print(textwrap.fill(f"desserts, kept aside: {_cards(menu['desserts'])}", 100))
    if "hand_size" in menu:
        print(f"hands of {menu['hand_size']}; desserts shuffled in before rounds 1 / 2 / 3: "
              + " / ".join(str(d) for d in menu["desserts_per_round"]))


def _print_party(doc: dict[str, Any]) -> None:
    """Sushi Go Party!'s table (:func:`sushigo.spec.party.menus.document`) as tables."""
    if doc.get("menu"):
        _print_menu(doc["menu"])
        return
    low, high = doc["players"]
    print(f"Sushi Go Party!: {low} to {high} players, {doc['rounds']} rounds; a menu is the nigiri, "
          + ", ".join(f"{n} {c}{'s' if n > 1 else ''}" for c, n in doc["courses"].items()))
    print()
    rows = [[n, doc["hand_sizes"][n], " / ".join(str(d) for d in doc["desserts_per_round"][n])]
            for n in doc["hand_sizes"]]
    print_table(rows, ["players", "hand size", "desserts shuffled in, rounds 1 / 2 / 3"],
                title="what the player count decides")
    print()
    rows = [[t["name"], t["course"], textwrap.fill(_cards(t["cards"]), 60), _seats(t["players"])]
            for t in doc["tiles"]]
    print_table(rows, ["tile", "course", "cards (copies)", "players"], title="menu tiles")
    print()
    rows = [[m["name"], ", ".join(m["kinds"]), _seats(m["players"])
             + (f" (works well with {_seats(m['works_well_with'])})" if m["works_well_with"] else "")]
            for m in doc["menus"]]
    print_table(rows, ["menu", "kinds (roll, appetizers, specials, dessert)", "players"],
                title="suggested menus (--menu NAME); 'works well with' is advice, not a limit")
    print()
    rows = [[u["name"] + (" (default)" if u["default"] else ""),
             " / ".join(str(u["copies"][k]) for k in ("uramaki3", "uramaki4", "uramaki5")), u["dealt_by"]]
            for u in doc["uramaki_splits"]]
    print_table(rows, ["uramaki split", "3 / 4 / 5 icons", "dealt so by"],
                title="the 12 uramaki by icons: the rulebook gives only the total")
    print()
    rows = [[k["tile"], textwrap.fill(k["scoring"], 60), k["when"], k["colour"], k["rule_id"]]
            for k in doc["kinds"]]
    print_table(rows, ["kind", "scoring (RB page)", "scores", "colour", "rule id"],
                title="the kinds, each stated once (spec/party/kinds.py)")
    print()
    print("open questions, each a reading (--rule NAME=VALUE; the default leans to the rulebook's text)")
    for r in doc["readings"]:
        chosen = "" if r["value"] == r["default"] else f"; chosen here: {r['value']}"
        print(f"\n  {r['name']} (default {r['default']}{chosen}): {r['question']}")
        for v in r["values"]:
            head = f"    {v['value']}: "
            print(textwrap.fill(v["read_by"], width=100, initial_indent=head,
                                subsequent_indent=" " * len(head)))


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.spec.errors import InputError
    from sushigo.spec.party.kinds import document as kinds_document
    from sushigo.spec.party.menus import document, parse_menu
    from sushigo.spec.party.readings import document as readings_document
    from sushigo.spec.party.readings import party_rules

    base_only = [flag for flag, given in (("RULESET", bool(args.rulesets)), ("--all", args.all),
                                          ("--catalogue", args.catalogue), ("--export", args.export),
                                          ("--vs", args.vs), ("--rules", args.rules)) if given]
    if base_only:
        raise InputError(f"{base_only[0]} is for the base game's rulesets; with --game party use "
                         "--menu and --players (or drop --game party)")
    if args.players is not None and args.menu is None:
        raise InputError("--players with --game party needs --menu (the player counts a menu allows)")
    rules = party_rules(list(args.rule))
    menu = parse_menu(args.menu, args.players, rules.uramaki_split) if args.menu is not None else None
    doc = document(menu, args.players)
    doc["kinds"] = kinds_document()
    doc["readings"] = readings_document(rules)
    if args.json:
        print_json(doc)
    else:
        _print_party(doc)
    return 0


def run(args: argparse.Namespace) -> int:
    from sushigo.api.rules import rules_outcome

    if args.game == "party":
        return _run_party(args)
    if args.menu is not None:
        from sushigo.spec.errors import InputError

        raise InputError("--menu is a Sushi Go Party! menu: add --game party")
    if args.players is None:
        args.players = 4

    if args.export is not None:
        from sushigo.api.rules import export_rules

        others = bool(args.rulesets or args.all or args.catalogue or args.json or args.rules)
        print(export_rules(args.export, list(args.rule), args=others), end="")
        return 0

    out = rules_outcome(list(args.rulesets), all=args.all, catalogue=args.catalogue, players=args.players,
                        rules=args.rules, rule=list(args.rule), vs=args.vs)
    if args.json:
        print_json(out.data)
        return out.code
    chosen, cat, compared = out.detail
    if args.catalogue:
        assert cat is not None
        _print_catalogue(cat, chosen)
        return out.code
    if compared is not None:
        _print_beside(compared, chosen)
        return out.code
    _print_readings(chosen, default_view=not (args.all or args.rulesets or args.rules or args.rule))
    print("\nrule catalogue (rule ids and the constraints encoding them): sushigo rules --catalogue")
    return out.code
