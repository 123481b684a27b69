"""The step API (spec.game.Game) against the reference rules of spec.turns and the old engine.

Expected values come from independent paths: legal_turns/apply_turn on plain count vectors,
the plain turn-by-turn loop of tests/plain_executor.py (which never uses the engine).
"""

from __future__ import annotations

import random

import plain_executor
import pytest
from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.options import option_table
from sushigo.spec.engine.packed import pack
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.executor import iter_game, play_game, replay
from sushigo.spec.game import Game
from sushigo.spec.policies import PlayerView
from sushigo.spec.ruleset import OFFICIAL, RULESETS
from sushigo.spec.turns import Pick, apply_turn, legal_turns

RULES = ["official", "wasabi-optional", "wasabi-strict", "pass-both-ways"]


@pytest.mark.parametrize("rules_name", RULES)
def test_option_table_lists_exactly_legal_turns(rules_name: str) -> None:
    """Random hands (counts up to 4) in random tableau states: same turns, same order, same effect."""
    rules = RULESETS[rules_name]
    table = option_table(rules)
    rng = random.Random(14)
    for _ in range(400):
        hand = [rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in Card]
        if not any(hand):
            hand[rng.randrange(len(Card))] = 1
        tab = [0] * len(Token)
        tab[Token.WASABI] = rng.choice((0, 0, 1, 2, 3))
        tab[Token.CHOPSTICKS] = rng.choice((0, 1, 1, 2))
        want = legal_turns(hand, tab, rules)
        got = table(pack(hand), pack(tab))
        assert list(got.turns) == want, (hand, tab)
        for turn, (dh, dt) in zip(got.turns, got.changes, strict=True):
            h, t = list(hand), list(tab)
            apply_turn(h, t, turn, rules)
            assert (pack(hand) + dh, pack(tab) + dt) == (pack(h), pack(t)), (hand, tab, turn)


def _states(players: int, seed: int, rules_name: str) -> list[Game]:
    rules = RULESETS[rules_name]
    game = Game.new(players, seed, rules)
    rng = random.Random(seed)
    out = [game]
    while not game.over:
        game = game.apply([rng.choice(game.legal_actions(s)) for s in range(players)])
        out.append(game)
    return out


