"""Sushi Go Party! (Gamewright 2016): 2 to 8 players, a menu of eight kinds from 22 tiles.

:mod:`.menus` holds the table of the game: the tiles and their cards, the suggested menus and
what the player count decides. :mod:`.kinds` states every kind once (cards, icons, colour,
scoring shape, timing, rule id); :mod:`.readings` makes every open question a parameter;
:mod:`.tableau` is the notation of a final tableau and :mod:`.scoring` scores rounds and games
from it; :mod:`.turns` plays a round given turn by turn (the kinds that act during a turn)."""
