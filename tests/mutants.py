"""Deliberately broken engines, to show that the conformance kit has teeth.

Loaded as a pytest plugin (``-p tests.mutants``) with ``PYRAMIDE_MUTANT`` naming one mutation;
``tests/kit/test_kit_mutations.py`` runs the kit against each and expects it to fail.
"""

from __future__ import annotations

import os

from service.engine import _moves, _play


def king_worth_nothing() -> None:
    """A King of the pyramid scores 0 instead of 10."""
    original = _moves.Action.points.fget

    def points(self):
        if len(self.removed) == 1 and self.removed[0][0].is_king:
            return 0
        return original(self)

    _moves.Action.points = property(points)


def recycle_reversed() -> None:
    """Recycling turns the waste over in reverse order."""
    original = _play._recycle

    def recycle(state):
        turn = original(state)
        return _play.Turn(turn.state.evolve(stock=tuple(reversed(turn.state.stock))), turn.events, turn.feedback)

    _play._recycle = recycle


def blocked_with_cards_in_stock() -> None:
    """The game is declared blocked as soon as nothing can be removed, stock or not."""
    original = _play.status_of

    def status_of(state):
        status = original(state)
        if status == "playing" and next(_play.removals(state), None) is None:
            return "blocked"
        return status

    _play.status_of = status_of


def undo_lowers_the_counter() -> None:
    """Undo takes one off the move counter."""
    original = _play._undo

    def undo(state):
        turn = original(state)
        return _play.Turn(turn.state.evolve(moves=max(0, turn.state.moves - 1)), turn.events, turn.feedback)

    _play._undo = undo


def drawn_card_pairs_with_waste() -> None:
    """The app's rules let the drawn card pair with the waste card it covers (the position's moves
    and the rules' sentence alike)."""
    _play.drawn_pairs_with_waste_now = lambda state: len(state.waste) > 1 and _play.top_just_drawn(state)


def sum_message_paraphrased() -> None:
    """«La suma debe ser igual a 13» paraphrased."""
    from service.locales import catalogue

    catalogue("es").messages["sum_not_13"] = "La suma tiene que ser 13"


MUTANTS = {
    function.__name__: function
    for function in (
        king_worth_nothing,
        recycle_reversed,
        blocked_with_cards_in_stock,
        undo_lowers_the_counter,
        drawn_card_pairs_with_waste,
        sum_message_paraphrased,
    )
}


def pytest_configure(config) -> None:
    MUTANTS[os.environ["PYRAMIDE_MUTANT"]]()
