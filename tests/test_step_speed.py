"""The step API's speed paths give exactly the answers of the reference path.

Expected values come from spec.turns.legal_turns/apply_turn on plain count vectors (the rules'
reference), also for whole games: every turn of seeded games is followed on count vectors.
"""

from __future__ import annotations

import random

import pytest
from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.options import FILL_AFTER, OptionTable
from sushigo.spec.engine.packed import BITS, DENSE, pack, pattern
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.game import Game, MutableGame
from sushigo.spec.ruleset import get_ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns

RULES = ["official", "wasabi-optional", "wasabi-strict", "pass-both-ways"]


@pytest.mark.parametrize("rules_name", RULES)
def test_every_plain_entry_filled_at_once_is_legal_turns(rules_name: str) -> None:
    """Without chopsticks the table builds its first FILL_AFTER misses one entry at a time, then
    fills all 4,096 sets of kinds of a free-wasabi state at once: each entry, built either way,
    lists legal_turns of a hand holding those kinds (once or twice: without chopsticks the count
    cannot matter), in order, and each change is apply_turn's."""
    rules = get_ruleset(rules_name)
    table = OptionTable(rules)  # a fresh table: the fill starts from an empty one
    for wasabi in (0, 1):
        tab = [0] * len(Token)
        tab[Token.WASABI] = wasabi
        for mask in range(1, 1 << len(Card)):
            hand = [(mask >> c & 1) * (1 + (mask >> (c + 1) & 1)) for c in range(len(Card))]
            found = table(pack(hand), pack(tab))
            kinds = sum(1 << (BITS * c) for c in range(len(Card)) if hand[c])
            assert found is table.plain[wasabi][kinds % DENSE]
            want = legal_turns(hand, tab, rules)
            assert list(found.turns) == want, (hand, wasabi)
            for turn, (dh, dt) in zip(found.turns, found.changes, strict=True):
                h, t = list(hand), list(tab)
                apply_turn(h, t, turn, rules)
                assert (pack(hand) + dh, pack(tab) + dt) == (pack(h), pack(t)), (hand, wasabi, turn)
    assert table._plain_misses > FILL_AFTER  # both ways were taken


@pytest.mark.parametrize("rules_name", RULES)
def test_chopsticks_entries_are_legal_turns(rules_name: str) -> None:
    """With chopsticks in the tableau an entry is cut by rows (the pairs of each kind held, by
    second kind held) where the state's pairs are listed by second kind, else from the pair list
    itself (optional wasabi with a free one: a first pick has two variants): either way, on
    random hands (kinds held once, twice or more, all 12 kinds possible) and every free wasabi
    count, the entry lists legal_turns of the hand in that tableau, in order."""
    rules = get_ruleset(rules_name)
    table = OptionTable(rules)
    rng = random.Random(len(rules_name))
    by_rows = set()
    for wasabi in (0, 1, 2, 3):
        tab = [0] * len(Token)
        tab[Token.WASABI], tab[Token.CHOPSTICKS] = wasabi, rng.choice((1, 2))
        by_rows.add(table.pieces(min(wasabi, 2), 1).rows is not None)
        for _ in range(300):
            hand = [rng.choice((0, 0, 0, 1, 1, 2, 3)) for _ in Card]
            found = table(pack(hand), pack(tab))
            assert list(found.turns) == legal_turns(hand, tab, rules), (hand, wasabi)
    # the official rules cut every state by rows; optional wasabi also takes the other way
    assert by_rows == ({True, False} if rules_name == "wasabi-optional" else {True})


def test_pattern_by_carries_is_the_spelled_out_pattern() -> None:
    """pattern() (and the look-ups inlined from it) finds the kinds held and held twice by adding
    0x7F / 0x7E to every field: the key spelled out from the counts (kinds held at bit 0 of their
    byte; with chopsticks, held twice at bit 1 and the free wasabi up to 2) for every count a
    deck allows (0..14) in random hands and tableaux."""
    rng = random.Random(2)
    for _ in range(3000):
        hand = [rng.choice((0, 0, 1, 1, 2, 3, rng.randrange(15))) for _ in Card]
        tab = [rng.randrange(4) for _ in Token]
        tab[Token.CHOPSTICKS] = rng.choice((0, 0, 1, 2))
        key = sum(1 << (BITS * c) for c in range(len(Card)) if hand[c] >= 1)
        if tab[Token.CHOPSTICKS]:
            key += sum(2 << (BITS * c) for c in range(len(Card)) if hand[c] >= 2)
            key += (min(tab[Token.WASABI], 2) | 256) << (BITS * len(Card))
        else:
            key += (tab[Token.WASABI] > 0) << (BITS * len(Card))
        assert pattern(pack(hand), pack(tab)) == key, (hand, tab)


def _offered(rng: random.Random, options: tuple[Turn, ...]) -> Turn:
    """A listed turn: mostly the very object (the unrolled landing), sometimes an equal copy
    or a chopsticks pair in the other order (both must take the general loop)."""
    turn = rng.choice(options)
    roll = rng.random()
    if roll < 0.1:
        return tuple(turn)
    if roll < 0.2 and len(turn) == 2:
        return (turn[1], turn[0])
    return turn


@pytest.mark.parametrize("rules_name", [*RULES, "maki-first-each"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_games_move_as_spec_turns_moves_them(players: int, rules_name: str) -> None:
    """Many seeded games, both faces, step by step against the reference on count vectors: the
    options are legal_turns of the hand in its tableau, every turn lands as apply_turn lands it,
    the hands pass by the ruleset's offset, a round scores as score_round of its tableaux, and a
    rejected turn (a card not held, at any seat) leaves the position as it was."""
    rules = get_ruleset(rules_name)
    rng = random.Random(players * 100 + len(rules_name))
    for seed in range(25):
        game: Game | MutableGame = (MutableGame if seed % 2 else Game).new(players, seed, rules)
        while not game.over:
            hands = [list(game.hand(s)) for s in range(players)]
            tabs = [list(game.tableau(s)) for s in range(players)]
            turns = []
            for s in range(players):
                assert list(game.legal_actions(s)) == legal_turns(hands[s], tabs[s], rules)
                turns.append(_offered(rng, game.legal_actions(s)))
            if rng.random() < 0.05:  # a card this seat does not hold: rejected, nothing changes
                bad = rng.randrange(players)
                missing = [c for c in Card if hands[bad][c] == 0]
                if missing:
                    wrong = list(turns)
                    wrong[bad] = (Pick(missing[0]),)
                    before = game.snapshot() if isinstance(game, MutableGame) else game
                    with pytest.raises(IllegalMoveError, match=f"player {bad} "):
                        game.step(wrong) if isinstance(game, MutableGame) else game.apply(wrong)
                    assert (game.snapshot() if isinstance(game, MutableGame) else game) == before
            for s in range(players):
                apply_turn(hands[s], tabs[s], turns[s], rules)
            round_index, last = game.round_index, game.turn + 1 == rules.hand_size(players)
            if isinstance(game, MutableGame):
                game.step(turns)
            else:
                game = game.apply(turns)
            if last:
                want = [r.total for r in score_round([Tableau(tuple(t)) for t in tabs], rules)]
                assert list(game.round_scores[-1]) == want
                continue
            offset = rules.pass_offset(round_index)
            for s in range(players):
                assert list(game.hand((s + offset) % players)) == hands[s]
                assert list(game.tableau(s)) == tabs[s]
