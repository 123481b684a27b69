"""The one engine: everything that advances a game of Sushi Go!.

* :mod:`~spec.engine.shuffle` - the one shuffle: a seed's deck and its policies' seed;
* :mod:`~spec.engine.seats` - who may play, what one ruleset and player count share, the deal;
* :mod:`~spec.engine.packed` - hands and tableaux as packed ints, the pattern of a hand;
* :mod:`~spec.engine.options` - the legal turns of every pattern and their effect (option tables);
* :mod:`~spec.engine.moves` - land a turn, pass the hands, score a round;
* :mod:`~spec.engine.position` - a position and the loop that advances it, to the game's end.

No rule is stated here: legal turns and their effect come from :mod:`spec.turns`, scores from
:mod:`spec.scoring`, every number from the :class:`~spec.ruleset.Ruleset`. The faces that drive
it: the step API (:mod:`spec.game`), the count-vector face with pushed deals and the dummy
(:mod:`spec.step`), and through them play_game, replay, OpenSpiel and PettingZoo.
"""
