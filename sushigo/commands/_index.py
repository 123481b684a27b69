"""Every command's name and help line, in ``sushigo --help``'s order (each module's ``ORDER``,
then its name): the top-level help and the error naming a misspelt command read this table and
import no command module (start-up: importing all eighteen was most of ``sushigo --help``).

It repeats each module's ``HELP``; tests/test_startup.py fails when the two differ, and prints
the table as it should read.
"""

from __future__ import annotations

#: (command, its line in ``sushigo --help``), in help order.
COMMANDS: tuple[tuple[str, str], ...] = (
    ('rules', 'the rule parameters, their value in each named ruleset, and the texts behind them'),
    ('schema', 'list the JSON Schemas of the documents read and written, or print one'),
    ('score', 'score a round from tableaux, or a game from a JSON score document'),
    ('play', 'play games with the reference executor (random or greedy players)'),
    ('replay', 're-execute a game record, verify every step and score, name the first illegal step'),
    ('best', 'highest score reachable (a puzzle, a recorded round, or over all deals), proved'),
    ('tableaux', 'all tableaux of K cards that score exactly S'),
    ('table', "tables of tableaux that give every player's round score"),
    ('scoresheet', 'decide whether a scoresheet can come from a legal game'),
    ('diff', 'smallest situation where two rulesets disagree, or the proof that they agree'),
    ('balance', 'two rulesets side by side: maxima, smallest difference, per-card value over seeded games'),
    ('ladder', 'policies against each other in seat-rotated seeded games: win shares and '
               'Bradley-Terry ratings'),
    ('evaluate', "a bot's regret against exact play on seeded endgames, and its win shares against policies"),
    ('check', 'cross-check the executor against the Z3 model (Hypothesis), or run the mutants'),
    ('conform', "check another engine's scoring (an adapter module) against the reference"),
    ('endgame', 'solve the rest of a round exactly when every hand is known'),
    ('puzzle', 'endgame puzzles: find the one best first pick (not the greedy one)'),
    ('completion', 'print a shell completion script (bash, zsh or fish)'),
)
