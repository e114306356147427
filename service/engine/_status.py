"""How a game stands, and how far back undo reaches: what both the state and the rules of play name.

(Apart from ``_state`` so that ``_play`` needs nothing of it: a state is derived by replaying its
log through ``play``, in ``_state``, and ``play`` only reads the state it is given.)
"""

PLAYING, WON, BLOCKED = "playing", "won", "blocked"
#: «El botón Deshacer permite deshacer las 100 últimas acciones.»
UNDO_LIMIT = 100
