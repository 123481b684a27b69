"""Sushi Go Party! (Gamewright 2016): 2 to 8 players, a menu of eight kinds from 22 tiles.

:mod:`.menus` holds the table of the game: the tiles and their cards, the suggested menus and
what the player count decides. The kinds' scoring and turn rules are stated with the base
game's kinds (:mod:`sushigo.spec.kinds`)."""
