"""Sushi Go Party!'s scores back to cards: the final tableaux behind a round score (issue 29 item 2).

Built on the Z3 round model (:class:`sushigo.spec.party.model.RoundModel`): its count variables,
its domain, its per-category point terms. What is added here:

- the deck per printed card (the model bounds the deck per tile), each tagged R-PARTY-DEAL;
- the tableau's size: exactly the hand size (RB p5: one card a turn), or at most it when the menu
  holds a kind that leaves a tableau short (two misos in a turn are discarded, RB p11; a used
  takeout box and a special order with nothing to copy are discarded, RB p14-15); ``cards=K``
  asks for exactly K cards a seat instead;
- the scope, the same for ``tableaux``, ``table`` and ``scoresheet --game party``: final tableaux of
  normal plays. A special order's copy and a takeout box's flipped cards are not listed, and no
  uramaki total reaches 10 (those are paid and discarded during the round, RB p9). On a menu
  with uramaki, special order or takeout box, a found table is a true one, but "no table" is
  only "none within the scope": it is reported unknown, with that reason (:func:`scope_gaps`).

A Z3 model is turned back into tableaux in the Party notation (:func:`seat_tableau`) and every
table found is scored again by the plain scorer (:func:`sushigo.spec.party.scoring.score_round`),
an independent path, before it is returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.model.budget import decide
from sushigo.spec.party.kinds import FLIPPED_RULE, KIND
from sushigo.spec.party.menus import Menu, desserts_per_round, hand_size
from sushigo.spec.party.model import RoundModel
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.scoring import check_round, score_round
from sushigo.spec.party.tableau import (
    SPECIAL,
    Item,
    Part,
    PartyTableau,
    canonical,
    format_party_tableau,
    kind_name,
)

if TYPE_CHECKING:
    import z3

#: Rule ids of the constraints that are no one kind's (spec/party/catalogue.py states them).
DEAL_RULE: Final = "R-PARTY-DEAL"
TURNS_RULE: Final = "R-PARTY-TURNS"

#: Kinds whose played cards may leave a final tableau short of the hand size.
DISCARDING: Final = ("miso", "takeout", SPECIAL, "uramaki")
#: Kinds whose effect on a final tableau lies outside the scope (module docstring).
OUTSIDE: Final = {"uramaki": "uramaki reaching 10 icons (paid during the round)",
                  SPECIAL: "special orders' copies", "takeout": "takeout boxes' flipped cards"}


def scope_gaps(menu: Menu) -> list[str]:
    """What of ``menu`` the scope leaves out (empty: a "no table" is a proof)."""
    return [why for kind, why in OUTSIDE.items() if kind in menu.kinds]


def _domain_rule(key: str) -> str:
    """The rule id of one of the round model's domain constraints (named in prose there)."""
    if key.startswith("deck:") or "within the deck" in key:
        return DEAL_RULE
    if "hand size" in key:
        return TURNS_RULE
    if "stacked nigiri" in key:
        return KIND["wasabi"].rule
    if "flipped" in key:
        return FLIPPED_RULE
    if "uramaki" in key:
        return KIND["uramaki"].rule
    for tile in KIND:
        if f"no {tile} in a final tableau" in key:
            return KIND[tile].rule
    raise AssertionError(f"a domain constraint without a rule id: {key!r}")


@dataclass
class PartyRound:
    """One round's variables and tagged constraints: ``tagged`` holds (rule id, constraint)."""

    model: RoundModel
    tagged: list[tuple[str, z3.BoolRef]] = field(default_factory=list)

    @property
    def menu(self) -> Menu:
        return self.model.menu

    @property
    def players(self) -> int:
        return self.model.players

    def total(self, s: int) -> z3.ArithRef:
        return self.model.total(s)

    def seat_vars(self, s: int) -> list[z3.ArithRef]:
        """Seat ``s``'s count variables: a tableau of the scope is exactly their values."""
        m = self.model
        return [x for t in self.menu.kinds for x in m.n[s][t]] + list(m.w[s])


def party_round(menu: Menu, players: int, rules: PartyRules = DEFAULT, *, cards: int | None = None,
                round_no: int = 1, prefix: str = "") -> PartyRound:
    """Round ``round_no``'s model for ``players`` seats within the scope (module docstring); the
    dessert deck of round 1 (the desserts shuffled in for later rounds are the caller's, who knows
    what earlier rounds kept)."""
    import z3

    model = RoundModel(menu, players, rules, prefix=prefix)
    out = PartyRound(model)
    dessert = menu.dessert.name
    for key, c in model.domain.items():
        if round_no > 1 and key.startswith(f"deck: {dessert} "):
            continue
        out.tagged.append((_domain_rule(key), c))
    tiles = {t.name: t for t in menu.tiles}
    for t in menu.kinds:
        for v, (_, copies) in enumerate(tiles[t].cards):
            out.tagged.append((DEAL_RULE, z3.Sum([model.n[s][t][v] for s in range(players)]) <= copies))
    hand = hand_size(players)
    short = any(k in menu.kinds for k in DISCARDING)
    for s in range(players):
        out.tagged += [("scope", model.c[s][t] == 0) for t in menu.kinds]
        out.tagged.append(("scope", model.f[s] == 0))
        size = model.cards(s)
        if cards is not None:
            out.tagged.append(("scope", size == cards))
        elif not short:
            out.tagged.append((TURNS_RULE, size == hand))
    return out


