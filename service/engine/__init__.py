"""Pyramide's rules engine: pure, standard library only, usable without a server.

    >>> from service.engine import GameState, Move, DOCUMENTS_LAYOUT, play, describe
    >>> game = GameState.new(layout=DOCUMENTS_LAYOUT)
    >>> turn = play(game, Move.from_text("KD"))
    >>> turn.state.score, turn.state.moves
    (10, 1)
    >>> play(turn.state, Move.from_text("TC+3S")).state.score
    30
    >>> describe(game, "es")[:47]
    'Mazo: 23 cartas; descarte: 7 de diamantes. Fila'

Everything public is listed in ``__all__`` (``tests/engine/test_public_api.py`` pins it); the modules
behind it are private.
"""

from ._compiled import choose as _choose_core
from ._compiled import COMPILED as COMPILED_MODULES
from ._compiled import is_compiled as _is_compiled

_choose_core(__name__)  # the solver's core compiled (mypyc) where it was built, else its sources

from ._cards import ALL_CARDS, DECK, DECKS, RANKS, SUITS, Card, Deck  # noqa: E402
from ._codes import layout_code, parse_code, random_code, seed_code, shuffled_deck
from ._describe import card_name, describe
from ._documents import DOCUMENTS_LAYOUT
from ._errors import AppCodeError, IllegalMoveError, InvalidCodeError, InvalidMoveError, InvalidStateError, PyramideError
from ._layout import Layout
from ._moves import Action, Move
from ._outlook import foresee, outlook
from ._play import Event, Replay, Turn, legal_moves, play, replay, status_of, tap_order
from ._options import Option, Registry
from ._options import active as options_registry
from ._rules import PRESETS, VARIANT_LETTERS, Rules
from ._solver import Solution, hint, solve, solver_supports, winnable_deal
from ._state import MAX_LOG, GameState, parse_log
from ._status import BLOCKED, PLAYING, UNDO_LIMIT, WON


def core_compiled() -> bool:
    """Whether the solver's core runs compiled (mypyc, ``make compiled``) in this process: the
    same answers as its sources, faster (docs/solver.md, "The compiled core")."""
    return _is_compiled(__name__)


__all__ = [
    "ALL_CARDS",
    "BLOCKED",
    "COMPILED_MODULES",
    "DECK",
    "DECKS",
    "DOCUMENTS_LAYOUT",
    "MAX_LOG",
    "PLAYING",
    "PRESETS",
    "RANKS",
    "SUITS",
    "UNDO_LIMIT",
    "VARIANT_LETTERS",
    "WON",
    "Action",
    "AppCodeError",
    "Card",
    "Deck",
    "Event",
    "GameState",
    "IllegalMoveError",
    "InvalidCodeError",
    "InvalidMoveError",
    "InvalidStateError",
    "Layout",
    "Move",
    "Option",
    "PyramideError",
    "Registry",
    "Replay",
    "Rules",
    "Solution",
    "Turn",
    "card_name",
    "core_compiled",
    "describe",
    "foresee",
    "hint",
    "layout_code",
    "legal_moves",
    "options_registry",
    "outlook",
    "parse_log",
    "parse_code",
    "play",
    "random_code",
    "replay",
    "seed_code",
    "solve",
    "solver_supports",
    "shuffled_deck",
    "status_of",
    "tap_order",
    "winnable_deal",
]