@pytest.mark.parametrize("rules_name", RULES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_offers_legal_turns_of_its_hand(players: int, rules_name: str) -> None:
    rules = RULESETS[rules_name]
    for seed in range(3):
        for game in _states(players, seed, rules_name)[:-1]:
            for s in range(players):
                assert list(game.legal_actions(s)) == legal_turns(game.hand(s), game.tableau(s), rules)


@pytest.mark.parametrize("rules_name", RULES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_game_through_the_step_api_matches_the_turn_engine(players: int, rules_name: str) -> None:
    """play_game drives Game; the plain per-turn loop plays the same seed and re-executes the record."""
    rules = RULESETS[rules_name]
    for seed in range(4):
        for policies in (["random"], ["greedy"]):
            record = play_game(players, seed, rules, policies)
            final = list(plain_executor.iter_game(players, seed, rules, policies))[-1]
            assert tuple(r.scores for r in record.rounds) == final.scores
            assert plain_executor.replay_rounds(record) == list(record.rounds)
            assert list(iter_game(players, seed, rules, policies))[-1] == final
            assert replay(record).ok


def test_apply_leaves_the_old_position_unchanged() -> None:
    game = Game.new(3, 5)
    before = ([game.hand(s) for s in range(3)], [game.tableau(s) for s in range(3)], game.legal_actions(0))
    nxt = game.apply([game.legal_actions(s)[-1] for s in range(3)])
    assert ([game.hand(s) for s in range(3)], [game.tableau(s) for s in range(3)]) == before[:2]
    assert game.legal_actions(0) == before[2]
    assert (game.turn, nxt.turn) == (0, 1)
    # every seat took one card and passed: seat 1 now holds what is left of seat 0's hand
    assert sum(nxt.hand(1)) == sum(game.hand(0)) - 1


def test_a_game_ends_after_every_round_with_play_game_scores() -> None:
    game = _states(4, 9, "official")[-1]
    assert game.over and game.legal_actions(0) == ()
    assert len(game.round_scores) == OFFICIAL.rounds
    with pytest.raises(IllegalMoveError, match="over"):
        game.apply([()] * 4)


def test_random_driver_reproduces_play_game() -> None:
    """A driver that draws as RandomPolicy does, from policy_seed, plays play_game's game."""
    for players in (2, 5):
        for seed in range(5):
            game = Game.new(players, seed)
            rng = random.Random(game.policy_seed)
            while not game.over:
                acts = []
                for s in range(players):
                    opts = game.legal_actions(s)
                    acts.append(opts[0] if len(opts) == 1 else opts[int(rng.random() * len(opts))])
                game = game.apply(acts)
            record = play_game(players, seed)
            assert game.scores() == record.totals
            assert game.winners() == record.winners


def test_observation_is_the_player_view() -> None:
    """Every seat's observation at every position, asked in both seat orders (the fields the
    seats share are made once per position, for whichever seat asks first), equals the
    PlayerView built field by field from the position's own readers."""
    for players, seed in ((3, 2), (2, 5), (5, 1)):
        for game in _states(players, seed, "official"):
            if game.over:
                continue
            tabs = tuple(game.tableau(s) for s in range(players))
            kept = [sum(r[s][Token.PUDDING] for r in game.round_tableaux) for s in range(players)]
            order = range(players) if game.turn % 2 else reversed(range(players))
            for seat in order:
                view = game.observation(seat)
                want = PlayerView(
                    seat=seat, target=seat, players=players, round_index=game.round_index,
                    turn=game.turn, hand=game.hand(seat), tableaux=tabs,
                    puddings=tuple(kept[s] + tabs[s][Token.PUDDING] for s in range(players)),
                    scores=game.round_scores, rules=OFFICIAL,
                )
                assert view == want
                assert view.tableau == tabs[seat]


def test_illegal_and_equivalent_turns() -> None:
    game = Game.new(2, 3)
    missing = next(c for c in Card if game.hand(0)[c] == 0)
    ok = game.legal_actions(1)[0]
    with pytest.raises(IllegalMoveError, match=r"round 1, turn 1, player 0 .*\(R-PICK\)"):
        game.apply([(Pick(missing),), ok])
    two = [c for c in Card if game.hand(0)[c]][:2]
    with pytest.raises(IllegalMoveError, match="R-CHOPSTICKS-EARLIER"):
        game.apply([(Pick(two[0]), Pick(two[1])), ok])
    with pytest.raises(IllegalMoveError, match="one turn per player"):
        game.apply([ok])
    # an equal turn built by hand (not the listed object) lands the same way
    listed = game.legal_actions(0)[0]
    same = tuple(Pick(p.card, p.wasabi) for p in listed)
    assert game.apply([same, ok]) == game.apply([listed, ok])


def test_chopsticks_turn_in_either_order() -> None:
    """legal_actions lists one order of two picks; the other order is as legal and lands the same."""
    for seed in range(200):
        for game in _states(2, seed, "official"):
            if game.over:
                continue
            pairs = [t for t in game.legal_actions(0) if len(t) == 2 and t[0].card != t[1].card]
            wasabi_cards = {Card.WASABI, Card.EGG, Card.SALMON, Card.SQUID}
            plain = [p for p in pairs if not {t.card for t in p} & wasabi_cards]
            if plain:
                turn = plain[0]
                other = game.legal_actions(1)[0]
                a = game.apply([turn, other])
                b = game.apply([(turn[1], turn[0]), other])
                assert a == b
                return
    pytest.fail("no chopsticks turn in 200 games")


def test_fast_shuffle_is_random_shuffle() -> None:
    """Game.new's shuffle (raw words in one block) = random.Random(seed).shuffle, then the 64 bits
    drawn next, seed by seed, also when only the first ``keep`` cards are kept (what a game deals);
    the seeds whose shuffle outruns the block take the plain path."""
    from sushigo.spec.engine import shuffle as G

    base = [c for c in range(len(Card)) for _ in range(OFFICIAL.deck[c])]
    outran = 0
    for seed in range(4000):
        rng = random.Random(seed)
        want = list(base)
        rng.shuffle(want)
        policy_seed = rng.getrandbits(64)
        assert G.fast_shuffled_deck(base, seed) == (want, policy_seed), seed
        keep = (60, 90, 96, 105, 1, 107)[seed % 6]  # the cards 2..5 players deal; the edges
        assert G.fast_shuffled_deck(base, seed, keep) == (want[:keep], policy_seed), (seed, keep)
        words = random.Random(seed)
        draws = 2  # the policies' seed
        for i in range(len(base) - 1, 0, -1):
            draws += 1
            while words.getrandbits((i + 1).bit_length()) > i:
                draws += 1
        outran += draws > G._BLOCK
    assert outran > 0  # the fallback ran at least once (about 1 seed in 1,000)
    for seed in (-1, -(10**6), 2**64 + 3, 10**30, -(2**100)):  # negative and wide seeds too
        rng = random.Random(seed)
        want = list(base)
        rng.shuffle(want)
        assert G.fast_shuffled_deck(base, seed) == (want, rng.getrandbits(64)), seed
    for n in (2, 3, 50, 200, 255, 256, 300):  # other deck sizes (above 255 cards: the plain path)
        plain = G.shuffled_deck_of(list(range(n)), 9)[0]
        assert G.fast_shuffled_deck(list(range(n)), 9)[0] == plain
        assert G.fast_shuffled_deck(list(range(n)), 9, n // 2)[0] == plain[: n // 2]


def test_dummy_variant_is_refused() -> None:
    with pytest.raises(InputError, match="dummy-2p"):
        Game.new(2, 1, RULESETS["dummy-2p"])
    with pytest.raises(InputError, match="players"):
        Game.new(6, 1)


# --------------------------------------------------------------------------- the batch path


@pytest.mark.parametrize("rules_name", [*RULES, "maki-first-each", "pudding-penalty-2p"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_batch_path_plays_the_games_of_the_general_path(players: int, rules_name: str) -> None:
    """fast_random_games (numpy batch) = play_game with random policies, seed by seed, and = the
    one-game-at-a-time pure-Python path on many more seeds."""
    from sushigo.spec.executor import _python_random_games, fast_random_games

    rules = RULESETS[rules_name]
    fast = fast_random_games(players, 40, 10, rules, tableaux=True)
    for game in fast:
        record = play_game(players, game.seed, rules, ["random"])
        assert game.tableaux == tuple(tuple(t.counts for t in r.tableaux) for r in record.rounds)
        assert game.rounds == tuple(r.scores for r in record.rounds)
        assert (game.totals, game.winners, game.puddings) == (record.totals, record.winners, record.puddings)
    many = fast_random_games(players, 1000, 300, rules, tableaux=True)
    assert many == _python_random_games(players, range(1000, 1300), rules, True)


@pytest.mark.parametrize("rules_name", sorted(n for n, r in RULESETS.items() if not r.dummy_2p))
def test_batch_path_under_every_named_ruleset(rules_name: str) -> None:
    """Every named ruleset, 2..5 players: the batch path = the one-game-at-a-time path on 40 seeds
    and = play_game on 2 of them (the table above runs more seeds on fewer rulesets)."""
    from sushigo.spec.executor import _python_random_games, fast_random_games

    rules = RULESETS[rules_name]
    for players in range(rules.min_players, rules.max_players + 1):
        fast = fast_random_games(players, 77, 40, rules, tableaux=True)
        assert fast == _python_random_games(players, range(77, 117), rules, True)
        for game in fast[:2]:
            record = play_game(players, game.seed, rules, ["random"])
            assert (game.totals, game.winners) == (record.totals, record.winners)


def test_batch_path_deals_from_the_one_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch deals what the engine's shuffle gives, its plain fallback included: with a word
    block too short for any shuffle, every deck is drawn again by random.shuffle, same games."""
    import sushigo.spec.engine.shuffle as S
    from sushigo.spec.executor import _python_random_games, fast_random_games

    want = fast_random_games(3, 5, 20)
    assert want == _python_random_games(3, range(5, 25), OFFICIAL, False)
    monkeypatch.setattr(S, "_BLOCK", 60)
    assert fast_random_games(3, 5, 20) == want


def test_dummy_games_are_not_batched() -> None:
    from sushigo.spec.executor import fast_random_games

    rules = RULESETS["dummy-2p"]
    for game in fast_random_games(2, 3, 3, rules):
        assert game.totals == play_game(2, game.seed, rules, ["random"]).totals


@pytest.mark.parametrize("rules_name", sorted(RULESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_batch_scorer_is_round_totals(players: int, rules_name: str) -> None:
    """The batch path's vectorised round scoring = spec.scoring.round_totals, table by table: random
    tableaux, and tie-heavy ones (maki icon totals drawn from 0..2 so ties for most and for second
    are common, nigiri on wasabi, large dish counts)."""
    import numpy as np
    from sushigo.spec.batch import _Scorer
    from sushigo.spec.scoring import round_totals

    rules = RULESETS[rules_name]
    if rules.dummy_2p and players != 2:
        return
    most = players * 10
    scorer = _Scorer(rules, players, most)
    rng = random.Random(players * 100 + len(rules_name))
    tables = []
    for k in range(600):
        tie_heavy = k % 2 == 0
        table = []
        for _ in range(players):
            counts = [rng.choice((0, 0, 1, 2, 3, 4, 5, 7)) for _ in Token]
            if tie_heavy:
                counts[Token.MAKI1], counts[Token.MAKI2], counts[Token.MAKI3] = rng.choice(
                    ((0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 0, 0), (0, 0, 0)))
            table.append(counts)
        tables.append(table)
    got = scorer.totals(np.array(tables, dtype=np.int8)).tolist()
    for table, row in zip(tables, got, strict=True):
        assert row == round_totals(table, rules), table


class _Seat:
    """An int-like seat (as numpy's integers are): usable wherever a list index is."""

    def __init__(self, i: int) -> None:
        self.i = i

    def __index__(self) -> int:
        return self.i


@pytest.mark.parametrize("face", ["Game", "MutableGame"])
def test_a_seat_that_is_not_one_of_the_games_is_refused_by_name(face: str) -> None:
    """Seats are 0..players-1. A negative seat used to read another seat from the end (the view of
    observation(-1) even said seat=-1), and one past the end raised a bare IndexError."""
    from sushigo.spec.game import MutableGame

    game = (Game if face == "Game" else MutableGame).new(3, 11)
    asks = (game.legal_actions, game.observation, game.hand, game.tableau)
    for bad in (-1, -3, 3, 7, "0", 1.0, None):
        for ask in asks:
            with pytest.raises(IllegalMoveError, match=r"is not a player; seats are 0..2"):
                ask(bad)  # type: ignore[arg-type]
    # An int-like seat is the seat it stands for (the hands dealt: play_game's first round).
    dealt = play_game(3, 11).rounds[0].hands
    for seat in range(3):
        want = tuple(sum(1 for c in dealt[seat] if c == card) for card in Card)
        assert game.hand(_Seat(seat)) == want  # type: ignore[arg-type]
        assert game.observation(_Seat(seat)).hand == want  # type: ignore[arg-type]
        assert game.observation(_Seat(seat)).seat == seat  # type: ignore[arg-type]
        assert game.legal_actions(_Seat(seat)) == game.legal_actions(seat)  # type: ignore[arg-type]


def test_apply_refuses_what_is_not_a_list_of_turns_and_changes_nothing() -> None:
    game = Game.new(2, 4)
    before = (game.hand(0), game.hand(1), game.turn)
    for bad in (None, 5):
        with pytest.raises(IllegalMoveError, match=r"give a list of turns, one per player"):
            game.apply(bad)  # type: ignore[arg-type]
    ok = game.legal_actions(1)[0]
    for junk in ("tempura", ("tempura",), (0,), [Pick(Card.TEMPURA), "x"]):
        with pytest.raises(IllegalMoveError, match=r"player 0 gave .* which is not a turn"):
            game.apply([junk, ok])  # type: ignore[list-item]
    assert (game.hand(0), game.hand(1), game.turn) == before


def test_the_functional_step_api_refuses_the_same_inputs() -> None:
    """spec.step (under PettingZoo and OpenSpiel) names the seats the same way and refuses what
    is not a list of turns, or a dummy's card that is not a turn, instead of a TypeError."""
    from sushigo.spec.executor import seeded_deals
    from sushigo.spec.step import deal, gift_options, new_game, options, play

    step = deal(new_game(2, OFFICIAL), seeded_deals(OFFICIAL, 2, 3)[0])
    for bad in (-1, 2, "0", 0.0):
        with pytest.raises(IllegalMoveError, match=r"is not a player; seats are 0..1"):
            options(step, bad)  # type: ignore[arg-type]
    assert options(step, _Seat(1)) == options(step, 1)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"give a list of turns, one per player"):
        play(step, None)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"player 1 gave 'x', which is not a turn"):
        play(step, [options(step, 0)[0], "x"])  # type: ignore[list-item]
    dummy = RULESETS["dummy-2p"]
    step = deal(new_game(2, dummy), seeded_deals(dummy, 2, 3)[0])
    turns = [options(step, s)[0] for s in range(step.players)]
    gift = gift_options(step, turns[step.controller])[0]
    assert play(step, turns, gift).turn == 1
    for junk in (5, "squid", (Pick(Card.SQUID), 7)):
        with pytest.raises(IllegalMoveError, match=r"the dummy's card must be a turn of one pick"):
            play(step, turns, junk)  # type: ignore[arg-type]