def dessert_limits(pr: Sequence[PartyRound]) -> list[tuple[str, z3.BoolRef]]:
    """The desserts each round can deal: those shuffled in by then less those kept earlier (RB p5, p7)."""
    import z3

    if not pr:
        return []
    dessert = pr[0].menu.dessert.name
    per_round = desserts_per_round(pr[0].players)
    kept = [z3.Sum([x for s in range(r.players) for x in r.model.n[s][dessert]]) for r in pr]
    return [(DEAL_RULE, z3.Sum(kept[:k + 1]) <= sum(per_round[:k + 1])) for k in range(len(pr))]


def seat_tableau(pr: PartyRound, m: z3.ModelRef, s: int) -> PartyTableau:
    """Seat ``s``'s tableau in ``m``: its cards, a stacked nigiri on a wasabi."""
    menu, model = pr.menu, pr.model

    def val(x: z3.ArithRef) -> int:
        return int(m.eval(x, model_completion=True).as_long())

    items: list[Item] = []
    wasabi: list[str] = []
    if "wasabi" in menu.kinds:
        for card, x in zip(KIND["wasabi"].cards, model.n[s]["wasabi"], strict=True):
            wasabi += [card] * val(x)
    for t in menu.kinds:
        if t == "wasabi":
            continue
        for v, (card, x) in enumerate(zip(KIND[t].cards, model.n[s][t], strict=True)):
            k = val(x)
            if t == "nigiri":
                for _ in range(val(model.w[s][v])):
                    items.append(Item(Part(card), Part(wasabi.pop())))
                    k -= 1
            items += [Item(Part(card))] * k
    items += [Item(Part(card)) for card in wasabi]
    return canonical(items)


def rescored(pr: PartyRound, table: Sequence[PartyTableau], want: Mapping[int, int], rules: PartyRules,
             round_no: int = 1, earlier_desserts: int = 0) -> tuple[dict[str, int], ...]:
    """The plain scorer's points for ``table``, which must give ``want`` (seat -> total): the
    independent check of every table the model finds."""
    check_round(table, pr.menu, round_no, earlier_desserts)
    points = score_round(table, pr.menu, rules).points
    for s, total in want.items():
        got = sum(points[s].values())
        if got != total:
            raise AssertionError(f"the round model and the scorer disagree: {list(table)} gives seat {s} "
                                 f"{got}, the model {total}")
    return points


@dataclass(frozen=True)
class Listing:
    """Tableaux found for one seat: ``count`` distinct ones (all of them when ``complete``), the
    first ``limit`` of them, each with a table that completes it."""

    count: int
    complete: bool
    tableaux: tuple[PartyTableau, ...]
    tables: tuple[tuple[PartyTableau, ...], ...]
    points: tuple[tuple[dict[str, int], ...], ...]
    unknown: str = ""  # the reason, when a call ran out of its budget


def _filters(pr: PartyRound, s: int, must: Sequence[PartyTableau], without: Sequence[str]
             ) -> list[z3.BoolRef]:
    model = pr.model
    out: list[z3.BoolRef] = []
    nigiri = KIND["nigiri"].cards
    for tableau in must:
        need: dict[tuple[str, int], int] = {}
        stacked: dict[int, int] = {}
        for item in tableau:
            for part in item.parts():
                if part.copy or part.flipped:
                    raise InputError(f"--must {item}: special orders and flipped cards are outside what "
                                     "tableaux --game party lists (docs/party.md)")
                need[_where(pr.menu, part.card)] = need.get(_where(pr.menu, part.card), 0) + 1
            if item.under is not None:
                v = nigiri.index(item.top.card)
                stacked[v] = stacked.get(v, 0) + 1
        out += [model.n[s][t][v] >= k for (t, v), k in need.items()]
        out += [model.w[s][v] >= k for v, k in stacked.items()]
    for word in without:
        head, plus, top = word.partition("+")
        if plus:
            t, v = _where(pr.menu, top)
            if t != "nigiri" or _where(pr.menu, head)[0] != "wasabi":
                raise InputError(f"--without {word}: a stack is a wasabi under a nigiri (wasabi+squid)")
            out.append(model.w[s][v] == 0)
        else:
            t, v = _where(pr.menu, head)
            out.append(model.n[s][t][v] == 0)
    return out


def _where(menu: Menu, card: str) -> tuple[str, int]:
    """(tile, card index) of a printed card on ``menu``, or one line naming the problem."""
    from sushigo.spec.party.tableau import card_named

    card = card_named(card, "--must/--without")
    tile = kind_name(card)
    if tile not in menu.kinds:
        raise InputError(f"{card} is not on the menu {menu.label} (its kinds: {', '.join(menu.kinds)})")
    cards = KIND[tile].cards
    if card not in cards:
        raise InputError(f"{card}: name the card with its corner number ({', '.join(cards)})")
    return tile, cards.index(card)


def enumerate_seat(menu: Menu, players: int, scores: Mapping[int, int], seat: int,
                   rules: PartyRules = DEFAULT, *, cards: int | None = None, limit: int | None = None,
                   cap: int | None = None, must: Sequence[PartyTableau] = (),
                   without: Sequence[str] = ()) -> Listing:
    """Every tableau of seat ``seat`` (within the scope) for which a table gives ``scores`` (seat ->
    round score; the seats not named score anything). Counts up to ``cap`` distinct tableaux
    (None: all); lists the first ``limit``. A call out of its budget ends the listing with
    ``unknown`` set (the count so far is a lower bound)."""
    return _enumerate(menu, players, scores, rules, cards=cards, limit=limit, cap=cap,
                      block=lambda pr: pr.seat_vars(seat), extra=lambda pr: _filters(pr, seat, must, without),
                      seat=seat)


def enumerate_tables(menu: Menu, players: int, scores: Sequence[int], rules: PartyRules = DEFAULT, *,
                     cards: int | None = None, limit: int | None = None, cap: int | None = None) -> Listing:
    """Every table (a tableau per seat, within the scope) giving exactly ``scores``; as
    :func:`enumerate_seat` with every seat's tableau told apart."""
    return _enumerate(menu, players, dict(enumerate(scores)), rules, cards=cards, limit=limit, cap=cap,
                      block=lambda pr: [x for s in range(players) for x in pr.seat_vars(s)],
                      extra=lambda pr: [], seat=None)


def _enumerate(menu: Menu, players: int, scores: Mapping[int, int], rules: PartyRules, *, cards: int | None,
               limit: int | None, cap: int | None, block: Callable[[PartyRound], list[z3.ArithRef]],
               extra: Callable[[PartyRound], list[z3.BoolRef]], seat: int | None) -> Listing:
    import z3

    pr = party_round(menu, players, rules, cards=cards)
    solver = z3.Solver()
    solver.add(*[c for _, c in pr.tagged], *extra(pr))
    solver.add(*[pr.total(s) == v for s, v in scores.items()])
    keys: list[z3.ArithRef] = block(pr)
    found: list[PartyTableau] = []
    tables: list[tuple[PartyTableau, ...]] = []
    points: list[tuple[dict[str, int], ...]] = []
    count = 0
    for answer in _answers(solver, keys, cap):
        if isinstance(answer, str):
            return Listing(count, False, tuple(found), tuple(tables), tuple(points), unknown=answer)
        count += 1
        if limit is None or len(found) < limit:
            table = tuple(seat_tableau(pr, answer, s) for s in range(players))
            pts = rescored(pr, table, scores, rules)
            found.append(table[seat] if seat is not None else table[0])
            tables.append(table)
            points.append(pts)
    complete = cap is None or count < cap
    order = sorted(range(len(found)), key=lambda k: format_party_tableau(found[k]))  # one order, any Z3
    return Listing(count, complete, tuple(found[k] for k in order), tuple(tables[k] for k in order),
                   tuple(points[k] for k in order))


def _answers(solver: z3.Solver, keys: Sequence[z3.ArithRef], cap: int | None
             ) -> Iterator[z3.ModelRef | str]:
    """Models of ``solver`` differing in ``keys``, each blocked once found; a string (the reason)
    when a call runs out of its budget, then nothing more."""
    import z3

    n = 0
    while cap is None or n < cap:
        answer = decide(solver)
        if answer.unknown:
            yield answer.reason
            return
        if not answer.sat:
            return
        m = solver.model()
        yield m
        n += 1
        solver.add(z3.Or([k != m.eval(k, model_completion=True) for k in keys]))


def first_table(pr: Sequence[PartyRound], extra: Sequence[z3.BoolRef] = ()) -> z3.ModelRef | None:
    """A model of every round's tagged constraints with ``extra`` (None: there is none; a budget
    spent raises :class:`BudgetSpent`)."""
    import z3

    solver = z3.Solver()
    solver.add(*[c for r in pr for _, c in r.tagged], *extra)
    answer = decide(solver)
    if answer.unknown:
        raise BudgetSpent.unknown(answer.reason, "the solver's budget (--timeout, --rlimit)")
    return solver.model() if answer.sat else None


__all__ = ["DEAL_RULE", "DISCARDING", "OUTSIDE", "TURNS_RULE", "Listing", "PartyRound", "dessert_limits",
           "enumerate_seat", "enumerate_tables", "first_table", "party_round", "rescored", "scope_gaps",
           "seat_tableau"]
